package level

import (
	"bytes"
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Marshal writes a level file in a fixed layout: title, question, hint,
// goal, then the race as scenario.Marshal writes it. The same level always
// gives the same bytes (the text encoding depends on it), and reading them
// gives the level back.
func Marshal(l *Level) ([]byte, error) {
	if l.Race == nil {
		return nil, fmt.Errorf("a level needs a race")
	}
	raceYAML, err := scenario.Marshal(l.Race)
	if err != nil {
		return nil, err
	}
	var race yaml.Node
	if err := yaml.Unmarshal(raceYAML, &race); err != nil {
		return nil, fmt.Errorf("the race does not read back: %w", err)
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
	}
	for _, f := range []struct{ key, val string }{{"title", l.Title}, {"question", l.Question}, {"hint", l.Hint}} {
		if f.val != "" && !(f.key == "title" && f.val == l.Race.Name) {
			add(f.key, str(f.val))
		}
	}
	if l.Goal != nil {
		g, err := goalNode(l.Goal)
		if err != nil {
			return nil, err
		}
		add("goal", g)
	}
	// The scenario's header comment points at its format's page; in a
	// level it is bytes in every shared line.
	race.HeadComment, race.Content[0].HeadComment = "", ""
	if m := race.Content[0]; len(m.Content) > 0 {
		m.Content[0].HeadComment = ""
	}
	add("race", race.Content[0])
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	// Refuse to write what would not read back.
	if _, err := Parse("level", b.Bytes()); err != nil {
		return nil, fmt.Errorf("the level does not read back: %w", err)
	}
	return b.Bytes(), nil
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func flowStrings(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range items {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// goalNode writes a play goal as a lesson file writes one.
func goalNode(g *lessons.PlayGoal) (*yaml.Node, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
	}
	if g.IsBreak() {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, c := range g.Break {
			n, err := claimNode(c)
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, n)
		}
		add("break", seq)
	} else {
		vs := make([]string, len(g.Fix))
		for i, v := range g.Fix {
			vs[i] = string(v)
		}
		add("fix", flowStrings(vs))
		if len(g.Controllers) > 0 {
			add("controllers", flowStrings(g.Controllers))
		}
		knobs := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range g.Knobs {
			knobs.Content = append(knobs.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: string(k.Name)}, flowStrings(k.Values))
		}
		add("knobs", knobs)
	}
	add("par", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(g.Par)})
	if g.IsBreak() {
		add("schedule", flowStrings(g.Schedule))
	} else {
		settings := &yaml.Node{Kind: yaml.MappingNode}
		for _, c := range sortedControllers(g.Settings) {
			one := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
			for _, k := range lessons.KnobNames {
				if v, ok := g.Settings[c][k]; ok {
					one.Content = append(one.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: string(k)}, str(v))
				}
			}
			settings.Content = append(settings.Content, str(c), one)
		}
		add("settings", settings)
	}
	return m, nil
}

func sortedControllers(s lessons.Settings) []string {
	var out []string
	for c := range s {
		out = append(out, c)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// claimNode writes a claim as ParseClaim reads it. A final claim's
// equals is written even when it is a zero value ("", 0, false), which
// the struct's omitempty would drop.
func claimNode(c lessons.Claim) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(c); err != nil {
		return nil, err
	}
	n.Style = yaml.FlowStyle
	if f := c.Final; f != nil && !f.Absent {
		fin := child(&n, "final")
		if fin != nil && child(fin, "equals") == nil {
			var v yaml.Node
			if err := v.Encode(f.Equals); err != nil {
				return nil, err
			}
			fin.Content = append(fin.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "equals"}, &v)
		}
	}
	return &n, nil
}
