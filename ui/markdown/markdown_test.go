package markdown

import (
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
)

func plainLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimRight(xansi.Strip(l), " "))
	}
	return out
}

func TestInlineCodeIsNeverSplit(t *testing.T) {
	spans := []string{
		`Apply failed with 1 conflict: conflict with "a": .data.x`,
		`metadata.resourceVersion`,
		`{Duration: 10ms, Factor: 1.0, Jitter: 0.1, Steps: 5}`,
	}
	text := "It gets 409, with a message unlike the resourceVersion one: `" + spans[0] +
		"`. Put `" + spans[1] + "` in a list of words that goes on, and `" + spans[2] + "` is the default."
	list := "- the item also says `" + spans[1] + "` and then,\n  on a second source line, `" + spans[0] + "`."
	for _, doc := range []string{text, list} {
		for w := 61; w <= 100; w++ {
			out := strings.Join(plainLines(Render(doc, NoColor, w)), "\n")
			for _, s := range spans {
				if !strings.Contains(doc, s) {
					continue
				}
				if !strings.Contains(out, "`"+s+"`") {
					t.Fatalf("at width %d the code %q is split:\n%s", w, s, out)
				}
			}
		}
	}
}

func TestLongInlineCodeBreaksAtItsPunctuation(t *testing.T) {
	out := strings.Join(plainLines(Render("The queue (`workqueue.DefaultTypedControllerRateLimiter`) brings it back.", NoColor, 40)), "\n")
	if !strings.Contains(out, "DefaultTypedControllerRateLimiter") {
		t.Fatalf("an identifier that fits a line was cut:\n%s", out)
	}
}

func TestListItemsWrapLikeParagraphs(t *testing.T) {
	item := "**c** changes `spec.size` with an update built from its Lister,\n  which runs 20ms behind the server. One attempt, and then the words go on to fill more lines."
	for _, w := range []int{40, 56, 79} {
		got := plainLines(Render("Writers:\n\n- "+item+"\n- second", NoColor, w))
		para := plainLines(Render(strings.ReplaceAll(item, "\n  ", "\n"), NoColor, w-2))
		// The item's lines after "Writers:" and the blank line.
		lines := got[2 : 2+len(para)]
		for i, l := range lines {
			want := "  " + para[i]
			if i == 0 {
				want = "• " + para[i]
			}
			if l != want {
				t.Fatalf("at width %d, line %d of the item is %q, want %q (the item as a paragraph, under its bullet):\n%s",
					w, i, l, want, strings.Join(got, "\n"))
			}
		}
		if got[2+len(para)] != "• second" {
			t.Fatalf("at width %d the second item is %q", w, got[2+len(para)])
		}
	}
}

func TestGoCodeBlocksContinueWithAMark(t *testing.T) {
	doc := "```go\nfunc f() {\n    cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})\n}\n```\n\nAfter."
	out := plainLines(Render(doc, NoColor, 42))
	joined := strings.Join(out, "\n")
	if !strings.Contains(joined, Continuation+"Get(ctx, name, metav1.GetOptions{})") || !strings.Contains(joined, "    cm, err") {
		t.Fatalf("the long line is not continued after %q with its indent kept:\n%s", Continuation, joined)
	}
	for _, l := range out {
		if xansi.StringWidth(l) > 42 {
			t.Fatalf("line wider than 42: %q", l)
		}
	}
}

// Resizing through every width never grows the cache past its bound (what
// Render and Code store goes through remember).
func TestCacheIsBounded(t *testing.T) {
	mu.Lock()
	defer mu.Unlock()
	for w := 0; w < 3*cacheLimit; w++ {
		remember(key{"notty", w, "text"}, "out")
		if len(cache) > cacheLimit {
			t.Fatalf("%d entries after %d widths, limit %d", len(cache), w+1, cacheLimit)
		}
	}
}
