// Package simcluster runs real controller code — a reconcile written with
// controller-runtime's client or client-go's clientset, unchanged — against
// Conflict Lab's simulated API server, and proves it over every
// interleaving of a race.
//
// What it holds:
//
//   - the clients (Clients): controller-runtime's client.Client, whose
//     Get and List read the controller's simulated informer cache on the
//     scenario's lag and whose writes go to the simulated server; a live
//     client.Reader (the manager's API reader); client-go's
//     kubernetes.Interface and dynamic client; and client-go listers over
//     the same cache. They are the libraries' own clients, built on a
//     rest.Config whose transport speaks the Kubernetes REST protocol to
//     the simulator in-process (rest.go): request bodies are made by the
//     libraries as they make them for a cluster, and failures come back as
//     the real *apierrors.StatusError, so retry.RetryOnConflict,
//     apierrors.IsConflict and client.IgnoreNotFound work unchanged.
//   - the scheduler that interleaves the code deterministically (run.go):
//     each controller's reconcile runs in its own goroutine, and only one
//     runs at a time; every API call and every cache read stops its
//     goroutine and becomes a step that the race's scheduler (race.World)
//     takes when the schedule says so. A run is a function of the code and
//     the schedule, and its result is the race.Outcome every view of a
//     race draws (the race view, the reports, -o json).
//   - the explorer (explore.go), which covers every interleaving by
//     running the code again for each one, merging the states two orders
//     reach alike, and the test helper (Prove) that fails a go test with
//     the first losing schedule and its timeline.
//
// The controllers the code plays are the scenario's controllers with
// `write: code`; the rest of the scenario (its objects, the other
// controllers written as data, lag, invariants) is a scenario file like
// any other. A code controller's mutations say what the code means to
// change, so that a change of its that another write erases — or that
// it never made — is found like any other lost field.
//
// The simulator stays pure: the goroutines live here, and the simulator
// sees only plain data (race.World.Offer, Answer, Return).
//
// What the clients cannot see breaks determinism silently: a goroutine
// the code starts and calls from (refused: only the reconcile's own
// goroutine may call), a shared mutex, time.Now() in an object, map
// order. Each run's sequence of calls is compared with the one the same
// schedule prefix made before, and a difference is reported with the call
// that differs.
package simcluster
