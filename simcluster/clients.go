package simcluster

import (
	"fmt"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/kubernetes"
	appsv1listers "k8s.io/client-go/listers/apps/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/conflictlab/conflictlab/sim/api"
)

// Clients are the clients a controller's code gets, all of them the
// libraries' own, all of them bound to that controller: its calls are its
// steps in the race.
type Clients struct {
	// Name is the controller's name in the scenario.
	Name string
	// Client is controller-runtime's client as a manager hands it out:
	// Get and List read the controller's informer cache (typed and
	// unstructured objects alike), writes go to the server.
	Client client.Client
	// APIReader reads the server itself (a manager's GetAPIReader): a
	// live GET or LIST.
	APIReader client.Reader
	// Kube is client-go's clientset: ConfigMaps (core/v1) and
	// Deployments (apps/v1) are served; other resources answer 404.
	Kube kubernetes.Interface
	// Dynamic is client-go's dynamic client, for the Widget
	// (WidgetResource) or any served kind.
	Dynamic dynamic.Interface
	// Config is the rest.Config all of them are built on, to build others
	// (its transport is the simulator; it serves JSON only).
	Config *rest.Config
	// Scheme and RESTMapper are the ones the controller-runtime clients use.
	Scheme     *runtime.Scheme
	RESTMapper meta.RESTMapper

	conn *conn
}

// WidgetResource is the Widget custom resource, for the dynamic client.
var WidgetResource = func() schema.GroupVersionResource {
	info, _ := api.Lookup(api.Widget)
	return info.GVK().GroupVersion().WithResource(info.Resource.Resource)
}()

// ConfigMapLister is client-go's ConfigMap lister over the controller's
// simulated informer cache: every Get and List is a read of that cache.
func (c Clients) ConfigMapLister() corev1listers.ConfigMapLister {
	return corev1listers.NewConfigMapLister(c.conn.indexer(api.ConfigMap))
}

// DeploymentLister is client-go's Deployment lister over the cache.
func (c Clients) DeploymentLister() appsv1listers.DeploymentLister {
	return appsv1listers.NewDeploymentLister(c.conn.indexer(api.Deployment))
}

// WidgetLister is client-go's dynamic lister for Widgets over the cache.
func (c Clients) WidgetLister() dynamiclister.Lister {
	return dynamiclister.New(c.conn.indexer(api.Widget), WidgetResource)
}

// newClients builds a controller's clients on its conn.
func newClients(name string, scheme *runtime.Scheme) (Clients, error) {
	cn := &conn{name: name, scheme: scheme}
	cfg := &rest.Config{
		// Never dialled: the transport is the simulator.
		Host:      "http://simcluster.invalid",
		Transport: transport{cn},
		// The client-side rate limiter sleeps on the wall clock after its
		// burst; the simulator has no load to protect.
		QPS: -1,
		// Each controller's writes are recorded under its name, as a
		// kube-apiserver takes a manager from the User-Agent.
		UserAgent: name,
		// The simulator sends no warnings; controller-runtime's default
		// handler would log through its global logger.
		WarningHandlerWithContext: rest.NoWarnings{},
		ContentConfig: rest.ContentConfig{
			// The clients would send and accept protobuf for built-in
			// kinds; the simulator speaks JSON, which they speak too.
			ContentType:        "application/json",
			AcceptContentTypes: "application/json",
		},
	}
	mapper := restMapper()
	cn.mapper = mapper
	// The libraries' own wrappers (User-Agent, …) around the transport.
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return Clients{}, fmt.Errorf("simcluster: HTTP client: %w", err)
	}
	// A logger of its own: controller-runtime's global one complains on
	// stderr, 30 s into a process that never set it, with a stack.
	quiet := logr.New(crlog.NullLogSink{})
	cached, err := client.New(cfg, client.Options{Scheme: scheme, Mapper: mapper, HTTPClient: httpClient, Log: quiet,
		Cache: &client.CacheOptions{Reader: &cacheReader{c: cn}, Unstructured: true}})
	if err != nil {
		return Clients{}, fmt.Errorf("simcluster: controller-runtime client: %w", err)
	}
	live, err := client.New(cfg, client.Options{Scheme: scheme, Mapper: mapper, HTTPClient: httpClient, Log: quiet})
	if err != nil {
		return Clients{}, fmt.Errorf("simcluster: controller-runtime API reader: %w", err)
	}
	kube, err := kubernetes.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return Clients{}, fmt.Errorf("simcluster: clientset: %w", err)
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return Clients{}, fmt.Errorf("simcluster: dynamic client: %w", err)
	}
	return Clients{Name: name, Client: cached, APIReader: live, Kube: kube, Dynamic: dyn, Config: cfg,
		Scheme: scheme, RESTMapper: mapper, conn: cn}, nil
}

// restMapper maps the served kinds to their resources without discovery
// (client.New would otherwise ask the server on first use).
func restMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	for _, k := range api.Kinds() {
		info, _ := api.Lookup(k)
		gvk := info.GVK()
		m.AddSpecific(gvk, gvk.GroupVersion().WithResource(info.Resource.Resource),
			gvk.GroupVersion().WithResource(info.Resource.Resource[:len(info.Resource.Resource)-1]), meta.RESTScopeNamespace)
	}
	return m
}
