package workspace

import (
	"bytes"
	"fmt"

	"github.com/conflictlab/conflictlab/exercises"
)

// readme is the workspace's README.md: what to do, and the exercises.
func readme(all []*exercises.Exercise) []byte {
	var b bytes.Buffer
	b.WriteString(`# Conflict Lab exercises

Each folder is one exercise: a Go file with a function to complete (look
for TODO), the races it must survive (*.yaml) and what its check proves
(check.yaml, read its comment first). Your code uses the real
controller-runtime and client-go clients; in the check they talk to
Conflict Lab's simulated API server, which races them against other
controllers over every interleaving and reports the first order that
loses a write.

Open this folder in your editor, then, from it:

    conflictlab exercises          # watches your files, re-checks on every save
    conflictlab exercises check 1  # checks exercise 1 once (exit 0 if it passes)

The watcher shows compile errors as FILE:LINE, or the verdict: on a
failure, the losing interleaving in the race view (step through it,
inspect each version) and a hint one key away; once an exercise passes,
its reference solution. ` + "`go test ./01-retry-fresh-read/`" + ` runs the same
check and prints its report.

Every check builds offline, from Go's module cache (` + "`exercises init`" + ` fetched
what it needs once). The folder .conflictlab/ is the part of Conflict
Lab the exercises build with; leave it as it is.

| # | folder | exercise |
|---|--------|----------|
`)
	for _, x := range all {
		fmt.Fprintf(&b, "| %d | %s | %s |\n", x.Number, x.Dir, x.Title)
	}
	return b.Bytes()
}
