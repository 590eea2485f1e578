package serve

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/conflictlab/conflictlab/lessons"
	"github.com/conflictlab/conflictlab/progress"
	"github.com/conflictlab/conflictlab/ui"
	"github.com/conflictlab/conflictlab/ui/room"
)

// Room is what the server knows of the room: the sessions open, where
// each is, and every attendee's progress as their sessions report it
// (merged the way the progress file merges them, so two sessions of one
// attendee add up). The instructors' views are sent a new snapshot after
// every change.
type Room struct {
	pack *lessons.Pack
	seed string

	mu        sync.Mutex
	nextID    int
	members   map[int]*member
	attendees map[string]*attendeeState
	watchers  map[int]chan struct{}
	stats     Stats
}

// Stats count what the server's bounds refused, by reason, and what
// else ended sessions.
type Stats struct {
	// RefusedConns: closed before the handshake, the address holding too
	// many connections open. RefusedRate: over the address's connection
	// rate. RefusedChannel: a second session on one connection.
	RefusedConns, RefusedRate, RefusedChannel int
	// RefusedFull, RefusedKey, RefusedAddress, RefusedName: the room's
	// sessions, the key's, the address's; a name in use.
	RefusedFull, RefusedKey, RefusedAddress, RefusedName int
	// RefusedInstructors: the instructors' own bound.
	RefusedInstructors int
	IdleEnded, Panics  int
}

// refused counts a session refused for reason (sessions.take's).
func (st *Stats) refused(reason string) {
	switch reason {
	case "full":
		st.RefusedFull++
	case "key":
		st.RefusedKey++
	case "address":
		st.RefusedAddress++
	case "name":
		st.RefusedName++
	case "instructors":
		st.RefusedInstructors++
	}
}

// Refused is every refusal.
func (st Stats) Refused() int {
	return st.RefusedConns + st.RefusedRate + st.RefusedChannel + st.RefusedFull + st.RefusedKey +
		st.RefusedAddress + st.RefusedName + st.RefusedInstructors
}

type member struct {
	att    Attendee
	send   func(tea.Msg)
	act    ui.Activity
	base   *progress.Progress
	leader bool // an instructor's session
}

type attendeeState struct {
	Attendee
	prog     *progress.Progress
	sessions int
	order    int
}

func newRoom(pack *lessons.Pack, seed string) *Room {
	return &Room{pack: pack, seed: seed, members: map[int]*member{}, attendees: map[string]*attendeeState{},
		watchers: map[int]chan struct{}{}}
}

// join counts an attendee's session in; loaded is their progress as the
// session found it on disk. send reaches the session's program.
func (r *Room) join(a Attendee, loaded *progress.Progress, send func(tea.Msg)) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextID++
	id := r.nextID
	st, ok := r.attendees[a.ID]
	if !ok {
		st = &attendeeState{Attendee: a, prog: loaded, order: len(r.attendees)}
		r.attendees[a.ID] = st
	}
	// A known attendee's progress here is already the union of what their
	// sessions reported; this one adds what it changes from loaded on.
	st.sessions++
	r.members[id] = &member{att: a, send: send, base: loaded, act: ui.Activity{Screen: "loading"}}
	r.changed()
	return id
}

// joinLeader counts an instructor's session in.
func (r *Room) joinLeader(a Attendee) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextID++
	r.members[r.nextID] = &member{att: a, leader: true}
	return r.nextID
}

// leave counts a session out.
func (r *Room) leave(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m, ok := r.members[id]
	if !ok {
		return
	}
	delete(r.members, id)
	if st := r.attendees[m.att.ID]; st != nil && !m.leader {
		st.sessions--
	}
	r.changed()
}

// observe records where a session is and, when it changed, its progress.
// It runs on the session's program loop: it only takes the lock.
func (r *Room) observe(id int, a ui.Activity) {
	mine := a.Progress // a copy the session made for the room: read, never changed
	r.mu.Lock()
	defer r.mu.Unlock()
	m, ok := r.members[id]
	if !ok {
		return
	}
	if a.Screen != "" {
		m.act.Screen, m.act.Lesson, m.act.Step = a.Screen, a.Lesson, a.Step
	}
	if mine != nil {
		st := r.attendees[m.att.ID]
		st.prog = progress.Merge(st.prog, m.base, mine)
		m.base = mine
	}
	r.changed()
}

// count updates the refusal counts.
func (r *Room) count(f func(*Stats)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.stats)
	r.changed()
}

// Stats are the refusals so far.
func (r *Room) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// broadcast sends msg to every attendee's session (not the instructors').
// Each send waits for its program, so each has a goroutine of its own.
func (r *Room) broadcast(msg tea.Msg) int {
	r.mu.Lock()
	var sends []func(tea.Msg)
	for _, m := range r.members {
		if !m.leader && m.send != nil {
			sends = append(sends, m.send)
		}
	}
	r.mu.Unlock()
	for _, send := range sends {
		go send(msg)
	}
	return len(sends)
}

// watch registers an instructor's view: send is called with a fresh
// room.Updated after each change (the latest only: a slow view skips
// snapshots, never queues them). stop ends it.
func (r *Room) watch(send func(tea.Msg)) (stop func()) {
	poke := make(chan struct{}, 1)
	done := make(chan struct{})
	r.mu.Lock()
	r.nextID++
	id := r.nextID
	r.watchers[id] = poke
	r.mu.Unlock()
	poke <- struct{}{}
	go func() {
		for {
			select {
			case <-done:
				return
			case <-poke:
				send(room.Updated{Snapshot: r.Snapshot()})
			}
			// At most so many snapshots a second, however busy the room:
			// a snapshot reads every attendee's progress.
			select {
			case <-done:
				return
			case <-time.After(snapshotEvery):
			}
		}
	}()
	return func() {
		r.mu.Lock()
		delete(r.watchers, id)
		r.mu.Unlock()
		close(done)
	}
}

// snapshotEvery is the least time between two snapshots to one view.
const snapshotEvery = 100 * time.Millisecond

// changed pokes the watchers; r.mu is held.
func (r *Room) changed() {
	for _, poke := range r.watchers {
		select {
		case poke <- struct{}{}:
		default: // a snapshot is already due
		}
	}
}

// Progress is an attendee's progress as the room knows it (a copy).
func (r *Room) Progress(id string) (*progress.Progress, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st, ok := r.attendees[id]
	if !ok {
		return nil, false
	}
	return progress.Merge(progress.New(), nil, st.prog), true
}

// Snapshot is the room for the instructor's view.
func (r *Room) Snapshot() room.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	snap := room.Snapshot{Seed: r.seed}
	for _, l := range r.pack.Lessons {
		snap.Lessons = append(snap.Lessons, room.Lesson{ID: l.ID, Title: l.Title})
	}
	where := map[string]string{}
	for _, m := range r.members {
		if !m.leader {
			where[m.att.ID] = r.place(m.act)
		}
	}
	var states []*attendeeState
	for _, st := range r.attendees {
		states = append(states, st)
	}
	slices.SortFunc(states, func(a, b *attendeeState) int {
		if (a.sessions > 0) != (b.sessions > 0) {
			if a.sessions > 0 {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.order, b.order)
	})
	snap.Seen = len(states)
	for _, st := range states {
		if st.sessions > 0 {
			snap.Online++
		}
	}
	if len(states) > room.MaxAttendees {
		states = states[:room.MaxAttendees] // connected first
	}
	for _, st := range states {
		a := room.Attendee{Name: st.Name, Sessions: st.sessions, Where: where[st.ID]}
		if st.sessions == 0 {
			a.Where = "gone"
		}
		for _, l := range r.pack.Lessons {
			lp, ok := st.prog.Lessons[l.ID]
			if !ok {
				continue
			}
			t := lp.Tally(questions(l))
			a.Right += t.Right
			a.Answered += t.Answered
			if lp.Done {
				a.LessonsDone++
			}
		}
		if b, ok := st.prog.QuizBestOf(""); ok {
			a.Quiz = fmt.Sprintf("%d/%d", b.Right, b.Total)
		} else {
			for _, b := range st.prog.Quiz {
				if b != nil && b.Total > 0 {
					a.Quiz = fmt.Sprintf("%d/%d", b.Right, b.Total)
					break
				}
			}
		}
		snap.Attendees = append(snap.Attendees, a)
	}
	snap.Missed = r.missed()
	if s := r.stats; s != (Stats{}) {
		snap.Limits = fmt.Sprintf("refused: %d over the connection rate, %d with the room full, %d over a key's or an address's sessions, "+
			"%d names in use, %d second sessions on a connection, %d connections cut before the handshake · %d ended idle · %d panics",
			s.RefusedRate, s.RefusedFull, s.RefusedKey+s.RefusedAddress, s.RefusedName, s.RefusedChannel, s.RefusedConns, s.IdleEnded, s.Panics)
	}
	return snap
}

// place says where a session is, for the view.
func (r *Room) place(a ui.Activity) string {
	if a.Screen != "player" {
		return a.Screen
	}
	for i, l := range r.pack.Lessons {
		if l.ID == a.Lesson {
			return fmt.Sprintf("lesson %d · step %d/%d", i+1, a.Step+1, len(l.Steps))
		}
	}
	return a.Lesson
}

// missed are the questions with wrong first answers, most first; r.mu is
// held.
func (r *Room) missed() []room.Missed {
	var out []room.Missed
	for li, l := range r.pack.Lessons {
		for si, s := range l.Steps {
			if s.Kind != lessons.Predict && s.Kind != lessons.Choose {
				continue
			}
			ms := room.Missed{Where: fmt.Sprintf("lesson %d · step %d: %s", li+1, si+1, s.Title)}
			picked := map[string]int{}
			for _, st := range r.attendees {
				lp := st.prog.Lessons[l.ID]
				if lp == nil {
					continue
				}
				ans, ok := lp.Answers[si]
				if !ok {
					continue
				}
				ms.Answers++
				if !ans.FirstTry {
					ms.Wrong++
					picked[ans.Picked]++
				}
			}
			if ms.Wrong == 0 {
				continue
			}
			for id, n := range picked {
				label := id
				for _, o := range s.Options {
					if o.ID == id {
						label = o.Label
					}
				}
				if label == "" {
					label = "(not recorded)"
				}
				ms.Choices = append(ms.Choices, room.Choice{Label: label, Count: n})
			}
			slices.SortFunc(ms.Choices, func(a, b room.Choice) int {
				return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Label, b.Label))
			})
			out = append(out, ms)
		}
	}
	slices.SortStableFunc(out, func(a, b room.Missed) int { return cmp.Compare(b.Wrong, a.Wrong) })
	return out
}

// questions is the lesson's question steps, as Lesson.Tally takes them.
func questions(l *lessons.Lesson) []bool {
	q := make([]bool, len(l.Steps))
	for i, s := range l.Steps {
		q[i] = s.Kind == lessons.Predict || s.Kind == lessons.Choose || s.Kind == lessons.Play
	}
	return q
}
