package check

import (
	"context"
	"os"
	"testing"

	"github.com/conflictlab/conflictlab/exercises/verdict"
)

// Run is the exercise's test: it proves code in the races of check.yaml
// (in the test's folder, the exercise's) and fails t with the report
// unless every race ends as check.yaml requires. When conflictlab runs
// it, it also writes the verdict as JSON to the file verdict.Env names.
func Run(t *testing.T, code Code) {
	t.Helper()
	v := Prove(context.Background(), ".", code)
	if path := os.Getenv(verdict.Env); path != "" {
		data, err := verdict.Encode(v)
		if err == nil {
			err = os.WriteFile(path, data, 0o600)
		}
		if err != nil {
			t.Fatalf("writing the verdict for conflictlab: %v", err)
		}
	}
	if !v.Pass {
		t.Errorf("\n%s", v.Report)
		return
	}
	t.Logf("\n%s", v.Report)
}
