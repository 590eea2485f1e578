package lessons

import (
	"bytes"
	"io/fs"
	"path"
	"time"
)

// filesFS is a folder of files held in memory, by path (the built-in
// course's files that are not compiled into values).
type filesFS map[string][]byte

func (f filesFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	data, ok := f[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{Reader: bytes.NewReader(data), name: path.Base(name), size: int64(len(data))}, nil
}

type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m, nil }
func (m *memFile) Close() error               { return nil }

// memFile is its own FileInfo: a regular, read-only file.
func (m *memFile) Name() string       { return m.name }
func (m *memFile) Size() int64        { return m.size }
func (m *memFile) Mode() fs.FileMode  { return 0o444 }
func (m *memFile) ModTime() time.Time { return time.Time{} }
func (m *memFile) IsDir() bool        { return false }
func (m *memFile) Sys() any           { return nil }
