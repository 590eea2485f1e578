package quiz

import "sort"

// Topics are the areas of controller work a question can be tagged with.
// They cut across the lessons: a question about the fake clientset or the
// leader-election Lease has no lesson of its own, and one lesson's
// questions can belong to several areas.
var Topics = map[string]string{
	"versions":         "resourceVersion, preconditions and optimistic concurrency",
	"caches":           "informer caches, Listers, the controller-runtime client, watches and re-lists",
	"retries":          "retry.RetryOnConflict, which errors to retry, and how to re-read",
	"workqueue":        "the workqueue, its rate limiter, and requeueing a reconcile",
	"patches":          "the four patch kinds and what each one merges or replaces",
	"apply":            "server-side apply: field managers, ownership conflicts, force",
	"dependent-writes": "changes computed from what was read: counters, decisions, lists",
	"status":           "the status subresource, generation and observedGeneration",
	"deletion":         "finalizers and delete preconditions",
	"testing":          "what tests with fakes prove, and what to test with instead",
	"leader-election":  "the Lease and how leader election rides on conflicts",
}

// Difficulties are how much a question asks: basic (what the course
// states), intermediate (applying it to a new case), advanced (the
// interaction of two mechanisms, or upstream behaviour beyond the course).
var Difficulties = map[string]string{
	"basic":        "what the course states",
	"intermediate": "applying it to a case the course does not show",
	"advanced":     "two mechanisms at once, or upstream behaviour beyond the course",
}

// DifficultyOrder lists the difficulties from easiest.
var DifficultyOrder = []string{"basic", "intermediate", "advanced"}

// TopicNames lists the topic tags, sorted.
func TopicNames() []string {
	out := make([]string, 0, len(Topics))
	for t := range Topics {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// DifficultyNames lists the difficulties from easiest.
func DifficultyNames() []string { return append([]string(nil), DifficultyOrder...) }
