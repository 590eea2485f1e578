// Package progress stores how far a learner has come through the course:
// which lessons are started or done, the answers given, and where to
// continue. It lives in one JSON file under the XDG state directory,
// written atomically so that a crash mid-write never leaves half a file,
// and a file that cannot be read is moved aside (never silently lost)
// rather than stopping the tutorial.
package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/conflictlab/conflictlab/userfile"
)

// FormatVersion is the version of the file format this build writes.
const FormatVersion = 1

// FileName is the progress file's name inside the state directory.
const FileName = "progress.json"

// AppDir is the application's folder inside the state directory.
const AppDir = "conflictlab"

// Progress is the whole file.
type Progress struct {
	Version int `json:"version"`
	// Last is the ID of the lesson the learner was last in, for "continue".
	Last    string             `json:"last,omitempty"`
	Lessons map[string]*Lesson `json:"lessons"`
	// Quiz is the best quiz score per topic (QuizKey), added after the
	// first release: files without it load as no quiz taken, and builds
	// that predate it ignore it.
	Quiz map[string]*QuizBest `json:"quiz,omitempty"`
	// Challenges are the sandbox's challenges solved, by challenge ID,
	// added the same way: builds that predate it ignore it.
	Challenges map[string]*Challenge `json:"challenges,omitempty"`
	// Exercises are the code exercises passed, by their folder
	// ("01-retry-fresh-read"), added the same way.
	Exercises map[string]*Exercise `json:"exercises,omitempty"`
}

// Exercise is a code exercise's record: its check passed once.
type Exercise struct {
	Passed bool `json:"passed"`
}

// RecordExercise marks the exercise passed; it reports whether it was
// not before.
func (p *Progress) RecordExercise(id string) bool {
	if p.Exercises == nil {
		p.Exercises = map[string]*Exercise{}
	}
	if e := p.Exercises[id]; e != nil && e.Passed {
		return false
	}
	p.Exercises[id] = &Exercise{Passed: true}
	return true
}

// ExercisePassed reports whether the exercise's check passed once.
func (p *Progress) ExercisePassed(id string) bool {
	e := p.Exercises[id]
	return e != nil && e.Passed
}

// Challenge is a sandbox challenge's best result.
type Challenge struct {
	// Best is the lowest score reached: steps to break a race, settings
	// changed to fix one.
	Best int `json:"best"`
}

// RecordChallenge keeps score as the challenge's best if it beats the one
// stored; it reports whether it did (a first solve counts).
func (p *Progress) RecordChallenge(id string, score int) bool {
	if p.Challenges == nil {
		p.Challenges = map[string]*Challenge{}
	}
	if c, ok := p.Challenges[id]; ok && c.Best <= score {
		return false
	}
	p.Challenges[id] = &Challenge{Best: score}
	return true
}

// QuizAll is the Quiz key of a quiz drawn from every question.
const QuizAll = "all"

// QuizKey is the Quiz key for a topic ("" is every question).
func QuizKey(topic string) string {
	if topic == "" {
		return QuizAll
	}
	return topic
}

// QuizBest is the best finished quiz on one topic.
type QuizBest struct {
	Right int `json:"right"`
	Total int `json:"total"`
	// Taken counts the quizzes finished on the topic.
	Taken int `json:"taken"`
}

// beats reports whether right/total is better than b: a higher share
// right, or the same share over more questions.
func (b QuizBest) beats(right, total int) bool {
	if b.Total == 0 {
		return true
	}
	l, r := right*b.Total, b.Right*total
	return l > r || l == r && total > b.Total
}

// RecordQuiz notes a finished quiz of total questions on topic with right
// answers right, and reports whether it is the topic's new best.
func (p *Progress) RecordQuiz(topic string, right, total int) bool {
	if total <= 0 {
		return false
	}
	if p.Quiz == nil {
		p.Quiz = map[string]*QuizBest{}
	}
	k := QuizKey(topic)
	b, ok := p.Quiz[k]
	if !ok {
		b = &QuizBest{}
		p.Quiz[k] = b
	}
	b.Taken++
	if !b.beats(right, total) {
		return false
	}
	b.Right, b.Total = right, total
	return true
}

// QuizBestOf returns the best quiz on topic ("" is every question).
func (p *Progress) QuizBestOf(topic string) (QuizBest, bool) {
	b, ok := p.Quiz[QuizKey(topic)]
	if !ok || b == nil {
		return QuizBest{}, false
	}
	return *b, true
}

// Lesson is one lesson's progress.
type Lesson struct {
	// Step is the index of the step to continue at.
	Step int  `json:"step"`
	Done bool `json:"done"`
	// Answers are the question steps answered, by step index.
	Answers map[int]Answer `json:"answers,omitempty"`
}

// Answer records how a question step went.
type Answer struct {
	Attempts int `json:"attempts"`
	// Correct: the step was eventually answered right.
	Correct bool `json:"correct"`
	// FirstTry: the first answer given was right (what the score counts).
	FirstTry bool `json:"firstTry"`
	// Picked is the option (by ID) of that first answer, so a step
	// revisited can say what was predicted. Added after the first
	// release: files without it load as not known.
	Picked string `json:"picked,omitempty"`
	// Best is a play step's fewest moves (break) or changes (fix) in a
	// solution so far; 0 when it is not solved. FirstTry, for a play
	// step, means its first solution was at par.
	Best int `json:"best,omitempty"`
}

// State is a lesson's place in the course.
type State int

const (
	NotStarted State = iota
	InProgress
	Done
)

func (s State) String() string {
	switch s {
	case InProgress:
		return "in progress"
	case Done:
		return "done"
	}
	return "not started"
}

// New returns empty progress.
func New() *Progress { return &Progress{Version: FormatVersion, Lessons: map[string]*Lesson{}} }

// StateOf returns a lesson's state.
func (p *Progress) StateOf(id string) State {
	l, ok := p.Lessons[id]
	switch {
	case !ok:
		return NotStarted
	case l.Done:
		return Done
	}
	return InProgress
}

// Lesson returns the lesson's record, creating it.
func (p *Progress) Lesson(id string) *Lesson {
	if p.Lessons == nil {
		p.Lessons = map[string]*Lesson{}
	}
	l, ok := p.Lessons[id]
	if !ok {
		l = &Lesson{}
		p.Lessons[id] = l
	}
	return l
}

// Score counts the question steps answered right at the first try, out of
// those answered.
func (l *Lesson) Score() (firstTry, answered int) {
	for _, a := range l.Answers {
		answered++
		if a.FirstTry {
			firstTry++
		}
	}
	return firstTry, answered
}

// Record notes one answer to the question at step: the first answer fixes
// FirstTry, a right one marks the step correct.
func (l *Lesson) Record(step int, correct bool) Answer {
	if l.Answers == nil {
		l.Answers = map[int]Answer{}
	}
	a, seen := l.Answers[step]
	if !seen {
		a.FirstTry = correct
	}
	a.Attempts++
	a.Correct = a.Correct || correct
	l.Answers[step] = a
	return a
}

// RecordPlay records a play step's solution in moves (break) or changes
// (fix), against par: the first solution is the scored one (FirstTry when
// at par); Best keeps the fewest. Each solution counts as an attempt.
func (l *Lesson) RecordPlay(step, moves, par int) Answer {
	if l.Answers == nil {
		l.Answers = map[int]Answer{}
	}
	a, seen := l.Answers[step]
	if !seen || !a.Correct {
		a.FirstTry = !seen && moves <= par
	}
	a.Attempts++
	a.Correct = true
	if a.Best == 0 || moves < a.Best {
		a.Best = moves
	}
	l.Answers[step] = a
	return a
}

// Decode parses and validates a progress file.
func Decode(data []byte) (*Progress, error) {
	var p Progress
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("not a progress file: %w", err)
	}
	if p.Version < 1 {
		return nil, fmt.Errorf("not a progress file: no \"version\"")
	}
	if p.Version > FormatVersion {
		return nil, &NewerError{Version: p.Version}
	}
	if p.Lessons == nil {
		p.Lessons = map[string]*Lesson{}
	}
	for id, l := range p.Lessons {
		if l == nil {
			return nil, fmt.Errorf("lesson %q: null record", id)
		}
		if l.Step < 0 {
			return nil, fmt.Errorf("lesson %q: negative step %d", id, l.Step)
		}
	}
	for id, c := range p.Challenges {
		if c == nil || c.Best < 0 {
			return nil, fmt.Errorf("challenge %q: no best score", id)
		}
	}
	for k, b := range p.Quiz {
		switch {
		case b == nil:
			return nil, fmt.Errorf("quiz %q: null record", k)
		case b.Right < 0 || b.Total < 0 || b.Taken < 0 || b.Right > b.Total:
			return nil, fmt.Errorf("quiz %q: score %d/%d (taken %d) is not a score", k, b.Right, b.Total, b.Taken)
		}
	}
	return &p, nil
}

// NewerError: the file was written by a newer conflictlab. It is left in
// place, untouched, since that build can still read it.
type NewerError struct{ Version int }

func (e *NewerError) Error() string {
	return fmt.Sprintf("written by a newer conflictlab (format %d; this build reads up to %d)", e.Version, FormatVersion)
}

// Encode renders the file's bytes.
func Encode(p *Progress) ([]byte, error) {
	p.Version = FormatVersion
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// DefaultPath is where the progress file lives: $XDG_STATE_HOME, or
// ~/.local/state when it is unset or not absolute (the XDG spec says a
// relative path is invalid and must be ignored).
func DefaultPath(getenv func(string) string) (string, error) {
	if dir := getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, AppDir, FileName), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no state directory: set XDG_STATE_HOME or HOME")
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", AppDir, FileName), nil
}

// Store reads and writes one progress file. Every change to the file is
// made under a lock (progress.json.lock beside the real file), and a save
// merges with what is on disk (see Merge), so two conflictlabs on one
// account, an import and a reset never erase each other's work.
type Store struct {
	path string
	// readOnly is set when the file on disk must not be overwritten (a
	// newer format, or a bad file that could not be moved aside).
	readOnly bool
	// mu and written order snapshot writes: saves run off the UI loop, and
	// an older snapshot must never land after a newer one.
	mu      sync.Mutex
	written uint64
	// base is this session's progress as it last saved (or loaded) it:
	// what a save changed since is what Merge applies to the file.
	base *Progress
}

// Open returns the store for a path; nothing is read yet.
func Open(path string) *Store { return &Store{path: path} }

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// ReadOnly reports whether saves are refused (see Load's notice).
func (s *Store) ReadOnly() bool { return s.readOnly }

// Load reads the progress. A missing file is empty progress. A corrupt or
// unreadable file is renamed to progress.json.corrupt-N and the notice
// says so; a file from a newer build is left alone and saving is turned
// off. Load never fails: the tutorial always starts, and the notice is
// what the learner is told.
func (s *Store) Load() (p *Progress, notice string) {
	// Only a file that is there needs the lock (Load may move it aside);
	// and it is best effort: a folder that cannot hold the lock cannot
	// hold a save either, and the first save says so.
	if _, err := os.Lstat(s.path); err == nil {
		if unlock, err := s.lock(); err == nil {
			defer unlock()
		}
	}
	p, notice = s.load()
	s.mu.Lock()
	s.base = p.clone()
	s.mu.Unlock()
	return p, notice
}

func (s *Store) load() (p *Progress, notice string) {
	data, err := readStateFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), ""
	}
	if err == nil {
		p, err = Decode(data)
		if err == nil {
			return p, ""
		}
		var newer *NewerError
		if errors.As(err, &newer) {
			s.readOnly = true
			return New(), fmt.Sprintf("%s was %s; progress will not be saved this session.", s.path, err)
		}
	}
	aside, rerr := s.moveAside()
	if rerr != nil {
		s.readOnly = true
		return New(), fmt.Sprintf("could not read %s (%v) nor move it aside (%v); progress will not be saved this session.", s.path, err, rerr)
	}
	return New(), fmt.Sprintf("could not read your progress (%v); the file was kept as %s and a fresh one started.", err, aside)
}

// moveAside renames the file to the first free progress.json.corrupt-N.
func (s *Store) moveAside() (string, error) {
	for n := 1; n < 10000; n++ {
		cand := s.path + ".corrupt-" + strconv.Itoa(n)
		if _, err := os.Lstat(cand); errors.Is(err, fs.ErrNotExist) {
			return cand, os.Rename(s.path, cand)
		}
	}
	return "", fmt.Errorf("too many %s.corrupt-N files", s.path)
}

// lock takes the file's lock, creating its folder; the lock file sits
// beside the real file (a symlinked progress.json locks its target's
// folder, where the writes happen).
func (s *Store) lock() (func(), error) {
	real, err := resolve(s.path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		return nil, err
	}
	return lock(real + ".lock")
}

// ErrReadOnly is returned by Save when Load decided not to overwrite.
var ErrReadOnly = errors.New("progress is not saved this session")

// Save merges the progress into the file (see Merge) and writes it
// atomically: a temporary file in the same folder, synced, then renamed
// over the old one, so a reader sees either the old file or the new one,
// never a torn write.
func (s *Store) Save(p *Progress) error {
	if s.readOnly {
		return ErrReadOnly
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commit(p.clone())
}

// WriteCopy saves a copy of the progress (Clone) that the caller hands
// over and no longer changes, numbered by the caller in the order the
// copies were taken; a copy older than one already written is dropped
// (the newer one holds all it held). This lets a UI take the copy on its
// own goroutine (no data race on the Progress) and write it from another,
// encoding it once.
func (s *Store) WriteCopy(seq uint64, mine *Progress) error {
	if s.readOnly {
		return ErrReadOnly
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if seq <= s.written {
		return nil
	}
	if err := s.commit(mine); err != nil {
		return err
	}
	s.written = seq
	return nil
}

// commit merges mine into the file under the lock; s.mu is held.
func (s *Store) commit(mine *Progress) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	disk, err := s.readDisk()
	if err != nil {
		return err
	}
	data, err := Encode(Merge(disk, s.base, mine))
	if err != nil {
		return err
	}
	if err := writeAtomic(s.path, data); err != nil {
		return err
	}
	s.base = mine
	return nil
}

// readDisk reads the file for a merge, under the lock. A file that went
// bad since Load is moved aside like Load does (the merge then writes
// this session's progress alone); one a newer build wrote stops saving.
func (s *Store) readDisk() (*Progress, error) {
	data, err := readStateFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return nil, err
	}
	p, err := Decode(data)
	var newer *NewerError
	switch {
	case err == nil:
		return p, nil
	case errors.As(err, &newer):
		s.readOnly = true
		return nil, fmt.Errorf("%s was %w since this session started", s.path, err)
	}
	if _, err := s.moveAside(); err != nil {
		return nil, err
	}
	return New(), nil
}

// resolve follows path's symlinks (dangling ones too) to the file a write
// must replace: renaming over the link itself would turn a symlinked
// progress.json (kept in a dotfiles repository, say) into a plain file.
func resolve(path string) (string, error) {
	for hops := 0; hops < 40; hops++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// writeAtomic replaces the file at path (through its symlinks) with data.
func writeAtomic(path string, data []byte) error {
	real, err := resolve(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(real)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(real)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, real); err != nil {
		return err
	}
	ok = true
	return nil
}

// Reset forgets all progress; it reports whether there was any. A plain
// file is deleted; a symlinked one is emptied through the link, which
// stays. A session still running keeps only what it does after the reset
// (see Merge).
func (s *Store) Reset() (bool, error) {
	unlock, err := s.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	if fi, err := os.Lstat(s.path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		_, err := os.Stat(s.path)
		had := err == nil
		data, err := Encode(New())
		if err != nil {
			return false, err
		}
		return had, writeAtomic(s.path, data)
	}
	err = os.Remove(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Export writes the progress file's contents (empty progress when there
// is none) after checking that it parses.
func (s *Store) Export(w io.Writer) error {
	data, err := readStateFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = Encode(New())
	}
	if err != nil {
		return err
	}
	if _, err := Decode(data); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	_, err = w.Write(data)
	return err
}

// Import replaces the progress with p (decoded and checked by the
// caller). What it replaces is first copied to the first free
// progress.json.bak-N, whose path it returns ("" when there was no file).
// A session still running keeps the import and adds only what it does
// after it (see Merge).
func (s *Store) Import(p *Progress) (backup string, err error) {
	out, err := Encode(p)
	if err != nil {
		return "", err
	}
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	old, err := readStateFile(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("reading the progress it would replace: %w", err)
	default:
		if backup, err = s.keepBackup(old); err != nil {
			return "", fmt.Errorf("keeping a backup of the progress it would replace: %w", err)
		}
	}
	return backup, writeAtomic(s.path, out)
}

// KeepBackups is how many progress.json.bak-N an import keeps: the
// newest, those of the last few imports.
const KeepBackups = 5

// keepBackup writes data to progress.json.bak-N, N one more than the
// newest there is, creating it exclusively so that two imports never share
// one; then it removes all but the newest KeepBackups.
func (s *Store) keepBackup(data []byte) (string, error) {
	dir, base := filepath.Dir(s.path), filepath.Base(s.path)+".bak-"
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	var nums []int
	for _, e := range entries {
		if n, err := strconv.Atoi(strings.TrimPrefix(e.Name(), base)); err == nil && strings.HasPrefix(e.Name(), base) && n > 0 {
			nums = append(nums, n)
		}
	}
	next := 1
	for _, n := range nums {
		next = max(next, n+1)
	}
	for ; ; next++ {
		cand := s.path + ".bak-" + strconv.Itoa(next)
		f, err := os.OpenFile(cand, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			os.Remove(cand)
			return "", err
		}
		for _, n := range nums {
			if n <= next-KeepBackups {
				os.Remove(s.path + ".bak-" + strconv.Itoa(n))
			}
		}
		return cand, nil
	}
}

// Summary lists lessons by ID with their state, for messages.
func (p *Progress) Summary() []string {
	ids := make([]string, 0, len(p.Lessons))
	for id := range p.Lessons {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		l := p.Lessons[id]
		line := fmt.Sprintf("%s: %s", id, p.StateOf(id))
		if right, n := l.Score(); n > 0 {
			line += fmt.Sprintf(", %d/%d right first time", right, n)
		}
		if !l.Done {
			line += fmt.Sprintf(", at step %d", l.Step+1)
		}
		out = append(out, line)
	}
	keys := make([]string, 0, len(p.Quiz))
	for k := range p.Quiz {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b := p.Quiz[k]
		out = append(out, fmt.Sprintf("quiz %s: best %d/%d, %d taken", k, b.Right, b.Total, b.Taken))
	}
	return out
}

// MaxFileSize bounds progress.json as it is read: whatever sits at its
// path (a FIFO, a link to /dev/zero) is refused, never waited on or read
// without end. Real progress is a few KiB.
const MaxFileSize = 4 << 20

func readStateFile(path string) ([]byte, error) { return userfile.Read(path, MaxFileSize) }
