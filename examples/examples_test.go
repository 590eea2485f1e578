package examples

import (
	"os"
	"path/filepath"
	"testing"
)

// Every file in the folder is embedded and parses, and a name that is not
// an example says which ones are.
func TestEveryExampleIsEmbeddedAndLoads(t *testing.T) {
	onDisk, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(Names()) != len(onDisk) || len(onDisk) == 0 {
		t.Fatalf("%d embedded, %d on disk", len(Names()), len(onDisk))
	}
	for _, n := range Names() {
		sc, err := Load(n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		want, _ := os.ReadFile(n + ".yaml")
		got, _ := Source(n)
		if string(got) != string(want) || sc.Name == "" {
			t.Errorf("%s: embedded copy differs from the file", n)
		}
	}
	if _, err := Load("nope"); err == nil {
		t.Fatal("an unknown example loaded")
	}
}
