package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a scenario file, with the place it was found:
//
//	race.yaml:14: controllers[1].write: unknown write method "upsert" (want one of …)
type Error struct {
	File string
	// Line is 1-based; 0 when the problem is not at any one line.
	Line int
	// Field is the path of the field in the scenario, as
	// `controllers[1].mutations[0].set.path`; empty for the whole file.
	Field string
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem Parse found, in the order of the file. Parse
// returns one (never empty) when it fails; use errors.As to get at the
// places.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// sorted orders the list by line, keeping the order of discovery within a
// line, and drops exact duplicates.
func (l ErrorList) sorted() ErrorList {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Line < l[j].Line })
	out := l[:0]
	seen := map[string]bool{}
	for _, e := range l {
		if s := e.Error(); !seen[s] {
			seen[s] = true
			out = append(out, e)
		}
	}
	return out
}

// suggest returns ` (did you mean "x"?)` when word is a likely misspelling
// of one of the known words.
func suggest(word string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(word), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD > len(word)/2 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Damerau–Levenshtein distance (with adjacent
// transpositions), enough to catch "wirte" for "write".
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// oneOf renders a list of choices: "a, b or c".
func oneOf(choices []string) string {
	switch len(choices) {
	case 0:
		return ""
	case 1:
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}
