package controller

import "testing"

// TestDescribeWritesValuesAsTheFileDoes: a mutation's one-line description
// (the timeline's changes, lost fields, stale decisions) writes null and
// object values as a scenario file holds them, not as Go prints them.
func TestDescribeWritesValuesAsTheFileDoes(t *testing.T) {
	cond := map[string]any{"type": "Ready", "status": "True"}
	for _, tc := range []struct {
		mu   Mutation
		want string
	}{
		{Mutation{Op: Set, Path: mustPath("data.mode"), Value: "on"}, "set data.mode=on"},
		{Mutation{Op: Set, Path: mustPath("spec.size"), Value: int64(3)}, "set spec.size=3"},
		{Mutation{Op: Set, Path: mustPath("status.phase"), Value: nil}, "set status.phase=null"},
		{Mutation{Op: AddToSet, Path: mustPath("status.conditions"), Value: cond},
			`add {"status":"True","type":"Ready"} to status.conditions`},
		{Mutation{Op: Append, Path: mustPath("spec.items"), Value: []any{"a", int64(1)}}, `append ["a",1] to spec.items`},
		{Mutation{Op: Copy, Path: mustPath("status.message"), From: mustPath("metadata.name"),
			When: &Condition{Path: mustPath("status.phase"), Equals: nil}}, "set status.message from metadata.name if status.phase=null"},
		{Mutation{Op: AddToSet, Path: mustPath("metadata.finalizers"), Value: "example.com/keep"}, "add finalizer example.com/keep"},
		{Mutation{Op: Increment, Path: mustPath("data.count"), By: 1}, "set data.count=(value read)+1"},
	} {
		if got := tc.mu.Describe(); got != tc.want {
			t.Errorf("Describe = %q, want %q", got, tc.want)
		}
	}
}

func mustPath(s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}
