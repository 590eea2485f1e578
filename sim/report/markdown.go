package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Markdown writes a transcript a person can paste into notes or slides: a
// Mermaid sequence diagram of the requests, the version history with lost
// fields marked, and the outcome.
func Markdown(w io.Writer, o *race.Outcome) error {
	fmt.Fprintf(w, "# Race `%s`\n\nTarget `%s`, schedule `%s`.\n\n", o.Scenario, o.Target, strings.Join(scenario.Tokens(o.Schedule), " "))
	fmt.Fprintln(w, "```mermaid\nsequenceDiagram")
	for _, c := range o.Controllers {
		fmt.Fprintf(w, "    participant %s\n", mermaidID(c.Name))
	}
	fmt.Fprintln(w, "    participant API as API server")
	for _, s := range o.Steps {
		id := mermaidID(s.Actor)
		switch s.Kind {
		case race.StepWatch:
			fmt.Fprintf(w, "    API--)%s: watch %s\n", id, s.Event)
		case race.StepLister:
			fmt.Fprintf(w, "    Note over %s: Lister read → %s\n", id, mermaidText(Answer(s)))
		default:
			fmt.Fprintf(w, "    %s->>API: %s\n", id, mermaidText(Call(s)))
			arrow := "-->>"
			if !s.OK() {
				arrow = "--x"
			}
			fmt.Fprintf(w, "    API%s%s: %s\n", arrow, id, mermaidText(Answer(s)))
		}
	}
	for _, l := range o.Lost {
		fmt.Fprintf(w, "    Note over API: LOST %s (%s change, erased by %s)\n", mermaidText(l.Field), mermaidText(Possessive(l.Owner)), mermaidID(l.ErasedBy))
	}
	for _, d := range o.Stale {
		fmt.Fprintf(w, "    Note over API: decided on stale data — %s (%s = %s at RV %s, changed by %s)\n", mermaidText(d.Field),
			mermaidText(d.Basis), mermaidText(compact(d.Read)), d.ReadRV, mermaidID(d.ChangedBy))
	}
	for _, r := range o.BrokenInvariants() {
		fmt.Fprintf(w, "    Note over API: invariant broken — %s\n", mermaidText(InvariantCount(r)))
	}
	fmt.Fprintln(w, "```")
	fmt.Fprintln(w, "\n## Timeline\n\n```text")
	if err := Text(w, o); err != nil {
		return err
	}
	fmt.Fprintln(w, "```")
	return nil
}

func mermaidID(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return '_'
		}
		return r
	}, s)
}

// mermaidText keeps characters Mermaid treats as syntax out of messages.
func mermaidText(s string) string {
	return strings.NewReplacer(";", ",", "#", "no.", ":", " ").Replace(s)
}
