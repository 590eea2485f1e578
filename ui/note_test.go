package ui

import (
	"testing"
)

// TestLiveKeyWithoutKubeconfigSaysWhy: without a kubeconfig L does
// nothing in a lesson; the status line says why, and the next key brings
// the key bar back.
func TestLiveKeyWithoutKubeconfigSaysWhy(t *testing.T) {
	d := start(t, testConfig(t), 100, 30)
	d.Press("enter", "L")
	if got := app(d).Screen(); got != "player" {
		t.Fatalf("screen %s", got)
	}
	mustContain(t, d.View(), "L is off: no kubeconfig found")
	d.Press("down")
	mustNotContain(t, d.View(), "no kubeconfig found")
	mustContain(t, d.View(), "enter continue")
}
