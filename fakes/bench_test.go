package fakes

import (
	"testing"
	"time"

	"github.com/conflictlab/conflictlab/sim/race"
)

// BenchmarkExample is one whole race of an example on each backend: a fresh
// backend (a fresh fake, as a unit test builds one), the setup, the race and
// its outcome. It reports CPU time per race beside wall time (steadier on a
// shared machine):
//
//	go test ./fakes -run '^$' -bench . -benchtime 20x
func BenchmarkExample(b *testing.B) {
	for _, name := range []string{"lost-update-conditional", "apply-conflict", "status-subresource"} {
		sc := example(b, name)
		for _, n := range All() {
			b.Run(name+"/"+string(n), func(b *testing.B) {
				perOp(b, func() {
					if _, err := Run(n, sc, race.Schedule{}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkNew is building the fake alone: the field-managed trackers
// build a type converter from client-go's OpenAPI models every time.
func BenchmarkNew(b *testing.B) {
	for _, n := range All()[1:] {
		b.Run(string(n), func(b *testing.B) {
			perOp(b, func() {
				be, err := New(n)
				if err != nil {
					b.Fatal(err)
				}
				be.Close()
			})
		})
	}
}

func perOp(b *testing.B, f func()) {
	start, ok := processCPUTime()
	for b.Loop() {
		f()
	}
	if end, _ := processCPUTime(); ok {
		b.ReportMetric(float64((end-start)/time.Microsecond)/float64(b.N)/1000, "cpu-ms/op")
	}
}
