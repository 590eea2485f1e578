package code

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

// snippet: workqueue-requeue
// NewQueue is a controller's workqueue with client-go's default rate
// limiter: per key, 5ms doubling up to 1000s after each failure, and at
// most 10 requeues a second (bursts of 100) overall.
func NewQueue() workqueue.TypedRateLimitingInterface[string] {
	return workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
}

// ProcessNextItem is one turn of a worker. A reconcile that gets a 409
// returns it: the key goes back to the queue to be tried again after its
// backoff, and the worker moves on to the next key now, instead of
// sleeping in a retry loop while the other keys wait.
func ProcessNextItem(ctx context.Context, q workqueue.TypedRateLimitingInterface[string],
	reconcile func(ctx context.Context, key string) error) bool {
	key, shutdown := q.Get()
	if shutdown {
		return false
	}
	defer q.Done(key)
	if err := reconcile(ctx, key); err != nil {
		q.AddRateLimited(key) // back in 5ms, 10ms, 20ms…: this worker moves on now
		return true
	}
	q.Forget(key) // success: the key's backoff starts from 5ms again
	return true
}

// end snippet
