package scenario

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// A controller with `write: code` is played by Go code (package
// simcluster): the code reads, retries and writes as it is written, so of
// the fields that describe a controller written as data only these mean
// something — what it reconciles, what it means to change (mutations,
// optional), its field manager, its workqueue, how many reconciles it
// runs and its informer's lag.
var codeFields = map[string]bool{
	"name": true, "target": true, "mutations": true, "write": true, "fieldManager": true,
	"requeue": true, "reconciles": true, "lag": true,
}

// isCodeEntry reports whether a controller entry says write: code.
func isCodeEntry(f map[string]entry) bool {
	e, ok := f["write"]
	return ok && e.val.Kind == yaml.ScalarNode && controller.WriteMethod(e.val.Value) == controller.Code
}

// codeOptions refuses the fields a code controller has no use for.
func (p *parser) codeOptions(f map[string]entry, field string) {
	for _, k := range controllerFields {
		if e, ok := f[k]; ok && !codeFields[k] {
			p.errorf(e.key, field+"."+k, "%s does not apply to write: code (the code reads, retries and writes as it is written)", k)
		}
	}
}
