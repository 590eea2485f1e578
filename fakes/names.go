package fakes

import (
	"fmt"
	"strings"

	"k8s.io/client-go/kubernetes/fake"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/scenario"
)

// Name names a backend as `sim --backend` spells it.
type Name string

// The backends a race can run on without a cluster.
const (
	// Sim is the simulator (sim/apiserver), the reference the others are
	// compared with.
	Sim Name = "sim"
	// ClientGoFake is client-go's fake.NewSimpleClientset: a plain object
	// tracker, apply done as a strategic merge.
	ClientGoFake Name = "client-go-fake"
	// ClientGoClientset is client-go's fake.NewClientset: the field-managed
	// object tracker, with real server-side apply.
	ClientGoClientset Name = "client-go-clientset"
	// ControllerRuntimeFake is controller-runtime's fake client
	// (fake.NewClientBuilder().Build()).
	ControllerRuntimeFake Name = "controller-runtime-fake"
)

// All lists every backend, the simulator first.
func All() []Name { return []Name{Sim, ClientGoFake, ClientGoClientset, ControllerRuntimeFake} }

// Parse checks a backend name.
func Parse(s string) (Name, error) {
	for _, n := range All() {
		if string(n) == s {
			return n, nil
		}
	}
	var names []string
	for _, n := range All() {
		names = append(names, string(n))
	}
	return "", fmt.Errorf("no backend %q: want one of %s", s, strings.Join(names, ", "))
}

// Notes says, for each backend, what of a real API server it does not do,
// so a table of differences can be read without the libraries' source.
func (n Name) Notes() []string {
	switch n {
	case ClientGoFake:
		return []string{
			"no resourceVersion semantics: objects keep the resourceVersion they were sent with, and a stale one is never refused (no 409)",
			"no status subresource: update-status and /status patches write the whole object",
			"server-side apply is a strategic merge patch: no field managers, no apply conflicts, no create (and none on a custom resource)",
			"Widget (a CRD) goes through dynamic/fake, which has the same tracker",
			"no uid, creationTimestamp or generation; watch events are numbered by this backend",
		}
	case ClientGoClientset:
		return []string{
			"no resourceVersion semantics: objects keep the resourceVersion they were sent with, and a stale one is never refused (no 409)",
			"no status subresource: update-status and /status patches write the whole object",
			"server-side apply through the real field manager (managedFields with wall-clock times)",
			"Widget (a CRD) goes through dynamic/fake, which has no field manager: apply there is a strategic merge patch, which a custom resource cannot take",
			"no uid, creationTimestamp or generation; watch events are numbered by this backend",
		}
	case ControllerRuntimeFake:
		return []string{
			"resourceVersions are counted per object (1, 2, 3… for each), not by one cluster-wide counter; a stale one gets 409",
			"managedFields are kept but not returned (the default: no WithReturnManagedFields)",
			"no uid, creationTimestamp or generation; watch events are numbered by this backend",
		}
	}
	return nil
}

// New returns a fresh fake backend (NewWorld builds the simulator's world
// with race.New).
func New(n Name) (*Backend, error) {
	switch n {
	case ClientGoFake:
		return newClientGo(n, fake.NewSimpleClientset()), nil
	case ClientGoClientset:
		return newClientGo(n, fake.NewClientset()), nil
	case ControllerRuntimeFake:
		return newControllerRuntime()
	case Sim:
		return nil, fmt.Errorf("the simulator is not a fake: race.New builds it")
	}
	_, err := Parse(string(n))
	return nil, err
}

// NewWorld builds the world of a scenario on backend n; close releases the
// backend's watches.
func NewWorld(n Name, sc *scenario.Scenario) (w *race.World, close func(), err error) {
	if n == Sim {
		w, err := race.New(sc)
		return w, func() {}, err
	}
	b, err := New(n)
	if err != nil {
		return nil, nil, err
	}
	if err := b.Err(); err != nil {
		b.Close()
		return nil, nil, err
	}
	w, err = race.NewWithBackend(sc, b)
	if err != nil {
		b.Close()
		return nil, nil, fmt.Errorf("%s: %w", n, err)
	}
	return w, b.Close, nil
}
