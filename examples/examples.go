// Package examples holds the example races, embedded in the binary so that
// `conflictlab examples` and `sim --example NAME` work anywhere, not only in
// a checkout of the repository.
package examples

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

//go:embed *.yaml
var files embed.FS

// Names lists the examples, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// Source is an example's YAML, as in examples/NAME.yaml.
func Source(name string) ([]byte, error) {
	data, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no example %q: `conflictlab examples` lists them (%s)", name, strings.Join(Names(), ", "))
	}
	return data, nil
}

// Load parses an example; its errors name it as examples/NAME.yaml.
func Load(name string) (*scenario.Scenario, error) {
	data, err := Source(name)
	if err != nil {
		return nil, err
	}
	return scenario.Parse("examples/"+name+".yaml", data)
}
