package informer

import "github.com/conflictlab/conflictlab/sim/statekey"

// EncodeState writes the cache's state for the explorer's state key
// (sim/statekey): the objects it holds and the revision it has reached.
func (c *Cache) EncodeState(e statekey.Encoder) {
	statekey.Objects(e, c.objects)
	e.Int(c.rv)
}
