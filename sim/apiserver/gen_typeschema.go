//go:build ignore

// gen_typeschema writes typeschema_gen.go: for each built-in kind the
// simulator serves, the part of client-go's type schema that kind needs.
// Run by go generate; TestTypeSchemaUpToDate fails when it is stale.
package main

import (
	"log"
	"os"
	"os/exec"
	"strings"

	"github.com/conflictlab/conflictlab/sim/apiserver/internal/typeschema"
)

func main() {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/client-go").Output()
	if err != nil {
		log.Fatalf("locating k8s.io/client-go: %v", err)
	}
	src, err := typeschema.Generate(strings.TrimSpace(string(dir)))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("typeschema_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
