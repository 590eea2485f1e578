package apiserver_test

import (
	"errors"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestApplyConflictCausesInOneOrder: an apply that conflicts with two
// managers lists the causes in one order, every time: the real server's
// order follows Go's randomised map iteration inside structured-merge-diff,
// and a simulator answer must be a function of the request. The order is
// the message's (managers sorted), and each cause still names its manager
// and field.
func TestApplyConflictCausesInOneOrder(t *testing.T) {
	var first []metav1.StatusCause
	for i := 0; i < 40; i++ {
		s := newServer()
		for _, setup := range []struct{ manager, body string }{
			{"zeta", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {p: \"1\"}\n"},
			{"alpha", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {q: \"1\"}\n"},
		} {
			if resp := s.Do(applyReq(cmRef("cm1"), setup.manager, false, setup.body)); resp.Err != nil {
				t.Fatalf("%s's apply: %v", setup.manager, resp.Err)
			}
		}
		resp := s.Do(applyReq(cmRef("cm1"), "mid", false, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {p: \"2\", q: \"2\"}\n"))
		var se *apierrors.StatusError
		if !errors.As(resp.Err, &se) || se.ErrStatus.Code != 409 || se.ErrStatus.Details == nil {
			t.Fatalf("want a 409 with details, got %v", resp.Err)
		}
		causes := se.ErrStatus.Details.Causes
		if first == nil {
			first = causes
			want := []metav1.StatusCause{
				{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "alpha"`, Field: ".data.q"},
				{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "zeta"`, Field: ".data.p"},
			}
			if !slices.Equal(causes, want) {
				t.Fatalf("causes %+v, want %+v (the message's order: %q)", causes, want, se.ErrStatus.Message)
			}
			continue
		}
		if !slices.Equal(causes, first) {
			t.Fatalf("request %d listed the causes as %+v, the first as %+v", i, causes, first)
		}
	}
}
