// Package statekeytest checks that a state's encoding (an EncodeState
// method, sim/statekey) covers every field of its struct: the test that
// fails when a field is added to the state and not to its encoding.
package statekeytest

import (
	"reflect"
	"testing"

	"github.com/conflictlab/conflictlab/sim/statekey"
)

// Field says what one field of a state struct is to its encoding.
type Field[T any] struct {
	// Change changes the field in a fresh base state.
	Change func(*T)
	// NotState, when set, says why the encoding leaves the field out:
	// changing it must then leave the encoding as it was.
	NotState string
}

// Fields checks every field of T against fields: each must be listed;
// changing one that is state (Change on a fresh base()) must change what
// encode writes, and changing one that is not must not.
func Fields[T any](t testing.TB, base func() *T, encode func(*T, statekey.Encoder), fields map[string]Field[T]) {
	t.Helper()
	typ := reflect.TypeFor[T]()
	declared := map[string]bool{}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		declared[name] = true
		f, ok := fields[name]
		if !ok {
			t.Errorf("%s.%s is not in the encoding's field test: write it in EncodeState and give it a Change here, or say why it is not state", typ, name)
			continue
		}
		if f.Change == nil {
			t.Errorf("%s.%s: no Change", typ, name)
			continue
		}
		before := statekey.Encode(func(e statekey.Encoder) { encode(base(), e) })
		s := base()
		f.Change(s)
		after := statekey.Encode(func(e statekey.Encoder) { encode(s, e) })
		switch {
		case f.NotState == "" && after == before:
			t.Errorf("%s.%s: changing it leaves the encoding as it was: EncodeState does not write it", typ, name)
		case f.NotState != "" && after != before:
			t.Errorf("%s.%s is listed as not state (%s), but changing it changes the encoding", typ, name, f.NotState)
		}
	}
	for name := range fields {
		if !declared[name] {
			t.Errorf("%s has no field %s", typ, name)
		}
	}
}
