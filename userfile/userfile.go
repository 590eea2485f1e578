// Package userfile reads the files a user names on the command line, in a
// prompt or in a lesson pack: only regular files, never more than a limit.
// A path can name anything — a FIFO that blocks the reader forever, a
// device like /dev/zero that never ends, a folder — and the program must
// answer each with a message, not a hang or a heap of gigabytes.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Sentinels for errors.Is: what was wrong with the file.
var (
	// ErrNotRegular: the path names a FIFO, a device, a folder, a socket…
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the limit.
	ErrTooLarge = errors.New("file too large")
	// ErrOutside: a pack's file lies outside the pack's folder.
	ErrOutside = errors.New("outside the folder")
)

// Error is a file that cannot be used, with its path as the user gave it.
type Error struct {
	Path string
	Msg  string
	// Why is, for ErrOutside, how the path leads out (the message's tail),
	// for callers that name the folder themselves ("… the pack").
	Why string
	Err error
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Read reads the regular file at path, refusing anything else and any file
// larger than limit bytes. It never blocks on a FIFO: the file is opened
// non-blocking and checked (fstat on the opened descriptor, so it cannot
// be swapped in between) before a byte is read.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	defer f.Close()
	return readOpened(path, f, limit)
}

// ReadIn reads name inside root, as Read does; no `..`, absolute path or
// symbolic link may lead out of root (ErrOutside).
func ReadIn(root *os.Root, name string, limit int64) ([]byte, error) {
	if err := checkInside(root, name); err != nil {
		return nil, err
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			// os.Root refuses whatever escapes it, links included: the
			// check above explains the usual cases, this is the backstop.
			return nil, outside(name, causeOf(err))
		}
		return nil, openError(name, err)
	}
	defer f.Close()
	return readOpened(name, f, limit)
}

// ReadFS reads name from fsys, with the checks fs.FS allows: a valid path
// (relative, no `..`), a regular file, at most limit bytes.
func ReadFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, outside(name, "want a path relative to the folder, without .. or a leading /")
	}
	// Stat before Open: opening a FIFO through an fs.FS would block.
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, openError(name, err)
	}
	if err := regular(name, st); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, openError(name, err)
	}
	defer f.Close()
	return readOpened(name, f, limit)
}

// ReadStream reads at most limit bytes of r (standard input), named name
// in messages.
func ReadStream(name string, r io.Reader, limit int64) ([]byte, error) {
	return readLimited(name, r, limit)
}

type statReader interface {
	io.Reader
	Stat() (fs.FileInfo, error)
}

func readOpened(name string, f statReader, limit int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{Path: name, Msg: causeOf(err), Err: err}
	}
	if err := regular(name, st); err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLarge(name, limit)
	}
	return readLimited(name, f, limit)
}

// readLimited reads one byte past the limit, so that a file that grows
// while it is read (or reports no size, as /proc files do) is still caught.
func readLimited(name string, r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &Error{Path: name, Msg: causeOf(err), Err: err}
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, limit)
	}
	return data, nil
}

func regular(name string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return &Error{Path: name, Msg: "not a regular file (" + kindOf(st.Mode()) + "): give the path of a file", Err: ErrNotRegular}
}

// kindOf names what a non-regular file is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a plain file"
}

func tooLarge(name string, limit int64) error {
	return &Error{Path: name, Msg: fmt.Sprintf("larger than %s, the limit for this file", Size(limit)), Err: ErrTooLarge}
}

func outside(name, why string) error {
	return &Error{Path: name, Msg: "must stay inside the folder: " + why, Why: why, Err: ErrOutside}
}

// openError keeps the cause (errors.Is(err, fs.ErrNotExist) still works)
// but says it once, after the path as the user wrote it.
func openError(name string, err error) error {
	return &Error{Path: name, Msg: causeOf(err), Err: err}
}

func causeOf(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// Size writes a byte count the way limits are documented: 1 MiB, 256 KiB.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// maxLinks bounds the symbolic links followed for one name, as the kernel
// does (ELOOP).
const maxLinks = 40

// checkInside walks name one element at a time, resolving symbolic links
// itself, and refuses any that leads out of root: an absolute target, or
// more `..` than there are folders.
func checkInside(root *os.Root, name string) error {
	if name == "" || path.IsAbs(name) || filepath.IsAbs(name) || strings.Contains(name, `\`) {
		return outside(name, "want a path relative to the folder, without .. or a leading /")
	}
	todo := strings.Split(name, "/")
	var done []string
	links := 0
	for len(todo) > 0 {
		elem := todo[0]
		todo = todo[1:]
		switch elem {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return outside(name, "it leads above the folder (through .. or a symbolic link)")
			}
			done = done[:len(done)-1]
			continue
		}
		here := path.Join(append(done, elem)...)
		st, err := root.Lstat(here)
		if err != nil {
			// Missing: Open says so with the right message.
			return nil
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			done = append(done, elem)
			continue
		}
		if links++; links > maxLinks {
			return outside(name, "too many symbolic links")
		}
		target, err := root.Readlink(here)
		if err != nil {
			return openError(name, err)
		}
		target = filepath.ToSlash(target)
		if path.IsAbs(target) || filepath.IsAbs(target) {
			return outside(name, fmt.Sprintf("%s is a symbolic link to %s", here, target))
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return nil
}

// Overwrite replaces the contents of the regular file at path. It never
// blocks on a FIFO nor writes into a device: anything but a regular file
// is refused (ErrNotRegular), as Read refuses it.
func Overwrite(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			// A FIFO without a reader cannot even be opened: say what it is.
			return regular(path, st)
		}
		return openError(path, err)
	}
	st, err := f.Stat()
	if err == nil {
		err = regular(path, st)
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	var ue *Error
	if err != nil && !errors.As(err, &ue) {
		err = &Error{Path: path, Msg: causeOf(err), Err: err}
	}
	return err
}
