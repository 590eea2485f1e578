package code

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	ctrl "sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// staleCache is the manager's client whose cache has not seen the last
// write: every Get hands out the copy before it (one resourceVersion
// back), and every Update is counted.
type staleCache struct {
	client.Client
	updates int
}

func (s *staleCache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if err := s.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	obj.SetResourceVersion("998") // the fake's seeded objects start at 999
	return nil
}

func (s *staleCache) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	s.updates++
	return s.Client.Update(ctx, obj, opts...)
}

// The four reconcilers of lesson 3 on a stale cache: the swallowing ones
// return nil after a 409, the requeuing one returns the 409, the one that
// re-sends its copy sends it five times.
func TestLessonThreeReconcilers(t *testing.T) {
	ctx := context.Background()
	req := ctrl.Request{NamespacedName: client.ObjectKey{Namespace: ns, Name: "w1"}}
	for _, tc := range []struct {
		name      string
		reconcile func(*WidgetReconciler) (ctrl.Result, error)
		conflict  bool
		updates   int
	}{
		{"swallow", func(r *WidgetReconciler) (ctrl.Result, error) { return r.ReconcileSwallow(ctx, req) }, false, 1},
		{"filtered", func(r *WidgetReconciler) (ctrl.Result, error) { return r.ReconcileFiltered(ctx, req) }, false, 1},
		{"requeue", func(r *WidgetReconciler) (ctrl.Result, error) { return r.ReconcileRequeue(ctx, req) }, true, 1},
		{"resend", func(r *WidgetReconciler) (ctrl.Result, error) { return r.ReconcileResend(ctx, req) }, false, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &staleCache{Client: widgetClient(t, &Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: ns}, Spec: WidgetSpec{Size: 1}})}
			_, err := tc.reconcile(&WidgetReconciler{Client: c, APIReader: c})
			if got := apierrors.IsConflict(err); got != tc.conflict {
				t.Errorf("returned %v: a conflict %v, want %v", err, got, tc.conflict)
			}
			if c.updates != tc.updates {
				t.Errorf("%d updates, want %d", c.updates, tc.updates)
			}
			if got := storedWidget(t, c.Client); got.Spec.Size != 1 {
				t.Errorf("spec.size %d: a stale update landed", got.Spec.Size)
			}
		})
	}
}

// The filter passes an update that moves metadata.generation and no
// other.
func TestWidgetEventsFilterOnGeneration(t *testing.T) {
	old := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Generation: 1}}
	status := old.DeepCopy()
	status.Status.Phase = "Ready"
	spec := old.DeepCopy()
	spec.Generation = 2
	p := WidgetEvents()
	if p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: status}) {
		t.Error("a status change passed")
	}
	if !p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: spec}) {
		t.Error("a generation change was filtered")
	}
	if !p.Create(event.CreateEvent{Object: old}) || !p.Delete(event.DeleteEvent{Object: old}) {
		t.Error("a create or a delete was filtered")
	}
}
