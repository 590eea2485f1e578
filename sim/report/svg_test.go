package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// svgDoc is what a test reads back of a picture: the root's size and
// every element with its class and text.
type svgDoc struct {
	width, height float64
	viewBox       string
	texts         []svgText
	rects         []map[string]string
}

type svgText struct {
	x, y  float64
	class string
	text  string
}

// parseSVG reads a picture with encoding/xml, failing on anything that is
// not well-formed XML.
func parseSVG(t *testing.T, data []byte) svgDoc {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var doc svgDoc
	var open []*svgText // the <text> elements being read (tspans nest)
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			depth++
			attrs := map[string]string{}
			for _, a := range e.Attr {
				attrs[a.Name.Local] = a.Value
			}
			switch e.Name.Local {
			case "svg":
				if depth != 1 || e.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root %v at depth %d", e.Name, depth)
				}
				doc.width, _ = strconv.ParseFloat(attrs["width"], 64)
				doc.height, _ = strconv.ParseFloat(attrs["height"], 64)
				doc.viewBox = attrs["viewBox"]
			case "text":
				x, _ := strconv.ParseFloat(attrs["x"], 64)
				y, _ := strconv.ParseFloat(attrs["y"], 64)
				open = append(open, &svgText{x: x, y: y, class: attrs["class"]})
			case "rect":
				doc.rects = append(doc.rects, attrs)
			}
		case xml.CharData:
			if len(open) > 0 {
				open[len(open)-1].text += string(e)
			}
		case xml.EndElement:
			depth--
			if e.Name.Local == "text" {
				doc.texts = append(doc.texts, *open[len(open)-1])
				open = open[:len(open)-1]
			}
		}
	}
	return doc
}

func (d svgDoc) find(sub string) []svgText {
	var out []svgText
	for _, t := range d.texts {
		if strings.Contains(t.text, sub) {
			out = append(out, t)
		}
	}
	return out
}

func drawn(t *testing.T, file string) (*race.Outcome, svgDoc, []byte) {
	t.Helper()
	o := outcomeOf(t, file)
	var b bytes.Buffer
	if err := SVG(&b, o); err != nil {
		t.Fatal(err)
	}
	return o, parseSVG(t, b.Bytes()), b.Bytes()
}

// The picture of a lost update says what the race view says: a lane per
// controller, every step numbered from 1 with its RV and caches, the
// write that erased a field framed in dashes with its note, the ending —
// and every text inside the picture.
func TestSVGDrawsTheRaceView(t *testing.T) {
	o, doc, _ := drawn(t, "../../examples/lost-update-unconditional.yaml")
	if doc.width <= 0 || doc.height <= 0 || doc.viewBox != fmt.Sprintf("0 0 %s %s", px(doc.width), px(doc.height)) {
		t.Fatalf("size %v×%v, viewBox %q", doc.width, doc.height, doc.viewBox)
	}
	heads := map[string]bool{}
	for _, tx := range doc.texts {
		if strings.HasPrefix(tx.class, "head") {
			heads[tx.text] = true
		}
	}
	for _, h := range []string{"#", "t", "a", "b", "API server", "RV", "cache a/b"} {
		if !heads[h] {
			t.Errorf("no column head %q (heads %v)", h, heads)
		}
	}
	// One number per step, 1 to N, top to bottom.
	var nums []svgText
	for _, tx := range doc.texts {
		if tx.class == "num" {
			nums = append(nums, tx)
		}
	}
	if len(nums) != len(o.Steps) {
		t.Fatalf("%d row numbers for %d steps", len(nums), len(o.Steps))
	}
	for i, n := range nums {
		if n.text != strconv.Itoa(i+1) || i > 0 && n.y <= nums[i-1].y {
			t.Fatalf("row %d is numbered %q at y %v", i, n.text, n.y)
		}
	}
	// Each step's lane text, in its controller's column, on its row.
	for i, s := range o.Steps {
		cell := Lane(s, false, o.Target.Name)
		found := false
		for _, tx := range doc.find(cell) {
			found = found || tx.y == nums[i].y
		}
		if !found {
			t.Errorf("row %d: no %q on its line", i+1, cell)
		}
		if a := MarkedAnswer(s); a != "" && len(doc.find(a)) == 0 {
			t.Errorf("row %d: no answer %q", i+1, a)
		}
	}
	// The stale caches carry their *; the legend says what it means.
	if len(doc.find("101*")) == 0 || len(doc.find("* cache behind the server")) != 1 {
		t.Error("stale caches are not marked with * and explained")
	}
	l := o.Lost[0]
	notes := doc.find("✗ LOST " + l.Field + ": a's change erased by this write")
	if len(notes) != 1 || notes[0].y <= nums[l.ErasedAtStep].y || l.ErasedAtStep+1 < len(nums) && notes[0].y >= nums[l.ErasedAtStep+1].y {
		t.Fatalf("the LOST note is not under row %d: %v", l.ErasedAtStep+1, notes)
	}
	dashed := 0
	for _, r := range doc.rects {
		if r["class"] == "erased" {
			dashed++
			y, _ := strconv.ParseFloat(r["y"], 64)
			h, _ := strconv.ParseFloat(r["height"], 64)
			if y > nums[l.ErasedAtStep].y || y+h < notes[0].y {
				t.Errorf("the dashed frame [%v, %v] does not hold the write and its note", y, y+h)
			}
		}
	}
	if dashed != 1 {
		t.Errorf("%d dashed frames, want one around the write that erased a field", dashed)
	}
	for _, want := range []string{"✗ finished: a change was lost", fmt.Sprintf("✗ LOST %s — a's change, erased by b at step %d (RV %s)", l.Field, l.ErasedAtStep+1, l.ErasedRV)} {
		if len(doc.find(want)) != 1 {
			t.Errorf("no %q", want)
		}
	}
	// Every text fits in the picture, at the monospaced advance.
	for _, tx := range doc.texts {
		w := float64(utf8.RuneCountInString(tx.text)) * svgCharW
		left := tx.x
		if tx.class == "num" {
			left -= w // right-aligned
		}
		if left < 0 || left+w > doc.width+0.5 || tx.y > doc.height || tx.y < svgFont {
			t.Errorf("%q at (%v, %v) is outside the %v×%v picture", tx.text, tx.x, tx.y, doc.width, doc.height)
		}
	}
}

// Waits are drawn as rows without numbers, long lines wrap inside the
// picture, and a race without loss has no dashed frame and ends with ✓.
func TestSVGWaitsWrapAndCleanEndings(t *testing.T) {
	o, doc, _ := drawn(t, "../../examples/requeue.yaml")
	if len(o.Waits) == 0 || len(o.Lost) > 0 {
		t.Fatal("the example should wait and lose nothing")
	}
	if len(doc.find("↻ ")) < len(o.Waits) {
		t.Errorf("%d waits drawn, want %d", len(doc.find("↻ ")), len(o.Waits))
	}
	for _, r := range doc.rects {
		if r["class"] == "erased" {
			t.Error("a dashed frame in a race that lost nothing")
		}
	}
	tone, end := Ending(o)
	if tone != ToneOK || len(doc.find(end)) != 1 || !strings.HasPrefix(end, MarkOK) {
		t.Errorf("ending %q (tone %d) not drawn once", end, tone)
	}
	for _, tx := range doc.texts {
		if float64(utf8.RuneCountInString(tx.text))*svgCharW+tx.x > doc.width+0.5 {
			t.Errorf("%q runs out of the picture", tx.text)
		}
	}
}

// A scenario's values are the author's text: markup and control
// characters in them come out as text, and the picture stays valid XML.
func TestSVGEscapesWhatTheScenarioSays(t *testing.T) {
	src := []byte(`name: "</title><script>&\u001b[31m"
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1}
  data: {x: "1"}
controllers:
- name: a
  target: ConfigMap/cm1
  mutations:
  - set: {path: data.s, value: "</text><b>\u001b[31m"}
  write: update-clear-rv
- name: b
  target: ConfigMap/cm1
  mutations:
  - set: {path: data.y, value: "2"}
  write: update-clear-rv
schedule: [a, b, a, b]
`)
	sc, err := scenario.Parse("hostile.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	o, err := race.Run(sc, race.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Lost) == 0 {
		t.Fatal("the race should lose a's field")
	}
	var b bytes.Buffer
	if err := SVG(&b, o); err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, b.Bytes())
	if bytes.Contains(b.Bytes(), []byte("\x1b")) || bytes.Contains(b.Bytes(), []byte("<script>")) || bytes.Contains(b.Bytes(), []byte("<b>")) {
		t.Fatalf("raw markup or an escape in the picture:\n%s", b.Bytes())
	}
	if len(doc.find(`race </title><script>&`)) != 1 {
		t.Errorf("the race's name is not shown as text")
	}
}

// Beside the lanes the picture draws what the race view's object pane
// shows once the race is over: the target's last version, titled with
// the write that made it, every field as YAML with its gutter (+ ~ - ✗,
// so it reads without colour), the lost field marked LOST with the note
// saying whose change it was — right of every column of the lanes.
func TestSVGDrawsTheObjectPane(t *testing.T) {
	o, doc, _ := drawn(t, "../../examples/lost-update-unconditional.yaml")
	targets := TargetVersions(o)
	vi, pi := targets[len(targets)-1], targets[len(targets)-2]
	title := doc.find("cm1 @ RV " + o.Versions[vi].RV)
	if len(title) != 1 || !strings.HasPrefix(VersionTitle(o.Versions[vi], o.Target), title[0].text) {
		t.Fatalf("the pane's title: %v", title)
	}
	paneX := title[0].x
	// The lanes' rightmost column ends left of the pane.
	for _, tx := range doc.texts {
		if tx.x < paneX && tx.y > title[0].y && tx.y < title[0].y+float64(len(o.Steps)+1)*svgRowH &&
			tx.x+float64(utf8.RuneCountInString(tx.text))*svgCharW > paneX {
			t.Errorf("%q at x %v runs into the pane at x %v", tx.text, tx.x, paneX)
		}
	}
	lines := ObjectYAML(o, targets, vi, pi, false)
	marks := map[LineMark]int{}
	prevY := title[0].y
	for _, l := range lines {
		if l.Note {
			if r := []rune(l.Text); len(doc.find(string(r[:min(len(r), 20)]))) != 1 {
				t.Errorf("no note %q", l.Text)
			}
			continue
		}
		found := false
		for _, tx := range doc.find(l.String()) {
			if tx.x == paneX && tx.text == l.String() && tx.y > prevY {
				found, prevY = true, tx.y
				want := map[LineMark]string{LineSame: "", LineAdded: "added", LineChanged: "changed", LineRemoved: "removed", LineLost: "lost"}[l.Mark]
				if tx.class != want {
					t.Errorf("%q has class %q, want %q", tx.text, tx.class, want)
				}
			}
		}
		if !found {
			t.Errorf("the pane lacks %q, in order at x %v", l.String(), paneX)
		}
		marks[l.Mark]++
	}
	// b's write added its key, moved the RV and erased a's key.
	if marks[LineAdded] != 1 || marks[LineChanged] != 1 || marks[LineLost] != 1 {
		t.Errorf("marks %v: want one added, one changed, one lost", marks)
	}
	l := o.Lost[0]
	if got := doc.find("✗   a: set by a   LOST"); len(got) != 1 || l.Field != "data.a" {
		t.Errorf("the lost field is not marked in the pane: %v (lost %s)", got, l.Field)
	}
	frames := 0
	for _, r := range doc.rects {
		if r["class"] == "pane" {
			frames++
			x, _ := strconv.ParseFloat(r["x"], 64)
			if x >= paneX {
				t.Errorf("the pane's frame at x %v does not hold its text at %v", x, paneX)
			}
		}
	}
	if frames != 1 {
		t.Errorf("%d pane frames", frames)
	}
}
