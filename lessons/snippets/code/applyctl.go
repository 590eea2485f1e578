package code

import (
	"context"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/csaupgrade"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// FieldManager is the name this controller's writes are recorded under. A
// constant, never derived from a pod name or a version: a renamed manager
// is a new owner, and the old name keeps what it owned.
const FieldManager = "example.com/cm-controller"

// Desired is what the controller wants of its ConfigMap, computed from its
// own inputs (its custom resource, say), never from the object it writes.
type Desired struct {
	X, Y string
}

// snippet: apply-changed-only
// strategy: write=apply force=true withRV=false
// ApplyChangedOnly is the defect: it sends only the field that differs
// from last time. Apply reads a request as the manager's whole intent, so
// every field it leaves out (data.y here) is given up, and removed if no
// other manager owns it.
func ApplyChangedOnly(ctx context.Context, c kubernetes.Interface, ns, name, x string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": x})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg,
		metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	return err
}

// end snippet

// snippet: apply-full-intent
// strategy: write=apply force=true withRV=false
// ApplyDesired builds the whole intent from scratch on every reconcile:
// every field this controller owns, nothing it read, no resourceVersion,
// one stable manager name, and force (it is the authority for these
// fields). A field it stops sending is removed if it was the only owner.
func ApplyDesired(ctx context.Context, c kubernetes.Interface, ns, name string, want Desired) error {
	cfg := corev1ac.ConfigMap(name, ns).
		WithData(map[string]string{"x": want.X, "y": want.Y})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg,
		metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	return err
}

// end snippet

// snippet: apply-versioned-manager
// strategy: write=apply force=true withRV=false
// ApplyAsRelease is the defect: its field manager name carries the
// release. To the server each release is a new manager; the previous
// name keeps every field it owned, so a field the new release stops
// declaring lingers for as long as the object lives.
func ApplyAsRelease(ctx context.Context, c kubernetes.Interface, ns, name, release, x string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": x})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg,
		metav1.ApplyOptions{FieldManager: "ctl-" + release, Force: true})
	return err
}

// end snippet

// snippet: apply-read-object
// strategy: write=apply read=live
// ApplyWhatWasRead is the defect: it applies the object it read, with its
// change made in it. Clearing managedFields and the resourceVersion gets
// it past the server's checks, but the request now declares every field
// of the object: this manager co-owns them all, other managers' included,
// and their next change to their own field conflicts with it. To edit
// only your own fields, start from corev1ac.ExtractConfigMap(cm, manager)
// or, better, from Desired.
func ApplyWhatWasRead(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.ManagedFields = nil
	cm.ResourceVersion = ""
	cm.Data["x"] = "2"
	body, err := json.Marshal(cm)
	if err != nil {
		return err
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: "c"})
	return err
}

// end snippet

// snippet: apply-replicas
// strategy: write=apply force=false retry=none
// ApplyReplicas declares the controller's value, without force: when a
// person has edited the field since, the server answers 409 naming them,
// and the controller's value is not written.
func ApplyReplicas(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"replicas": "3"})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "ctl"})
	return err
}

// end snippet

// snippet: apply-replicas-retry
// strategy: write=apply force=false read=live retry=default
// ApplyReplicasWithRetry wraps the apply in RetryOnConflict. An apply
// conflict is a 409 (apierrors.IsConflict is true), so it is retried —
// but every attempt sends the same declaration to the same owner, and
// gets the same 409, five times. Nothing in a re-read changes an apply.
func ApplyReplicasWithRetry(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if _, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{}); err != nil {
			return err
		}
		cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"replicas": "3"})
		_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "ctl"})
		return err
	})
}

// end snippet

// snippet: apply-replicas-force
// strategy: write=apply force=true retry=none
// ApplyReplicasForce takes the field back: the controller is the
// authority for it, so the hand edit is undone and ctl owns the field
// again. (To let people change it, do not manage it: leave it out.)
func ApplyReplicasForce(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"replicas": "3"})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg,
		metav1.ApplyOptions{FieldManager: "ctl", Force: true})
	return err
}

// end snippet

// snippet: apply-replicas-update
// strategy: write=update read=live retry=none
// UpdateReplicas puts the value back with a plain update from a fresh
// read, under the manager name ctl. It writes 3 — and records ctl as an
// Update manager, not as the applier: the field is owned by (ctl, Update),
// and the controller's next apply of it conflicts with that entry.
func UpdateReplicas(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["replicas"] = "3"
	_, err = c.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{FieldManager: "ctl"})
	return err
}

// end snippet

// snippet: condition-merge-patch
// strategy: write=merge-patch read=lister withRV=false
// SetSyncedMerged adds its condition to the list its cache holds and
// sends a JSON merge patch of /status. A merge patch carries a list
// whole, whatever the schema says about keys: the conditions it sends are
// the cache's plus its own, and they replace the server's.
func SetSyncedMerged(ctx context.Context, c kubernetes.Interface, ns, name string, lister DeploymentLister) error {
	d, err := lister.Get(name)
	if err != nil {
		return err
	}
	conds := append(d.Status.DeepCopy().Conditions, appsv1.DeploymentCondition{
		Type: "Synced", Status: corev1.ConditionTrue, Reason: "ConfigApplied", LastTransitionTime: metav1.Now()})
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": conds}})
	if err != nil {
		return err
	}
	_, err = c.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	return err // DEFECT: a Ready applied since the cache was filled is gone
}

// end snippet

// snippet: apply-condition
// strategy: write=apply force=false
// ApplyCondition reports one condition on /status, without force.
// DeploymentStatus declares conditions as a list keyed by type
// (listType=map, listMapKey=type), so this manager owns the item whose
// type is its own and nothing else of the list. On your own CRD, mark the
// field +listType=map and +listMapKey=type (metav1.Condition's usual
// markers): without them the list is one atomic field, two reporters
// conflict, and force would make one list replace the other.
func ApplyCondition(ctx context.Context, c kubernetes.Interface, ns, name, manager, condType, reason string) error {
	cfg := appsv1ac.Deployment(name, ns).WithStatus(appsv1ac.DeploymentStatus().
		WithConditions(appsv1ac.DeploymentCondition().
			WithType(appsv1.DeploymentConditionType(condType)).
			WithStatus(corev1.ConditionTrue).
			WithReason(reason).
			WithLastTransitionTime(metav1.Now())))
	_, err := c.AppsV1().Deployments(ns).ApplyStatus(ctx, cfg, metav1.ApplyOptions{FieldManager: manager})
	return err
}

// end snippet

// snippet: apply-status-with-rv
// strategy: write=apply withRV=true force=true read=lister
// ApplyPhase decides the phase from the spec it read, and says so: the
// apply carries that read's resourceVersion, so if the spec has changed
// since, the server answers the ordinary 409 and the reconcile runs again
// on the new spec. Force settles owners; it does not lift this check.
func ApplyPhase(ctx context.Context, dc dynamic.Interface, ns, name string, lister WidgetLister) error {
	w, err := lister.Get(name)
	if err != nil {
		return err
	}
	size, _, _ := unstructured.NestedInt64(w.Object, "spec", "size")
	if size != 1 {
		return nil
	}
	cfg := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "oracle.example.com/v1",
		"kind":       "Widget",
		"metadata": map[string]interface{}{
			"name": name, "namespace": ns,
			"resourceVersion": w.GetResourceVersion(),
		},
		"status": map[string]interface{}{"phase": "Small"},
	}}
	_, err = dc.Resource(Widgets).Namespace(ns).ApplyStatus(ctx, name, cfg,
		metav1.ApplyOptions{FieldManager: "ctl", Force: true})
	return err
}

// end snippet

// snippet: apply-after-update
// strategy: write=apply force=false withRV=false
// ApplyNewRelease is the next release of a controller that used to
// Update data.x under the manager name ctl, and now applies it, under the
// same name and without force. To the server a field manager is a name
// and an operation: (ctl, Update) owns data.x, and (ctl, Apply) is
// another manager, which contests it.
func ApplyNewRelease(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cfg := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"x": "2"})
	_, err := c.CoreV1().ConfigMaps(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "ctl"})
	return err // 409: conflict with "ctl" using v1: .data.x
}

// end snippet

// snippet: apply-migrate-manager
// MigrateToApply moves what (ctl, Update) owns to (ctl, Apply), once,
// before the first apply: csaupgrade computes a JSON patch of
// managedFields (kubectl does the same when it switches to server-side
// apply). Afterwards the apply owns what the updates did, and a field it
// no longer sends is given up like any field it owns.
func MigrateToApply(ctx context.Context, c kubernetes.Interface, ns, name string) error {
	cm, err := c.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	patch, err := csaupgrade.UpgradeManagedFieldsPatch(cm, sets.New("ctl"), "ctl")
	if err != nil || patch == nil {
		return err // nil: nothing to move
	}
	_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}

// end snippet

// widgetForApply is the Widget as a plain Go struct, the way a controller
// author first writes one: Size has no omitempty (an int is never "unset").
type widgetForApply struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Size  int64  `json:"size"`
		Color string `json:"color,omitempty"`
	} `json:"spec"`
}

// snippet: apply-typed-struct
// strategy: write=apply force=true
// SetColor means to apply spec.color. It builds the request from a typed
// struct: json.Marshal writes every field that has no omitempty — Size,
// as 0 — and an apply declares every field it sends. With force, the
// controller now owns spec.size too, and has set it to 0.
func SetColor(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	var w widgetForApply
	w.APIVersion, w.Kind = "oracle.example.com/v1", "Widget"
	w.Metadata.Name, w.Metadata.Namespace = name, ns
	w.Spec.Color = "green" // DEFECT: w.Spec.Size = 0 goes too
	body, err := json.Marshal(w)
	if err != nil {
		return err
	}
	force := true
	_, err = dc.Resource(Widgets).Namespace(ns).Patch(ctx, name, types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: "ctl", Force: &force})
	return err
}

// end snippet

// snippet: apply-configuration
// SetColorApplied sends only what it sets. An apply configuration (the
// generated *ApplyConfiguration types, or an unstructured object holding
// just the intended fields) has no zero values to leak: a field is in the
// request only if it was set. controller-runtime's Client.Apply takes one,
// with client.FieldOwner and client.ForceOwnership.
func SetColorApplied(ctx context.Context, c client.Client, ns, name string) error {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("oracle.example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(ns)
	u.SetName(name)
	if err := unstructured.SetNestedField(u.Object, "green", "spec", "color"); err != nil {
		return err
	}
	return c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("ctl"), client.ForceOwnership)
}

// end snippet
