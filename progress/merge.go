package progress

// Merge is how a session's save meets the file: the file may have been
// written since the session last saved, by another conflictlab on the same
// account (two terminals), by `progress import` or by `progress reset`.
//
// A save is a three-way merge. base is what this session's progress was
// when it last saved (or loaded); mine is what it is now; disk is the file
// as it is now, read under the lock. Only what the session changed since
// base is applied to disk, so
//
//   - answers another session saved meanwhile are kept (they are on disk,
//     and this session did not touch them);
//   - an import or a reset is not undone: what the session held before it
//     saved last is not written again, only what it did since;
//   - nothing this session did is dropped: every change since its last
//     save is applied.
//
// Field by field, for what the session changed:
//
//	Last            the session's value (the place last moved to wins)
//	Lesson.Step     the session's value (same rule)
//	Lesson.Done     true once either says so (only reset and import clear it)
//	Answers[step]   not on disk: the session's record; on disk: attempts
//	                added since base are added, Correct if either is,
//	                FirstTry and Picked stay as on disk (the answer saved
//	                first was given first)
//	Quiz[topic]     not on disk: the session's record; on disk: quizzes
//	                taken since base are added, the better best is kept
//	Challenges[id]  the lower (better) best
//	Exercises[id]   passed once either says so
//
// A session never deletes: a lesson, answer, quiz or challenge it holds
// but base did not is added, and one base had that the session lost is
// left as the file has it.
func Merge(disk, base, mine *Progress) *Progress {
	out := disk.clone()
	if base == nil {
		base = New()
	}
	if mine.Last != base.Last {
		out.Last = mine.Last
	}
	for id, ml := range mine.Lessons {
		if ml == nil {
			continue
		}
		bl := base.Lessons[id]
		if bl == nil {
			bl = &Lesson{}
		}
		if ml.equal(bl) {
			continue
		}
		dl := out.Lesson(id)
		if ml.Step != bl.Step {
			dl.Step = ml.Step
		}
		if ml.Done && !bl.Done {
			dl.Done = true
		}
		for step, ma := range ml.Answers {
			ba, had := bl.Answers[step]
			if had && ba == ma {
				continue
			}
			if dl.Answers == nil {
				dl.Answers = map[int]Answer{}
			}
			da, on := dl.Answers[step]
			if !on {
				dl.Answers[step] = ma
				continue
			}
			da.Attempts += max(0, ma.Attempts-ba.Attempts)
			da.Correct = da.Correct || ma.Correct
			// A play step's best solution is the fewest moves either
			// side found (0: not solved).
			if ma.Best > 0 && (da.Best == 0 || ma.Best < da.Best) {
				da.Best = ma.Best
			}
			dl.Answers[step] = da
		}
	}
	for k, mq := range mine.Quiz {
		if mq == nil {
			continue
		}
		var bq QuizBest
		if b := base.Quiz[k]; b != nil {
			bq = *b
		}
		if *mq == bq {
			continue
		}
		if out.Quiz == nil {
			out.Quiz = map[string]*QuizBest{}
		}
		dq := out.Quiz[k]
		if dq == nil {
			c := *mq
			out.Quiz[k] = &c
			continue
		}
		dq.Taken += max(0, mq.Taken-bq.Taken)
		if (mq.Right != bq.Right || mq.Total != bq.Total) && mq.Total > 0 && dq.beats(mq.Right, mq.Total) {
			dq.Right, dq.Total = mq.Right, mq.Total
		}
	}
	for id, mc := range mine.Challenges {
		if mc == nil {
			continue
		}
		if bc := base.Challenges[id]; bc != nil && bc.Best == mc.Best {
			continue
		}
		if out.Challenges == nil {
			out.Challenges = map[string]*Challenge{}
		}
		if dc := out.Challenges[id]; dc == nil || mc.Best < dc.Best {
			out.Challenges[id] = &Challenge{Best: mc.Best}
		}
	}
	for id, me := range mine.Exercises {
		if me != nil && me.Passed && !base.ExercisePassed(id) {
			out.RecordExercise(id)
		}
	}
	out.Version = FormatVersion
	return out
}

func (l *Lesson) equal(o *Lesson) bool {
	if l.Step != o.Step || l.Done != o.Done || len(l.Answers) != len(o.Answers) {
		return false
	}
	for k, a := range l.Answers {
		if b, ok := o.Answers[k]; !ok || a != b {
			return false
		}
	}
	return true
}

// clone is a deep copy: a Store keeps what it last saved while the UI
// keeps changing its own Progress.
func (p *Progress) clone() *Progress {
	if p == nil {
		return New()
	}
	out := &Progress{Version: p.Version, Last: p.Last, Lessons: make(map[string]*Lesson, len(p.Lessons))}
	for id, l := range p.Lessons {
		if l == nil {
			continue
		}
		c := &Lesson{Step: l.Step, Done: l.Done}
		if l.Answers != nil {
			c.Answers = make(map[int]Answer, len(l.Answers))
			for k, a := range l.Answers {
				c.Answers[k] = a
			}
		}
		out.Lessons[id] = c
	}
	if p.Quiz != nil {
		out.Quiz = make(map[string]*QuizBest, len(p.Quiz))
		for k, b := range p.Quiz {
			if b != nil {
				c := *b
				out.Quiz[k] = &c
			}
		}
	}
	if p.Exercises != nil {
		out.Exercises = make(map[string]*Exercise, len(p.Exercises))
		for k, e := range p.Exercises {
			if e != nil {
				c := *e
				out.Exercises[k] = &c
			}
		}
	}
	if p.Challenges != nil {
		out.Challenges = make(map[string]*Challenge, len(p.Challenges))
		for k, c := range p.Challenges {
			if c != nil {
				cc := *c
				out.Challenges[k] = &cc
			}
		}
	}
	return out
}
