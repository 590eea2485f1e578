// Command simfloor is the floor of conflictlab's startup (BENCHMARKS.md,
// "Startup and frame"): a program that links the simulated API server
// — apimachinery, structured-merge-diff, kube-openapi and what they
// import — and exits at once. Go initialises every linked package before
// main, so no single binary with the simulator in it starts sooner than
// this one ends.
package main

import _ "github.com/conflictlab/conflictlab/sim/apiserver"

func main() {}
