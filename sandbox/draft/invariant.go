package draft

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// An invariant is edited as one line, as a file's is read
// (docs/scenario-format.md, "Invariants"):
//
//	name cm1 is 1: cm1 must survive
//	selector app=web is 1: the parent needs exactly one child
//	Widget namespace team-a selector tier in (db, cache) is 0: nothing old is left
//
// The kind is left out when it is the race's object's, the namespace when
// it is the default one.

// InvariantSyntax is the grammar in short, shown where an invariant is
// typed.
const InvariantSyntax = "[KIND] [namespace NS] name NAME | selector SELECTOR  is N: WHY  (what must be true when the race ends, and why)"

// FormatInvariant writes an invariant in the editor's syntax.
func FormatInvariant(inv scenario.Invariant, sc *scenario.Scenario) string {
	var b strings.Builder
	if inv.Kind != "" && inv.Kind != Kind(sc) {
		b.WriteString(string(inv.Kind) + " ")
	}
	if ns := inv.InNamespace(); ns != scenario.DefaultNamespace {
		b.WriteString("namespace " + ns + " ")
	}
	if inv.Name != "" {
		b.WriteString("name " + inv.Name)
	} else {
		b.WriteString("selector " + inv.Selector)
	}
	fmt.Fprintf(&b, " is %d: %s", inv.Is, inv.Why)
	return b.String()
}

// ParseInvariant reads an invariant in the editor's syntax; the scenario
// format's checks (a selector that parses, a count in range) are the
// file's, run when the race is checked.
func ParseInvariant(s string, sc *scenario.Scenario) (scenario.Invariant, error) {
	inv := scenario.Invariant{Kind: Kind(sc), Namespace: scenario.DefaultNamespace}
	rule, why, ok := strings.Cut(s, ":")
	why = strings.TrimSpace(why)
	if !ok || why == "" {
		return inv, fmt.Errorf("an invariant ends with : WHY, what breaking it means (\"cm1 must survive\")")
	}
	inv.Why = why
	rule = strings.TrimSpace(rule)
	i := strings.LastIndex(rule, " is ")
	if i < 0 {
		return inv, fmt.Errorf("an invariant says how many there must be: … is N: WHY")
	}
	n, err := strconv.Atoi(strings.TrimSpace(rule[i+4:]))
	if err != nil || n < 0 {
		return inv, fmt.Errorf("is %q: want a count, 0 or more", strings.TrimSpace(rule[i+4:]))
	}
	inv.Is = n
	rule = strings.TrimSpace(rule[:i])
	word, rest, _ := strings.Cut(rule, " ")
	if _, known := api.Lookup(api.Kind(word)); known {
		inv.Kind = api.Kind(word)
		word, rest, _ = strings.Cut(strings.TrimSpace(rest), " ")
	}
	if word == "namespace" {
		ns, more, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if ns == "" {
			return inv, fmt.Errorf("namespace needs a name")
		}
		inv.Namespace = ns
		word, rest, _ = strings.Cut(strings.TrimSpace(more), " ")
	}
	rest = strings.TrimSpace(rest)
	switch word {
	case "name":
		if rest == "" || strings.Contains(rest, " ") {
			return inv, fmt.Errorf("name needs the object's name, one word")
		}
		inv.Name = rest
	case "selector":
		if rest == "" {
			return inv, fmt.Errorf("selector needs a label selector, as kubectl -l takes it (app=web)")
		}
		inv.Selector = rest
	default:
		return inv, fmt.Errorf("%q: an invariant counts the object of a name (name cm1 is 1: …) or those a selector matches (selector app=web is 1: …)", word)
	}
	return inv, nil
}

// SetInvariant replaces invariant i of sc (or, with i == len, adds one)
// with the one the line says, if the race is still valid with it.
func SetInvariant(sc *scenario.Scenario, i int, line string) error {
	inv, err := ParseInvariant(line, sc)
	if err != nil {
		return err
	}
	cand := Clone(sc)
	cand.Invariants = append([]scenario.Invariant(nil), sc.Invariants...)
	if i >= len(cand.Invariants) {
		if len(cand.Invariants) >= scenario.LimitInvariants {
			return fmt.Errorf("a race has at most %d invariants", scenario.LimitInvariants)
		}
		cand.Invariants = append(cand.Invariants, inv)
	} else {
		cand.Invariants[i] = inv
	}
	if err := Check(cand); err != nil {
		return err
	}
	sc.Invariants = cand.Invariants
	return nil
}

// RemoveInvariant drops invariant i.
func RemoveInvariant(sc *scenario.Scenario, i int) {
	sc.Invariants = append(sc.Invariants[:i:i], sc.Invariants[i+1:]...)
}
