package members

import (
	"context"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/conflictlab/conflictlab/simcluster"
)

// AddMember adds member to the comma-separated list data.members of the
// ConfigMap name. It runs outside any controller — a command-line tool, a
// Job — so nothing calls it again if it fails: it must get its change in
// although other writers change the list too, and return an error only
// after a bounded number of conflicts.
func AddMember(ctx context.Context, cms typedcorev1.ConfigMapInterface, name, member string) error {
	cm, err := cms.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data["members"] = withMember(cm.Data["members"], member)
	// TODO: another writer may change the list between the Get and this
	// Update, and the server then answers 409 Conflict. Retry, each time
	// from a fresh read, and give up after a few attempts.
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// withMember is list with member at its end (once).
func withMember(list, member string) string {
	if list == "" {
		return member
	}
	for _, m := range strings.Split(list, ",") {
		if m == member {
			return list
		}
	}
	return list + "," + member
}

// New runs AddMember as the reconcile of controller "you", on the
// clientset it is handed; the check calls it (leave it as it is).
func New(c simcluster.Clients) reconcile.Reconciler {
	return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, AddMember(ctx, c.Kube.CoreV1().ConfigMaps(req.Namespace), req.Name, "you")
	})
}
