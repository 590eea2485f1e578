package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/quiz"
	quizui "github.com/conflictlab/conflictlab/ui/quiz"
)

// LoadBuiltinQuiz loads the built-in question bank and, for its races, a
// copy of the built-in course of its own: the bank is about that course
// whatever pack the lessons come from, and Prepare adds scenarios to the
// pack it is given, which must not be the one the player's races read.
func LoadBuiltinQuiz() (*quiz.Bank, *lessons.Pack, error) {
	bank, err := quiz.Default()
	if err != nil {
		return nil, nil, err
	}
	pack, err := lessons.Course()
	if err != nil {
		return nil, nil, err
	}
	if err := quiz.Prepare(bank, pack); err != nil {
		return nil, nil, err
	}
	return bank, pack, nil
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
			bank, qp, err := load()
			if err != nil {
				return quizui.Data{}, err
			}
			return quizui.Data{Bank: bank, Races: newPackRaces(qp), Lessons: qp.Lessons, Pack: qp}, nil
		},
		Prog:     m.prog,
		CanOpen:  func(id string) bool { return pack != nil && pack.Lesson(id) != nil },
		Today:    today,
		Ticker:   m.cfg.Ticker,
		Snippets: m.cfg.Snippets,
	}, m.st)
	m.quizOn = true
	m.resize()
	return m.quiz.Load()
}
