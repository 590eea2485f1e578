package statekey

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Transcript is an Encoder that keeps what is written as text, one write
// a line: for tests, which compare the encodings of two states, and for
// reading what a state key covers.
type Transcript struct {
	b strings.Builder
}

var _ Encoder = (*Transcript)(nil)

// Int writes a number.
func (t *Transcript) Int(n int64) { fmt.Fprintf(&t.b, "int %d\n", n) }

// Text writes a string.
func (t *Transcript) Text(s string) { fmt.Fprintf(&t.b, "text %q\n", s) }

// Object writes an object's content as JSON.
func (t *Transcript) Object(u *unstructured.Unstructured) {
	if u == nil {
		t.b.WriteString("object nil\n")
		return
	}
	b, err := json.Marshal(u.Object)
	if err != nil {
		fmt.Fprintf(&t.b, "object (unmarshallable: %v)\n", err)
		return
	}
	fmt.Fprintf(&t.b, "object %s\n", b)
}

// String is everything written so far.
func (t *Transcript) String() string { return t.b.String() }

// Encode is the transcript of what write writes.
func Encode(write func(Encoder)) string {
	var t Transcript
	write(&t)
	return t.String()
}
