package claims

import (
	"strings"
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// TestExploreClaimBudget: an explore claim on a race whose interleavings
// explode fails within the claim's budget, saying why, instead of
// running for minutes and filling the memory (issue 25: over 90 s and
// 559 MB).
func TestExploreClaimBudget(t *testing.T) {
	sc, err := scenario.Load("../../testdata/hostile/explode.yaml")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = Check(lessons.Claim{Explore: &lessons.ExploreClaim{Verdict: "lost", Count: "none"}}, nil,
		func() (*scenario.Scenario, error) { return sc, nil })
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "not proved:") || !strings.Contains(err.Error(), "make the race smaller") {
		t.Fatalf("the claim: %v", err)
	}
	if took > ClaimTimeout+10*time.Second {
		t.Fatalf("the claim took %s", took)
	}
	t.Logf("refused after %s: %v", took.Round(time.Millisecond), err)
}
