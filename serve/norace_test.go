//go:build !race

package serve

// raceEnabled: the tests run under the race detector (underRSS).
const raceEnabled = false
