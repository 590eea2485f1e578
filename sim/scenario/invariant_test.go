package scenario

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/api"
)

// inv is a scenario of one ConfigMap and one controller (lines 1-7)
// whose invariants are the lines given, from line 9 on.
func inv(lines ...string) []byte {
	return doc(append(append(append([]string{}, header...),
		"- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}", // 7
		"invariants:", // 8
	), lines...)...)
}

func TestParseInvariantErrors(t *testing.T) {
	seventeen := []string{}
	for i := 0; i < LimitInvariants+1; i++ {
		seventeen = append(seventeen, "- {objects: {name: cm1, is: 1}, why: w}")
	}
	twoKinds := doc(
		"name: t", // 1
		"objects:",
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}",
		"- {apiVersion: oracle.example.com/v1, kind: Widget, metadata: {name: w1}}",
		"controllers:",
		"- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}",
		"invariants:",
		"- objects: {name: cm1, is: 1}", // 8
		"  why: w",
	)
	tests := []struct {
		name string
		data []byte
		want string // the one error, as printed
	}{
		{"not a list", inv("  {objects: {name: cm1, is: 1}, why: w}"),
			`race.yaml:9: invariants: want a list, got a mapping`},
		{"too many", inv(seventeen...),
			`race.yaml:9: invariants: 17 invariants: a scenario has at most 16`},
		{"unknown field", inv("- objects: {name: cm1, is: 1}", "  why: w", "  because: x"),
			`race.yaml:11: invariants[0]: unknown field "because"`},
		{"unknown field in objects", inv("- objects: {name: cm1, is: 1, count: 2}", "  why: w"),
			`race.yaml:9: invariants[0].objects: unknown field "count"`},
		{"misspelt is", inv("- objects: {name: cm1, iss: 1}", "  why: w"),
			`race.yaml:9: invariants[0].objects: unknown field "iss" (did you mean "is"?)`},
		{"missing why", inv("- objects: {name: cm1, is: 1}"),
			`race.yaml:9: invariants[0]: missing required field "why" (what breaking it means, shown with the count)`},
		{"empty why", inv("- objects: {name: cm1, is: 1}", "  why: ''"),
			`race.yaml:10: invariants[0].why: empty value`},
		{"missing objects", inv("- why: w"),
			`race.yaml:9: invariants[0]: missing required field "objects" (which objects to count, and how many there must be: {selector: app=web, is: 1})`},
		{"missing is", inv("- objects: {name: cm1}", "  why: w"),
			`race.yaml:9: invariants[0].objects: missing required field "is" (how many must exist when the race ends)`},
		{"negative count", inv("- objects: {selector: app=web, is: -1}", "  why: w"),
			`race.yaml:9: invariants[0].objects.is: must be at least 0, not -1`},
		{"count not a number", inv("- objects: {selector: app=web, is: one}", "  why: w"),
			`race.yaml:9: invariants[0].objects.is: want an integer, got "one"`},
		{"count too large", inv("- objects: {selector: app=web, is: 5000}", "  why: w"),
			`race.yaml:9: invariants[0].objects.is: must be at most 1064, not 5000: no race makes that many objects`},
		{"two of a name", inv("- objects: {name: cm1, is: 2}", "  why: w"),
			`race.yaml:9: invariants[0].objects.is: 2 objects named cm1: there is at most one of a name (want 0 or 1)`},
		{"name and selector", inv("- objects:", "    name: cm1", "    selector: app=web", "    is: 1", "  why: w"),
			`race.yaml:11: invariants[0].objects: give name or selector, not both: an invariant counts the object of a name, or the objects a selector matches`},
		{"misspelt selector", inv("- objects: {selctor: app=web, is: 1}", "  why: w"),
			`race.yaml:9: invariants[0].objects: unknown field "selctor" (did you mean "selector"?)`},
		{"neither name nor selector", inv("- objects: {is: 1}", "  why: w"),
			`race.yaml:9: invariants[0].objects: missing name or selector (the object of that name, or the objects whose labels match)`},
		{"malformed selector", inv("- objects: {selector: 'app in web', is: 1}", "  why: w"),
			`race.yaml:9: invariants[0].objects.selector: "app in web" is not a label selector (found 'web' expected: '('): write it as kubectl -l takes it, as app=web or app=web,tier!=db`},
		{"selector with a stray space", inv("- objects:", "    selector: app=we b", "    is: 1", "  why: w"),
			`race.yaml:10: invariants[0].objects.selector: "app=we b" is not a label selector (found 'b', expected: ',' or 'end of string'): write it as kubectl -l takes it, as app=web or app=web,tier!=db`},
		{"empty selector", inv("- objects: {selector: '', is: 1}", "  why: w"),
			`race.yaml:9: invariants[0].objects.selector: empty value`},
		{"unknown kind", inv("- objects: {kind: Pod, name: p, is: 0}", "  why: w"),
			`race.yaml:9: invariants[0].objects.kind: unknown kind "Pod" (want ConfigMap, Deployment or Widget)`},
		{"two kinds, none named", twoKinds,
			`race.yaml:8: invariants[0].objects: the scenario has objects of 2 kinds (ConfigMap and Widget): say which are counted with kind`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("race.yaml", tc.data)
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T %v is not an ErrorList, for\n%s", err, err, tc.data)
			}
			if len(list) != 1 || list[0].Error() != tc.want {
				t.Errorf("\n got: %v\nwant: %s", err, tc.want)
			}
		})
	}
}

func TestParseInvariants(t *testing.T) {
	data := doc(
		"name: t",
		"objects:",
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: parent}}",
		"controllers:",
		"- name: c",
		"  write: create",
		"  object: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: web-, labels: {app: web}}}",
		"invariants:",
		"- objects: {selector: 'app=web,tier!=db', is: 1}",
		"  why: the parent needs exactly one child",
		"- objects: {kind: ConfigMap, namespace: other, name: parent, is: 0}",
		"  why: nothing lives in other",
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Invariant{
		{Kind: "ConfigMap", Namespace: DefaultNamespace, Selector: "app=web,tier!=db", Is: 1, Why: "the parent needs exactly one child"},
		{Kind: "ConfigMap", Namespace: "other", Name: "parent", Is: 0, Why: "nothing lives in other"},
	}
	if !reflect.DeepEqual(sc.Invariants, want) {
		t.Errorf("invariants\n got %+v\nwant %+v", sc.Invariants, want)
	}
	// Marshal writes them back; the kind, the scenario's only one, and
	// the default namespace are left out.
	roundTrip(t, sc)
	out, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"invariants:\n- objects: {selector: 'app=web,tier!=db', is: 1}\n  why: the parent needs exactly one child\n",
		"- objects: {namespace: other, name: parent, is: 0}\n",
	} {
		if !strings.Contains(string(out), s) {
			t.Errorf("Marshal wrote\n%s\nwithout\n%s", out, s)
		}
	}
}

// A scenario of two kinds names the kind; Marshal keeps it.
func TestInvariantKindOfTwo(t *testing.T) {
	data := doc(
		"name: t",
		"objects:",
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm1}}",
		"- {apiVersion: oracle.example.com/v1, kind: Widget, metadata: {name: w1}}",
		"controllers:",
		"- {name: a, target: ConfigMap/cm1, mutations: [remove: data.x], write: update}",
		"invariants:",
		"- objects: {kind: Widget, name: w1, is: 1}",
		"  why: w1 stays",
	)
	sc, err := Parse("race.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Invariants[0].Kind; got != api.Kind("Widget") {
		t.Errorf("kind %s, want Widget", got)
	}
	roundTrip(t, sc)
}

func TestInvariantMatches(t *testing.T) {
	web := map[string]string{"app": "web"}
	for _, tc := range []struct {
		inv      Invariant
		kind     api.Kind
		ns, name string
		labels   map[string]string
		want     bool
		what     string
	}{
		{Invariant{Kind: "ConfigMap", Selector: "app=web"}, "ConfigMap", "default", "x", web, true, "selector, default namespace"},
		{Invariant{Kind: "ConfigMap", Selector: "app=web"}, "ConfigMap", "default", "x", nil, false, "no labels"},
		{Invariant{Kind: "ConfigMap", Selector: "app=web"}, "Widget", "default", "x", web, false, "another kind"},
		{Invariant{Kind: "ConfigMap", Namespace: "other", Selector: "app=web"}, "ConfigMap", "default", "x", web, false, "another namespace"},
		{Invariant{Kind: "ConfigMap", Selector: "app!=web"}, "ConfigMap", "default", "x", nil, true, "!= matches no label"},
		{Invariant{Kind: "ConfigMap", Name: "cm1"}, "ConfigMap", "default", "cm1", nil, true, "by name"},
		{Invariant{Kind: "ConfigMap", Name: "cm1"}, "ConfigMap", "default", "cm2", nil, false, "another name"},
		{Invariant{Kind: "ConfigMap", Selector: "app in web"}, "ConfigMap", "default", "x", web, false, "a selector that does not parse matches nothing"},
	} {
		if got := tc.inv.Matches(tc.kind, tc.ns, tc.name, tc.labels); got != tc.want {
			t.Errorf("%s: Matches = %v, want %v", tc.what, got, tc.want)
		}
	}
}

// Invariants seed the fuzzer: what parses marshals and parses back alike.
func FuzzParseInvariants(f *testing.F) {
	f.Add(inv("- objects: {selector: 'env in (a,b),!legacy', is: 2}", "  why: two", "- objects: {name: cm1, is: 0}", "  why: \"gone: #1\""))
	f.Add(inv("- objects: {kind: ConfigMap, namespace: other, selector: '123', is: 1}", "  why: a number"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		roundTrip(t, s)
	})
}
