// Package code holds the client-go code the course shows, as real Go that
// compiles: lessons/snippets embeds these files as text and cuts out the
// regions marked `// snippet: NAME` … `// end snippet`. Nothing but the
// tests imports this package, so the tutorial's binary does not link the
// typed clients it uses; `go vet ./...` and `go test ./...` build it.
package code
