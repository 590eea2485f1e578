package docs

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage: the package list of ARCHITECTURE.md
// ("## Packages") has a row for every package of the module (go list
// ./...), and names only packages; a row may name several, comma-separated
// ("ui/layout, ui/markdown  …"). The root package is main.go's row. A
// name ending in /... is a family of packages of one shape under a folder
// (the exercises' variants), as go list reads the pattern; it must match
// at least one package that is not the folder itself.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	rows := packageRows(t, readDoc(t, "ARCHITECTURE.md"))
	packages := modulePackages(t)
	named := map[string]bool{}
	for _, r := range rows {
		for _, n := range r.names {
			if dir, ok := strings.CutSuffix(n, "/..."); ok {
				matched := false
				for _, p := range packages {
					if strings.HasPrefix(p, dir+"/") {
						matched = true
						if named[p] {
							t.Errorf("ARCHITECTURE.md: %s has two rows", p)
						}
						named[p] = true
					}
				}
				if !matched {
					t.Errorf("ARCHITECTURE.md names %s, which matches no package of the module (go list ./...)", n)
				}
				continue
			}
			if named[n] {
				t.Errorf("ARCHITECTURE.md: %s has two rows", n)
			}
			named[n] = true
			if !slices.Contains(packages, n) {
				t.Errorf("ARCHITECTURE.md names %s, which is not a package of the module (go list ./...)", n)
			}
		}
	}
	for _, p := range packages {
		if !named[p] {
			t.Errorf("ARCHITECTURE.md has no row for package %s: add one line saying what it holds", p)
		}
	}
}

// packageRow is one row of the package list: the packages it names and
// what it says of them.
type packageRow struct {
	names []string
	text  string
}

// packageRows reads the fenced block under "## Packages". A row starts at
// the line's first column; a line that starts with a space continues the
// row above.
func packageRows(t *testing.T, doc string) []packageRow {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Packages\n")
	if !ok {
		t.Fatal(`ARCHITECTURE.md has no "## Packages" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	fs := fences(section)
	if len(fs) == 0 {
		t.Fatal(`ARCHITECTURE.md's "## Packages" has no fenced list`)
	}
	var rows []packageRow
	for _, line := range strings.Split(fs[0].text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(rows) > 0 {
				rows[len(rows)-1].text += " " + strings.TrimSpace(line)
			}
			continue
		}
		var r packageRow
		fields := strings.Fields(line)
		i := 0
		for ; i < len(fields); i++ {
			name, more := strings.CutSuffix(fields[i], ",")
			r.names = append(r.names, packageName(name))
			if !more {
				break
			}
		}
		r.text = strings.Join(fields[min(i+1, len(fields)):], " ")
		rows = append(rows, r)
	}
	return rows
}

// packageName is a row's name as go list's path relative to the module:
// "sim/race", "cli/" → "cli", "main.go" → "." (the root package).
func packageName(s string) string {
	if s == "main.go" {
		return "."
	}
	return strings.TrimSuffix(s, "/")
}

// modulePackages are the module's packages relative to its root ("." for
// the root), as go list ./... lists them.
func modulePackages(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	mod := exec.Command("go", "list", "-m", "-f", "{{.Path}}")
	mod.Dir = root
	m, err := mod.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module := strings.TrimSpace(string(m))
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if p == module {
			pkgs = append(pkgs, ".")
			continue
		}
		pkgs = append(pkgs, strings.TrimPrefix(p, module+"/"))
	}
	return pkgs
}
