// Package snippets is the client-go code the course shows. Each snippet is
// a region of a real Go file in this package, so it compiles with the
// build (and the tests run what can be run); the TUI shows the region
// verbatim. A region starts with a line `// snippet: NAME` and ends with
// `// end snippet`.
package snippets

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.go
var files embed.FS

// Get returns the source of a snippet, without its markers.
func Get(name string) (string, error) {
	all, err := All()
	if err != nil {
		return "", err
	}
	s, ok := all[name]
	if !ok {
		return "", fmt.Errorf("no snippet %q", name)
	}
	return s, nil
}

// Names lists every snippet.
func Names() []string {
	all, _ := All()
	out := make([]string, 0, len(all))
	for k := range all {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// All extracts every snippet region of the package's files.
func All() (map[string]string, error) {
	out := map[string]string{}
	names, err := fs.Glob(files, "*.go")
	if err != nil {
		return nil, err
	}
	for _, f := range names {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := files.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var (
			cur  string
			body []string
		)
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		line := 0
		for sc.Scan() {
			line++
			t := sc.Text()
			trim := strings.TrimSpace(t)
			switch {
			case strings.HasPrefix(trim, "// snippet: "):
				if cur != "" {
					return nil, fmt.Errorf("%s:%d: snippet %q starts inside %q", f, line, strings.TrimPrefix(trim, "// snippet: "), cur)
				}
				cur = strings.TrimPrefix(trim, "// snippet: ")
				body = nil
			case trim == "// end snippet":
				if cur == "" {
					return nil, fmt.Errorf("%s:%d: end snippet without a start", f, line)
				}
				if _, dup := out[cur]; dup {
					return nil, fmt.Errorf("%s:%d: snippet %q defined twice", f, line, cur)
				}
				out[cur] = strings.Join(body, "\n")
				cur = ""
			case cur != "":
				body = append(body, t)
			}
		}
		if cur != "" {
			return nil, fmt.Errorf("%s: snippet %q never ends", f, cur)
		}
	}
	return out, nil
}
