package level

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// text builds a level's text around any payload, with a right checksum.
func text(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.ChecksumIEEE(data))
	b.Write(sum[:])
	zw, _ := flate.NewWriter(&b, flate.BestCompression)
	zw.Write(data)
	zw.Close()
	return Prefix + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// A level's text is one line of a URL-safe alphabet that decodes to the
// same level, whatever whitespace a slide or a chat put into it.
func TestTextRoundTrips(t *testing.T) {
	for _, src := range []string{breakLevel, fixLevel} {
		l := mustParse(t, src)
		line, err := Encode(l)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(line, Prefix) || strings.ContainsAny(line[len(Prefix):], " \n+/=:.") {
			t.Fatalf("not one URL-safe line: %s", line)
		}
		t.Logf("%s: %d characters", l.Title, len(line))
		for _, pasted := range []string{line, "  " + line + "\n", line[:20] + "\n  " + line[20:40] + " " + line[40:]} {
			back, err := Decode(pasted)
			if err != nil {
				t.Fatalf("%q: %v", pasted, err)
			}
			a, _ := Marshal(l)
			b, _ := Marshal(back)
			if !bytes.Equal(a, b) {
				t.Fatalf("decoded level differs:\n%s\n---\n%s", a, b)
			}
		}
		again, _ := Encode(mustParse(t, src))
		if again != line {
			t.Fatal("the same level encodes to two texts")
		}
	}
}

// Bad or hostile text gets a clear message, never a panic and never
// more work than its bounds: garbage, a huge paste, a decompression bomb,
// terminal escape sequences, a line cut short or changed, a later format.
func TestTextRefusesWhatIsNotALevel(t *testing.T) {
	good, err := Encode(mustParse(t, breakLevel))
	if err != nil {
		t.Fatal(err)
	}
	flipped := []byte(good)
	i := len(flipped) - 10
	if flipped[i] == 'A' {
		flipped[i] = 'B'
	} else {
		flipped[i] = 'A'
	}
	var zeros bytes.Buffer
	zw, _ := flate.NewWriter(&zeros, flate.BestCompression)
	zw.Write(make([]byte, 64<<20)) // 64 MiB of zeros: 64 KiB compressed
	zw.Close()
	bomb := Prefix + base64.RawURLEncoding.EncodeToString(append([]byte{0, 0, 0, 0}, zeros.Bytes()[:min(zeros.Len(), 11000)]...))
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "  \n", "the text is empty"},
		{"garbage", "hello world", `a level starts with clab1:; this starts with "helloworld"`},
		{"a file name", "race.yaml", `this starts with "race.yaml"`},
		{"escape sequence", Prefix + "abc\x1b[31mdef", `character '\x1b' at position 10`},
		{"escape prefix", "\x1b]0;pwned\a" + good, `this starts with "\x1b]0;pwned\a`},
		{"not base64url", Prefix + "abc+def", `character '+' at position 10`},
		{"a later format", "clab2:AAAA", "format clab2, which this conflictlab does not read"},
		{"too short", Prefix + "AAA", "too short"},
		{"cut short", good[:len(good)-30], "cut short"},
		{"changed", string(flipped), "copy it again"},
		{"huge", Prefix + strings.Repeat("A", MaxText+1), "at most 16384"},
		{"huger", strings.Repeat("A", 5*MaxText), "a level is at most 16384 characters"},
		{"bomb", bomb, "decompresses to more than 1 MiB"},
		{"a checksum over nothing a level", text(t, []byte("hello: world\n")), "the level does not load"},
		{"a checksum over control characters", text(t, []byte("name: \x1b[2J\n")), "the level does not load"},
	} {
		l, err := Decode(tc.text)
		if err == nil || l != nil {
			t.Errorf("%s: decoded", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want %q in %q", tc.name, tc.want, err)
		}
		if strings.ContainsAny(err.Error(), "\x1b\a") {
			t.Errorf("%s: the message carries a control character: %q", tc.name, err)
		}
		var te *TextError
		if !errors.As(err, &te) && !strings.Contains(err.Error(), "does not load") {
			t.Errorf("%s: %T", tc.name, err)
		}
	}
}

// A level too big for a line says so, and says what to do instead.
func TestEncodeRefusesAHugeLevel(t *testing.T) {
	l := mustParse(t, breakLevel)
	// Text that does not compress: a description of random letters.
	var b strings.Builder
	x := uint32(1)
	for b.Len() < 3*MaxText {
		x = x*1664525 + 1013904223
		b.WriteByte(byte('a' + x>>24%26))
	}
	l.Race.Description = b.String()
	if _, err := Encode(l); err == nil || !strings.Contains(err.Error(), "share the file instead") {
		t.Fatalf("a level over the cap: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := Encode(mustParseF(f, breakLevel))
	f.Add(good)
	f.Add(Prefix)
	f.Add(Prefix + "AAAAAA")
	f.Add("clab9:x")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Decode(s)
		if err != nil {
			return
		}
		// What decodes encodes again, to a text that decodes.
		line, err := Encode(l)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		if _, err := Decode(line); err != nil {
			t.Fatal(err)
		}
	})
}

func mustParseF(f *testing.F, src string) *Level {
	l, err := Parse("level.yaml", []byte(src))
	if err != nil {
		f.Fatal(err)
	}
	return l
}
