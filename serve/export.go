package serve

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/userfile"
)

// Record is one attendee's progress as the export writes it.
type Record struct {
	Attendee
	Progress *progress.Progress `json:"progress"`
	// Problem says why the progress could not be read ("" when it was).
	Problem string `json:"problem,omitempty"`
}

// ReadRoom reads every attendee's progress under the state folder, in
// folder order. A save replaces the file by a rename, so an export taken
// while the room runs never sees half of one.
func ReadRoom(state string) ([]Record, error) {
	dir := filepath.Join(state, "attendees")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no attendees folder: is this the --state folder of a conflictlab serve?", state)
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		r := Record{Attendee: Attendee{ID: e.Name(), Name: e.Name()}}
		if data, err := userfile.Read(filepath.Join(dir, e.Name(), "who.json"), 64<<10); err == nil {
			var a Attendee
			if json.Unmarshal(data, &a) == nil && a.ID == e.Name() {
				r.Attendee = a
			}
		}
		path := filepath.Join(dir, e.Name(), progress.FileName)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			r.Progress = progress.New()
		} else {
			var buf exportBuf
			if err := progress.Open(path).Export(&buf); err != nil {
				r.Problem = err.Error()
			} else if r.Progress, err = progress.Decode(buf.data); err != nil {
				r.Problem = err.Error()
			}
		}
		out = append(out, r)
	}
	return out, nil
}

type exportBuf struct{ data []byte }

func (b *exportBuf) Write(p []byte) (int, error) { b.data = append(b.data, p...); return len(p), nil }

// WriteJSON writes the room as one JSON document.
func WriteJSON(w io.Writer, recs []Record) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if recs == nil {
		recs = []Record{}
	}
	return enc.Encode(recs)
}

// CSVHeader is the CSV export's first row. Each later row is one answer
// (kind "answer": lesson, step, the option picked first, whether it was
// right, attempts) or one quiz topic's best (kind "quiz": the topic in
// lesson, the quizzes taken in attempts, the best's right and total).
var CSVHeader = []string{"attendee", "name", "fingerprint", "kind", "lesson", "step", "picked", "first_try", "correct", "attempts", "right", "total", "problem"}

// WriteCSV writes the room as CSV rows (see CSVHeader).
func WriteCSV(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	for _, r := range recs {
		base := []string{r.ID, r.Name, r.Fingerprint}
		if r.Problem != "" {
			cw.Write(append(base, "problem", "", "", "", "", "", "", "", "", r.Problem))
			continue
		}
		p := r.Progress
		ids := make([]string, 0, len(p.Lessons))
		for id := range p.Lessons {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			l := p.Lessons[id]
			if l == nil {
				continue
			}
			steps := make([]int, 0, len(l.Answers))
			for s := range l.Answers {
				steps = append(steps, s)
			}
			slices.Sort(steps)
			for _, s := range steps {
				a := l.Answers[s]
				cw.Write(append(base, "answer", id, strconv.Itoa(s), a.Picked, strconv.FormatBool(a.FirstTry),
					strconv.FormatBool(a.Correct), strconv.Itoa(a.Attempts), "", "", ""))
			}
		}
		topics := make([]string, 0, len(p.Quiz))
		for t := range p.Quiz {
			topics = append(topics, t)
		}
		slices.SortFunc(topics, cmp.Compare)
		for _, t := range topics {
			b := p.Quiz[t]
			if b == nil {
				continue
			}
			cw.Write(append(base, "quiz", t, "", "", "", "", strconv.Itoa(b.Taken), strconv.Itoa(b.Right), strconv.Itoa(b.Total), ""))
		}
	}
	cw.Flush()
	return cw.Error()
}
