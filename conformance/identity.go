package conformance

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/conflictlab/conflictlab/live"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// What two servers name differently although the race is the same:
// uids (random on a real server, counted in the simulator), the random
// suffix a server appends to a generateName, and the namespace in an etcd
// key a storage error quotes (the live run's own namespace). Each is
// replaced, in the outcome's JSON text, by a token numbered by first
// appearance, so that the same object is the same token on both sides.

var (
	uidPattern      = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	generatePattern = regexp.MustCompile(`"generateName":"([^"]+)"`)
	etcdKeyPattern  = regexp.MustCompile(`Key: (/registry/[^\s,"]+),`)
)

// normalizeIdentities rewrites an outcome's JSON text.
func normalizeIdentities(b []byte) []byte {
	s := string(b)
	// A create's selector is its object's labels, which the simulated run
	// gives the run's label too (labelledCreates).
	s = strings.ReplaceAll(s, ","+live.RunLabel+"=conformance", "")
	s = strings.ReplaceAll(s, live.RunLabel+"=conformance,", "")
	s = tokenize(s, uidPattern, "uid#")
	seen := map[string]bool{}
	for _, m := range generatePattern.FindAllStringSubmatch(s, -1) {
		prefix := m[1]
		if seen[prefix] {
			continue
		}
		seen[prefix] = true
		// The server's suffix: 5 characters of utilrand's alphabet, not
		// followed by more of a name.
		gen := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[bcdfghjklmnpqrstvwxz2456789]{5}\b`)
		s = tokenize(s, gen, prefix+"<gen#")
	}
	s = etcdKeyPattern.ReplaceAllStringFunc(s, func(m string) string {
		key := etcdKeyPattern.FindStringSubmatch(m)[1]
		parts := strings.Split(key, "/")
		if len(parts) >= 2 {
			parts[len(parts)-2] = "<ns>"
		}
		return "Key: " + strings.Join(parts, "/") + ","
	})
	return []byte(s)
}

// tokenize replaces each distinct match of re by prefix+n (and a closing
// ">" when prefix opens one), n counting distinct matches in order.
func tokenize(s string, re *regexp.Regexp, prefix string) string {
	tok := map[string]string{}
	return re.ReplaceAllStringFunc(s, func(m string) string {
		if t, ok := tok[m]; ok {
			return t
		}
		t := fmt.Sprintf("%s%d", prefix, len(tok)+1)
		if strings.HasSuffix(prefix, "<gen#") {
			t += ">"
		}
		tok[m] = t
		return t
	})
}

// labelledCreates gives the objects the controllers create the run's
// label, as the live backend sends them (see Labelled).
func labelledCreates(ctrls []scenario.Controller) []scenario.Controller {
	out := append([]scenario.Controller(nil), ctrls...)
	for i, c := range out {
		if c.Object == nil {
			continue
		}
		o := c.Object.DeepCopy()
		labels := o.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[live.RunLabel] = "conformance"
		o.SetLabels(labels)
		out[i].Object = o
	}
	return out
}

// withoutRunLabel drops the run's label from a version's changes: its
// value is the run's id.
func withoutRunLabel(changes any) any {
	l, ok := changes.([]any)
	if !ok {
		return changes
	}
	out := l[:0:0]
	for _, c := range l {
		if cm, ok := c.(map[string]any); ok && cm["path"] == `metadata.labels["`+live.RunLabel+`"]` {
			continue
		}
		out = append(out, c)
	}
	return out
}
