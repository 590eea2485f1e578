package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, where the documents are.
const root = ".."

func readDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fence is a fenced block of a Markdown document: its info string, its
// text and the line it starts on.
type fence struct {
	info string
	text string
	line int
}

// fences returns the document's fenced blocks (``` only, as the
// documents write them).
func fences(doc string) []fence {
	var out []fence
	var cur *fence
	var body []string
	for i, l := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(l)
		if !strings.HasPrefix(trimmed, "```") {
			if cur != nil {
				body = append(body, l)
			}
			continue
		}
		if cur == nil {
			cur = &fence{info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: i + 1}
			body = nil
			continue
		}
		cur.text = strings.Join(body, "\n")
		out = append(out, *cur)
		cur = nil
	}
	return out
}

// span is a code span of a Markdown document's prose (outside fences) and
// the line it is on.
type span struct {
	text string
	line int
}

var codeSpan = regexp.MustCompile("`([^`\n]+)`")

// spans returns the code spans outside fenced blocks. In a table a pipe
// inside a span is written \|; it is given back as |.
func spans(doc string) []span {
	var out []span
	in := false
	for i, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		if in {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
			out = append(out, span{text: strings.ReplaceAll(m[1], `\|`, "|"), line: i + 1})
		}
	}
	return out
}

var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

// links returns the relative targets of the document's Markdown links.
func links(doc string) []span {
	var out []span
	for i, l := range strings.Split(doc, "\n") {
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			if strings.Contains(m[1], "://") {
				continue
			}
			out = append(out, span{text: m[1], line: i + 1})
		}
	}
	return out
}
