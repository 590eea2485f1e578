package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sandbox/challenges"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// EnvAPIServer names the kubeconfig of the API server to compare against.
const EnvAPIServer = "CONFLICTLAB_APISERVER"

const howToRun = `conformance tests need a real API server: run
    envtest/envtest.sh run -- go test ./conformance/ -v -count=1
(builds and caches kube-apiserver v1.37.2 + etcd v3.7.0 from their Go modules, ≈12 min cold),
or point ` + EnvAPIServer + ` at a kubeconfig:
    ` + EnvAPIServer + `=$HOME/.kube/config go test ./conformance/ -v -count=1`

func cluster(t *testing.T, context string) *live.Cluster {
	t.Helper()
	kc := os.Getenv(EnvAPIServer)
	if kc == "" {
		t.Skip(howToRun)
	}
	var log bytes.Buffer
	c, err := live.Connect(live.Options{Kubeconfig: kc, Context: context, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// scenarioFiles are every example and every scenario the course uses, and
// the scenarios under testdata/ (testdata/measured: answers measured on
// v1.37.2 that the simulator once got wrong, docs/SEMANTICS.md).
func scenarioFiles(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"../examples/*.yaml", "../lessons/course/scenarios/*.yaml", "testdata/lifecycle/*.yaml", "testdata/status-writes/*.yaml", "testdata/measured/*.yaml", "testdata/report/*.yaml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no scenario files found")
	}
	return files
}

// withWidgetCRD installs the Widget CRD for one test (its owner named as
// live.InstallWidgetCRD takes it) and returns what deletes it again (a
// CRD the cluster already had is left alone).
func withWidgetCRD(ctx context.Context, t *testing.T, c *live.Cluster, owner string) func() {
	t.Helper()
	crdUID, err := c.InstallWidgetCRD(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		if crdUID == "" {
			return
		}
		if err := c.DeleteWidgetCRD(ctx, crdUID); err != nil {
			t.Errorf("delete CRD: %v", err)
		}
	}
}

func TestConformance(t *testing.T) {
	c := cluster(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	t.Logf("API server %s (context %q)", c.Host, c.Context)
	// One CRD for the whole run (re-creating a CRD right after deleting it
	// races with its own cleanup).
	defer withWidgetCRD(ctx, t, c, "conformance")()
	start := time.Now()
	var (
		scenarios, requests, steps, peeks int
		lat                               []time.Duration
		failed                            []string
	)
	compare := func(t *testing.T, sc *scenario.Scenario, sched race.Schedule) {
		simOut, err := race.Run(Labelled(sc), sched)
		if err != nil {
			t.Fatalf("simulator: %v", err)
		}
		res, err := c.Run(ctx, sc, sched)
		if err != nil {
			t.Fatalf("live: %v", err)
		}
		scenarios++
		lat = append(lat, res.Latency...)
		n := 0
		for _, s := range simOut.Steps {
			if s.Kind == "request" {
				n++
			}
		}
		requests += n
		steps += len(simOut.Steps)
		peeks += res.Peeks
		d := Diff(Normalize(simOut), Normalize(res.Outcome))
		if len(d) == 0 {
			t.Logf("%d steps, %d requests: identical", len(simOut.Steps), n)
			return
		}
		var simText, liveText bytes.Buffer
		_ = report.Text(&simText, simOut)
		_ = report.Text(&liveText, res.Outcome)
		t.Errorf("simulator and live server differ in %d place(s):\n  %s\n\n--- simulator ---\n%s\n--- live ---\n%s",
			len(d), strings.Join(d, "\n  "), simText.String(), liveText.String())
	}
	for _, file := range scenarioFiles(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		dir := filepath.Base(filepath.Dir(file))
		ok := t.Run(dir+"/"+name, func(t *testing.T) {
			sc, err := scenario.Load(file)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			compare(t, sc, race.Schedule{})
		})
		if !ok {
			failed = append(failed, dir+"/"+name)
		}
	}
	// Every race the course plays: each step's scenario with the step's
	// schedule, and with each choose option's strategy applied.
	for _, r := range courseRaces(t) {
		ok := t.Run("lessons/"+r.name, func(t *testing.T) { compare(t, r.sc, race.Schedule{Moves: scenario.MustMoves(r.schedule...)}) })
		if !ok {
			failed = append(failed, "lessons/"+r.name)
		}
	}
	// Every race the sandbox's challenges play: a break's shortest order,
	// a fix's race with the author's fix (in its default order).
	for _, r := range challengeRaces(t) {
		ok := t.Run("challenges/"+r.name, func(t *testing.T) { compare(t, r.sc, race.Schedule{Moves: scenario.MustMoves(r.schedule...)}) })
		if !ok {
			failed = append(failed, "challenges/"+r.name)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		t.Logf("conformance: %d races compared, %d steps and %d requests compared; live: %d requests sent (+%d GETs for the timeline), latency median %s, p95 %s, max %s; total %s",
			scenarios, steps, requests, len(lat), peeks, lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*95/100].Round(time.Microsecond),
			lat[len(lat)-1].Round(time.Microsecond), time.Since(start).Round(time.Millisecond))
	}
	if len(failed) > 0 {
		t.Logf("differing scenarios: %s", strings.Join(failed, ", "))
	}
}

// TestForbiddenExplains: a user without permissions gets a message listing
// what a live run needs (envtest's token file has such a user).
func TestForbiddenExplains(t *testing.T) {
	if os.Getenv("CONFLICTLAB_ENVTEST_DIR") == "" {
		t.Skip("needs envtest's unprivileged user: " + howToRun)
	}
	c := cluster(t, "envtest-nobody")
	sc, err := scenario.Load("../examples/lost-update-unconditional.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Run(context.Background(), sc, race.Schedule{})
	var fe *live.ForbiddenError
	if !errors.As(err, &fe) {
		t.Fatalf("want a ForbiddenError, got %v", err)
	}
	for _, want := range []string{"403", "namespaces: create", "configmaps: get, list, watch, create, update, patch, delete"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
}

type courseRace struct {
	name     string
	sc       *scenario.Scenario
	schedule []string
}

// courseRaces lists the distinct races the built-in course plays.
func courseRaces(t *testing.T) []courseRace {
	pack, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []courseRace
	for _, l := range pack.Lessons {
		for i, st := range l.Steps {
			if st.Race == nil {
				continue
			}
			opts := []*lessons.Option{nil}
			for j := range st.Options {
				if st.Options[j].Strategy != nil {
					opts = append(opts, &st.Options[j])
				}
			}
			for _, opt := range opts {
				sc, err := pack.ScenarioFor(st, opt)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s/step%d", l.ID, i+1)
				if opt != nil {
					name += "/" + opt.ID
				}
				key, _ := json.Marshal([]any{st.Race.Scenario, st.Race.Schedule, sc.Controllers})
				if seen[string(key)] {
					continue
				}
				seen[string(key)] = true
				out = append(out, courseRace{name: name, sc: sc, schedule: st.Race.Schedule})
			}
			// A play step's races: the author's shortest break, and the
			// race with the author's fix (in its default order; the fix
			// itself is proven over every order by lessons validate).
			if g := st.Goal; g != nil {
				base, err := pack.ScenarioFor(st, nil)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s/step%d/play", l.ID, i+1)
				if g.IsBreak() {
					out = append(out, courseRace{name: name + "-break", sc: base, schedule: g.Schedule})
					continue
				}
				sc, err := lessons.Tuned(base, g.Answer(base))
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, courseRace{name: name + "-fix", sc: sc})
			}
		}
	}
	return out
}

// challengeRaces lists the races of the sandbox's challenges (levels).
func challengeRaces(t *testing.T) []courseRace {
	all, err := challenges.All()
	if err != nil {
		t.Fatal(err)
	}
	var out []courseRace
	for _, c := range all {
		if c.Goal.IsBreak() {
			out = append(out, courseRace{name: c.ID + "-break", sc: c.Race, schedule: c.Goal.Schedule})
			continue
		}
		sc, err := lessons.Tuned(c.Race, c.Goal.Answer(c.Race))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, courseRace{name: c.ID + "-start", sc: c.Race}, courseRace{name: c.ID + "-fix", sc: sc})
	}
	return out
}
