package race

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// explainOwnLosses revisits the intents of the write at step whose own
// answer did not show them (recordIntents), for two cases where the first
// explanation was wrong:
//
//   - managedFields set to [], which the server answers by dropping them
//     all: the object then has none, which is what was asked;
//   - a field the server defaulted: the write removed (or emptied) a field
//     the API server fills in when it is left out. Nothing was lost to a
//     race: the intent is reported as overwritten by the server, with the
//     value it got, and does not make the run "lost";
//   - an increment computed from a live read that still did not add up:
//     not a stale read but a number above 2^53 that the request builder
//     passed through a float64 (a merge patch made conditional is decoded
//     and encoded again to add the resourceVersion), which rounds the
//     increment away.
func (t *trace) explainOwnLosses(a *actor, req api.Request, held, before, after *unstructured.Unstructured, step int) {
	for i := len(t.intents) - 1; i >= 0 && t.intents[i].step == step; i-- {
		in := &t.intents[i]
		if in.lost == nil || in.actor != a.name {
			continue
		}
		if in.mutation.Op == controller.Increment {
			if c, ok := roundedIncrement(a.name, req, in.mutation, held, before); ok {
				in.lost.Cause = c
			}
			continue
		}
		if in.lost.Cause.Kind.ignored() {
			continue
		}
		if managedFieldsReset(in.mutation, after) {
			l := *in.lost
			l.ErasedBy = "server"
			l.Cause = LossCause{Kind: CauseManagedFieldsReset, Value: compactJSON(in.mutation.Value)}
			in.lost, in.overwrite = nil, &l
			continue
		}
		if v, ok := defaultedBack(a.machine.Program().Target.Kind, in.mutation, after); ok {
			l := *in.lost
			l.ErasedBy = "server"
			l.Cause = LossCause{Kind: CauseDefaulted, Value: compactJSON(v)}
			in.lost, in.overwrite = nil, &l
		}
	}
}

// managedFieldsReset: the write set metadata.managedFields to an empty
// list, or to one empty entry, and the object has none: what the field
// manager does with that request (isResetManagedFields), not a loss.
func managedFieldsReset(mu controller.Mutation, obj *unstructured.Unstructured) bool {
	if mu.Op != controller.Set || mu.Path.String() != "metadata.managedFields" {
		return false
	}
	l, ok := mu.Value.([]any)
	if !ok || len(l) > 1 {
		return false
	}
	if len(l) == 1 {
		if e, ok := l[0].(map[string]any); !ok || len(e) != 0 {
			return false
		}
	}
	return len(obj.GetManagedFields()) == 0
}

// defaultedBack reports whether the server's defaulting explains why obj
// does not show mu: applying mu to obj and defaulting the result gives
// back the value obj has.
func defaultedBack(k api.Kind, mu controller.Mutation, obj *unstructured.Unstructured) (any, bool) {
	desired := runtime.DeepCopyJSON(obj.Object)
	if err := mu.Apply(desired); err != nil {
		return nil, false
	}
	defaulted, err := apiserver.Defaulted(k, desired)
	if err != nil || mu.Satisfied(defaulted) {
		return nil, false
	}
	got, ok := mu.Path.Get(obj.Object)
	again, ok2 := mu.Path.Get(defaulted)
	if !ok || !ok2 || !reflect.DeepEqual(got, again) {
		return nil, false
	}
	return got, true
}

// exactFloat is 2^53: every integer up to it is exact as a float64.
const exactFloat = 1 << 53

// roundedIncrement explains an increment that a write computed from the
// version the server held (so no stale read) and that still did not add
// up, when the number was past 2^53; ok is false otherwise.
func roundedIncrement(actor string, req api.Request, mu controller.Mutation, held, before *unstructured.Unstructured) (LossCause, bool) {
	if held == nil || before == nil || held.GetResourceVersion() != before.GetResourceVersion() {
		return LossCause{}, false // a stale read: the first explanation stands
	}
	read, _ := mu.CounterValue(held.Object)
	want := read + mu.By
	if abs(read) <= exactFloat && abs(want) <= exactFloat {
		return LossCause{}, false
	}
	c := LossCause{Kind: CauseRoundedIncrement, Actor: actor, HeldRV: held.GetResourceVersion(), Read: read, Computed: want}
	if v, ok := bodyValue(req.Body, mu.Path); ok {
		c.Value = v
	}
	return c, true
}

// bodyValue finds the path in a JSON object body, numbers exactly as sent.
func bodyValue(body []byte, p controller.Path) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil {
		return "", false
	}
	v, ok := p.Get(m)
	if !ok {
		return "", false
	}
	if n, isNum := v.(json.Number); isNum {
		return n.String(), true
	}
	return strconv.Quote(fmt.Sprint(v)), true
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
