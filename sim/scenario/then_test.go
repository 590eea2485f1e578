package scenario

import (
	"errors"
	"strings"
	"testing"
)

// TestThen: a controller's `then` reads into the program, writes back as
// it was, and is refused where it means nothing.
func TestThen(t *testing.T) {
	data := ctrl(
		"- name: a",
		"  target: ConfigMap/cm1",
		"  mutations: [{set: {path: data.x, value: a}}]",
		"  write: update",
		"  then:",
		"    mutations: [{set: {path: data.y, value: b}}]",
		"- name: u",
		"  target: ConfigMap/cm1",
		"  mutations: [{set: {path: data.x, value: a}}]",
		"  write: update",
		"  then: {}",
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	a, u := sc.Controllers[0].Program.Then, sc.Controllers[1].Program.Then
	if a == nil || len(a.Mutations) != 1 || a.Mutations[0].Path.String() != "data.y" || u == nil || len(u.Mutations) != 0 {
		t.Fatalf("then read as %+v, %+v", a, u)
	}
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(out), "then:") != 2 {
		t.Fatalf("marshalled:\n%s", out)
	}
	again, err := Parse("again.yaml", out)
	if err != nil {
		t.Fatalf("round trip: %v\n%s", err, out)
	}
	if b := again.Controllers[0].Program.Then; b == nil || len(b.Mutations) != 1 || again.Controllers[1].Program.Then == nil {
		t.Fatalf("round trip lost then:\n%s", out)
	}

	for _, tc := range []struct {
		name  string
		data  []byte
		line  int
		field string
		msg   string
	}{
		{"unknown subresource", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  then: {subresource: scale}"),
			11, "controllers[0].then.subresource", `unknown subresource "scale" (want status, or leave it out for the object itself)`},
		{"after a patch", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: merge-patch", "  then: {}"),
			7, "controllers[0]", "controller a: then follows an update (update or update-status), not merge-patch"},
		{"unknown field", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  then: {write: update}"),
			11, "controllers[0].then", `unknown field "write"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantOneError(t, tc.data, tc.line, tc.field, tc.msg)
		})
	}
}

// TestCacheSelector: cacheSelector reads, writes back, and must parse.
func TestCacheSelector(t *testing.T) {
	data := ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  cacheSelector: app=web")
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if sel, err := sc.Controllers[0].Selector(); err != nil || sel.String() != "app=web" {
		t.Fatalf("selector %v, %v", sel, err)
	}
	out, err := Marshal(sc)
	if err != nil || !strings.Contains(string(out), "cacheSelector: app=web") {
		t.Fatalf("marshalled (%v):\n%s", err, out)
	}
	_, err = Parse("race.yaml", ctrl("- name: a", "  target: ConfigMap/cm1", "  mutations: [{set: {path: data.x, value: a}}]", "  write: update", "  cacheSelector: app in web"))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Line != 11 || list[0].Field != "controllers[0].cacheSelector" {
		t.Fatalf("a bad selector: %v", err)
	}
}
