package race

import (
	"encoding/json"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// listLine is the request line of a LIST a create makes to look for its
// children, and how many of the listed objects it found: "LIST
// configmaps app=web" (a live LIST), "LISTER configmaps app=web" (its
// cache's).
func listLine(kind StepKind, act controller.Action, resp api.Response) (string, int) {
	info, _ := api.Lookup(act.Request.Ref.Kind)
	verb := "LIST"
	if kind == StepLister {
		verb = "LISTER"
	}
	line := verb + " " + info.Resource.Resource
	if len(act.Selector) > 0 {
		line += " " + controller.SelectorString(act.Selector)
	}
	n := 0
	for _, it := range resp.Items {
		if controller.Matches(it, act.Selector) {
			n++
		}
	}
	return line, n
}

// sentPreconditions are the preconditions of a DELETE's options.
type sentPreconditions struct{ rv, uid string }

func deletePreconditions(r api.Request) sentPreconditions {
	var opts struct {
		Preconditions struct {
			UID             string `json:"uid"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"preconditions"`
	}
	if len(r.Body) == 0 || json.Unmarshal(r.Body, &opts) != nil {
		return sentPreconditions{}
	}
	return sentPreconditions{rv: opts.Preconditions.ResourceVersion, uid: opts.Preconditions.UID}
}

// generatedLine is the request line of a create whose name the server
// generates: "CREATE child-*".
func generatedLine(r api.Request) string {
	var obj struct {
		Metadata struct {
			GenerateName string `json:"generateName"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(r.Body, &obj)
	return "CREATE " + obj.Metadata.GenerateName + "*"
}
