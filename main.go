// Command conflictlab is an interactive terminal tutorial on how Kubernetes
// controllers write safely under concurrency, with a headless simulator CLI.
package main

import (
	"os"

	"github.com/conflictlab/conflictlab/cli"
)

func main() {
	env := cli.DefaultEnv()
	env.Source = source
	os.Exit(cli.Run(os.Args[1:], env))
}
