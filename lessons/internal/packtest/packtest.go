// Package packtest holds what the lesson packages' tests share.
package packtest

import (
	"strings"
	"testing"
)

// WantProblem fails t unless err is a problem whose text has every one of
// parts.
func WantProblem(t testing.TB, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no problem reported; want one with %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("want %q in:\n%v", p, err)
		}
	}
}
