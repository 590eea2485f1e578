package serve

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func guarded(t *testing.T, in string) string {
	t.Helper()
	out, err := io.ReadAll(iotest.OneByteReader(unpacedGuard(strings.NewReader(in))))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestInputGuard: what a terminal sends passes untouched; a string, a
// control sequence or a paste that never ends is ended at its bound, and
// what follows it is passed on as it came.
func TestInputGuard(t *testing.T) {
	for _, in := range []string{
		"plain keys\r", "\x1b[A\x1b[B\x1b[1;5C", "\x1b]11;rgb:0000/0000/0000\x07", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\",
		"\x1bP>|xterm(390)\x1b\\", "\x1b[200~pasted text\x1b[201~after", "é ✓ 日本", "\x1b\x1b[A", "\x1bq",
	} {
		if got := guarded(t, in); got != in {
			t.Errorf("%q came out as %q", in, got)
		}
	}
	tail := strings.Repeat("k", 10)
	for _, c := range []struct {
		name, start string
		bound       int
		end         string
	}{
		{"OSC", "\x1b]", maxStringSeq, "\x07"},
		{"DCS", "\x1bP", maxStringSeq, "\x07"},
		{"APC", "\x1b_", maxStringSeq, "\x07"},
		{"CSI", "\x1b[", maxCSI, "~"},
		{"paste", "\x1b[200~", maxPaste, pasteEnd},
	} {
		body := strings.Repeat("1", 3*c.bound)
		got := guarded(t, c.start+body+tail)
		want := c.start + body[:c.bound] + c.end + body[c.bound:] + tail
		if got != want {
			t.Errorf("%s: %d bytes out, want %d; ends %q", c.name, len(got), len(want), got[max(0, len(got)-40):])
		}
	}
	// A paste end split across reads is still seen.
	if got := guarded(t, "\x1b[200~abc\x1b[20\x1b[201~z"); got != "\x1b[200~abc\x1b[20\x1b[201~z" {
		t.Errorf("split end: %q", got)
	}
	var b bytes.Buffer
	b.WriteString("\x1b]")
	b.WriteString(strings.Repeat("x", 1<<20))
	if n := strings.Count(guarded(t, b.String()), "\x07"); n != 1 {
		t.Errorf("a megabyte after ESC ]: ended %d times, want once (the rest is keys)", n)
	}
}
