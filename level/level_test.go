package level

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conflictlab/conflictlab/sim/scenario"
)

// The levels the tests read: a break it and a fix it.
var (
	breakLevel = readTestdata("break-lost-update.yaml")
	fixLevel   = readTestdata("fix-lost-update.yaml")
)

func readTestdata(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

func mustParse(t *testing.T, src string) *Level {
	t.Helper()
	l, err := Parse("level.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A level file reads into its parts, and writes back into a file that
// reads into the same level; a plain scenario file is a level too.
func TestLevelFileRoundTrips(t *testing.T) {
	for _, src := range []string{breakLevel, fixLevel} {
		l := mustParse(t, src)
		if l.Goal == nil || l.Race == nil || l.Question == "" || l.Title == "" {
			t.Fatalf("parts missing: %+v", l)
		}
		data, err := Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		back := mustParse(t, string(data))
		again, err := Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(data) {
			t.Fatalf("Marshal is not stable:\n%s\n---\n%s", data, again)
		}
		if back.Title != l.Title || back.Question != l.Question || back.Hint != l.Hint || back.Goal.Par != l.Goal.Par ||
			back.Goal.Settings.String() != l.Goal.Settings.String() || strings.Join(back.Goal.Schedule, ",") != strings.Join(l.Goal.Schedule, ",") {
			t.Fatalf("the level changed:\n%s", data)
		}
	}
	sc, err := os.ReadFile("../examples/lost-update-unconditional.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l := mustParse(t, string(sc))
	if l.Goal != nil || l.Race.Name != "lost-update-unconditional" || l.Title != l.Race.Name {
		t.Fatalf("a scenario file as a level: %+v", l)
	}
}

// A level file's problems name the file, the line and the field, the
// race's with race. before them.
func TestLevelFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown field", "titel: x\nrace: {}\n", `level.yaml:1: unknown field "titel"`},
		{"race's own", strings.Replace(breakLevel, "write: update-clear-rv", "write: upsert", 1), `level.yaml:22: race.controllers[0].write: unknown write method "upsert"`},
		{"goal's own", strings.Replace(breakLevel, "par: 4", "par: 0", 1), "level.yaml:8: goal.par: want the fewest moves"},
		{"a controller the race lacks", strings.Replace(breakLevel, "schedule: [a, b, a, b]", "schedule: [a, c, a, b]", 1), `goal.schedule[1]: "c" names no controller`},
		{"no question", strings.Replace(breakLevel, "question: Find an order of steps that loses a field.\n", "", 1), "question: missing"},
		{"long title", "title: " + strings.Repeat("x", MaxTitle+1) + "\n" + breakLevel[strings.Index(breakLevel, "question:"):], "title: 81 characters: at most 80"},
		{"no race", "title: x\nrace:\n", "race: "},
	} {
		_, err := Parse("level.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want %q in %v", tc.name, tc.want, err)
		}
		var el scenario.ErrorList
		if err != nil && !errors.As(err, &el) {
			t.Errorf("%s: %T is not a scenario.ErrorList", tc.name, err)
		}
	}
}

// lessons validate's proof of a play step proves a level: the author's
// par holds, and a par that is not the fewest is caught.
func TestProveALevel(t *testing.T) {
	if probs := mustParse(t, breakLevel).Prove(); len(probs) > 0 {
		t.Fatalf("the break level does not prove: %v", probs)
	}
	if probs := mustParse(t, fixLevel).Prove(); len(probs) > 0 {
		t.Fatalf("the fix level does not prove: %v", probs)
	}
	loose := strings.NewReplacer("par: 4", "par: 5", "schedule: [a, b, a, b]", "schedule: [a, b, a, b.cache, b]").Replace(breakLevel)
	loose = strings.Replace(loose, "  name: lost-update\n", "  name: lost-update\n  lag: manual\n", 1)
	probs := mustParse(t, loose).Prove()
	if len(probs) == 0 || !strings.Contains(probs[0].Msg+probs[len(probs)-1].Msg, "but 4 moves do it") {
		t.Fatalf("a par of 5 where 4 do is not caught: %v", probs)
	}
}

func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil {
		t.Fatal("a folder loaded as a level")
	}
	f := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(f, []byte(strings.Repeat("#", scenario.MaxFileSize+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(f); err == nil || !strings.Contains(err.Error(), "MiB") {
		t.Fatalf("a file over the cap: %v", err)
	}
}

// A level's words are text: a control character in them (a terminal
// escape sequence written with YAML's escapes) is refused, with the field.
func TestLevelWordsAreText(t *testing.T) {
	for _, field := range []string{"title", "question", "hint"} {
		src := strings.Replace(breakLevel, field+": ", field+": \"\\e]0;pwned\\a\" # ", 1)
		_, err := Parse("level.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), field+": control character U+001B") {
			t.Errorf("%s: %v", field, err)
		}
	}
}
