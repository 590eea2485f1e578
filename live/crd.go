package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/conflictlab/conflictlab/sim/api"
)

// WidgetCRDName is the course's custom resource definition.
const WidgetCRDName = "widgets." + api.WidgetGroup

// WidgetCRD is the Widget CRD the simulator serves (sim/apiserver's
// widgetSchema): group oracle.example.com, v1, namespaced, spec and status
// with the listed fields (anything else is pruned), a status subresource.
// Lists carry no list-type marker, so they are atomic, as in the simulator.
func WidgetCRD(runID string) *unstructured.Unstructured {
	prop := func(t string) map[string]any {
		if t == "array" {
			return map[string]any{"type": "array",
				"items": map[string]any{"x-kubernetes-preserve-unknown-fields": true}}
		}
		return map[string]any{"type": t}
	}
	obj := func(fields map[string]string) map[string]any {
		props := map[string]any{}
		for f, t := range fields {
			props[f] = prop(t)
		}
		return map[string]any{"type": "object", "properties": props}
	}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"spec": obj(map[string]string{
				"size": "integer", "color": "string", "replicas": "integer", "paused": "boolean",
				"items": "array", "owner": "string",
			}),
			"status": obj(map[string]string{
				"phase": "string", "observedGeneration": "integer", "count": "integer",
				"conditions": "array", "message": "string", "readyReplicas": "integer",
			}),
		},
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": map[string]any{
			"name":   WidgetCRDName,
			"labels": map[string]any{RunLabel: runID},
		},
		"spec": map[string]any{
			"group": api.WidgetGroup,
			"scope": "Namespaced",
			"names": map[string]any{
				"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList",
			},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema":       map[string]any{"openAPIV3Schema": schema},
				"subresources": map[string]any{"status": map[string]any{}},
			}},
		},
	}}
}

// ensureCRD finds the Widget CRD, or installs it when allowed.
func (s *Session) ensureCRD(ctx context.Context) error {
	c := s.c
	rctx, cancel := c.ctx(ctx)
	crd, err := c.dyn.Resource(crdGVR).Get(rctx, WidgetCRDName, metav1.GetOptions{})
	cancel()
	if err == nil && crd.GetDeletionTimestamp() != nil {
		// Being deleted (a previous run's cleanup): no Widget can be
		// created until it is gone.
		if err = c.waitCRDGone(ctx); err != nil {
			return err
		}
		err = apierrors.NewNotFound(crdGVR.GroupResource(), WidgetCRDName)
	}
	switch {
	case err == nil:
		fmt.Fprintf(c.opts.Log, "live: using the existing CRD %s\n", WidgetCRDName)
		return nil
	case apierrors.IsNotFound(err) && !c.opts.InstallCRD:
		return fmt.Errorf("this scenario uses Widgets, and the cluster has no CRD %s: rerun with --install-crd to create it for this run (it is removed afterwards)", WidgetCRDName)
	case !apierrors.IsNotFound(err):
		return c.explain(err, s.needs, "read CRD "+WidgetCRDName)
	}
	uid, err := c.installWidgetCRD(ctx, s.ID, func(uid string) {
		// Recorded the moment the server answers: from here on the CRD is
		// this run's to remove, even if the wait below is interrupted.
		s.fp.CRDUID = uid
		s.record()
	})
	if err != nil {
		return c.explain(err, s.needs, "create CRD "+WidgetCRDName)
	}
	if uid == "" {
		// Someone created it between our GET and our create: it is theirs.
		fmt.Fprintf(c.opts.Log, "live: using the existing CRD %s (created meanwhile by someone else; it will be left in place)\n", WidgetCRDName)
		return nil
	}
	fmt.Fprintf(c.opts.Log, "live: installed CRD %s (--install-crd)\n", WidgetCRDName)
	return nil
}

// InstallWidgetCRD creates the Widget CRD (labelled with runID) unless it
// exists, and waits until Widgets are served. It returns the uid of the
// CRD it created, "" when one existed already (and is not ours to delete).
func (c *Cluster) InstallWidgetCRD(ctx context.Context, runID string) (string, error) {
	rctx, cancel := c.ctx(ctx)
	crd, err := c.dyn.Resource(crdGVR).Get(rctx, WidgetCRDName, metav1.GetOptions{})
	cancel()
	if err == nil && crd.GetDeletionTimestamp() != nil {
		// An earlier user's delete is still cleaning up: a CRD created
		// now would be that one, never Established.
		if err := c.waitCRDGone(ctx); err != nil {
			return "", err
		}
	}
	return c.installWidgetCRD(ctx, runID, nil)
}

func (c *Cluster) installWidgetCRD(ctx context.Context, runID string, created func(uid string)) (string, error) {
	rctx, cancel := c.ctx(ctx)
	got, err := c.dyn.Resource(crdGVR).Create(rctx, WidgetCRD(runID), metav1.CreateOptions{FieldManager: UserAgent})
	cancel()
	uid := ""
	switch {
	case err == nil:
		uid = string(got.GetUID())
		if created != nil {
			created(uid)
		}
	case !apierrors.IsAlreadyExists(err):
		return "", err
	}
	// Wait until it is Established and the resource answers.
	gvr, _ := GVR(api.Widget)
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		rctx, cancel := c.ctx(ctx)
		defer cancel()
		crd, err := c.dyn.Resource(crdGVR).Get(rctx, WidgetCRDName, metav1.GetOptions{})
		if err != nil || !established(crd) {
			return false, nil
		}
		_, err = c.dyn.Resource(gvr).Namespace("default").List(rctx, metav1.ListOptions{Limit: 1})
		return err == nil, nil
	})
	return uid, pollError(ctx, err, fmt.Sprintf("CRD %s not established after 30s", WidgetCRDName))
}

func (c *Cluster) waitCRDGone(ctx context.Context) error {
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		rctx, cancel := c.ctx(ctx)
		defer cancel()
		_, err := c.dyn.Resource(crdGVR).Get(rctx, WidgetCRDName, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	return pollError(ctx, err, fmt.Sprintf("CRD %s is still being deleted after 60s", WidgetCRDName))
}

// pollError is what a poll's end means: nil when its condition held, the
// caller's own context error when that ended it, else the timeout, said.
func pollError(ctx context.Context, err error, timedOut string) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New(timedOut)
	}
	return err
}

// DeleteWidgetCRD removes the Widget CRD with the given uid (the one
// InstallWidgetCRD returned): a CRD of another uid is not touched.
func (c *Cluster) DeleteWidgetCRD(ctx context.Context, uid string) error {
	rctx, cancel := c.ctx(context.WithoutCancel(ctx))
	defer cancel()
	err := c.dyn.Resource(crdGVR).Delete(rctx, WidgetCRDName, deleteUID(uid))
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// removeCRD deletes the CRD a run created — unless Widgets outside the
// run's namespace exist by now: deleting a CRD deletes every object of it,
// and those are someone else's.
func (c *Cluster) removeCRD(ctx context.Context, f Footprint) error {
	gvr, _ := GVR(api.Widget)
	rctx, cancel := c.ctx(context.WithoutCancel(ctx))
	list, err := c.dyn.Resource(gvr).List(rctx, metav1.ListOptions{})
	cancel()
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("listing Widgets before deleting their CRD: %w", err)
	}
	if list != nil {
		// A Widget is a run's when it carries the run label, or lives in a
		// namespace a run created (those are labelled and hold only run
		// objects). Any other would die with the CRD.
		runNS := map[string]bool{}
		var others []string
		for _, it := range list.Items {
			if _, ok := it.GetLabels()[RunLabel]; ok {
				continue
			}
			ns := it.GetNamespace()
			isRun, known := runNS[ns]
			if !known {
				rctx, cancel := c.ctx(context.WithoutCancel(ctx))
				n, err := c.dyn.Resource(nsGVR).Get(rctx, ns, metav1.GetOptions{})
				cancel()
				if err == nil {
					_, isRun = n.GetLabels()[RunLabel]
				}
				runNS[ns] = isRun
			}
			if !isRun {
				others = append(others, ns+"/"+it.GetName())
			}
		}
		if len(others) > 0 {
			return fmt.Errorf("%d Widget(s) not created by a conflictlab run exist (%s): deleting the CRD would delete them too, so it is left in place",
				len(others), strings.Join(others, ", "))
		}
	}
	if err := c.DeleteWidgetCRD(ctx, f.CRDUID); err != nil {
		if apierrors.IsConflict(err) {
			fmt.Fprintf(c.opts.Log, "live: CRD %s is no longer the one this run created (uid changed): left alone\n", WidgetCRDName)
			return nil
		}
		return err
	}
	fmt.Fprintf(c.opts.Log, "live: deleted CRD %s\n", WidgetCRDName)
	return nil
}

func established(crd *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// Permissions lists what a live run of these kinds needs, for a 403.
func Permissions(kinds []api.Kind, createNS, installCRD bool) []string {
	var out []string
	if createNS {
		out = append(out, "namespaces: create, delete (get, for an explicit --namespace)")
	} else {
		out = append(out, "namespaces: get")
	}
	for _, k := range kinds {
		info, ok := api.Lookup(k)
		if !ok {
			continue
		}
		res := info.Resource.String()
		out = append(out, res+": get, list, watch, create, update, patch, delete")
		if info.StatusSubresource {
			out = append(out, res+"/status: update, patch")
		}
		if k == api.Widget {
			if installCRD {
				out = append(out, "customresourcedefinitions.apiextensions.k8s.io: get, create, delete")
			} else {
				out = append(out, "customresourcedefinitions.apiextensions.k8s.io: get")
			}
		}
	}
	return out
}

// explain turns a 403 into a message that lists the permissions a run
// needs; other errors are wrapped with what was being done.
func (c *Cluster) explain(err error, kinds []api.Kind, doing string) error {
	// Only an authorization denial ("… is forbidden: User "x" cannot …")
	// is about permissions; other 403s (a terminating namespace or CRD)
	// are told as they are.
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "cannot") {
		return fmt.Errorf("%s: %w", doing, err)
	}
	perms := Permissions(kinds, c.opts.Namespace == "", c.opts.InstallCRD)
	return &ForbiddenError{Doing: doing, Err: err, Needs: perms}
}

// ForbiddenError is a 403, with the permissions a live run needs.
type ForbiddenError struct {
	Doing string
	Err   error
	Needs []string
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("%s: the server refused (403 Forbidden): %v\n"+
		"a live run needs these permissions (RBAC verbs on resources):\n  %s",
		e.Doing, e.Err, strings.Join(e.Needs, "\n  "))
}

func (e *ForbiddenError) Unwrap() error { return e.Err }
