// Package report renders a race's outcome for people: an aligned text
// timeline for terminals and slides, a markdown transcript with a Mermaid
// sequence diagram, and the explorer's tally.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/conflictlab/conflictlab/sim/explore"
	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Markers carry meaning without colour (NO_COLOR, printed slides).
const (
	MarkLost        = "✗ LOST"
	MarkOverwritten = "~ overwritten"
)

// Text writes the aligned timeline: one lane per controller, the server's
// answers, and each informer's RV next to the server's.
func Text(w io.Writer, o *race.Outcome) error {
	names := make([]string, len(o.Controllers))
	for i, c := range o.Controllers {
		names[i] = c.Name
	}
	lane := 26
	fmt.Fprintf(w, "race %s · target %s · schedule %s\n\n", o.Scenario, o.Target, strings.Join(scenario.Tokens(o.Schedule), " "))
	header := fmt.Sprintf("%3s %6s  ", "#", "t")
	for _, n := range names {
		header += pad(n, lane)
	}
	header += pad("API server", 26) + pad("server RV", 11) + "caches " + strings.Join(names, "/")
	fmt.Fprintln(w, strings.TrimRight(header, " "))
	for _, s := range o.Steps {
		// Rows are numbered from 1, as the race view numbers them.
		line := fmt.Sprintf("%3d %4dms  ", s.Index+1, s.AtMS)
		for _, n := range names {
			if n == s.Actor {
				line += pad(Call(s), lane)
			} else {
				line += pad("", lane)
			}
		}
		server := ""
		if s.Kind == race.StepRequest {
			server = Answer(s)
		}
		line += pad(server, 26)
		caches := make([]string, len(names))
		for i, n := range names {
			caches[i] = fmt.Sprint(s.CacheRVs[n])
			if s.CacheRVs[n] < s.ServerRV {
				caches[i] += "*"
			}
		}
		line += pad(fmt.Sprint(s.ServerRV), 11) + strings.Join(caches, "/")
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	fmt.Fprintln(w, "\n(* = informer cache behind the server)")
	writeVersions(w, o)
	writeVerdict(w, o)
	return nil
}

func pad(s string, n int) string {
	r := []rune(s)
	if len(r) >= n {
		return string(r[:n-1]) + " "
	}
	return s + strings.Repeat(" ", n-len(r))
}

func writeVersions(w io.Writer, o *race.Outcome) {
	fmt.Fprintln(w, "\nversions")
	for _, v := range o.Versions {
		who := v.Actor
		step := "setup"
		if v.Step >= 0 {
			step = fmt.Sprintf("step %d", v.Step+1)
		}
		del := ""
		if v.Deleted {
			del = "  (deleted)"
		}
		fmt.Fprintf(w, "  RV %-5s %-8s %-8s %s%s\n", v.RV, who, step, v.Request, del)
		for _, c := range v.Changes {
			mark := ""
			for _, l := range o.Lost {
				if l.ErasedRV == v.RV && strings.HasPrefix(c.Path, l.Field) {
					mark = fmt.Sprintf("   %s (%s %q)", MarkLost, Possessive(l.Owner), l.Intended)
				}
			}
			for _, l := range o.Overwritten {
				if l.ErasedRV == v.RV && strings.HasPrefix(c.Path, l.Field) && mark == "" {
					mark = fmt.Sprintf("   %s (%s %q)", MarkOverwritten, Possessive(l.Owner), l.Intended)
				}
			}
			fmt.Fprintf(w, "      %s%s\n", FormatChange(c), mark)
		}
	}
}

// FormatChange renders one field change: "+ data.a: "1"", "- data.a: "1"",
// "~ data.count: "1" → "2"".
func FormatChange(c race.Change) string {
	switch c.Op {
	case race.ChangeAdded:
		return fmt.Sprintf("+ %s: %s", c.Path, compact(c.New))
	case race.ChangeRemoved:
		return fmt.Sprintf("- %s: %s", c.Path, compact(c.Old))
	}
	return fmt.Sprintf("~ %s: %s → %s", c.Path, compact(c.Old), compact(c.New))
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func writeVerdict(w io.Writer, o *race.Outcome) {
	fmt.Fprintf(w, "\noutcome: %s\n", o.Verdict)
	for _, l := range o.Lost {
		if l.ErasedBy == "" {
			// Never written, or never visible: no write erased it.
			fmt.Fprintf(w, "  %s %s — %s\n      %s\n", MarkLost, l.Field, LossWho(l), Reason(l))
			continue
		}
		fmt.Fprintf(w, "  %s %s — %s; erased by %s at step %d (RV %s)\n      %s\n",
			MarkLost, l.Field, LossWho(l), l.ErasedBy, l.ErasedAtStep+1, l.ErasedRV, Reason(l))
	}
	for _, l := range o.Overwritten {
		fmt.Fprintf(w, "  %s %s — %s wanted %q; %s\n", MarkOverwritten, l.Field, l.Owner, l.Intended, Reason(l))
	}
	writeStale(w, o)
	writeInvariants(w, o) // invariant.go
	fmt.Fprintf(w, "\n%-10s %-9s %-16s %8s %7s %9s %7s %8s %6s  %s\n", "controller", "status", "write", "requests", "lister", "conflicts", "retries", "requeues", "errors", "last error")
	for _, c := range o.Controllers {
		fmt.Fprintf(w, "%s\n", strings.TrimRight(fmt.Sprintf("%-10s %-9s %-16s %8d %7d %9d %7d %8d %6d  %s", c.Name, c.Status, c.Write, c.Stats.Requests, c.Stats.ListerReads,
			c.Stats.Conflicts, c.Stats.Retries, c.Stats.Requeues, c.Stats.Errors, firstLine(c.LastError)), " "))
	}
	fmt.Fprintf(w, "total API requests: %d\n", o.Requests)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ExploreText writes the explorer's tally as a bar chart with an example
// schedule per outcome.
func ExploreText(w io.Writer, r *explore.Result) error {
	fmt.Fprintf(w, "explored %s: %d interleavings", r.Scenario, r.Schedules)
	if r.Truncated {
		fmt.Fprint(w, " (stopped at the limit: the tally covers only these)")
	}
	if r.Cancelled {
		fmt.Fprint(w, " (cancelled)")
	}
	fmt.Fprintln(w)
	for _, v := range race.Verdicts {
		n := r.Tally[v]
		if n == 0 {
			continue
		}
		bar := strings.Repeat("█", max(1, n*40/max(1, r.Schedules)))
		fmt.Fprintf(w, "  %-10s %7d %5.1f%%  %s\n", v, n, 100*float64(n)/float64(r.Schedules), bar)
	}
	exploreInvariants(w, r)
	keys := make([]race.Verdict, 0, len(r.Examples))
	for k := range r.Examples {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return rank(keys[i]) < rank(keys[j]) })
	fmt.Fprintln(w, "\nexample schedules (replay with: conflictlab sim -f FILE --schedule …)")
	for _, k := range keys {
		fmt.Fprintf(w, "  %-10s %s\n", k, strings.Join(scenario.Tokens(r.Examples[k]), ","))
	}
	if inv := r.Invariants; inv != nil && inv.Example != nil {
		fmt.Fprintf(w, "  %-10s %s\n", MarkInvariant+" broken", strings.Join(scenario.Tokens(inv.Example), ","))
	}
	return nil
}

// exploreInvariants says, under the tally, how many interleavings break
// an invariant, by verdict, and each invariant's share when there are
// several; nothing when the scenario declares none.
func exploreInvariants(w io.Writer, r *explore.Result) {
	inv := r.Invariants
	if inv == nil {
		return
	}
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(1, r.Schedules)) }
	if inv.Broken == 0 {
		fmt.Fprintln(w, "  no interleaving breaks an invariant")
		return
	}
	fmt.Fprintf(w, "  %s %d of %d interleavings (%.1f%%) break an invariant", MarkInvariant, inv.Broken, r.Schedules, pct(inv.Broken))
	if len(inv.Each) == 1 {
		fmt.Fprintf(w, ": %s\n", InvariantRule(inv.Each[0].Invariant()))
	} else {
		fmt.Fprintln(w, ":")
		for _, e := range inv.Each {
			fmt.Fprintf(w, "      %d (%.1f%%)  %s\n", e.Broken, pct(e.Broken), InvariantRule(e.Invariant()))
		}
	}
	var by []string
	for _, v := range race.Verdicts {
		if n := inv.ByVerdict[v]; n > 0 {
			by = append(by, fmt.Sprintf("%d %s", n, v))
		}
	}
	fmt.Fprintf(w, "      of which %s\n", strings.Join(by, ", "))
}

func rank(v race.Verdict) int {
	for i, x := range race.Verdicts {
		if x == v {
			return i
		}
	}
	return len(race.Verdicts)
}
