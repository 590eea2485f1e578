//go:build !race

package budget

// raceEnabled: the tests run under the race detector, whose shadow memory
// the runtime does not give back as it gives back the heap.
const raceEnabled = false
