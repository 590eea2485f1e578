package simcluster_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/sim/race"
	"github.com/conflictlab/conflictlab/sim/report"
	"github.com/conflictlab/conflictlab/simcluster"
)

// Every kind of call the clients make, through each client, with what the
// code gets back (the libraries' own error types) and what the timeline
// records. The answers themselves are the simulator's, which
// sim/apiserver's tests and the conformance suite hold to a real server;
// here the question is whether each call reaches it as the client means
// it, and comes back as the client expects.

type check struct {
	name string
	call func(ctx context.Context, c simcluster.Clients) error
	// ok tests the error the code got.
	ok func(error) bool
	// step is the timeline line the call must make ("" for a call that
	// is refused before it reaches the simulator, and takes no step).
	step string
}

func noError(err error) bool { return err == nil }

var key = types.NamespacedName{Namespace: "default", Name: "cm1"}

func widget() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(schemaWidget)
	return u
}

var schemaWidget = simcluster.WidgetResource.GroupVersion().WithKind("Widget")

var checks = []check{
	{"cached Get", func(ctx context.Context, c simcluster.Clients) error {
		var cm corev1.ConfigMap
		if err := c.Client.Get(ctx, key, &cm); err != nil {
			return err
		}
		if cm.Data["x"] != "1" || cm.Kind != "ConfigMap" {
			return errors.New("wrong object: " + cm.Kind + " " + cm.Data["x"])
		}
		return nil
	}, noError, "Lister → cached RV 101"},
	{"cached Get of nothing: controller-runtime's NotFound", func(ctx context.Context, c simcluster.Clients) error {
		var cm corev1.ConfigMap
		err := c.Client.Get(ctx, types.NamespacedName{Namespace: "default", Name: "nope"}, &cm)
		if err != nil && err.Error() != `ConfigMap "nope" not found` {
			return errors.New("message " + err.Error())
		}
		return err
	}, apierrors.IsNotFound, "Lister → not in cache"},
	{"cached List with a label selector", func(ctx context.Context, c simcluster.Clients) error {
		var l corev1.ConfigMapList
		if err := c.Client.List(ctx, &l, client.InNamespace("default"), client.MatchingLabels{"app": "web"}); err != nil {
			return err
		}
		if len(l.Items) != 1 || l.Items[0].Name != "cm1" {
			return errors.New("listed the wrong objects")
		}
		return nil
	}, noError, "Lister → 1 in cache"},
	{"cached Get of an unstructured Widget", func(ctx context.Context, c simcluster.Clients) error {
		w := widget()
		if err := c.Client.Get(ctx, types.NamespacedName{Namespace: "default", Name: "w1"}, w); err != nil {
			return err
		}
		if size, _, _ := unstructured.NestedInt64(w.Object, "spec", "size"); size != 1 {
			return errors.New("wrong size")
		}
		return nil
	}, noError, "Lister → cached RV 102"},
	{"a kind the simulator does not serve", func(ctx context.Context, c simcluster.Clients) error {
		var s corev1.Secret
		return c.Client.Get(ctx, key, &s)
	}, meta.IsNoMatchError, ""},
	{"API reader: a live GET", func(ctx context.Context, c simcluster.Clients) error {
		var d appsv1.Deployment
		return c.APIReader.Get(ctx, types.NamespacedName{Namespace: "default", Name: "d1"}, &d)
	}, noError, "GET d1"},
	{"Create, then AlreadyExists", func(ctx context.Context, c simcluster.Clients) error {
		child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "child", Namespace: "default"}}
		if err := c.Client.Create(ctx, child); err != nil {
			return err
		}
		return c.Client.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "child", Namespace: "default"}})
	}, apierrors.IsAlreadyExists, "CREATE child"},
	{"Update of a stale copy: 409, RetryOnConflict with a live read", func(ctx context.Context, c simcluster.Clients) error {
		var stale corev1.ConfigMap
		if err := c.APIReader.Get(ctx, key, &stale); err != nil {
			return err
		}
		fresh := stale.DeepCopy()
		fresh.Data["y"] = "2"
		if err := c.Client.Update(ctx, fresh); err != nil {
			return err
		}
		stale.Data["z"] = "3"
		if err := c.Client.Update(ctx, &stale); !apierrors.IsConflict(err) {
			return errors.New("want a conflict")
		}
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			var cm corev1.ConfigMap
			if err := c.APIReader.Get(ctx, key, &cm); err != nil {
				return err
			}
			cm.Data["z"] = "3"
			return c.Client.Update(ctx, &cm)
		})
	}, noError, "UPDATE cm1 rv 105"},
	{"a JSON patch whose test fails: 422", func(ctx context.Context, c simcluster.Clients) error {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1", Namespace: "default"}}
		return c.Client.Patch(ctx, cm, client.RawPatch(types.JSONPatchType, []byte(`[{"op":"test","path":"/data/x","value":"9"},{"op":"replace","path":"/data/x","value":"10"}]`)))
	}, apierrors.IsInvalid, "PATCH json cm1"},
	{"a strategic merge patch of a ConfigMap", func(ctx context.Context, c simcluster.Clients) error {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1", Namespace: "default"}}
		return c.Client.Patch(ctx, cm, client.RawPatch(types.StrategicMergePatchType, []byte(`{"metadata":{"finalizers":["example.com/you"]}}`)))
	}, noError, "PATCH smp cm1"},
	{"a strategic merge patch of a custom resource: 415", func(ctx context.Context, c simcluster.Clients) error {
		w := widget()
		w.SetNamespace("default")
		w.SetName("w1")
		return c.Client.Patch(ctx, w, client.RawPatch(types.StrategicMergePatchType, []byte(`{"spec":{"size":2}}`)))
	}, func(err error) bool { return apierrors.ReasonForError(err) == metav1.StatusReasonUnsupportedMediaType }, "PATCH smp w1"},
	{"Status().Update of a Deployment", func(ctx context.Context, c simcluster.Clients) error {
		var d appsv1.Deployment
		if err := c.APIReader.Get(ctx, types.NamespacedName{Namespace: "default", Name: "d1"}, &d); err != nil {
			return err
		}
		d.Status.ObservedGeneration = d.Generation
		return c.Client.Status().Update(ctx, &d)
	}, noError, "UPDATE /status d1"},
	{"Delete with a stale resourceVersion precondition: 409; then Delete", func(ctx context.Context, c simcluster.Clients) error {
		child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "child", Namespace: "default"}}
		if err := c.Client.Create(ctx, child.DeepCopy()); err != nil {
			return err
		}
		if err := c.Client.Delete(ctx, child, client.Preconditions{ResourceVersion: ptr("101")}); !apierrors.IsConflict(err) {
			return errors.New("want a conflict, got " + errString(err))
		}
		if err := c.Client.Delete(ctx, child); err != nil {
			return err
		}
		return c.APIReader.Get(ctx, types.NamespacedName{Namespace: "default", Name: "child"}, child)
	}, apierrors.IsNotFound, "DELETE child"},
	{"clientset: a Deployment's update, a ConfigMap list by label", func(ctx context.Context, c simcluster.Clients) error {
		d, err := c.Kube.AppsV1().Deployments("default").Get(ctx, "d1", metav1.GetOptions{})
		if err != nil {
			return err
		}
		two := int32(2)
		d.Spec.Replicas = &two
		if _, err := c.Kube.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
			return err
		}
		l, err := c.Kube.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil || len(l.Items) != 1 {
			return errors.New("listed wrong: " + errString(err))
		}
		return nil
	}, noError, "LIST app=web → 200 · 1 listed"},
	{"clientset: a resource the simulator does not serve: 404", func(ctx context.Context, c simcluster.Clients) error {
		_, err := c.Kube.CoreV1().Secrets("default").Get(ctx, "s", metav1.GetOptions{})
		return err
	}, apierrors.IsNotFound, ""},
	{"clientset: a watch is refused", func(ctx context.Context, c simcluster.Clients) error {
		_, err := c.Kube.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{})
		return err
	}, apierrors.IsMethodNotSupported, ""},
	{"clientset: a dry run is refused", func(ctx context.Context, c simcluster.Clients) error {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dry", Namespace: "default"}}
		_, err := c.Kube.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{DryRun: []string{"All"}})
		return err
	}, apierrors.IsBadRequest, ""},
	{"dynamic client: a merge patch of the Widget", func(ctx context.Context, c simcluster.Clients) error {
		_, err := c.Dynamic.Resource(simcluster.WidgetResource).Namespace("default").
			Patch(ctx, "w1", types.MergePatchType, []byte(`{"spec":{"color":"blue"}}`), metav1.PatchOptions{FieldManager: "painter"})
		return err
	}, noError, "PATCH merge w1"},
	{"listers: a Deployment, the Widgets", func(ctx context.Context, c simcluster.Clients) error {
		d, err := c.DeploymentLister().Deployments("default").Get("d1")
		if err != nil || d.Name != "d1" || d.Kind != "" {
			return errors.New("deployment lister: " + errString(err))
		}
		ws, err := c.WidgetLister().Namespace("default").List(labels.Everything())
		if err != nil || len(ws) != 1 {
			return errors.New("widget lister: " + errString(err))
		}
		_, err = c.ConfigMapLister().ConfigMaps("default").Get("nope")
		if err == nil || err.Error() != `configmap "nope" not found` {
			return errors.New("configmap lister: " + errString(err))
		}
		return nil
	}, noError, "Lister → 1 in cache"},
}

func ptr(s string) *string { return &s }

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

const clientsScenario = `
name: clients
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm1, labels: {app: web}}
  data: {x: "1"}
- apiVersion: oracle.example.com/v1
  kind: Widget
  metadata: {name: w1}
  spec: {size: 1}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: d1}
  spec:
    selector: {matchLabels: {app: d1}}
    template:
      metadata: {labels: {app: d1}}
      spec: {containers: [{name: c, image: nginx}]}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: other}
controllers:
- name: you
  target: ConfigMap/cm1
  write: code
`

func TestEveryClientReachesTheSimulator(t *testing.T) {
	for _, ck := range checks {
		t.Run(ck.name, func(t *testing.T) {
			var got error
			rc, err := simcluster.New(parse(t, clientsScenario), simcluster.Options{}, simcluster.Controller{Name: "you",
				New: func(c simcluster.Clients) reconcile.Reconciler {
					return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
						got = ck.call(ctx, c)
						return reconcile.Result{}, nil
					})
				}})
			if err != nil {
				t.Fatal(err)
			}
			run, err := rc.Run(context.Background(), race.Schedule{})
			if err != nil {
				t.Fatal(err)
			}
			if !ck.ok(got) {
				t.Errorf("the code got %v", got)
			}
			var lines []string
			for _, s := range run.Outcome.Steps {
				if s.Actor == "you" && s.Kind != race.StepWatch {
					lines = append(lines, reportLine(s))
				}
			}
			found := ck.step == ""
			for _, l := range lines {
				found = found || strings.Contains(l, ck.step)
			}
			if !found || (ck.step == "" && len(lines) > 0) {
				t.Errorf("want a step %q, the timeline has %q", ck.step, lines)
			}
		})
	}
}

func reportLine(s race.Step) string { return report.Call(s) + " → " + report.Answer(s) }
