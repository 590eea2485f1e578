package scenario

import (
	"fmt"
	"strings"
)

// Move is one atomic step a schedule takes: a controller's next step, or
// (Deliver) the next watch event delivered to the controller's hand-fed
// informer cache. Schedules are written as tokens — the controller's name,
// or NAME.cache for a delivery — in scenario and lesson files, on the
// command line and in JSON; they are parsed into moves where they come in
// (ParseMove) and written back with String, and a Move marshals as its
// token.
type Move struct {
	Controller string
	Deliver    bool
}

// Step is the move that takes controller name's next step.
func Step(name string) Move { return Move{Controller: name} }

// Deliver is the move that delivers the next watch event to controller
// name's cache.
func Deliver(name string) Move { return Move{Controller: name, Deliver: true} }

// cacheSuffix marks a delivery in a token.
const cacheSuffix = ".cache"

// String is the move's token: "a", or "a.cache" for a delivery.
func (m Move) String() string {
	if m.Deliver {
		return m.Controller + cacheSuffix
	}
	return m.Controller
}

// ParseMove reads a token: a controller's name, or NAME.cache. It checks
// only the form (a name is letters, digits and dashes), not that the
// controller exists.
func ParseMove(token string) (Move, error) {
	name, rest, dotted := strings.Cut(token, ".")
	switch {
	case dotted && rest != "cache":
		return Move{}, fmt.Errorf("%q: want a controller name, or NAME.cache to deliver the next watch event to NAME's informer", token)
	case name == "":
		return Move{}, fmt.Errorf("%q: no controller name", token)
	}
	return Move{Controller: name, Deliver: dotted}, nil
}

// ParseMoves reads a list of tokens.
func ParseMoves(tokens []string) ([]Move, error) {
	if tokens == nil {
		return nil, nil
	}
	out := make([]Move, len(tokens))
	for i, t := range tokens {
		m, err := ParseMove(t)
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

// MustMoves reads a list of tokens that are known to be well formed (a
// test's, a literal's); it panics on a malformed one.
func MustMoves(tokens ...string) []Move {
	out, err := ParseMoves(tokens)
	if err != nil {
		panic(err)
	}
	if out == nil {
		out = []Move{}
	}
	return out
}

// Tokens writes moves as tokens.
func Tokens(moves []Move) []string {
	if moves == nil {
		return nil
	}
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

// MarshalText writes the move's token (JSON and YAML output).
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a token.
func (m *Move) UnmarshalText(b []byte) error {
	mv, err := ParseMove(string(b))
	if err != nil {
		return err
	}
	*m = mv
	return nil
}
