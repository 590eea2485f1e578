package code

// Single-writer checks of the controller-runtime snippets, on
// controller-runtime's fake client with the Widget's status subresource
// declared: what the code does to its own object, not how it races (the
// races are the simulator's, and the conformance test's).

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func widgetClient(t *testing.T, w *Widget) client.WithWatch {
	t.Helper()
	s := runtime.NewScheme()
	gv := schema.GroupVersion{Group: Widgets.Group, Version: Widgets.Version}
	s.AddKnownTypeWithName(gv.WithKind("Widget"), &Widget{})
	s.AddKnownTypeWithName(gv.WithKind("WidgetList"), &metav1.List{})
	metav1.AddToGroupVersion(s, gv)
	return crfake.NewClientBuilder().WithScheme(s).WithObjects(w).WithStatusSubresource(&Widget{}).Build()
}

func storedWidget(t *testing.T, c client.Client) Widget {
	t.Helper()
	var w Widget
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "w1"}, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// ResizeAndReport's status change is lost to its own Update, which puts
// the server's (old) status back into the object before Status().Update.
func TestUpdateOverwritesTheStatusInMemory(t *testing.T) {
	c := widgetClient(t, &Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: ns}, Spec: WidgetSpec{Size: 1}})
	r := &WidgetReconciler{Client: c, APIReader: c}
	if err := r.ResizeAndReport(context.Background(), client.ObjectKey{Namespace: ns, Name: "w1"}); err != nil {
		t.Fatal(err)
	}
	got := storedWidget(t, c)
	if got.Spec.Size != 2 || got.Status.Phase != "" {
		t.Fatalf("spec.size %d, status.phase %q: want 2 and no phase", got.Spec.Size, got.Status.Phase)
	}
}

// ReportStatus copies the generation of the copy it read into
// observedGeneration, and ReadyForCurrentSpec believes a status only for
// that generation. (The fake client does not count generations; a real
// server does, which the simulator and the conformance test check.)
func TestReportCopiesTheGeneration(t *testing.T) {
	ctx := context.Background()
	key := client.ObjectKey{Namespace: ns, Name: "w1"}
	c := widgetClient(t, &Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: ns, Generation: 1}, Spec: WidgetSpec{Size: 1}})
	if err := Resize(ctx, c, c, key, 3); err != nil {
		t.Fatal(err)
	}
	if err := ReportStatus(ctx, c, key); err != nil {
		t.Fatal(err)
	}
	got := storedWidget(t, c)
	if got.Status.ObservedGeneration != got.Generation || got.Status.ReadyReplicas != 3 || !ReadyForCurrentSpec(&got) {
		t.Fatalf("generation %d, status %+v", got.Generation, got.Status)
	}
	got.Generation++ // what the server does on the next change of spec
	if ReadyForCurrentSpec(&got) {
		t.Fatal("a Ready for the previous generation was believed")
	}
}
