package docs

import (
	"reflect"
	"strings"
	"testing"
)

// shellCommands splits shell text into simple commands, each a list of
// words with quotes removed: enough of sh for the commands the documents
// give (quotes, backslash line continuations, comments, ; && || | & and
// parentheses between commands, $( … ), redirections, and the loop
// keywords for/do/done). Redirections and their targets are dropped.
func shellCommands(text string) [][]string {
	text = strings.ReplaceAll(text, "\\\n", " ")
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, word.String())
		}
		word.Reset()
		inWord = false
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			word.WriteString(string(rs[i+1 : min(j, len(rs))]))
			inWord, i = true, j
		case c == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				if rs[j] == '\\' && j+1 < len(rs) {
					j++
				}
				word.WriteRune(rs[j])
				j++
			}
			inWord, i = true, j
		case c == '\\' && i+1 < len(rs):
			i++
			word.WriteRune(rs[i])
			inWord = true
		case c == '#' && !inWord:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			endCmd()
		case c == ' ' || c == '\t':
			endWord()
		case c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == ')':
			endCmd()
		case c == '$' && i+1 < len(rs) && rs[i+1] == '(':
			// A command substitution is a command of its own here.
			endCmd()
			i++
		case c == '>' || c == '<':
			// >FILE, >> FILE, 2>/dev/null, 2>&1: the redirection and its
			// target are dropped.
			if w := word.String(); inWord && (w == "1" || w == "2") {
				word.Reset()
				inWord = false
			}
			endWord()
			if i+1 < len(rs) && rs[i+1] == '>' {
				i++
			}
			if i+1 < len(rs) && rs[i+1] == '&' {
				i += 2 // >&1
				continue
			}
			j := i + 1
			for j < len(rs) && rs[j] == ' ' {
				j++
			}
			for j < len(rs) && !strings.ContainsRune(" \t\n;|&()", rs[j]) {
				j++
			}
			i = j - 1
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	endCmd()
	// The loop keywords: "for x in …" is no command, "do CMD" is CMD.
	var out [][]string
	for _, c := range cmds {
		switch c[0] {
		case "for", "done", "fi", "while", "if":
			continue
		case "do", "then", "else":
			c = c[1:]
		}
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func TestShellCommands(t *testing.T) {
	got := shellCommands(`A=1 B='x y' go test ./sim -run '^$' -bench "Merged/(a|b)$" 2>&1 | tee out.txt  # a comment
for i in $(seq 9); do /usr/bin/time -f "%e s %M KB" conflictlab explore -f race.yaml -o json >/dev/null; done
envtest/envtest.sh run -- \
  go test ./conformance/ -v
GODEBUG=inittrace=1 conflictlab --version 2>&1 | awk '/^init /{t+=$5} END {print t}'
(cd x && go build -o BIN .)`)
	want := [][]string{
		{"A=1", "B=x y", "go", "test", "./sim", "-run", "^$", "-bench", "Merged/(a|b)$"},
		{"tee", "out.txt"},
		{"seq", "9"},
		{"/usr/bin/time", "-f", "%e s %M KB", "conflictlab", "explore", "-f", "race.yaml", "-o", "json"},
		{"envtest/envtest.sh", "run", "--", "go", "test", "./conformance/", "-v"},
		{"GODEBUG=inittrace=1", "conflictlab", "--version"},
		{"awk", "/^init /{t+=$5} END {print t}"},
		{"cd", "x"},
		{"go", "build", "-o", "BIN", "."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
