package snippets

import (
	"errors"
	"fmt"
	"io/fs"
)

// PackFiles is the part of a lesson pack that can hand out its own files
// (lessons.Pack has this method).
type PackFiles interface {
	Snippet(name string) ([]byte, error)
}

// Resolve returns the code a lesson's `code:` names: a snippet of this
// library, or else a file of the lesson pack (a path inside its folder), so
// that an instructor's pack can show its own code.
func Resolve(name string, pack PackFiles) (string, error) {
	if s, err := Get(name); err == nil {
		return s, nil
	}
	if pack != nil {
		data, err := pack.Snippet(name)
		if err == nil {
			return string(data), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
			return "", err
		}
	}
	return "", fmt.Errorf("code %q: no snippet of that name (lessons/snippets) and no such file in the pack", name)
}
