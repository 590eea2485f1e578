package gen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

const draws = 200

// Every draw loads, runs in the simulator, and is small; over a few
// hundred seeds every feature of every table is drawn.
func TestDrawsAreValidAndCoverEveryFeature(t *testing.T) {
	seen := map[string]int{}
	verdicts := map[race.Verdict]bool{}
	for seed := uint64(0); seed < draws; seed++ {
		g, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := scenario.Parse("gen.yaml", g.YAML); err != nil {
			t.Fatalf("seed %d: the file does not load: %v\n%s", seed, err, g.YAML)
		}
		out, err := race.Run(g.Scenario, race.Schedule{})
		if err != nil {
			t.Fatalf("seed %d: the race does not run: %v\n%s", seed, err, g.YAML)
		}
		if n := len(g.Scenario.Controllers); n < 2 || n > 3 {
			t.Fatalf("seed %d: %d controllers", seed, n)
		}
		if len(out.Schedule) > g.Scenario.MaxSteps || g.Scenario.MaxSteps > 40 {
			t.Fatalf("seed %d: %d steps, budget %d", seed, len(out.Schedule), g.Scenario.MaxSteps)
		}
		verdicts[out.Verdict] = true
		for _, f := range g.Features {
			seen[f]++
		}
	}
	for _, f := range Features() {
		if seen[f] == 0 {
			t.Errorf("feature %s never drawn in %d seeds", f, draws)
		}
	}
	if len(verdicts) < 4 {
		t.Errorf("only verdicts %v in %d races", verdicts, draws)
	}
}

func TestSameSeedSameFile(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		a, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.YAML, b.YAML) || strings.Join(a.Features, ",") != strings.Join(b.Features, ",") {
			t.Fatalf("seed %d drew twice differently:\n%s\n---\n%s", seed, a.YAML, b.YAML)
		}
	}
	a, _ := Generate(1, Options{})
	b, _ := Generate(2, Options{})
	if bytes.Equal(a.YAML, b.YAML) {
		t.Fatal("seeds 1 and 2 drew the same race")
	}
}

func TestExcludedFeaturesAreNeverDrawn(t *testing.T) {
	ex := []string{"write/apply", "kind/Deployment", "kind/Deployment-probes", "mutation/increment", "odd/none"}
	for seed := uint64(0); seed < 100; seed++ {
		g, err := Generate(seed, Options{Exclude: ex})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range g.Features {
			for _, e := range ex {
				if f == e {
					t.Fatalf("seed %d drew excluded %s", seed, f)
				}
			}
		}
		for _, c := range g.Scenario.Controllers {
			if c.Write == controller.ServerSideApply {
				t.Fatalf("seed %d: controller %s applies", seed, c.Name)
			}
		}
		if g.Scenario.Objects[0].GetKind() == "Deployment" {
			t.Fatalf("seed %d: a Deployment", seed)
		}
	}
	if _, err := Generate(1, Options{Exclude: []string{"write/upsert"}}); err == nil || !strings.Contains(err.Error(), `"write/upsert"`) {
		t.Fatalf("an unknown feature name: %v", err)
	}
	all := []string{}
	for _, f := range Writes.Entries {
		all = append(all, f.Name)
	}
	if _, err := Generate(1, Options{Exclude: all}); err == nil || !strings.Contains(err.Error(), "write") {
		t.Fatalf("every write excluded: %v", err)
	}
}

// Shrink keeps what the predicate needs and drops the rest.
func TestShrinkKeepsOnlyWhatMatters(t *testing.T) {
	applies := func(sc *scenario.Scenario) bool {
		out, err := race.Run(sc, race.Schedule{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range out.Steps {
			if s.Code == 409 && strings.HasPrefix(s.Request, "APPLY") {
				return true
			}
		}
		return false
	}
	shrunk := 0
	for seed := uint64(0); seed < 300 && shrunk < 3; seed++ {
		g, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !applies(g.Scenario) {
			continue
		}
		shrunk++
		small := Shrink(g.Scenario, applies, 500)
		if !applies(small) {
			t.Fatalf("seed %d: the shrunk race lost the property", seed)
		}
		// An apply conflict needs an applier and a field someone else owns
		// (another controller's, or the creator's): one mutation each, no
		// options, a short schedule if any.
		if len(small.Controllers) > 2 || len(small.Schedule) > 4 {
			data, _ := scenario.Marshal(small)
			t.Fatalf("seed %d: not shrunk enough:\n%s", seed, data)
		}
		for _, c := range small.Controllers {
			if len(c.Mutations) != 1 || c.Retry != controller.NoRetry() || c.Reconciles != 1 || c.Lag != nil {
				data, _ := scenario.Marshal(small)
				t.Fatalf("seed %d: controller %s not shrunk enough:\n%s", seed, c.Name, data)
			}
		}
		if _, err := scenario.Marshal(small); err != nil {
			t.Fatal(err)
		}
	}
	if shrunk < 3 {
		t.Fatalf("only %d draws with an apply conflict", shrunk)
	}
}
