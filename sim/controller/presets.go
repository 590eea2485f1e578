package controller

import (
	"fmt"
	"strings"
	"time"
)

// RetryPreset is a retry policy with a name and what it does, in a
// sentence. The presets sit next to the policy they configure, as
// client-go keeps retry.DefaultRetry beside RetryOnConflict: lessons name
// them in a strategy, the sandbox offers them, the docs list them — one
// table, so the three cannot drift.
type RetryPreset struct {
	Name    string
	Explain string
	Policy  RetryPolicy
}

// RetryPresets are the named retry policies, in the order they are offered.
var RetryPresets = []RetryPreset{
	{"none", "one attempt: an error ends the reconcile", NoRetry()},
	{"default", "client-go's retry.RetryOnConflict with DefaultRetry: 5 calls in all, only on a Conflict (a 409 for AlreadyExists is not one), re-reading live, 10ms apart", DefaultRetry()},
	{"reread-lister", "5 calls on Conflict, re-reading the Lister: often the same stale copy", withReread(DefaultRetry(), FromLister)},
	{"no-reread", "5 calls on Conflict with the copy already in hand: every retry is as stale", withReread(DefaultRetry(), RereadNone)},
	{"any-error", "5 calls on any error, re-reading live: a 422 does not get better by asking", withOn(DefaultRetry(), OnAnyError)},
	{"test-failed", "retry.OnError(DefaultRetry, a causeless 422): what a failed JSON patch test gets, retried 5 calls at most — a broken patch answers the same 422", withOn(DefaultRetry(), OnTestFailed)},
	{"unbounded", "retry on Conflict without a limit, re-reading live, 10ms apart; the race's step budget ends it", RetryPolicy{Unbounded: true, On: OnConflict, Reread: FromLive, Backoff: 10 * time.Millisecond}},
}

func withReread(r RetryPolicy, s ReadSource) RetryPolicy { r.Reread = s; return r }
func withOn(r RetryPolicy, on RetryOn) RetryPolicy       { r.On = on; return r }

// RetryPresetNamed returns the preset of that name, or an error that lists
// the names.
func RetryPresetNamed(name string) (RetryPolicy, error) {
	for _, p := range RetryPresets {
		if p.Name == name {
			return p.Policy, nil
		}
	}
	names := make([]string, len(RetryPresets))
	for i, p := range RetryPresets {
		names[i] = p.Name
	}
	return RetryPolicy{}, fmt.Errorf("retry %q: want one of %s", name, strings.Join(names, ", "))
}

// RetryPresetOf names a policy by its preset; false when it is none of
// them.
func RetryPresetOf(r RetryPolicy) (string, bool) {
	for _, p := range RetryPresets {
		if p.Policy == r {
			return p.Name, true
		}
	}
	return "", false
}
