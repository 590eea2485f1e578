package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	glamourstyles "charm.land/glamour/v2/styles"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/quiz"
)

// glamour, the renderer prose replaced, stays here as the reference the
// new one is held to (a test-only dependency: the binary does not link it).

var glamourRenderers = map[[2]any]*glamour.TermRenderer{}

// glamourProse is how prose was rendered before: glamour with the
// package's changes to its styles.
func glamourProse(text, style string, width int) (string, error) {
	rk := [2]any{style, width}
	r, ok := glamourRenderers[rk]
	if !ok {
		cfg, err := glamourConfig(style)
		if err != nil {
			return "", err
		}
		r, err = glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width))
		if err != nil {
			return "", err
		}
		glamourRenderers[rk] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return "", err
	}
	return trimRight(trimBlankEdges(out)), nil
}

func glamourConfig(style string) (ansi.StyleConfig, error) {
	name := style
	if style == NoColor {
		name = glamourstyles.DarkStyle
	}
	base, ok := glamourstyles.DefaultStyles[name]
	if !ok {
		return ansi.StyleConfig{}, fmt.Errorf("no glamour style %q", style)
	}
	cfg := *base
	if style == NoColor {
		dropColours(reflect.ValueOf(&cfg).Elem())
		cfg.Code.Prefix, cfg.Code.Suffix = "`", "`"
		cfg.CodeBlock.Chroma = nil
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	cfg.CodeBlock.Margin = &zero
	return cfg, nil
}

// dropColours clears every Color and BackgroundColor of a style config,
// however deep.
func dropColours(v reflect.Value) {
	switch v.Kind() {
	case reflect.Ptr:
		if !v.IsNil() {
			dropColours(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			name := v.Type().Field(i).Name
			if (name == "Color" || name == "BackgroundColor") && f.Kind() == reflect.Ptr && f.CanSet() {
				f.Set(reflect.Zero(f.Type()))
				continue
			}
			if f.Kind() == reflect.Ptr && !f.IsNil() && f.CanSet() && f.Elem().Kind() == reflect.Struct {
				cp := reflect.New(f.Elem().Type())
				cp.Elem().Set(f.Elem())
				f.Set(cp)
			}
			dropColours(f)
		}
	}
}

// courseTexts is every Markdown text of the built-in course and quiz.
func courseTexts(t *testing.T) []string {
	t.Helper()
	p, err := lessons.Course()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, l := range p.Lessons {
		texts = append(texts, l.Summary...)
		for _, s := range l.Steps {
			texts = append(texts, s.Text, s.Solution, s.Hint, s.Question)
			for _, o := range s.Options {
				texts = append(texts, o.Feedback, o.Label)
			}
		}
	}
	b, err := quiz.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range b.Questions {
		texts = append(texts, q.Text, q.Explanation)
		for _, o := range q.Options {
			texts = append(texts, o.Text)
		}
	}
	var out []string
	for _, s := range texts {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// Markdown the course does not use (yet), drawn as glamour draws it too.
var otherMarkdown = []string{
	"# Title\n\nText under it.\n\n## Second\n\nMore text.",
	"> quoted *text* with `code`\n> on two lines\n\nAfter.",
	"Escapes: \\*not emphasis\\*, a \\`tick\\`, 1\\. and &amp; &lt;tag&gt; &copy;",
	"Nested ***strong emphasis*** and *emphasis with `code` and **strong** in it* here.",
	"A hard  \nbreak and a soft\nbreak, _underscores_ and __double__ ones, snake_case_word.",
	"- outer\n  - inner one\n  - inner two\n- outer two",
	"1. first\n2. second\n\n   continued paragraph",
	"Before\n\n---\n\nAfter the rule.",
	"Trailing spaces   \n\n\n\nMany blank lines.",
	"Unicode: naïve café — “quotes” … 日本語の文章は幅が二つ。",
}

// TestProseMatchesGlamour: every Markdown text of the built-in course and
// quiz, and the elements above, render byte for byte as glamour rendered
// them, in every style, at several widths.
func TestProseMatchesGlamour(t *testing.T) {
	texts := append(courseTexts(t), otherMarkdown...)
	if len(texts) < 400 {
		t.Fatalf("only %d texts: the course was not read", len(texts))
	}
	compared, bad := 0, 0
	for _, style := range []string{"dark", "light", NoColor} {
		for _, w := range []int{24, 61, 100} {
			for _, text := range texts {
				want, err := renderDoc(text, style, w, glamourProse)
				if err != nil {
					t.Fatal(err)
				}
				got, err := renderDoc(text, style, w, prose)
				if err != nil {
					t.Fatal(err)
				}
				compared++
				if got != want {
					bad++
					if bad <= 3 {
						t.Errorf("style %s, width %d:\n%q\nglamour:\n%q\ngot:\n%q", style, w, text, want, got)
					}
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d renderings differ from glamour's", bad, compared)
	}
}
