package markdown

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/conflictlab/conflictlab/ui/layout"
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

// Resizing through every width never grows the cache past its bound:
// two generations of cacheLimit bytes; what is drawn on every frame
// stays.
func TestCacheIsBounded(t *testing.T) {
	const limit = 16 << 10
	c := newCache(limit)
	hot := key{"notty", 80, "drawn on every frame"}
	c.put(hot, "hot")
	rendering := strings.Repeat("x", 1000)
	for w := 0; w < 3*limit/1000; w++ {
		c.put(key{"notty", w, "text"}, rendering)
		total := 0
		for _, m := range []map[key]string{c.cur, c.old} {
			for k, v := range m {
				total += len(k.text) + len(k.style) + len(v)
			}
		}
		if total > 2*limit {
			t.Fatalf("%d bytes after %d widths, limit 2×%d", total, w+1, limit)
		}
		if _, ok := c.get(hot); !ok {
			t.Fatalf("the text drawn on every frame was dropped after %d widths", w+1)
		}
	}
}

// TestRenderConcurrently: sessions render at once, with no lock held
// while they render (the server's programs share the cache); every
// result is the one a lone render gives. .ci/run runs it under -race.
func TestRenderConcurrently(t *testing.T) {
	texts := []string{"Some **bold** text and `code` in a paragraph that wraps at the width.",
		"- a list\n- of items\n\n> a quote", "## A heading\n\nAnd prose after it."}
	want := map[key]string{}
	for _, text := range texts {
		for _, w := range []int{30, 61, 97} {
			out, _ := renderDoc(text, "dark", w, prose)
			want[key{"dark", w, text}] = layout.Width(out, w)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				text, w := texts[(g+i)%len(texts)], []int{30, 61, 97}[(g*7+i)%3]
				if got := Render(text, "dark", w); got != want[key{"dark", w, text}] {
					errs <- fmt.Sprintf("goroutine %d: width %d:\n%q\nwant\n%q", g, w, got, want[key{"dark", w, text}])
					return
				}
				if got := Code("func f() {\n\treturn\n}", "dark", w); !strings.Contains(xansi.Strip(got), "return") {
					errs <- fmt.Sprintf("code: %q", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestRendersOverlap: a render that misses the cache does not wait for
// another session's render in progress — two are held inside the prose
// renderer at once. A lock held for a whole Render (the server's
// sessions queued behind one another) lets only one in, and fails here.
func TestRendersOverlap(t *testing.T) {
	inside := make(chan struct{}, 2)
	release := make(chan struct{})
	renderProse = func(src, style string, width int) (string, error) {
		inside <- struct{}{}
		<-release
		return prose(src, style, width)
	}
	defer func() { renderProse = prose }()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(release)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Render(fmt.Sprintf("A text only this render draws (%d).", i), "dark", 40+i)
		}()
	}
	for n := range 2 {
		select {
		case <-inside:
		case <-time.After(10 * time.Second): // a bound on the failure, not a wait for success
			t.Fatalf("%d render(s) in progress after 10 s: the second waited for the first", n)
		}
	}
}
