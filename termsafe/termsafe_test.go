package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is every kind of control character a terminal acts on.
const hostile = "a\x1b]0;pwned\x07b\x1b[2Jc\u009b31md\x7fe\x90f\x00g\rh\x08i\u0085j\x1bPq\x1b\\k"

// unsafe reports the first byte or rune of s a terminal could act on.
func unsafe(s string) (rune, bool) {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError)) {
			return rune(s[i]), true
		}
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			return r, true
		}
	}
	return 0, false
}

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name", "plain name"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"é ✗ LOST → 日本", "é ✗ LOST → 日本"},
		{"\x1b]0;title\x07", `\u001b]0;title\u0007`},
		{"\x1b[2J", `\u001b[2J`},
		{"\u009b31m", `\u009b31m`},
		{"del\x7f", `del\u007f`},
		{"cr\rnul\x00", `cr\u000dnul\u0000`},
		{"\u0085nel", `\u0085nel`},
		{"lone \x9b byte", "lone \uFFFD byte"},
		{"cut \xe2\x82", "cut \uFFFD\uFFFD"},
		// Bidirectional controls and invisible format characters.
		{"cm-\u202eabc", `cm-\u202eabc`},
		{"a\u200fb\u200ec\u061cd", `a\u200fb\u200ec\u061cd`},
		{"\u2066iso\u2069\u202a\u202c", `\u2066iso\u2069\u202a\u202c`},
		{"zero\u200bwidth\u200c\u200d\u2060\ufeff", `zero\u200bwidth\u200c\u200d\u2060\ufeff`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"tag\U000e0041", `tag\ue0041`},
		{"line\u2028para\u2029", `line\u2028para\u2029`},
		{"blank\u3164\u115f", `blank\u3164\u115f`},
		// What frames are made of stays as it is.
		{"│ ─ ┌┐└┘ ▶ • … ✓ ✗ ⚠ ↪ › ‹ “q” — –\u00a0", "│ ─ ┌┐└┘ ▶ • … ✓ ✗ ⚠ ↪ › ‹ “q” — –\u00a0"},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	got := Escape(hostile)
	if r, bad := unsafe(got); bad {
		t.Fatalf("Escape(%q) = %q still holds %U", hostile, got, r)
	}
	if !Clean(got) || Clean(hostile) {
		t.Errorf("Clean: escaped %v, hostile %v; want true, false", Clean(got), Clean(hostile))
	}
}

// TestInvisibleEverywhere: a right-to-left override in a name is escaped
// on every path to the terminal: Escape, Clean, the escaping Writer and a
// styled frame.
func TestInvisibleEverywhere(t *testing.T) {
	name := "cm-\u202eevil\u200b"
	if Clean(name) {
		t.Fatal("Clean passes a right-to-left override")
	}
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write([]byte("scenario " + name[:4]))
	w.Write([]byte(name[4:] + "\n"))
	w.Flush()
	if got := b.String(); got != "scenario cm-\\u202eevil\\u200b\n" {
		t.Fatalf("the writer printed %q", got)
	}
	if got := Styled("\x1b[1m" + name + "\x1b[0m"); got != "\x1b[1mcm-\\u202eevil\\u200b\x1b[0m" {
		t.Fatalf("Styled: %q", got)
	}
}

// The escaped form is a valid JSON string escape: escaping encoded JSON
// keeps it valid, and it decodes to the original text.
func TestEscapeKeepsJSON(t *testing.T) {
	in := map[string]string{"name": "x\x1b[2J\u009b31m\x7f\u0085y"}
	enc, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.ContainsRune(string(enc), 0x9b) || !strings.ContainsRune(string(enc), 0x7f) {
		t.Fatalf("encoding/json no longer passes U+009B/DEL raw (%q): this test needs a new witness", enc)
	}
	esc := Escape(string(enc))
	if r, bad := unsafe(esc); bad {
		t.Fatalf("escaped JSON %q still holds %U", esc, r)
	}
	var out map[string]string
	if err := json.Unmarshal([]byte(esc), &out); err != nil {
		t.Fatalf("escaped JSON %q does not parse: %v", esc, err)
	}
	if out["name"] != in["name"] {
		t.Errorf("round trip: got %q, want %q", out["name"], in["name"])
	}
}

// Writing in any chunking gives the same output as escaping the whole.
func TestWriterChunking(t *testing.T) {
	in := "é✗" + hostile + "日本\u009b→"
	want := Escape(in)
	for size := 1; size <= 5; size++ {
		var out bytes.Buffer
		w := NewWriter(&out)
		for i := 0; i < len(in); i += size {
			end := min(i+size, len(in))
			n, err := w.Write([]byte(in[i:end]))
			if err != nil || n != end-i {
				t.Fatalf("chunk %d: Write = %d, %v", size, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("chunks of %d: got %q, want %q", size, out.String(), want)
		}
	}
}

// A rune the output stops in the middle of is not lost silently, nor
// written raw.
func TestWriterFlushIncomplete(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write([]byte("ok \xe2\x82"))
	if out.String() != "ok " {
		t.Fatalf("before Flush: %q, want the incomplete rune held back", out.String())
	}
	w.Flush()
	if out.String() != "ok \uFFFD\uFFFD" {
		t.Errorf("after Flush: %q", out.String())
	}
}

func TestStyledKeepsStyleEscapesTheRest(t *testing.T) {
	bold, reset := "\x1b[1;38;2;1:2:3m", "\x1b[m"
	if got := Styled(bold + "ok" + reset + "\ttab\n"); got != bold+"ok"+reset+"\ttab\n" {
		t.Errorf("a clean frame changed: %q", got)
	}
	in := bold + "name " + hostile + reset + "\x1b[" + reset
	got := Styled(in)
	want := bold + "name " + Escape(hostile) + reset + `\u001b[` + reset
	if got != want {
		t.Errorf("Styled(%q)\n = %q\nwant %q", in, got, want)
	}
}

type shown struct {
	Name   string
	Tags   []string
	Values map[string]any
	Body   json.RawMessage
	Next   *shown
	Any    any
	hidden string
}

func TestDeep(t *testing.T) {
	clean := &shown{Name: "a", Values: map[string]any{"k": []any{"v", 1.0}}}
	if Deep(clean) != clean {
		t.Error("a clean value was copied")
	}
	in := &shown{Name: "n" + hostile, Tags: []string{"ok", "t\x1b[2J"},
		Values: map[string]any{"k\u009b": []any{"v\x07", 1.0, map[string]any{"x": "\x7f"}}},
		Body:   json.RawMessage(`{"a":"` + "\u009b" + `"}`), Any: "\x1b]0;t\x07", hidden: "\x1b"}
	in.Next = in
	out := Deep(in)
	if out == in || in.Name != "n"+hostile || in.Tags[1] != "t\x1b[2J" {
		t.Fatal("Deep changed its argument instead of copying it")
	}
	if out.Next != out {
		t.Error("a cycle was not kept as a cycle")
	}
	vals := out.Values["k"+Escape("\u009b")].([]any)
	for _, got := range []string{out.Name, out.Tags[1], vals[0].(string), vals[2].(map[string]any)["x"].(string),
		string(out.Body), out.Any.(string)} {
		if r, bad := unsafe(got); bad {
			t.Errorf("Deep left %U in %q", r, got)
		}
	}
	if out.Name != "n"+Escape(hostile) || out.Any != Escape("\x1b]0;t\x07") || !json.Valid(out.Body) {
		t.Errorf("Deep: %+v", out)
	}
	if out.hidden != "\x1b" {
		t.Error("an unexported field was not copied as it is")
	}
}

// Writes from several goroutines (a live run's cleanup logging while the
// race prints) neither race nor lose bytes. Run with -race.
func TestWriterConcurrent(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 100; i++ {
				w.Write([]byte("é\x1b"))
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	if want := strings.Repeat(`é\u001b`, 400); out.String() != want {
		t.Errorf("got %d bytes, want %d", out.Len(), len(want))
	}
}
