package raceview

import (
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// Plan says in one line what a controller will do: where it reads, what
// it changes, how it writes and retries.
func Plan(p controller.Program) string {
	var parts []string
	parts = append(parts, "read "+string(p.Read))
	for _, mu := range p.Mutations {
		parts = append(parts, mu.Describe())
	}
	w := string(p.Write)
	if p.WithRV {
		w += " with RV"
	}
	if p.Force {
		w += " (force)"
	}
	parts = append(parts, w)
	switch r := p.Retry; {
	case r.Unbounded:
		parts = append(parts, "retry forever")
	case r.Attempts > 1:
		on := "409"
		if r.On == controller.OnAnyError {
			on = "any error"
		}
		parts = append(parts, fmt.Sprintf("retry on %s up to %d×, re-read %s", on, r.Attempts-1, orNone(string(r.Reread))))
	}
	return strings.Join(parts, " · ")
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
