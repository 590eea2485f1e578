// Package statekey is the vocabulary in which the simulator's parts write
// their own state for the explorer's state merging (sim/race.StateKeys):
// the API server, a controller's machine and an informer's cache each
// have an EncodeState method that writes every field that can change what
// happens next, in a canonical order, through an Encoder. The key maker
// digests what is written; it never looks inside another package's types.
//
// Two states must be written the same exactly when they have the same
// future: everything written must be state, and every field of the state
// must be written (each package's tests check its struct's fields against
// its encoding, so a field added and forgotten fails them).
package statekey

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Encoder receives a state's canonical encoding. Every write is framed
// (a string carries its length), so a sequence of writes decodes one way.
type Encoder interface {
	// Int writes a number.
	Int(n int64)
	// Text writes a string that is not a controller's name. (A key taken
	// up to renaming controllers checks that no such string names one.)
	Text(s string)
	// Object writes a stored object (nil for none). Stored objects are
	// never mutated in place, so an encoder may remember what it learnt
	// of one by its address.
	Object(u *unstructured.Unstructured)
}

// Type tags: every value Value writes starts with one, so that values of
// different types never encode alike.
const (
	tagNil int64 = iota
	tagString
	tagBool
	tagInt64
	tagInt
	tagFloat64
	tagMap
	tagList
	tagOther
	tagError
	tagStatus
)

// Bool writes a boolean.
func Bool(e Encoder, b bool) {
	if b {
		e.Int(1)
	} else {
		e.Int(0)
	}
}

// Value writes a JSON value as unstructured objects and the scenario's
// mutations hold it (nil, string, bool, int64, float64, map[string]any,
// []any; an int stands for itself), its type included: int64(1) and
// float64(1) are different values. A map is written in key order.
func Value(e Encoder, v any) {
	switch v := v.(type) {
	case nil:
		e.Int(tagNil)
	case string:
		e.Int(tagString)
		e.Text(v)
	case bool:
		e.Int(tagBool)
		Bool(e, v)
	case int64:
		e.Int(tagInt64)
		e.Int(v)
	case int:
		e.Int(tagInt)
		e.Int(int64(v))
	case float64:
		e.Int(tagFloat64)
		e.Int(int64(math.Float64bits(v)))
	case map[string]any:
		e.Int(tagMap)
		e.Int(int64(len(v)))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e.Text(k)
			Value(e, v[k])
		}
	case []any:
		e.Int(tagList)
		e.Int(int64(len(v)))
		for _, x := range v {
			Value(e, x)
		}
	default:
		// No JSON decoder makes anything else; a value built in Go might
		// (an int32). Its type and Go syntax name it: deterministic for
		// plain data, which is all a scenario holds.
		e.Int(tagOther)
		e.Text(fmt.Sprintf("%T %#v", v, v))
	}
}

// Error writes an error a controller holds: its type, and for an API
// status error every field of the status (its reason, code, message and
// causes are what a controller's next move and the outcome read), or else
// its message.
func Error(e Encoder, err error) {
	if err == nil {
		e.Int(tagNil)
		return
	}
	if se, ok := err.(*apierrors.StatusError); ok {
		st := se.ErrStatus
		e.Int(tagStatus)
		e.Text(st.Kind)
		e.Text(st.APIVersion)
		// (SelfLink, deprecated, is never set.)
		e.Text(st.ResourceVersion)
		e.Text(st.Continue)
		if st.RemainingItemCount == nil {
			e.Int(-1)
		} else {
			e.Int(0)
			e.Int(*st.RemainingItemCount)
		}
		e.Text(st.Status)
		e.Text(st.Message)
		e.Text(string(st.Reason))
		e.Int(int64(st.Code))
		d := st.Details
		if d == nil {
			e.Int(-1)
			return
		}
		e.Int(int64(len(d.Causes)))
		e.Text(d.Name)
		e.Text(d.Group)
		e.Text(d.Kind)
		e.Text(string(d.UID))
		e.Int(int64(d.RetryAfterSeconds))
		for _, c := range d.Causes {
			e.Text(string(c.Type))
			e.Text(c.Message)
			e.Text(c.Field)
		}
		return
	}
	e.Int(tagError)
	e.Text(fmt.Sprintf("%T", err))
	e.Text(err.Error())
}

// Ref writes an object's reference.
func Ref(e Encoder, r api.Ref) {
	e.Text(string(r.Kind))
	e.Text(r.Namespace)
	e.Text(r.Name)
}

// Objects writes a store of objects by reference, in reference order.
func Objects(e Encoder, objs map[api.Ref]*unstructured.Unstructured) {
	refs := make([]api.Ref, 0, len(objs))
	for r := range objs {
		refs = append(refs, r)
	}
	slices.SortFunc(refs, compareRefs)
	e.Int(int64(len(refs)))
	for _, r := range refs {
		Ref(e, r)
		e.Object(objs[r])
	}
}

func compareRefs(a, b api.Ref) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}
