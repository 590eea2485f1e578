package keyhelp

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// OneMeaning is a screen's key groups with every key kept by the first
// binding that has it: a later binding loses the keys taken before it
// (its help then names only the keys it keeps), and is left out when it
// has none left. A screen lists the keys it takes first (a play step's,
// an open inspect panel's) and the root's come last, so the race view's
// "r restart race" or the root's "esc back" does not sit on the list
// beside the play step's own r or the panel's esc.
func OneMeaning(groups []Group) []Group {
	taken := map[string]bool{}
	out := make([]Group, 0, len(groups))
	for _, g := range groups {
		ng := Group{Title: g.Title}
		for _, b := range g.Keys {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			var keep []string
			for _, k := range b.Keys() {
				if !taken[k] {
					keep = append(keep, k)
				}
			}
			if len(keep) == 0 {
				continue
			}
			if len(keep) < len(b.Keys()) {
				b = key.NewBinding(key.WithKeys(keep...), key.WithHelp(keyNames(keep), b.Help().Desc))
			}
			for _, k := range keep {
				taken[k] = true
			}
			ng.Keys = append(ng.Keys, b)
		}
		out = append(out, ng)
	}
	return out
}

// keyNames is how the help writes keys: "→/.".
func keyNames(keys []string) string {
	names := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "backspace": "⌫",
		"shift+up": "shift+↑", "shift+down": "shift+↓"}
	out := make([]string, len(keys))
	for i, k := range keys {
		if n, ok := names[k]; ok {
			k = n
		}
		out[i] = k
	}
	return strings.Join(out, "/")
}
