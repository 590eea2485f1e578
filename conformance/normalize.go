// Package conformance proves that the simulator says what a real API server
// says: its test runs every example and course scenario, and every race the
// lessons play, in the simulator and live (package live) with the same
// schedule, and compares the two
// outcomes after normalising what legitimately differs between two servers
// (resourceVersion numbers, uids, timestamps, the run's label).
//
// Run it against a throwaway kube-apiserver + etcd (built from their Go
// modules, cached):
//
//	envtest/envtest.sh run -- go test ./conformance/ -v -count=1
//
// or against any cluster (it creates, and deletes, one namespace per
// scenario and the Widget CRD):
//
//	CONFLICTLAB_APISERVER=$HOME/.kube/config go test ./conformance/ -v -count=1
package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Labelled returns a copy of sc whose objects carry the live run's label,
// as the live backend creates them. The simulator runs this copy, so that
// both servers start from the same objects: the label shows in the
// creator's managedFields, and a controller that adds the first label of
// an object owns the labels map as a whole (".") only where no label was
// there, which would otherwise differ between the two runs.
func Labelled(sc *scenario.Scenario) *scenario.Scenario {
	c := *sc
	c.Objects = make([]*unstructured.Unstructured, len(sc.Objects))
	for i, o := range sc.Objects {
		o = o.DeepCopy()
		labels := o.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[live.RunLabel] = "conformance"
		o.SetLabels(labels)
		c.Objects[i] = o
	}
	c.Controllers = labelledCreates(sc.Controllers) // identity.go
	return &c
}

// rvTokens numbers the resourceVersions of one outcome by order of first
// appearance, so two servers' numbers can be compared: the n-th distinct
// revision a run saw is "rv#n" on both sides.
type rvTokens struct {
	tok map[string]string
	n   int
}

func (t *rvTokens) see(rv string) {
	if rv == "" {
		return
	}
	if _, err := strconv.ParseInt(rv, 10, 64); err != nil {
		return
	}
	if _, ok := t.tok[rv]; !ok {
		t.n++
		t.tok[rv] = fmt.Sprintf("rv#%d", t.n)
	}
}

func (t *rvTokens) of(rv string) string {
	if s, ok := t.tok[rv]; ok {
		return s
	}
	return rv
}

// eventRV is a watch step's event: its type, its RV, and what a filtered
// informer made of it (" (filtered)").
var eventRV = regexp.MustCompile(`^([A-Z]+) (\d+)(.*)$`)
var number = regexp.MustCompile(`\b\d{2,}\b`)

// tokens walks an outcome in a fixed order and numbers every RV in it.
func tokens(o *race.Outcome) *rvTokens {
	t := &rvTokens{tok: map[string]string{}}
	for _, v := range o.Versions {
		if v.Step < 0 {
			t.see(v.RV)
		}
	}
	for _, s := range o.Steps {
		t.see(s.SentRV)
		t.see(s.HeldRV)
		t.see(s.RV)
		if m := eventRV.FindStringSubmatch(s.Event); m != nil {
			t.see(m[2])
		}
		t.see(strconv.FormatInt(s.ServerRV, 10))
		for _, name := range slices.Sorted(maps.Keys(s.CacheRVs)) {
			t.see(strconv.FormatInt(s.CacheRVs[name], 10))
		}
	}
	for _, v := range o.Versions {
		t.see(v.RV)
	}
	for _, c := range o.Controllers {
		t.see(strconv.FormatInt(c.CacheRV, 10))
	}
	return t
}

// text replaces the RVs inside a message.
func (t *rvTokens) text(s string) string {
	return number.ReplaceAllStringFunc(s, func(n string) string { return t.of(n) })
}

// Normalize turns an outcome into plain JSON data where what two servers
// may legitimately disagree on is replaced: RVs by their tokens, uids and
// timestamps dropped, managedFields reduced to a set of owners
// (manager/operation/subresource) with the fields each owns, the live run's label removed. Request bodies are
// left out: they are built from what was read, which is compared.
func Normalize(o *race.Outcome) map[string]any {
	t := tokens(o)
	var m map[string]any
	report.Word(o) // the reasons are compared in words
	b, _ := json.Marshal(o)
	b = normalizeIdentities(b) // identity.go
	_ = json.Unmarshal(b, &m)

	if f, ok := m["final"].(map[string]any); ok {
		normObject(f, t)
	}
	for _, v := range list(m["versions"]) {
		vm := v.(map[string]any)
		vm["rv"] = t.of(str(vm["rv"]))
		if obj, ok := vm["object"].(map[string]any); ok {
			normObject(obj, t)
		}
		vm["changes"] = withoutRunLabel(vm["changes"]) // identity.go
		normTimes(vm["changes"])
	}
	for _, s := range list(m["steps"]) {
		sm := s.(map[string]any)
		delete(sm, "body")
		for _, k := range []string{"sentRV", "heldRV", "rv"} {
			if v, ok := sm[k]; ok {
				sm[k] = t.of(str(v))
			}
		}
		sm["serverRV"] = t.of(num(sm["serverRV"]))
		if c, ok := sm["cacheRVs"].(map[string]any); ok {
			for k, v := range c {
				c[k] = t.of(num(v))
			}
		}
		if ev, ok := sm["event"].(string); ok {
			if mm := eventRV.FindStringSubmatch(ev); mm != nil {
				sm["event"] = mm[1] + " " + t.of(mm[2]) + mm[3]
			}
		}
		if msg, ok := sm["message"].(string); ok {
			sm["message"] = t.text(msg)
		}
	}
	for _, w := range list(m["waits"]) {
		wm := w.(map[string]interface{})
		for _, k := range []string{"awaitRV", "cacheRV"} {
			if v, ok := wm[k]; ok {
				wm[k] = t.of(num(v))
			}
		}
	}
	for _, c := range list(m["controllers"]) {
		cm := c.(map[string]any)
		cm["cacheRV"] = t.of(num(cm["cacheRV"]))
		if e, ok := cm["lastError"].(string); ok {
			cm["lastError"] = t.text(e)
		}
	}
	for _, key := range []string{"lost", "overwritten"} {
		for _, l := range list(m[key]) {
			lm := l.(map[string]any)
			lm["erasedRV"] = t.of(str(lm["erasedRV"]))
			lm["reason"] = t.text(str(lm["reason"]))
		}
	}
	for _, d := range list(m["stale"]) {
		dm := d.(map[string]any)
		for _, k := range []string{"readRV", "changedRV"} {
			dm[k] = t.of(str(dm[k]))
		}
	}
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatInt(int64(x), 10)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// normObject strips a stored object of the server's bookkeeping.
func normObject(obj map[string]any, t *rvTokens) {
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		return
	}
	delete(meta, "uid")
	delete(meta, "creationTimestamp")
	if rv, ok := meta["resourceVersion"]; ok {
		meta["resourceVersion"] = t.of(str(rv))
	}
	if labels, ok := meta["labels"].(map[string]any); ok {
		delete(labels, live.RunLabel)
		if len(labels) == 0 {
			delete(meta, "labels")
		}
	}
	if mf, ok := meta["managedFields"].([]any); ok {
		// The server sorts the entries by operation, then time (to the
		// second), then manager: with timestamps that differ between two
		// clocks, the order does too. Entries are compared as a set: each
		// owner, its subresource, whether the entry carries a time at all
		// (a manager whose apply changed nothing joins without one), and
		// the set of fields it owns (fieldsV1; json.Marshal writes its keys
		// sorted, so equal sets give equal text).
		var owners []string
		for _, e := range mf {
			em, _ := e.(map[string]any)
			owners = append(owners, managedEntry(em))
		}
		sort.Strings(owners)
		meta["managedFields"] = owners
	}
	normTimes(obj)
}

// managedEntry is one managedFields entry as compared: "manager/operation",
// then "/subresource" if any, " (no time)" when it carries none, and its
// field set.
func managedEntry(em map[string]any) string {
	owner := fmt.Sprintf("%v/%v", em["manager"], em["operation"])
	if sub, ok := em["subresource"].(string); ok && sub != "" {
		owner += "/" + sub
	}
	if em["time"] == nil {
		owner += " (no time)"
	}
	fields, _ := json.Marshal(em["fieldsV1"])
	return owner + " " + string(fields)
}

// normTimes replaces every timestamp (deletionTimestamp, a condition's
// lastTransitionTime) with "<time>": the two servers' clocks differ.
func normTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normTimes(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normTimes(e)
		}
	case string:
		if _, err := time.Parse(time.RFC3339, x); err == nil {
			return "<time>"
		}
	}
	return v
}

// Diff lists the paths where two normalised outcomes differ, with both
// values.
func Diff(sim, live any) []string {
	var out []string
	diff("", sim, live, &out)
	return out
}

// present is a value as Diff shows it, "(absent)" for a key not there.
func present(v any, ok bool) string {
	if !ok {
		return "(absent)"
	}
	j, _ := json.Marshal(v)
	return string(j)
}

func diff(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			// A key that only one side has differs even when the other
			// side's value is null: a field stored as null (a condition's
			// unset time) is not a field left out.
			av, ain := am[k]
			bv, bin := bm[k]
			if ain != bin {
				*out = append(*out, fmt.Sprintf("%s:\n      sim:  %s\n      live: %s", strings.TrimPrefix(path+"."+k, "."), present(av, ain), present(bv, bin)))
				continue
			}
			diff(path+"."+k, av, bv, out)
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			diff(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i], out)
		}
		return
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		*out = append(*out, fmt.Sprintf("%s:\n      sim:  %s\n      live: %s", strings.TrimPrefix(path, "."), ja, jb))
	}
}
