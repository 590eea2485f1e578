package apiserver

import "github.com/conflictlab/conflictlab/sim/statekey"

// EncodeState writes the server's state for the explorer's state key
// (sim/statekey): its revision, its objects, the newest revision compacted
// away and its uid counter. Left out: the schema (fixed for a run), the
// answer memo (shared by every clone, and only ever replays what would be
// computed), the clock (every request sets it first) and the watch history
// (the key maker writes the part some informer has yet to see, Events).
func (s *Server) EncodeState(e statekey.Encoder) {
	e.Int(s.rv)
	statekey.Objects(e, s.objects)
	e.Int(s.compacted)
	e.Int(int64(s.uids))
}
