package progress

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Strict checks a file given to `progress import` for what decoding lets
// pass: a key given twice in one object (encoding/json keeps the last, so
// a second "lessons": {} would replace every lesson with none), and a
// field the format does not have, at any depth (an answer nested inside
// an answer is ignored by decoding, and the record around it then fails
// for a reason that has nothing to do with the file). Each problem names
// its line and its field as a path into the file. Decode the file first:
// Strict assumes it parses.
func Strict(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	s := strictWalk{dec: dec, data: data}
	return s.value(reflect.TypeOf(Progress{}), "")
}

type strictWalk struct {
	dec  *json.Decoder
	data []byte
}

func (s *strictWalk) fail(path, format string, args ...any) error {
	line := 1 + bytes.Count(s.data[:min(int(s.dec.InputOffset()), len(s.data))], []byte("\n"))
	where := ""
	if path != "" {
		where = path + ": "
	}
	return fmt.Errorf("line %d: %s%s", line, where, fmt.Sprintf(format, args...))
}

// value walks the next value, which is to be of type t.
func (s *strictWalk) value(t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := s.dec.Token()
	if err != nil {
		return s.fail(path, "%v", err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar: decoding checks its type
	}
	switch d {
	case '[':
		for s.dec.More() {
			if err := s.value(elemOf(t), path+"[]"); err != nil {
				return err
			}
		}
		_, err := s.dec.Token()
		return err
	case '{':
		fields := fieldsOf(t)
		seen := map[string]bool{}
		for s.dec.More() {
			tok, err := s.dec.Token()
			if err != nil {
				return s.fail(path, "%v", err)
			}
			k, _ := tok.(string)
			field := k
			if path != "" {
				field = path + "." + k
			}
			if seen[k] {
				return s.fail(path, "%q is given twice", k)
			}
			seen[k] = true
			var next reflect.Type
			switch {
			case t.Kind() == reflect.Map:
				next = t.Elem()
			case fields != nil:
				ft, ok := fields[k]
				if !ok {
					return s.fail(path, "unknown field %q (a progress file has %s)", k, strings.Join(fieldNames(t), ", "))
				}
				next = ft
			}
			if err := s.value(next, field); err != nil {
				return err
			}
		}
		_, err := s.dec.Token()
		return err
	}
	return nil
}

// elemOf is what a list of t holds (nil: not known).
func elemOf(t reflect.Type) reflect.Type {
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		return t.Elem()
	}
	return nil
}

// fieldsOf is a struct's fields by JSON name (nil: not a struct).
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
