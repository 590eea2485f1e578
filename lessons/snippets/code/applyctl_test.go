package code

import (
	"context"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// The lesson "Server-side apply in a controller", with client-go's
// field-tracking fake (fake.NewClientset: the real field manager for
// built-in kinds). It answers apply conflicts as the server does; it is
// not used here for anything about versions.

func managers(cm *corev1.ConfigMap) []string {
	var out []string
	for _, e := range cm.ManagedFields {
		out = append(out, e.Manager)
	}
	slices.Sort(out)
	return out
}

func TestApplyIsTheWholeIntent(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientset(configMap("cm1", nil, map[string]string{"mode": "blue"}))
	if err := ApplyDesired(ctx, c, ns, "cm1", Desired{X: "1", Y: "1"}); err != nil {
		t.Fatal(err)
	}
	if err := ApplyChangedOnly(ctx, c, ns, "cm1", "2"); err != nil {
		t.Fatal(err)
	}
	got := get(t, c, "cm1").Data
	if _, hasY := got["y"]; hasY || got["x"] != "2" || got["mode"] != "blue" {
		t.Fatalf("data %v: want y removed (its only owner stopped declaring it), x 2, mode kept", got)
	}
}

func TestApplyingWhatWasReadCoOwnsEverything(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientset(configMap("cm1", nil, map[string]string{"mode": "blue"}))
	cfgY := func(v string) error {
		_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, applyData("cm1", map[string]string{"y": v}), metav1.ApplyOptions{FieldManager: "b"})
		return err
	}
	if err := cfgY("1"); err != nil {
		t.Fatal(err)
	}
	if err := ApplyWhatWasRead(ctx, c, ns, "cm1"); err != nil {
		t.Fatal(err)
	}
	err := cfgY("2")
	if !apierrors.IsConflict(err) {
		t.Fatalf("b's change of its own field: %v, want a conflict with c", err)
	}
}

func TestApplyAfterAHandEdit(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientset(configMap("cm1", nil, map[string]string{"replicas": "3"}))
	cm := get(t, c, "cm1")
	cm.Data["replicas"] = "5"
	if _, err := c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	if err := ApplyReplicas(ctx, c, ns, "cm1"); !apierrors.IsConflict(err) {
		t.Fatalf("apply without force: %v, want a Conflict", err)
	}
	before := countCalls(c, "patch")
	if err := ApplyReplicasWithRetry(ctx, c, ns, "cm1"); !apierrors.IsConflict(err) {
		t.Fatalf("apply in RetryOnConflict: %v, want the same Conflict", err)
	}
	if n := countCalls(c, "patch") - before; n != 5 {
		t.Fatalf("RetryOnConflict sent %d applies, want 5 (the same conflict each time)", n)
	}
	if err := ApplyReplicasForce(ctx, c, ns, "cm1"); err != nil {
		t.Fatal(err)
	}
	cm = get(t, c, "cm1")
	if cm.Data["replicas"] != "3" || slices.Contains(managers(cm), "kubectl-edit") {
		t.Fatalf("replicas %q, managers %v: want 3, and kubectl-edit's ownership gone", cm.Data["replicas"], managers(cm))
	}
}

func TestConditionsKeyedByType(t *testing.T) {
	ctx := context.Background()
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "api", Namespace: ns}}
	c := fake.NewClientset(d)
	if err := ApplyCondition(ctx, c, ns, "api", "ready", "Ready", "PodsReady"); err != nil {
		t.Fatal(err)
	}
	if err := ApplyCondition(ctx, c, ns, "api", "synced", "Synced", "ConfigApplied"); err != nil {
		t.Fatal(err)
	}
	got, err := c.AppsV1().Deployments(ns).Get(ctx, "api", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, cond := range got.Status.Conditions {
		types = append(types, string(cond.Type))
	}
	slices.Sort(types)
	if !slices.Equal(types, []string{"Ready", "Synced"}) {
		t.Fatalf("conditions %v, want both reporters' conditions", types)
	}
}

// ApplyPhase decides from the spec it read: a widget that is not size 1
// gets no request at all.
func TestApplyPhaseDecidesFromTheRead(t *testing.T) {
	w := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "oracle.example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w1", "namespace": ns, "resourceVersion": "7"},
		"spec":     map[string]interface{}{"size": int64(2)},
	}}
	if err := ApplyPhase(context.Background(), nil, ns, "w1", widgetLister{w}); err != nil {
		t.Fatal(err)
	}
}

type widgetLister struct{ w *unstructured.Unstructured }

func (l widgetLister) Get(string) (*unstructured.Unstructured, error) { return l.w.DeepCopy(), nil }

func applyData(name string, data map[string]string) *corev1ac.ConfigMapApplyConfiguration {
	return corev1ac.ConfigMap(name, ns).WithData(data)
}

func TestRenamedManagerLeavesFieldsBehind(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientset(configMap("cm1", nil, map[string]string{"mode": "blue"}))
	cfg := applyData("cm1", map[string]string{"x": "1", "y": "1"})
	if _, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "ctl-v1"}); err != nil {
		t.Fatal(err)
	}
	if err := ApplyAsRelease(ctx, c, ns, "cm1", "v2", "2"); err != nil {
		t.Fatal(err)
	}
	cm := get(t, c, "cm1")
	if cm.Data["y"] != "1" || cm.Data["x"] != "2" || !slices.Contains(managers(cm), "ctl-v1") {
		t.Fatalf("data %v, managers %v: want y kept by ctl-v1", cm.Data, managers(cm))
	}
}
