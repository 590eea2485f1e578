package termsafe

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Writer escapes everything written through it (see Escape) before it
// reaches the wrapped writer. A rune split across two writes is held back
// until it is complete, so escaping does not depend on how the output
// happens to be chunked. It is safe for concurrent use, as the *os.File it
// usually wraps is (a live run logs from its cleanup while the race
// prints).
type Writer struct {
	w       io.Writer
	mu      sync.Mutex
	pending []byte // the start of a multi-byte rune the last write ended in
}

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Unwrap returns the writer underneath, for output that is the program's
// own terminal drawing (the tutorial's screen) rather than text.
func (t *Writer) Unwrap() io.Writer { return t.w }

// Write escapes p and writes it. It reports len(p) on success: the bytes
// held back as an incomplete rune count as written.
func (t *Writer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := p
	if len(t.pending) > 0 {
		buf = append(t.pending, p...)
		t.pending = nil
	}
	// Hold back a trailing incomplete (but so far valid) rune.
	if cut := incompleteTail(buf); cut < len(buf) {
		t.pending = append([]byte(nil), buf[cut:]...)
		buf = buf[:cut]
	}
	s := string(buf)
	if !Clean(s) {
		s = Escape(s)
	}
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a rune still held back as incomplete (as U+FFFD: the
// output ended in the middle of it).
func (t *Writer) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.pending) == 0 {
		return nil
	}
	s := strings.Repeat(string(utf8.RuneError), len(t.pending))
	t.pending = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// incompleteTail returns where a trailing, not yet complete UTF-8 sequence
// starts in b, or len(b) if b does not end in one.
func incompleteTail(b []byte) int {
	// A rune is at most 4 bytes: look at the last 3 for its start.
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < utf8.RuneSelf {
			return len(b) // ASCII: nothing pending
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}
