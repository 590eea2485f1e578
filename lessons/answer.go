package lessons

import (
	"go/scanner"
	"go/token"
	"strings"
)

// SnippetBeforeAnswer is the code a step shows while its question is still
// open: the snippet without any Go comment. The course comments its
// snippets to explain them once the answer is in ("// DEFECT: no bound", a
// doc comment naming the anti-pattern, a remark on what a patch carries);
// before the answer each of those is the answer. Every comment goes, not
// just the marked ones, so that the presence of a comment gives nothing
// away either. Lines that held only a comment disappear; a "//" inside a
// string stays (the Go scanner tells them apart).
func SnippetBeforeAnswer(src string) string {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, scanner.ScanComments)
	var b strings.Builder
	last := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		off := file.Offset(pos)
		b.WriteString(src[last:off])
		// A block comment's line breaks are kept so lines stay aligned
		// with the original for the comment-only test below.
		b.WriteString(strings.Repeat("\n", strings.Count(lit, "\n")))
		last = off + len(lit)
	}
	b.WriteString(src[last:])
	orig := strings.Split(src, "\n")
	stripped := strings.Split(b.String(), "\n")
	out := make([]string, 0, len(stripped))
	for i, l := range stripped {
		l = strings.TrimRight(l, " \t")
		if l == "" && i < len(orig) && strings.TrimSpace(orig[i]) != "" {
			continue // the line held only a comment
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
