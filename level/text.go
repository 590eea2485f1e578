package level

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"

	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/userfile"
)

// A level as text is one line: the prefix "clab1:" (the format's
// version), then base64url, without padding, of a CRC-32 (IEEE, big
// endian) of the level file as Marshal writes it, followed by that file
// compressed with DEFLATE. Only letters, digits, '-' and '_' follow the
// prefix, so the line survives a chat, a slide, a shell and a URL; the
// checksum tells a line cut short or mistyped from a level.
const Prefix = "clab1:"

// Bounds on a level's text. A sandbox level (one object, up to four
// controllers) is 0.5 to 2 KB of text; the course's largest race would be
// under 3 KB.
const (
	// MaxText bounds the line, in characters (whitespace in it — line
	// breaks a slide or a chat added — is not counted).
	MaxText = 16 << 10
	// MaxDecoded bounds what the line decompresses to: a level file's
	// own cap. A line that inflates past it (a decompression bomb) is
	// refused as soon as it does, before it is read further.
	MaxDecoded = scenario.MaxFileSize
)

// Encode writes a level as one line of text.
func Encode(l *Level) (string, error) {
	data, err := Marshal(l)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.ChecksumIEEE(data))
	b.Write(sum[:])
	zw, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := zw.Write(data); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	text := Prefix + base64.RawURLEncoding.EncodeToString(b.Bytes())
	if len(text) > MaxText {
		return "", fmt.Errorf("the level is %d characters as text, more than the %d a level may be: share the file instead (conflictlab sandbox -f FILE opens it)", len(text), MaxText)
	}
	return text, nil
}

// TextError says why a text is not a level.
type TextError struct{ Msg string }

func (e *TextError) Error() string { return "not a level: " + e.Msg }

func textErr(format string, args ...interface{}) error {
	return &TextError{Msg: fmt.Sprintf(format, args...)}
}

// Decode reads a level from its text, as Encode writes it. Whitespace in
// the text is ignored (a slide may have broken the line); anything else
// that is not part of a level is refused with a message that quotes it
// safely (a terminal escape sequence comes out as \x1b), before anything
// is decompressed.
func Decode(text string) (*Level, error) {
	raw, err := Payload(text)
	if err != nil {
		return nil, err
	}
	if len(raw) < 5 {
		return nil, textErr("it is too short: copy the whole line, from %s to its end", Prefix)
	}
	want := binary.BigEndian.Uint32(raw[:4])
	data, err := inflate(raw[4:])
	if err != nil {
		return nil, err
	}
	if crc32.ChecksumIEEE(data) != want {
		return nil, textErr("its checksum does not match: the line was cut short or changed; copy it again, whole")
	}
	l, err := Parse("level", data)
	if err != nil {
		// The text was a level once (its checksum holds), but not one
		// this conflictlab reads.
		return nil, fmt.Errorf("the level does not load: %w", err)
	}
	return l, nil
}

// Payload checks a level's text and returns the bytes its base64 holds.
func Payload(text string) ([]byte, error) {
	// Counted before anything else: a huge paste is refused whole.
	if len(text) > 4*MaxText {
		return nil, textErr("%s long: a level is at most %d characters", userfile.Size(int64(len(text))), MaxText)
	}
	compact := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r':
			return -1
		}
		return r
	}, text)
	if compact == "" {
		return nil, textErr("the text is empty: a level starts with %s", Prefix)
	}
	if len(compact) > MaxText {
		return nil, textErr("%d characters: a level is at most %d", len(compact), MaxText)
	}
	if !strings.HasPrefix(compact, Prefix) {
		if v, ok := otherVersion(compact); ok {
			return nil, textErr("it is in format %s, which this conflictlab does not read (it reads %s): update conflictlab", v, strings.TrimSuffix(Prefix, ":"))
		}
		return nil, textErr("a level starts with %s; this starts with %s", Prefix, quoteStart(compact))
	}
	body := compact[len(Prefix):]
	for i, r := range body {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return nil, textErr("character %s at position %d is not part of a level (after %s come only letters, digits, - and _)",
				strconv.QuoteRune(r), len(Prefix)+i+1, Prefix)
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return nil, textErr("it is cut short or changed (%v): copy it again, whole", err)
	}
	return raw, nil
}

// otherVersion recognises another version of the format: "clab2:…".
func otherVersion(s string) (string, bool) {
	if !strings.HasPrefix(s, "clab") {
		return "", false
	}
	v, _, ok := strings.Cut(s[len("clab"):], ":")
	if !ok || v == "" || len(v) > 4 {
		return "", false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	return "clab" + v, true
}

// quoteStart quotes the first few characters of a text, escaped.
func quoteStart(s string) string {
	r := []rune(s)
	if len(r) > 12 {
		return strconv.Quote(string(r[:12])) + "…"
	}
	return strconv.Quote(s)
}

// inflate decompresses at most MaxDecoded bytes.
func inflate(z []byte) ([]byte, error) {
	zr := flate.NewReader(bytes.NewReader(z))
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, MaxDecoded+1))
	switch {
	case len(data) > MaxDecoded:
		return nil, textErr("it decompresses to more than %s, the most a level may be", userfile.Size(MaxDecoded))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, textErr("it is cut short or changed: copy it again, whole, from %s to its last character", Prefix)
	case err != nil:
		return nil, textErr("it is damaged (%v): copy it again, whole", err)
	}
	return data, nil
}
