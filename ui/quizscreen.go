package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/lessons/racecache"
	"github.com/conflictlab/conflictlab/quiz"
	quizui "github.com/conflictlab/conflictlab/ui/quiz"
)

// LoadBuiltinQuiz loads the built-in question bank and the races of the
// built-in course: the bank is about that course whatever pack the
// lessons come from.
func LoadBuiltinQuiz() (*quiz.Bank, *racecache.Races, error) {
	bank, err := quiz.Default()
	if err != nil {
		return nil, nil, err
	}
	pack, err := lessons.Course()
	if err != nil {
		return nil, nil, err
	}
	races := racecache.New(pack)
	if err := quiz.Prepare(bank, races); err != nil {
		return nil, nil, err
	}
	return bank, races, nil
}

// openQuiz shows the quiz screen, building it (and loading the bank) the
// first time; afterwards it comes back to the quiz as it was left.
func (m *Model) openQuiz() tea.Cmd {
	m.screen = quizScreen
	m.showHelp = false
	m.home.SetNotice("")
	if m.quizOn {
		m.resize()
		return nil
	}
	load := m.cfg.LoadQuiz
	if load == nil {
		load = LoadBuiltinQuiz
	}
	today := time.Now()
	if m.cfg.Today != nil {
		today = m.cfg.Today()
	}
	pack := m.pack
	m.quiz = quizui.New(quizui.Config{
		Load: func() (quizui.Data, error) {
			bank, races, err := load()
			if err != nil {
				return quizui.Data{}, err
			}
			return quizui.Data{Bank: bank, Races: races, Lessons: races.Pack().Lessons}, nil
		},
		Prog:     m.prog,
		CanOpen:  func(id string) bool { return pack != nil && pack.Lesson(id) != nil },
		Today:    today,
		Seed:     m.cfg.QuizSeed,
		Ticker:   m.cfg.Ticker,
		Snippets: m.cfg.Snippets,
	}, m.st)
	m.quizOn = true
	m.resize()
	return m.quiz.Load()
}
