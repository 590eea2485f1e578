package markdown

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/snippets"
)

// chroma, which drew the code before lexGo and codeStyles, stays here as
// their reference (a test-only dependency).

var chromaKinds = map[tokenKind]chroma.TokenType{
	tokText: chroma.Text, tokError: chroma.Error, tokComment: chroma.CommentSingle,
	tokCommentMultiline: chroma.CommentMultiline, tokKeyword: chroma.Keyword,
	tokKeywordConstant: chroma.KeywordConstant, tokKeywordDeclaration: chroma.KeywordDeclaration,
	tokKeywordNamespace: chroma.KeywordNamespace, tokKeywordType: chroma.KeywordType,
	tokNameBuiltin: chroma.NameBuiltin, tokNameFunction: chroma.NameFunction, tokNameOther: chroma.NameOther,
	tokNumber: chroma.LiteralNumber, tokNumberBin: chroma.LiteralNumberBin, tokNumberFloat: chroma.LiteralNumberFloat,
	tokNumberHex: chroma.LiteralNumberHex, tokNumberInteger: chroma.LiteralNumberInteger,
	tokNumberOct: chroma.LiteralNumberOct, tokString: chroma.LiteralString, tokStringChar: chroma.LiteralStringChar,
	tokOperator: chroma.Operator, tokPunctuation: chroma.Punctuation,
}

var chromaStyleNames = map[string]string{"dark": "monokai", "light": "github"}

// chromaTokens is what chroma's Go lexer, coalesced, makes of src.
func chromaTokens(t *testing.T, src string) []token {
	t.Helper()
	it, err := chroma.Coalesce(lexers.Get("go")).Tokenise(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[chroma.TokenType]tokenKind{}
	for k, ct := range chromaKinds {
		kinds[ct] = k
	}
	var out []token
	for _, tok := range it.Tokens() {
		k, ok := kinds[tok.Type]
		if !ok {
			t.Fatalf("chroma made a %s token (%q) that lexGo has no kind for", tok.Type, tok.Value)
		}
		out = append(out, token{k, tok.Value})
	}
	return out
}

// goSources is every Go file of the repository and every snippet of the
// course, the code the code pane draws and then some.
func goSources(t *testing.T) map[string]string {
	t.Helper()
	srcs := map[string]string{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "sim" || d.Name() == "conformance" || d.Name() == "envtest") {
			// Enough code to hold every rule, without the slowest part
			// of the test: chroma lexing the whole simulator.
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			srcs[path] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := snippets.All()
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range all {
		srcs["snippet "+name] = src
	}
	// The code pane shows a snippet without its comments before the
	// question is answered.
	for name, src := range all {
		srcs["snippet without comments "+name] = lessons.SnippetBeforeAnswer(src)
	}
	return srcs
}

// TestGoLexerMatchesChroma: lexGo cuts the repository's Go files (but
// the simulator's) and every snippet into the tokens chroma's Go lexer does, and so does
// it for each line of a snippet on its own (a line cut from its context:
// unterminated strings and comments).
func TestGoLexerMatchesChroma(t *testing.T) {
	srcs := goSources(t)
	if len(srcs) < 100 {
		t.Fatalf("only %d Go sources found", len(srcs))
	}
	extra := []string{"x := 0x1F + 0b101 + 017 + 089 + 1.5e-3 + .5 + 2i + 1e9i + 'a' + '\\n' + '\\x41' + '\\u00e9' + '\\101'",
		"s := `raw\nstring` + \"esc\\\"aped\\\\\" // end", "/* a\n * b */ x", "a &^= b; c <- d; e... ; f >>= 1",
		"naïve := ünïcode(λ) // …", "#!@$?", "\"unterminated\nx", "`unterminated", "'ab'", "print  (x)"}
	for i, s := range extra {
		srcs[fmt.Sprintf("extra %d", i)] = s
	}
	compared := 0
	for name, src := range srcs {
		var units []string
		if len(src) < 32<<10 {
			// Past 8 KB chroma cuts a run of one kind of token in two
			// (its coalescer stops there); no snippet is that long.
			units = append(units, strings.TrimRight(src, "\n"))
		}
		if !strings.HasSuffix(name, ".go") {
			units = append(units, strings.Split(src, "\n")...)
		}
		for _, u := range units {
			got := lexGo(u)
			want := chromaTokens(t, u)
			// chroma gives each regular expression 250 ms (regexp2's
			// MatchTimeout) and takes a rule that timed out for one that
			// does not match: on a loaded machine a long file can come
			// out differently from one run to the next. A difference
			// counts when chroma makes it three times.
			for try := 1; try < 3 && fmt.Sprint(want) != fmt.Sprint(got); try++ {
				want = chromaTokens(t, u)
			}
			compared++
			if fmt.Sprint(want) != fmt.Sprint(got) {
				for i := range min(len(want), len(got)) {
					if want[i] != got[i] {
						t.Fatalf("%s: token %d is %+v, chroma's %+v\nin %q", name, i, got[i], want[i], u[:min(len(u), 400)])
					}
				}
				t.Fatalf("%s: %d tokens, chroma %d\nin %q", name, len(got), len(want), u[:min(len(u), 400)])
			}
		}
	}
	t.Logf("%d sources and lines compared", compared)
}

// TestCodeStylesMatchChroma: each token kind has the colour, bold and
// italic chroma's monokai (dark) and github (light) styles give it.
func TestCodeStylesMatchChroma(t *testing.T) {
	for style, name := range chromaStyleNames {
		cs := chromastyles.Get(name)
		for k := tokenKind(0); k < numTokenKinds; k++ {
			e := cs.Get(chromaKinds[k])
			want := codeStyle{colour: "", bold: e.Bold == chroma.Yes, italic: e.Italic == chroma.Yes}
			if e.Colour.IsSet() {
				want.colour = e.Colour.String()
			}
			if got := codeStyles[style][k]; got != want {
				t.Errorf("%s, %s: %+v, chroma's %s gives %+v", style, chromaKinds[k], got, name, want)
			}
		}
	}
}
