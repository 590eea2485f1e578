package controller

import (
	"math"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestIncrementOverflow: a counter that would wrap past 2⁶³−1 (or below
// −2⁶³) stops with an error naming the field, whether it is kept as a
// number (a Widget's spec.size) or as a decimal string (ConfigMap data);
// the object is left as it was. Within range, it adds.
func TestIncrementOverflow(t *testing.T) {
	widget := func(size any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"size": size}}}
	}
	cm := func(count string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{"count": count}}}
	}
	for _, c := range []struct {
		obj  *unstructured.Unstructured
		path string
		by   int64
		want string // "" for no error
		got  any
	}{
		{widget(int64(math.MaxInt64)), "spec.size", 1, "9223372036854775807 + 1 does not fit in a 64-bit integer", int64(math.MaxInt64)},
		{widget(int64(math.MinInt64)), "spec.size", -1, "-9223372036854775808 + -1 does not fit", int64(math.MinInt64)},
		{widget(float64(1e19)), "spec.size", 1, "does not fit in a 64-bit integer", float64(1e19)},
		{cm("9223372036854775807"), "data.count", math.MaxInt64, "9223372036854775807 + 9223372036854775807 does not fit", "9223372036854775807"},
		{widget(int64(math.MaxInt64 - 1)), "spec.size", 1, "", int64(math.MaxInt64)},
		{cm("-5"), "data.count", 7, "", "2"},
	} {
		err := (Mutation{Op: Increment, Path: MustPath(c.path), By: c.by}).Apply(c.obj.Object)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s += %d: %v", c.path, c.by, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "increment "+c.path)):
			t.Errorf("%s += %d: error %v, want %q", c.path, c.by, err, c.want)
		}
		if got, _ := MustPath(c.path).Get(c.obj.Object); got != c.got {
			t.Errorf("%s += %d: the field is %#v, want %#v", c.path, c.by, got, c.got)
		}
	}
}
