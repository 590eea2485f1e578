// Package snippets is the client-go code the course shows. Each snippet is
// a region of a real Go file in lessons/snippets/code, a package only the
// tests build (so the tutorial does not link client-go's typed clients):
// it compiles, and its tests run what can be run; the TUI shows the region
// verbatim, embedded here as text. A region starts with a line `// snippet: NAME` and ends with
// `// end snippet`. A line `// strategy: KEY=VALUE …` inside a region
// declares which simulator strategy the code is (see Strategy); it is not
// part of the code shown.
package snippets

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed code/*.go
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
	out, _, err := regions()
	return out, err
}

// Strategy returns what a snippet declares it does, as the keys and values
// of a lesson's strategy (write, read, withRV, test, force, retry), so that
// `lessons validate` can check that the race beside it plays the same
// code. ok is false when the snippet declares nothing.
func Strategy(name string) (decl map[string]string, ok bool, err error) {
	_, strategies, err := regions()
	if err != nil {
		return nil, false, err
	}
	decl, ok = strategies[name]
	return decl, ok, nil
}

// strategyKeys are the keys a `// strategy:` line may use.
var strategyKeys = map[string]bool{"write": true, "read": true, "withRV": true, "test": true, "force": true, "retry": true}

func regions() (map[string]string, map[string]map[string]string, error) {
	out := map[string]string{}
	strategies := map[string]map[string]string{}
	names, err := fs.Glob(files, "code/*.go")
	if err != nil {
		return nil, nil, err
	}
	for _, f := range names {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := files.ReadFile(f)
		if err != nil {
			return nil, nil, err
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
					return nil, nil, fmt.Errorf("%s:%d: snippet %q starts inside %q", f, line, strings.TrimPrefix(trim, "// snippet: "), cur)
				}
				cur = strings.TrimPrefix(trim, "// snippet: ")
				body = nil
			case trim == "// end snippet":
				if cur == "" {
					return nil, nil, fmt.Errorf("%s:%d: end snippet without a start", f, line)
				}
				if _, dup := out[cur]; dup {
					return nil, nil, fmt.Errorf("%s:%d: snippet %q defined twice", f, line, cur)
				}
				out[cur] = strings.Join(body, "\n")
				cur = ""
			case cur != "" && strings.HasPrefix(trim, "// strategy: "):
				decl, err := parseStrategy(strings.TrimPrefix(trim, "// strategy: "))
				if err != nil {
					return nil, nil, fmt.Errorf("%s:%d: snippet %q: %v", f, line, cur, err)
				}
				strategies[cur] = decl
			case cur != "":
				body = append(body, t)
			}
		}
		if cur != "" {
			return nil, nil, fmt.Errorf("%s: snippet %q never ends", f, cur)
		}
	}
	return out, strategies, nil
}

func parseStrategy(line string) (map[string]string, error) {
	decl := map[string]string{}
	for _, kv := range strings.Fields(line) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return nil, fmt.Errorf("strategy %q: want KEY=VALUE", kv)
		}
		if !strategyKeys[k] {
			return nil, fmt.Errorf("strategy key %q: want write, read, withRV, test, force or retry", k)
		}
		decl[k] = v
	}
	if len(decl) == 0 {
		return nil, fmt.Errorf("empty strategy line")
	}
	return decl, nil
}
