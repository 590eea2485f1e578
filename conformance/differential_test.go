package conformance

// The differential run: races nobody chose (sim/scenario/gen draws them
// from a seed), each run in the simulator and on the real server with the
// same schedule and compared as TestConformance compares them (Normalize:
// every request's answer, every version, the final object, each
// managedFields entry with its field set, the reports). A difference is
// shrunk to a small race and saved under testdata/regressions/, which the
// test replays every time.
//
// CI (.ci/run) runs the default budget, 300 races from seed 1. A longer
// run, from another seed, with every feature (the known differences too):
//
//	CONFLICTLAB_DIFFERENTIAL_N=2000 CONFLICTLAB_DIFFERENTIAL_SEED=$RANDOM CONFLICTLAB_DIFFERENTIAL_ALL=1 \
//	  envtest/envtest.sh run -- go test ./conformance/ -run TestDifferential -count=1 -v -timeout 2h
//
// (or the flags -differential.n, -differential.seed, -differential.all,
// -differential.shrink after the package). To reproduce, and shrink, the
// races of a report: CONFLICTLAB_DIFFERENTIAL_SEEDS=34,82 with ALL=1.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/sim/scenario/gen"
)

var (
	differentialN = flag.Int("differential.n", envInt("CONFLICTLAB_DIFFERENTIAL_N", 300),
		"generated races TestDifferential compares (env CONFLICTLAB_DIFFERENTIAL_N)")
	differentialSeed = flag.Uint64("differential.seed", uint64(envInt("CONFLICTLAB_DIFFERENTIAL_SEED", 1)),
		"the first race's seed; race i has seed+i (env CONFLICTLAB_DIFFERENTIAL_SEED)")
	differentialAll = flag.Bool("differential.all", os.Getenv("CONFLICTLAB_DIFFERENTIAL_ALL") != "",
		"draw every feature, those of knownDifferences too (env CONFLICTLAB_DIFFERENTIAL_ALL=1)")
	differentialSeeds = flag.String("differential.seeds", os.Getenv("CONFLICTLAB_DIFFERENTIAL_SEEDS"),
		"comma-separated seeds to run instead of n races from seed: reproduce (and shrink) a report (env CONFLICTLAB_DIFFERENTIAL_SEEDS)")
	differentialShrink = flag.Int("differential.shrink", envInt("CONFLICTLAB_DIFFERENTIAL_SHRINK", 2),
		"differences of distinct kinds to shrink and save under testdata/regressions (env CONFLICTLAB_DIFFERENTIAL_SHRINK)")
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// regressionsDir holds the shrunk races of every difference found.
const regressionsDir = "testdata/regressions"

// knownDifference is a difference the differential run found in the
// simulator's answers that is not fixed yet. Its regression file is
// replayed and must still differ (when it no longer does, the fix has
// landed: delete the entry); the generated races leave Features out, so
// CI is not red for what is already known and routed.
type knownDifference struct {
	File      string   // under testdata/regressions
	Features  []string // gen features the CI budget leaves out meanwhile
	Diagnosis string
}

// knownDifferences: remove an entry when its fix lands (its replay then
// fails with "matches the server now").
var knownDifferences = []knownDifference{
	{File: "seed-9079-7bbcd8c7.yaml", Features: []string{"mutation/append-string", "odd/wrong-type"},
		Diagnosis: "a patch whose result does not decode (a list where a string goes) on a built-in kind: the 422 quotes the patched object; the simulator now quotes it as kube-apiserver does (typed field order, TestPatchResultQuotesTypedOrder), what still differs is the comparison's: Normalize does not scrub the quoted creationTimestamp/managedFields times (wall clock vs virtual) nor the run label's value inside messages"},
}

func TestDifferential(t *testing.T) {
	c := cluster(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Hour)
	defer cancel()
	t.Logf("API server %s (context %q)", c.Host, c.Context)
	waitCRDNotTerminating(t)
	defer withWidgetCRD(ctx, t, c, "differential")()
	d := &differ{c: c, ctx: ctx}

	known := map[string]knownDifference{}
	for _, k := range knownDifferences {
		known[k.File] = k
	}
	t.Run("regressions", func(t *testing.T) {
		files, err := filepath.Glob(filepath.Join(regressionsDir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for k := range known {
			if _, err := os.Stat(filepath.Join(regressionsDir, k)); err != nil {
				t.Errorf("knownDifferences names %s: %v", k, err)
			}
		}
		for _, file := range files {
			base := filepath.Base(file)
			t.Run(strings.TrimSuffix(base, ".yaml"), func(t *testing.T) {
				sc, err := scenario.Load(file)
				if err != nil {
					t.Fatalf("load: %v", err)
				}
				r := d.compare(sc)
				k, isKnown := known[base]
				switch {
				case isKnown && len(r.diffs) == 0:
					t.Errorf("%s matches the server now: delete its entry from knownDifferences (%s)", base, k.Diagnosis)
				case isKnown:
					t.Logf("known difference, not fixed yet (%s): %d place(s), first %s", k.Diagnosis, len(r.diffs), firstLine(r.diffs[0]))
				case len(r.diffs) > 0:
					t.Errorf("%s", r.explain())
				}
			})
		}
	})

	var exclude []string
	if !*differentialAll {
		seen := map[string]bool{}
		for _, k := range knownDifferences {
			for _, f := range k.Features {
				if !seen[f] {
					seen[f] = true
					exclude = append(exclude, f)
				}
			}
		}
	}
	seeds := make([]uint64, 0, *differentialN)
	if *differentialSeeds != "" {
		for _, f := range strings.Split(*differentialSeeds, ",") {
			s, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("-differential.seeds: %q: %v", f, err)
			}
			seeds = append(seeds, s)
		}
		t.Logf("generated: seeds %v; left out (knownDifferences): %v", seeds, exclude)
	} else {
		for i := 0; i < *differentialN; i++ {
			seeds = append(seeds, *differentialSeed+uint64(i))
		}
		t.Logf("generated: %d races from seed %d; left out (knownDifferences): %v", *differentialN, *differentialSeed, exclude)
	}
	var (
		races, requests, differing int
		simTime, liveTime          time.Duration
		classes                    = map[string][]uint64{}
		saved                      []string
	)
	start := time.Now()
	t.Run("generated", func(t *testing.T) {
		for _, seed := range seeds {
			g, err := gen.Generate(seed, gen.Options{Exclude: exclude})
			if err != nil {
				t.Fatal(err)
			}
			r := d.compare(g.Scenario)
			races++
			requests += r.requests
			simTime += r.simTime
			liveTime += r.liveTime
			if len(r.diffs) == 0 {
				continue
			}
			differing++
			class := r.classes()[0]
			classes[class] = append(classes[class], seed)
			msg := fmt.Sprintf("seed %d (features %s): %s", seed, strings.Join(g.Features, " "), r.explain())
			if len(classes[class]) == 1 && len(saved) < *differentialShrink {
				file, small := d.shrinkAndSave(t, seed, g.Scenario, class)
				saved = append(saved, file)
				msg += fmt.Sprintf("\nshrunk to %s:\n%s", file, small)
			}
			t.Errorf("%s", msg)
		}
	})
	if races > 0 {
		t.Logf("differential: %d generated races, %d requests compared, %d differ (%d kinds); per race: simulator %s, live %s; total %s",
			races, requests, differing, len(classes), (simTime / time.Duration(races)).Round(time.Microsecond),
			(liveTime / time.Duration(races)).Round(time.Millisecond), time.Since(start).Round(time.Second))
	}
	kinds := make([]string, 0, len(classes))
	for k := range classes {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("difference %s: %d race(s), seeds %v", k, len(classes[k]), head(classes[k], 10))
	}
	if len(saved) > 0 {
		t.Logf("saved: %s", strings.Join(saved, ", "))
	}
}

func head(xs []uint64, n int) []uint64 {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// differ runs one race on both sides.
type differ struct {
	c   *live.Cluster
	ctx context.Context
}

type result struct {
	diffs             []string
	requests          int
	simTime, liveTime time.Duration
	sim, live         *race.Outcome
	// normSim and normLive are the outcomes as compared (Normalize).
	normSim, normLive map[string]any
}

// compare runs a race in the simulator and live, with the scenario's own
// schedule, and lists the differences.
func (d *differ) compare(sc *scenario.Scenario) *result {
	r := &result{}
	t0 := time.Now()
	simOut, simErr := race.Run(Labelled(sc), race.Schedule{})
	r.simTime = time.Since(t0)
	t0 = time.Now()
	res, liveErr := d.c.Run(d.ctx, sc, race.Schedule{})
	r.liveTime = time.Since(t0)
	switch {
	case simErr != nil && liveErr != nil:
		return r // both refuse it (an initial object): nothing to compare
	case simErr != nil:
		r.diffs = []string{fmt.Sprintf("run:\n      sim:  %v\n      live: ran", simErr)}
		return r
	case liveErr != nil:
		if m := scheduleStep.FindStringSubmatch(liveErr.Error()); m != nil && sc.Schedule != nil {
			// A schedule drawn in the simulator that the server's answers
			// did not allow (a watch event it never sent): compare the
			// race up to there, which shows the answer that differed.
			n, _ := strconv.Atoi(m[1])
			if n >= 1 && n <= len(sc.Schedule) {
				cut := *sc
				cut.Schedule = sc.Schedule[: n-1 : n-1]
				if rr := d.compare(&cut); len(rr.diffs) > 0 {
					return rr
				}
			}
		}
		r.diffs = []string{fmt.Sprintf("run:\n      sim:  ran\n      live: %v", liveErr)}
		return r
	}
	r.sim, r.live = simOut, res.Outcome
	for _, s := range simOut.Steps {
		if s.Kind == "request" {
			r.requests++
		}
	}
	r.normSim = tokenizeCauses(scrubRunLabel(Normalize(simOut)).(map[string]any), simOut)
	r.normLive = tokenizeCauses(scrubRunLabel(Normalize(res.Outcome)).(map[string]any), res.Outcome)
	if len(sc.Objects) > 0 && res.Session != nil {
		r.normLive = inNamespace(r.normLive, res.Session.Namespace, sc.Objects[0].GetNamespace())
	}
	r.diffs = Diff(r.normSim, r.normLive)
	return r
}

func (r *result) explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "simulator and live server differ in %d place(s):\n  %s", len(r.diffs), strings.Join(r.diffs, "\n  "))
	if r.sim != nil {
		var simText, liveText bytes.Buffer
		_ = report.Text(&simText, r.sim)
		_ = report.Text(&liveText, r.live)
		fmt.Fprintf(&b, "\n\n--- simulator ---\n%s\n--- live ---\n%s", simText.String(), liveText.String())
	}
	return b.String()
}

var (
	scheduleStep = regexp.MustCompile(`^step (\d+): schedule: `)
	indexRE      = regexp.MustCompile(`\[\d+\]`)
	digitsRE     = regexp.MustCompile(`\d+`)
)

// classes names the differences, where the race starts to differ first:
// a run that failed; the first step answered or taken differently (its
// code before its reason and message); the first version that differs;
// then every difference by its path without indices. Short values are
// part of the name ("steps[].code sim=200 live=422"), so the same bug in
// two races has the same class.
func (r *result) classes() []string {
	if r.sim == nil {
		if len(r.diffs) == 0 {
			return nil
		}
		lines := strings.Split(r.diffs[0], "\n")
		return []string{"run " + digitsRE.ReplaceAllString(strings.TrimSpace(lines[1])+" "+strings.TrimSpace(lines[2]), "N")}
	}
	var out []string
	for _, key := range []string{"steps", "versions"} {
		a, b := list(r.normSim[key]), list(r.normLive[key])
		for i := 0; i < len(a) && i < len(b); i++ {
			if d := Diff(a[i], b[i]); len(d) > 0 {
				sort.SliceStable(d, func(i, j int) bool { return fieldRank(d[i]) < fieldRank(d[j]) })
				out = append(out, classOf(key+"[]."+d[0]))
				break
			}
		}
		if len(out) == 0 && len(a) != len(b) {
			out = append(out, fmt.Sprintf("%s: the same until one side stops (sim %d, live %d)", key, len(a), len(b)))
		}
	}
	for _, d := range r.diffs {
		out = append(out, classOf(d))
	}
	return out
}

func fieldRank(d string) int {
	path, _, _ := strings.Cut(d, ":")
	for i, f := range []string{"code", "reason", "message"} {
		if path == f {
			return i
		}
	}
	return 3
}

func classOf(d string) string {
	lines := strings.Split(d, "\n")
	class := indexRE.ReplaceAllString(strings.TrimSuffix(lines[0], ":"), "[]")
	if len(lines) == 3 {
		sim := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[1]), "sim:"))
		lv := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[2]), "live:"))
		if len(sim) <= 24 && len(lv) <= 24 {
			class += " sim=" + sim + " live=" + lv
		}
	}
	return class
}

// shrinkAndSave reduces a differing race to a small one that still shows
// the same kind of difference, and writes it to testdata/regressions.
func (d *differ) shrinkAndSave(t *testing.T, seed uint64, sc *scenario.Scenario, class string) (string, []byte) {
	t.Helper()
	still := func(cand *scenario.Scenario) bool {
		for _, c := range d.compare(cand).classes() {
			if c == class {
				return true
			}
		}
		return false
	}
	small := gen.Shrink(sc, still, 200)
	small.Name = fmt.Sprintf("regression-%d", seed)
	small.Description = fmt.Sprintf("Found by TestDifferential (seed %d), shrunk. First difference: %s\n", seed, class)
	data, err := scenario.Marshal(small)
	if err != nil {
		t.Fatalf("marshal the shrunk race: %v", err)
	}
	sum := sha256.Sum256(data)
	file := fmt.Sprintf("seed-%d-%x.yaml", seed, sum[:4])
	if err := os.MkdirAll(regressionsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(regressionsDir, file), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file, data
}

// scrubRunLabel removes the live run's label, and replaces the
// timestamps, wherever a normalised outcome still shows them: in the
// managedFields a lost-field report quotes (Normalize cleans the objects).
func scrubRunLabel(v any) any {
	return normTimes(scrubLabel(v))
}

func scrubLabel(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "f:"+live.RunLabel)
		for k, e := range x {
			x[k] = scrubLabel(e)
		}
	case []any:
		for i, e := range x {
			x[i] = scrubLabel(e)
		}
	}
	return v
}

// inNamespace puts the live run's namespace back to the scenario's where
// a message names it ("failed to create typed patch object
// (conflictlab-gen-5006-facb75/web; …)"): a live run works in a fresh
// namespace of its own.
func inNamespace(m map[string]any, liveNS, ns string) map[string]any {
	if liveNS == "" || liveNS == ns {
		return m
	}
	b, _ := json.Marshal(m)
	q, _ := json.Marshal(liveNS)
	r, _ := json.Marshal(ns)
	b = bytes.ReplaceAll(b, q[1:len(q)-1], r[1:len(r)-1])
	var out map[string]any
	if json.Unmarshal(b, &out) != nil {
		return m
	}
	return out
}

// tokenizeCauses replaces the resourceVersions quoted in the causes of a
// step's error (an invalid patch quotes the object it was applied to) by
// their tokens, as Normalize does for the step's message, and sorts the
// causes of an apply conflict: kube-apiserver lists them in the order it
// meets the managers in a Go map (structured-merge-diff's
// ConflictsFromManagers), which differs from run to run, while the
// message sorts them by manager.
func tokenizeCauses(m map[string]any, o *race.Outcome) map[string]any {
	t := tokens(o)
	for _, s := range list(m["steps"]) {
		sm, _ := s.(map[string]any)
		causes := list(sm["causes"])
		conflict := len(causes) > 0
		for _, c := range causes {
			if cm, ok := c.(map[string]any); ok {
				if msg, ok := cm["message"].(string); ok {
					cm["message"] = t.text(msg)
				}
				conflict = conflict && cm["type"] == "FieldManagerConflict"
			}
		}
		if conflict {
			sort.SliceStable(causes, func(i, j int) bool {
				a, _ := json.Marshal(causes[i])
				b, _ := json.Marshal(causes[j])
				return string(a) < string(b)
			})
		}
	}
	return m
}

// waitCRDNotTerminating waits until a Widget CRD another test deleted is
// gone: installing ours while it terminates would find it "existing" and
// then lose it.
func waitCRDNotTerminating(t *testing.T) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv(EnvAPIServer))
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	deadline := time.Now().Add(60 * time.Second)
	for {
		crd, err := dyn.Resource(crdGVR).Get(context.Background(), live.WidgetCRDName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && crd.GetDeletionTimestamp() == nil) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Widget CRD is still terminating after 60s: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // polling a server-side deletion, not standing in for sync of ours
	}
}

// The comparison's own rules, without a server: an apply conflict's
// causes are a set (the real server's order is a Go map's), other causes
// keep their order, and the live run's namespace in a message is the
// scenario's.
func TestDifferentialComparisonRules(t *testing.T) {
	step := func(reason string, causes ...race.Cause) *race.Outcome {
		return &race.Outcome{Steps: []race.Step{{Kind: "request", Code: 409, Reason: reason, Causes: causes,
			Message: "failed to create typed patch object (conflictlab-gen-7-abc123/web; apps/v1, Kind=Deployment)"}}}
	}
	norm := func(o *race.Outcome, liveNS string) map[string]any {
		return inNamespace(tokenizeCauses(scrubRunLabel(Normalize(o)).(map[string]any), o), liveNS, "default")
	}
	a := race.Cause{Type: "FieldManagerConflict", Field: ".data.a", Message: `conflict with "setup" using v1`}
	b := race.Cause{Type: "FieldManagerConflict", Field: ".data.b", Message: `conflict with "c" using v1`}
	if d := Diff(norm(step("Conflict", a, b), ""), norm(step("Conflict", b, a), "")); len(d) != 0 {
		t.Errorf("an apply conflict's causes in another order differ: %v", d)
	}
	x := race.Cause{Type: "FieldValueInvalid", Field: "metadata.labels", Message: "x"}
	y := race.Cause{Type: "FieldValueInvalid", Field: "metadata.labels", Message: "y"}
	if d := Diff(norm(step("Invalid", x, y), ""), norm(step("Invalid", y, x), "")); len(d) == 0 {
		t.Error("validation causes in another order compare equal")
	}
	sim := step("Invalid")
	sim.Steps[0].Message = "failed to create typed patch object (default/web; apps/v1, Kind=Deployment)"
	if d := Diff(norm(sim, ""), norm(step("Invalid"), "conflictlab-gen-7-abc123")); len(d) != 0 {
		t.Errorf("the live namespace in a message differs: %v", d)
	}
}
