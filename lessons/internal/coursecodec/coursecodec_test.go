package coursecodec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
)

type inner struct {
	Name string
	N    int64
}

type sample struct {
	S       string
	B       bool
	I       int
	U       uint16
	F       float64
	P       *inner
	NilP    *inner
	L       []inner
	NilL    []string
	EmptyL  []string
	M       map[string]*inner
	NilM    map[string]int
	EmptyM  map[string]int
	Any     any
	Obj     map[string]any
	Path    controller.Path
	NoPath  controller.Path
	Bytes   []byte
	private int // left alone: unexported, and zero
}

func full() *sample {
	return &sample{
		S: "héllo", B: true, I: -7, U: 65535, F: 1.5,
		P: &inner{"p", 1}, L: []inner{{"a", 2}, {"", 0}}, EmptyL: []string{},
		M: map[string]*inner{"z": {"z", 26}, "a": nil}, EmptyM: map[string]int{},
		Any: int64(3),
		Obj: map[string]any{"s": "x", "i": int64(1), "f": 2.5, "n": nil, "t": true, "int": 4,
			"m": map[string]any{}, "nilm": map[string]any(nil), "l": []any{"a", int64(1), []any{}}},
		Path:  controller.MustPath(`spec.template.spec.containers[name=app].image`),
		Bytes: []byte{0, 1, 2},
	}
}

// TestRoundTrip: a value comes back equal, nil and empty apart, every
// dynamic type as it was, a path parsed again; the bytes are the same on
// every encoding (maps in key order).
func TestRoundTrip(t *testing.T) {
	in := full()
	data, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		again, err := Encode(full())
		if err != nil || string(again) != string(data) {
			t.Fatal("two encodings of one value differ")
		}
	}
	var out sample
	if err := Decode(string(data), &out); err != nil {
		t.Fatal(err)
	}
	if out.private != 0 || !reflect.DeepEqual(&out, in) {
		t.Errorf("decoded\n%#v\nwant\n%#v", out, *in)
	}
	if out.EmptyL == nil || out.NilL != nil || out.EmptyM == nil || out.NilM != nil || out.NilP != nil {
		t.Error("nil and empty were not kept apart")
	}
}

// TestRefusals: what it cannot write faithfully it refuses, and bytes
// that do not fit are errors, not garbage.
func TestRefusals(t *testing.T) {
	if _, err := Encode(&struct{ private int }{1}); err == nil {
		t.Error("an unexported field that is set was written")
	}
	if _, err := Encode(&struct{ X any }{int32(1)}); err == nil {
		t.Error("an interface{} holding an int32 was written")
	}
	if _, err := Encode(&struct{ M map[int]string }{}); err == nil {
		t.Error("a map with int keys was written")
	}
	data, err := Encode(full())
	if err != nil {
		t.Fatal(err)
	}
	var out sample
	for _, bad := range []string{"", "nonsense", string(data[:len(data)-3]), string(data) + "x"} {
		if err := Decode(bad, &out); err == nil {
			t.Errorf("%d bytes decoded without an error", len(bad))
		}
	}
	// The same bytes for a type with one more field do not decode.
	var wider struct {
		sample
		Extra string
	}
	if err := Decode(string(data), &wider); err == nil || !strings.Contains(err.Error(), "coursecodec") {
		t.Errorf("bytes for another type decoded: %v", err)
	}
	if Fingerprint(reflect.TypeOf(wider)) == Fingerprint(reflect.TypeOf(out)) {
		t.Error("two shapes have one fingerprint")
	}
}
