package report

import "testing"

func TestStoppedTextAgreesWithWhoStopped(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"b"}, "b stopped with its change not made"},
		{[]string{"you"}, "you stopped with your change not made"},
		{[]string{"a", "c"}, "a and c stopped with their changes not made"},
		{[]string{"a", "c", "d"}, "a, c and d stopped with their changes not made"},
	} {
		if got := stoppedText(c.names); got != c.want {
			t.Errorf("%v: %q, want %q", c.names, got, c.want)
		}
	}
}
