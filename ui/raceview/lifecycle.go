package raceview

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
)

// What the race view says about creates and deletes: a race may make
// objects other than its target (a child, a name created again), so a
// version is titled with its own object's name; a create goes to the
// collection, not to a name; a delete's preconditions are its options'.

// requestPath is the URL path of a step's request: a create POSTs to the
// collection.
func requestPath(target api.Ref, s race.Step) string {
	if s.Verb == api.Create || s.Verb == api.List {
		return strings.TrimSuffix(apiPath(target, "", ""), "/")
	}
	return apiPath(target, report.Object(s), s.Subresource)
}

// listerGot is what a Lister read found, in words.
func listerGot(s race.Step) string {
	if s.Verb == api.List {
		return fmt.Sprintf("%s of the cached objects carry the labels it looks for (%s); the server is at %d",
			listedWord(s.Listed), strings.TrimPrefix(report.Object(s), "LISTER "), s.ServerRV)
	}
	if s.Code == 200 {
		return fmt.Sprintf("the cached copy at RV %s; the server is at %d", s.RV, s.ServerRV)
	}
	return "nothing: the object is not in the cache (for a controller: nothing to do)"
}

func listedWord(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

// lifecyclePrecondition says what a create or a delete asked the server to
// check; ok is false for the other writes.
func lifecyclePrecondition(s race.Step) (string, bool) {
	switch s.Verb {
	case api.Create:
		return "none: a create needs its name to be free (409 AlreadyExists otherwise, which is not a Conflict)", true
	case api.Delete:
		var opts struct {
			Preconditions struct {
				UID string `json:"uid"`
			} `json:"preconditions"`
		}
		_ = json.Unmarshal(s.Body, &opts)
		var parts []string
		if opts.Preconditions.UID != "" {
			parts = append(parts, "uid "+opts.Preconditions.UID+" (the very object that was read, not one created again under its name)")
		}
		if s.SentRV != "" {
			parts = append(parts, "resourceVersion "+s.SentRV+" (unchanged since it was read)")
		}
		if len(parts) == 0 {
			return "none: the server deletes whatever has that name now", true
		}
		return "DeleteOptions preconditions: " + strings.Join(parts, " and ") + "; the server refuses the delete (409) otherwise", true
	}
	return "", false
}
