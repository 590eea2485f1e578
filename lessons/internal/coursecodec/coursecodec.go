// Package coursecodec writes a parsed lesson pack as compact bytes and
// reads it back, value for value. The built-in course is compiled into
// the binary this way (lessons/course.bin, made by `go generate
// ./lessons` from lessons/course), so that starting the tutorial decodes
// its values instead of parsing ~250 KB of YAML (30–50 ms, longer than
// the whole wait for the home screen).
//
// The encoding follows the Go types: a struct is its exported fields in
// order, a pointer, slice or map says whether it is nil (so nil and empty
// stay apart, as the parser made them), a map is written in key order
// (the bytes are a function of the value), an interface{} holds one of
// the types a parsed file holds (tagged), and a controller.Path is its
// text, parsed again. The bytes start with a digest of the types they
// were written for (Fingerprint), so that a change to the types changes
// the bytes: a test that compares the bytes with what the files give
// then fails until they are written again. Decode does not walk the types
// to compare it (that costs a fifth of decoding a course): bytes that do
// not fit the types fail to decode (truncated, bytes left over, an
// unknown tag) in all but freak cases, which that test catches.
package coursecodec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// magic starts every encoding.
const magic = "conflictlab course v1\n"

var pathType = reflect.TypeFor[controller.Path]()

// Tags of the dynamic types an interface{} may hold.
const (
	tagNil byte = iota
	tagString
	tagBool
	tagInt64
	tagFloat64
	tagInt
	tagMap
	tagList
)

var (
	mapType  = reflect.TypeFor[map[string]any]()
	listType = reflect.TypeFor[[]any]()
)

// Encode returns v's encoding; v is a pointer to the value.
func Encode(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("coursecodec: Encode wants a pointer, not %T", v)
	}
	e := &encoder{buf: []byte(magic)}
	e.buf = binary.LittleEndian.AppendUint64(e.buf, Fingerprint(rv.Type().Elem()))
	if err := e.value(rv.Elem()); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// Decode reads data, written by Encode for a value of the same type, into
// the value v points to. The strings decoded share data's memory (a
// course embedded in the binary is decoded without copying its text).
func Decode(data string, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("coursecodec: Decode wants a pointer, not %T", v)
	}
	if !strings.HasPrefix(data, magic) || len(data) < len(magic)+8 {
		return errors.New("coursecodec: not a course encoding")
	}
	d := &decoder{data: data[len(magic)+8:]}
	d.value(rv.Elem())
	if d.err == nil && len(d.data) > 0 {
		d.err = fmt.Errorf("coursecodec: %d bytes left over", len(d.data))
	}
	return d.err
}

// Fingerprint is a digest of t's shape: the kinds, names and fields of
// every type it reaches.
func Fingerprint(t reflect.Type) uint64 {
	if f, ok := fingerprints.Load(t); ok {
		return f.(uint64)
	}
	f := fingerprint(t)
	fingerprints.Store(t, f)
	return f
}

var fingerprints sync.Map // reflect.Type → uint64

func fingerprint(t reflect.Type) uint64 {
	h := fnv.New64a()
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for _, s := range []string{t.PkgPath(), " ", t.Name(), " ", t.Kind().String(), ";"} {
			h.Write([]byte(s))
		}
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			if t == pathType {
				return
			}
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() {
					h.Write([]byte(f.Name + ":"))
					walk(f.Type)
				}
			}
		}
	}
	walk(t)
	return h.Sum64()
}

type encoder struct{ buf []byte }

func (e *encoder) uint(n uint64) { e.buf = binary.AppendUvarint(e.buf, n) }
func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encoder) value(v reflect.Value) error {
	t := v.Type()
	switch t.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.buf = append(e.buf, 1)
		} else {
			e.buf = append(e.buf, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v.Float()))
	case reflect.String:
		e.str(v.String())
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, 0)
			return nil
		}
		e.buf = append(e.buf, 1)
		return e.value(v.Elem())
	case reflect.Struct:
		if t == pathType {
			// A path keeps its parsed form in unexported fields: it is
			// written as its text and parsed again.
			e.str(v.Interface().(controller.Path).String())
			return nil
		}
		for i := range t.NumField() {
			f := v.Field(i)
			if !t.Field(i).IsExported() {
				if !f.IsZero() {
					return fmt.Errorf("coursecodec: %s.%s is unexported and set", t, t.Field(i).Name)
				}
				continue
			}
			if err := e.value(f); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			e.uint(0)
			return nil
		}
		e.uint(uint64(v.Len()) + 1)
		if t.Elem().Kind() == reflect.Uint8 {
			e.buf = append(e.buf, v.Bytes()...)
			return nil
		}
		for i := range v.Len() {
			if err := e.value(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("coursecodec: map key %s: only string keys are written", t.Key())
		}
		if v.IsNil() {
			e.uint(0)
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		e.uint(uint64(len(keys)) + 1)
		for _, k := range keys {
			e.str(k.String())
			if err := e.value(v.MapIndex(k)); err != nil {
				return err
			}
		}
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return fmt.Errorf("coursecodec: cannot write a %s", t)
		}
		return e.dynamic(v)
	default:
		return fmt.Errorf("coursecodec: cannot write a %s", t)
	}
	return nil
}

// dynamic writes an interface{}'s value with its type's tag.
func (e *encoder) dynamic(v reflect.Value) error {
	if v.IsNil() {
		e.buf = append(e.buf, tagNil)
		return nil
	}
	x := v.Elem()
	var tag byte
	switch x.Type() {
	case reflect.TypeFor[string]():
		tag = tagString
	case reflect.TypeFor[bool]():
		tag = tagBool
	case reflect.TypeFor[int64]():
		tag = tagInt64
	case reflect.TypeFor[float64]():
		tag = tagFloat64
	case reflect.TypeFor[int]():
		tag = tagInt
	case mapType:
		tag = tagMap
	case listType:
		tag = tagList
	default:
		return fmt.Errorf("coursecodec: an interface{} holds a %s", x.Type())
	}
	e.buf = append(e.buf, tag)
	return e.value(x)
}

type decoder struct {
	data string
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("coursecodec: "+format, args...)
	}
	d.data = ""
}

func (d *decoder) byte() byte {
	if len(d.data) == 0 {
		d.fail("truncated")
		return 0
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b
}

// uint reads a uvarint (encoding/binary's, read from a string).
func (d *decoder) uint() uint64 {
	var n uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if len(d.data) == 0 {
			break
		}
		b := d.data[0]
		d.data = d.data[1:]
		n |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return n
		}
	}
	d.fail("truncated")
	return 0
}

// int reads a varint (zig-zag, as binary.AppendVarint writes it).
func (d *decoder) int() int64 {
	u := d.uint()
	n := int64(u >> 1)
	if u&1 != 0 {
		n = ^n
	}
	return n
}

func (d *decoder) bytes(n uint64) string {
	if uint64(len(d.data)) < n {
		d.fail("truncated")
		return ""
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

func (d *decoder) str() string { return d.bytes(d.uint()) }

func (d *decoder) float() float64 {
	b := d.bytes(8)
	if len(b) < 8 {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64([]byte(b)))
}

// length reads a nil-or-length: -1 for nil.
func (d *decoder) length() int {
	n := d.uint()
	if n > uint64(len(d.data))+1 {
		// Every element takes at least a byte.
		d.fail("a length of %d with %d bytes left", n-1, len(d.data))
		return -1
	}
	return int(n) - 1
}

func (d *decoder) value(v reflect.Value) { decodeFunc(v.Type())(d, v) }

// decodeFuncs caches a decoding function per type: worked out once, so
// that decoding a course spends its time on the values, not on
// reflecting over their types again for each one.
var decodeFuncs sync.Map // reflect.Type → func(*decoder, reflect.Value)

func decodeFunc(t reflect.Type) func(*decoder, reflect.Value) {
	if f, ok := decodeFuncs.Load(t); ok {
		return f.(func(*decoder, reflect.Value))
	}
	// A recursive type reaches itself while its function is being made:
	// it then finds this indirection, filled in below.
	var f func(*decoder, reflect.Value)
	decodeFuncs.Store(t, func(d *decoder, v reflect.Value) { f(d, v) })
	f = makeDecodeFunc(t)
	decodeFuncs.Store(t, f)
	return f
}

func makeDecodeFunc(t reflect.Type) func(*decoder, reflect.Value) {
	switch t.Kind() {
	case reflect.Bool:
		return func(d *decoder, v reflect.Value) { v.SetBool(d.byte() != 0) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(d *decoder, v reflect.Value) { v.SetInt(d.int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(d *decoder, v reflect.Value) { v.SetUint(d.uint()) }
	case reflect.Float32, reflect.Float64:
		return func(d *decoder, v reflect.Value) { v.SetFloat(d.float()) }
	case reflect.String:
		return func(d *decoder, v reflect.Value) { v.SetString(d.str()) }
	case reflect.Pointer:
		elem := t.Elem()
		return func(d *decoder, v reflect.Value) {
			if d.byte() == 0 {
				return
			}
			p := reflect.New(elem)
			decodeFunc(elem)(d, p.Elem())
			v.Set(p)
		}
	case reflect.Struct:
		if t == pathType {
			return func(d *decoder, v reflect.Value) {
				text := d.str()
				if text == "" {
					return // the zero path
				}
				p, err := controller.ParsePath(text)
				if err != nil {
					d.fail("%v", err)
					return
				}
				// Through its address: boxing p in a reflect.Value would
				// allocate it once more.
				*v.Addr().Interface().(*controller.Path) = p
			}
		}
		var fields []int
		var funcs []func(*decoder, reflect.Value)
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				fields = append(fields, i)
				funcs = append(funcs, decodeFunc(f.Type))
			}
		}
		return func(d *decoder, v reflect.Value) {
			for j, i := range fields {
				if d.err != nil {
					return
				}
				funcs[j](d, v.Field(i))
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return func(d *decoder, v reflect.Value) {
				if n := d.length(); n >= 0 {
					v.SetBytes([]byte(d.bytes(uint64(n))))
				}
			}
		}
		elem := decodeFunc(t.Elem())
		return func(d *decoder, v reflect.Value) {
			n := d.length()
			if n < 0 {
				return
			}
			s := reflect.MakeSlice(t, n, n)
			for i := range n {
				elem(d, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Map:
		key, elem := t.Key(), t.Elem()
		elemFunc := decodeFunc(elem)
		return func(d *decoder, v reflect.Value) {
			n := d.length()
			if n < 0 {
				return
			}
			m := reflect.MakeMapWithSize(t, n)
			k := reflect.New(key).Elem()
			e := reflect.New(elem).Elem()
			for range n {
				k.SetString(d.str())
				e.SetZero()
				elemFunc(d, e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface:
		return func(d *decoder, v reflect.Value) {
			if x := d.dynamic(); x != nil {
				v.Set(reflect.ValueOf(x))
			}
		}
	}
	return func(d *decoder, v reflect.Value) { d.fail("cannot read a %s", t) }
}

// dynamic reads an interface{}'s value: the JSON-like values of a parsed
// file decode without reflection, as most of a course's values are.
func (d *decoder) dynamic() any {
	switch tag := d.byte(); tag {
	case tagNil:
		return nil
	case tagString:
		return d.str()
	case tagBool:
		return d.byte() != 0
	case tagInt64:
		return d.int()
	case tagFloat64:
		return d.float()
	case tagInt:
		return int(d.int())
	case tagMap:
		n := d.length()
		if n < 0 {
			return map[string]any(nil)
		}
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.dynamic()
		}
		return m
	case tagList:
		n := d.length()
		if n < 0 {
			return []any(nil)
		}
		l := make([]any, n)
		for i := range l {
			l[i] = d.dynamic()
		}
		return l
	default:
		d.fail("unknown tag %d", tag)
		return nil
	}
}
