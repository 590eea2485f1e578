package lessons

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/lessons/answerbias"
	"github.com/conflictlab/conflictlab/sim/controller"
	"github.com/conflictlab/conflictlab/sim/scenario"
	"github.com/conflictlab/conflictlab/userfile"
)

// Pack is a set of lessons and the scenarios they use, read from one
// folder: lesson files at the top (taken in file-name order), scenarios
// wherever the lessons point.
type Pack struct {
	Lessons   []*Lesson
	Scenarios map[string]*scenario.Scenario
	fsys      fs.FS
	// root is the pack's folder when it was loaded from disk (LoadDir):
	// every file is read through it, so none can lead out of the folder.
	root *os.Root
	// readBytes is what loading has read so far (MaxPackBytes).
	readBytes int
}

// MaxFileSize bounds every file of a pack (lessons, scenarios, code),
// as scenario.MaxFileSize bounds a scenario file.
const MaxFileSize = scenario.MaxFileSize

// readFile reads a file the pack names: a regular file of at most
// MaxFileSize, inside the pack (a relative path, no `..` above the pack,
// no symbolic link leading out). It never blocks on a FIFO.
func (p *Pack) readFile(name string) ([]byte, error) {
	var data []byte
	var err error
	if p.root != nil {
		data, err = userfile.ReadIn(p.root, name, MaxFileSize)
	} else {
		data, err = userfile.ReadFS(p.fsys, name, MaxFileSize)
	}
	var ue *userfile.Error
	if errors.Is(err, userfile.ErrOutside) && errors.As(err, &ue) {
		return nil, &userfile.Error{Path: name, Msg: "must stay inside the pack: " + ue.Why, Why: ue.Why, Err: userfile.ErrOutside}
	}
	return data, err
}

// loadFile is readFile for loading the pack: what it reads adds up to at
// most MaxPackBytes. (Loading runs on one goroutine; a loaded pack reads
// its snippets with readFile, from any session.)
func (p *Pack) loadFile(name string) ([]byte, error) {
	data, err := p.readFile(name)
	if err == nil {
		p.readBytes += len(data)
		if p.readBytes > MaxPackBytes {
			return nil, &userfile.Error{Path: name, Msg: fmt.Sprintf("the pack's files add up to more than %d MiB, the most a pack may hold", MaxPackBytes>>20), Err: errPackTooLarge}
		}
	}
	return data, err
}

// errPackTooLarge: the pack's files add up to more than MaxPackBytes.
var errPackTooLarge = errors.New("pack too large")

// Lesson returns the lesson with the given ID.
func (p *Pack) Lesson(id string) *Lesson {
	for _, l := range p.Lessons {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// Snippet returns a file of the pack (code shown in the code pane).
func (p *Pack) Snippet(name string) ([]byte, error) { return p.readFile(name) }

// Error is a problem in a lesson file, with its place: the same shape as
// a scenario file's errors ("02-lost-update.yaml:14: steps[1].kind: …").
type Error = scenario.Error

// file structures mirror the YAML; KnownFields makes unknown keys errors.
type lessonFile struct {
	ID       string      `yaml:"id"`
	Title    string      `yaml:"title"`
	Concepts []string    `yaml:"concepts"`
	Summary  []string    `yaml:"summary"`
	Next     string      `yaml:"next"`
	Steps    []yaml.Node `yaml:"steps"`
}

type stepFile struct {
	Kind     string      `yaml:"kind"`
	Title    string      `yaml:"title"`
	Text     string      `yaml:"text"`
	Race     *raceFile   `yaml:"race"`
	Question string      `yaml:"question"`
	Options  []yaml.Node `yaml:"options"`
	Hint     string      `yaml:"hint"`
	Solution string      `yaml:"solution"`
	Claims   []yaml.Node `yaml:"claims"`
	Code     string      `yaml:"code"`
	Goal     yaml.Node   `yaml:"goal"`
	Plans    string      `yaml:"plans"`
	Reviewed yaml.Node   `yaml:"reviewed"`
}

type raceFile struct {
	Scenario string   `yaml:"scenario"`
	Schedule []string `yaml:"schedule"`
	Apply    []string `yaml:"apply"`
}

type optionFile struct {
	ID       string        `yaml:"id"`
	Label    string        `yaml:"label"`
	Correct  bool          `yaml:"correct"`
	Feedback string        `yaml:"feedback"`
	Strategy *StrategySpec `yaml:"strategy"`
	Claims   []yaml.Node   `yaml:"claims"`
	Code     string        `yaml:"code"`
	Reviewed yaml.Node     `yaml:"reviewed"`
}

// StrategySpec is a strategy as lesson (and quiz) files write it.
type StrategySpec struct {
	Write  string `yaml:"write"`
	Read   string `yaml:"read"`
	WithRV *bool  `yaml:"withRV"`
	Test   string `yaml:"test"`
	Force  *bool  `yaml:"force"`
	Retry  string `yaml:"retry"`
	// Requeue is how many times the workqueue hands a failed key back
	// (with client-go's per-item backoff, 5ms doubling); 0 drops it, as a
	// reconcile that swallows its error does.
	Requeue *int `yaml:"requeue"`
}

// Load reads a pack from a file system (the built-in course is embedded).
func Load(fsys fs.FS) (*Pack, error) {
	return load(&Pack{Scenarios: map[string]*scenario.Scenario{}, fsys: fsys})
}

// LoadDir reads the pack in the folder dir. Its files are read through an
// os.Root on dir: a lesson that names ../../etc/passwd, or a symbolic
// link to /dev/zero, is refused with "must stay inside the pack".
func LoadDir(dir string) (*Pack, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	p, err := load(&Pack{Scenarios: map[string]*scenario.Scenario{}, fsys: root.FS(), root: root})
	if err != nil {
		root.Close()
	}
	return p, err
}

func load(p *Pack) (*Pack, error) {
	entries, err := fs.ReadDir(p.fsys, ".")
	if err != nil {
		return nil, err
	}
	var names []string
	var errs []error
	var size int64
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".yaml") && !strings.HasSuffix(e.Name(), ".yml") {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			size += info.Size()
		}
		if e.IsDir() {
			// Named like a lesson file: said, as any other file that is not
			// a regular file is (readFile), rather than skipped.
			errs = append(errs, &Error{File: e.Name(), Msg: "a folder, not a lesson file (a pack's lessons are the *.yaml files at its top)"})
			continue
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) == 0 && len(errs) == 0 {
		return nil, &Error{File: ".", Msg: "no lesson files (*.yaml) in the folder"}
	}
	if len(names) > MaxPackFiles {
		return nil, &Error{File: ".", Msg: fmt.Sprintf("%d lesson files: a pack has at most %d", len(names), MaxPackFiles)}
	}
	if size > MaxPackBytes {
		return nil, &Error{File: ".", Msg: fmt.Sprintf("the lesson files add up to %d MiB: a pack holds at most %d MiB", size>>20, MaxPackBytes>>20)}
	}
	for _, name := range names {
		data, err := p.loadFile(name)
		if err != nil {
			errs = append(errs, &Error{File: name, Msg: messageOf(err)})
			if errors.Is(err, errPackTooLarge) {
				break
			}
			continue
		}
		l, err := parseLesson(name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.Lessons = append(p.Lessons, l)
	}
	if len(errs) == 0 {
		errs = append(errs, p.link()...)
	}
	if len(errs) == 0 {
		if err := p.checkBounds(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// messageOf is a file error without the path, for an Error that names
// the file itself.
func messageOf(err error) string {
	var ue *userfile.Error
	if errors.As(err, &ue) {
		return ue.Msg
	}
	return err.Error()
}

// link checks what spans files: unique IDs, next pointers, scenarios.
func (p *Pack) link() []error {
	var errs []error
	seen := map[string]string{}
	for _, l := range p.Lessons {
		if prev, dup := seen[l.ID]; dup {
			errs = append(errs, &Error{File: l.File, Field: "id", Msg: fmt.Sprintf("%q is also the id of %s", l.ID, prev)})
		}
		seen[l.ID] = l.File
	}
	for _, l := range p.Lessons {
		if l.Next != "" && seen[l.Next] == "" {
			errs = append(errs, &Error{File: l.File, Field: "next", Msg: fmt.Sprintf("no lesson has id %q", l.Next)})
		}
		for i, s := range l.Steps {
			if s.Race == nil {
				continue
			}
			if _, ok := p.Scenarios[s.Race.Scenario]; ok {
				continue
			}
			data, err := p.loadFile(s.Race.Scenario)
			if err != nil {
				errs = append(errs, &Error{File: l.File, Line: s.Line, Field: fmt.Sprintf("steps[%d].race.scenario", i), Msg: err.Error()})
				continue
			}
			sc, err := scenario.Parse(path.Clean(s.Race.Scenario), data)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p.Scenarios[s.Race.Scenario] = sc
		}
	}
	return errs
}

// DecodeStrict decodes a mapping node into a struct, rejecting keys the
// struct does not have (with the key's own line) — yaml.v3's KnownFields
// works only on whole documents.
func DecodeStrict(n *yaml.Node, v any) error {
	if n.Kind != yaml.MappingNode {
		return &LineError{Line: n.Line, Msg: "want a mapping (key: value)"}
	}
	known := map[string]bool{}
	t := reflect.TypeOf(v).Elem()
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if name != "" && name != "-" {
			known[name] = true
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !known[k.Value] {
			return &LineError{Line: k.Line, Msg: fmt.Sprintf("unknown field %q", k.Value)}
		}
	}
	if err := n.Decode(v); err != nil {
		return err
	}
	return nil
}

// LineError is a decode problem at a line of the file.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return e.Msg }

func parseLesson(file string, data []byte) (*Lesson, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{File: file, Msg: "empty file"}
	}
	root := doc.Content[0]
	var lf lessonFile
	if err := DecodeStrict(root, &lf); err != nil {
		return nil, fieldErr(file, root, "", err)
	}
	l := &Lesson{ID: lf.ID, Title: lf.Title, Concepts: lf.Concepts, Summary: lf.Summary, Next: lf.Next, File: file}
	var errs []error
	req := func(field, v string, line int) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, &Error{File: file, Line: line, Field: field, Msg: "required"})
		}
	}
	req("id", lf.ID, root.Line)
	req("title", lf.Title, root.Line)
	if len(lf.Summary) != 2 {
		errs = append(errs, &Error{File: file, Line: lineOf(root, "summary"), Field: "summary", Msg: fmt.Sprintf("want exactly two lines, got %d", len(lf.Summary))})
	}
	for _, c := range lf.Concepts {
		if _, ok := Concepts[c]; !ok {
			errs = append(errs, &Error{File: file, Line: lineOf(root, "concepts"), Field: "concepts", Msg: fmt.Sprintf("unknown concept %q", c)})
		}
	}
	if len(lf.Steps) == 0 {
		errs = append(errs, &Error{File: file, Line: root.Line, Field: "steps", Msg: "a lesson needs at least one step"})
	}
	for i := range lf.Steps {
		s, err := parseStep(file, fmt.Sprintf("steps[%d]", i), &lf.Steps[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l.Steps = append(l.Steps, s)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

func parseStep(file, field string, n *yaml.Node) (Step, error) {
	var sf stepFile
	if err := DecodeStrict(n, &sf); err != nil {
		return Step{}, fieldErr(file, n, field, err)
	}
	s := Step{Kind: StepKind(sf.Kind), Title: sf.Title, Text: sf.Text, Question: sf.Question, Hint: sf.Hint,
		Solution: sf.Solution, Code: sf.Code, Line: n.Line}
	if sf.Race != nil {
		s.Race = &RaceRef{Scenario: sf.Race.Scenario, Schedule: sf.Race.Schedule, Apply: sf.Race.Apply}
		if s.Race.Scenario == "" {
			return s, &Error{File: file, Line: lineOf(n, "race"), Field: field + ".race.scenario", Msg: "required"}
		}
	}
	var errs []error
	switch s.Kind {
	case Read:
		if strings.TrimSpace(s.Text) == "" {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".text", Msg: "a read step needs text"})
		}
	case Predict, Choose:
		if s.Question == "" {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".question", Msg: "required for a " + sf.Kind + " step"})
		}
		if s.Hint == "" {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".hint", Msg: "every question has a hint"})
		}
		if s.Race == nil {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".race", Msg: "a " + sf.Kind + " step needs a race"})
		}
	case Play:
		if s.Question == "" {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".question", Msg: "required for a play step: the task, in one line"})
		}
		if s.Hint == "" {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".hint", Msg: "every question has a hint"})
		}
		if s.Race == nil {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".race", Msg: "a play step needs a race"})
		}
		if len(sf.Options) > 0 {
			errs = append(errs, &Error{File: file, Line: lineOf(n, "options"), Field: field + ".options", Msg: "a play step has a goal, not options"})
		}
		if len(sf.Claims) > 0 {
			errs = append(errs, &Error{File: file, Line: lineOf(n, "claims"), Field: field + ".claims", Msg: "a play step's claims go in its goal (break) or are proven by it (fix)"})
		}
		if sf.Goal.Kind == 0 {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".goal", Msg: errNoGoal.Error()})
		} else if g, err := parseGoal(file, field+".goal", &sf.Goal); err != nil {
			errs = append(errs, err)
		} else {
			s.Goal = g
		}
	default:
		return s, &Error{File: file, Line: lineOf(n, "kind"), Field: field + ".kind", Msg: fmt.Sprintf("%q: want read, predict, choose or play", sf.Kind)}
	}
	switch sf.Plans {
	case "", "shown":
	case "after-answer":
		if s.Kind != Predict && s.Kind != Choose {
			errs = append(errs, &Error{File: file, Line: lineOf(n, "plans"), Field: field + ".plans",
				Msg: "after-answer: only a predict or choose step has an answer to wait for"})
		}
		s.PlansAfterAnswer = true
	default:
		errs = append(errs, &Error{File: file, Line: lineOf(n, "plans"), Field: field + ".plans",
			Msg: fmt.Sprintf("%q: want shown or after-answer", sf.Plans)})
	}
	if r, err := ParseReviewed(file, field+".reviewed", &sf.Reviewed); err != nil {
		errs = append(errs, err)
	} else {
		s.Reviewed = r
	}
	if sf.Goal.Kind != 0 && s.Kind != Play {
		errs = append(errs, &Error{File: file, Line: lineOf(n, "goal"), Field: field + ".goal", Msg: "only a play step has a goal"})
	}
	for i := range sf.Claims {
		c, err := ParseClaim(file, fmt.Sprintf("%s.claims[%d]", field, i), &sf.Claims[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Claims = append(s.Claims, c)
	}
	correct := 0
	for i := range sf.Options {
		o, err := parseOption(file, fmt.Sprintf("%s.options[%d]", field, i), &sf.Options[i], s.Kind)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if o.Correct {
			correct++
		}
		s.Options = append(s.Options, o)
	}
	if (s.Kind == Predict || s.Kind == Choose) && len(errs) == 0 {
		if len(s.Options) < 2 {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".options", Msg: "a question needs at least two options"})
		} else if correct == 0 {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".options", Msg: "no option is marked correct"})
		}
		if correct < len(s.Options) && s.Solution == "" {
			errs = append(errs, &Error{File: file, Line: n.Line, Field: field + ".solution", Msg: "a question with wrong answers needs a solution"})
		}
	}
	if len(errs) > 0 {
		return s, errors.Join(errs...)
	}
	return s, nil
}

func parseOption(file, field string, n *yaml.Node, kind StepKind) (Option, error) {
	var of optionFile
	if err := DecodeStrict(n, &of); err != nil {
		return Option{}, fieldErr(file, n, field, err)
	}
	o := Option{ID: of.ID, Label: of.Label, Correct: of.Correct, Feedback: of.Feedback, Code: of.Code, Line: n.Line}
	if o.ID == "" || o.Label == "" || o.Feedback == "" {
		return o, &Error{File: file, Line: n.Line, Field: field, Msg: "an option needs id, label and feedback"}
	}
	if of.Strategy != nil {
		st, err := of.Strategy.Parse()
		if err != nil {
			return o, &Error{File: file, Line: lineOf(n, "strategy"), Field: field + ".strategy", Msg: err.Error()}
		}
		o.Strategy = &st
	}
	r, err := ParseReviewed(file, field+".reviewed", &of.Reviewed)
	if err != nil {
		return o, err
	}
	o.Reviewed = r
	if kind == Choose && o.Strategy == nil {
		return o, &Error{File: file, Line: n.Line, Field: field + ".strategy", Msg: "a choose option needs a strategy"}
	}
	for i := range of.Claims {
		c, err := ParseClaim(file, fmt.Sprintf("%s.claims[%d]", field, i), &of.Claims[i])
		if err != nil {
			return o, err
		}
		o.Claims = append(o.Claims, c)
	}
	return o, nil
}

// Parse checks the spec and returns the strategy.
func (sf *StrategySpec) Parse() (Strategy, error) {
	s := Strategy{WithRV: sf.WithRV, Force: sf.Force}
	if sf.Write != "" {
		ok := false
		for _, w := range controller.WriteMethods {
			ok = ok || string(w) == sf.Write
		}
		if !ok {
			return s, fmt.Errorf("write %q: unknown write method", sf.Write)
		}
		s.Write = controller.WriteMethod(sf.Write)
	}
	switch sf.Read {
	case "", "lister", "live":
		s.Read = controller.ReadSource(sf.Read)
	default:
		return s, fmt.Errorf("read %q: want lister or live", sf.Read)
	}
	if sf.Test != "" {
		t := controller.TestMode(sf.Test)
		if sf.Test == "none" {
			t = controller.TestNone
		} else if t != controller.TestRV && t != controller.TestValues {
			return s, fmt.Errorf("test %q: want none, resourceVersion or values", sf.Test)
		}
		s.Test = &t
	}
	if sf.Requeue != nil {
		if *sf.Requeue < 0 {
			return s, fmt.Errorf("requeue %d: want 0 or more", *sf.Requeue)
		}
		s.Requeue = &controller.RequeuePolicy{Max: *sf.Requeue, BaseDelay: 5 * time.Millisecond}
	}
	if sf.Retry != "" {
		r, err := controller.RetryPresetNamed(sf.Retry)
		if err != nil {
			return s, err
		}
		s.Retry = &r
	}
	return s, nil
}

// ParseClaim reads one claim; field names it in messages.
func ParseClaim(file, field string, n *yaml.Node) (Claim, error) {
	var c Claim
	if err := DecodeStrict(n, &c); err != nil {
		return c, fieldErr(file, n, field, err)
	}
	c.Line = n.Line
	set := 0
	for _, b := range []bool{c.Verdict != "", c.Lost != "", c.Kept != "", c.Code != nil, c.Final != nil, c.Message != "",
		c.Requests != nil, c.Conflicts != nil, c.ReconcileMS != nil, c.Status != nil, c.Explore != nil, c.Invariant != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		return c, &Error{File: file, Line: n.Line, Field: field, Msg: fmt.Sprintf("a claim states exactly one thing, this one states %d", set)}
	}
	if c.Invariant != nil {
		var strict InvariantClaim
		if err := DecodeStrict(valueOf(n, "invariant"), &strict); err != nil {
			return c, fieldErr(file, n, field+".invariant", err)
		}
	}
	if c.Invariant != nil && c.Invariant.Met == nil {
		return c, &Error{File: file, Line: n.Line, Field: field + ".invariant", Msg: "want met: true (every invariant of the scenario holds at the end) or met: false (one is broken)"}
	}
	if c.Explore != nil {
		switch c.Explore.Count {
		case "none", "some", "all":
		default:
			return c, &Error{File: file, Line: n.Line, Field: field + ".explore.count", Msg: fmt.Sprintf("%q: want none, some or all", c.Explore.Count)}
		}
	}
	return c, nil
}

// fieldErr places a decode error: at the offending key when known, or at
// the line yaml.v3 names ("line 12: cannot unmarshal !!str into bool").
func fieldErr(file string, n *yaml.Node, field string, err error) error {
	var le *LineError
	if errors.As(err, &le) {
		return &Error{File: file, Line: le.Line, Field: field, Msg: le.Msg}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  ")
	line := n.Line
	var l int
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &l); scanErr == nil {
		line = l
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	}
	return &Error{File: file, Line: line, Field: field, Msg: msg}
}

// valueOf is the value of key in mapping n, or n itself when there is none.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return n
}

func lineOf(n *yaml.Node, key string) int {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i].Line
			}
		}
	}
	return n.Line
}

// ParseReviewed reads a `reviewed:` mapping: the earned-answer checks
// (answerbias.Reviewable) a reader excused at a step, question or option,
// each with why the finding is fair. Nil when n is absent.
func ParseReviewed(file, field string, n *yaml.Node) (map[string]string, error) {
	if n.Kind == 0 {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil, &Error{File: file, Line: n.Line, Field: field, Msg: "want a mapping of check → why the finding is fair, e.g. {stem-excludes: \"…\"}"}
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(answerbias.Reviewable, answerbias.CheckName(k.Value)) {
			return nil, &Error{File: file, Line: k.Line, Field: field + "." + k.Value, Msg: fmt.Sprintf("%q is no check a file can excuse: want one of %s", k.Value, reviewableList())}
		}
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			return nil, &Error{File: file, Line: k.Line, Field: field + "." + k.Value, Msg: "say why the finding is fair: a reviewed exception needs its reason"}
		}
		out[k.Value] = v.Value
	}
	return out, nil
}

func reviewableList() string {
	var names []string
	for _, c := range answerbias.Reviewable {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}
