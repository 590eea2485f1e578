package apiserver

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver/internal/typeschema"
)

// A run builds the type converter of the kinds it writes, each once, and
// no other: a ConfigMap race never parses a Deployment's types.
func TestTypeConvertersBuiltPerKindOnce(t *testing.T) {
	schema, err := newSchema()
	if err != nil {
		t.Fatal(err)
	}
	s := New(schema, 0)
	if got := schema.convertersBuilt(); len(got) != 0 {
		t.Fatalf("converters built by New: %v, want none", got)
	}
	cm := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "c"}
	do := func(req api.Request) {
		t.Helper()
		if resp := s.Do(req); resp.Err != nil {
			t.Fatalf("%s %s: %v", req.Verb, req.Ref, resp.Err)
		}
	}
	do(api.Request{Verb: api.Create, Ref: cm, Body: []byte(`{"metadata":{"name":"c"},"data":{"x":"1"}}`)})
	do(api.Request{Verb: api.Update, Ref: cm, Body: []byte(`{"metadata":{"name":"c"},"data":{"x":"2"}}`)})
	do(api.Request{Verb: api.Patch, Ref: cm, PatchType: api.ApplyPatch, FieldManager: "a",
		Body: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {y: \"1\"}\n")})
	if got := schema.convertersBuilt(); len(got) != 1 || got[api.ConfigMap] != 1 {
		t.Fatalf("after writing a ConfigMap: converters built %v, want ConfigMap once", got)
	}
	d := api.Ref{Kind: api.Deployment, Namespace: "default", Name: "d"}
	for i := 0; i < 2; i++ {
		do(api.Request{Verb: api.Patch, Ref: d, PatchType: api.ApplyPatch, FieldManager: "a",
			Body: []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: " + string(rune('1'+i)) +
				", selector: {matchLabels: {app: d}}, template: {metadata: {labels: {app: d}}, spec: {containers: [{name: app, image: app}]}}}\n")})
		// The status endpoint shares the kind's converter.
		do(api.Request{Verb: api.Update, Ref: d, Subresource: "status",
			Body: []byte(`{"metadata":{"name":"d"},"status":{"replicas":1}}`)})
	}
	if got := schema.convertersBuilt(); len(got) != 2 || got[api.ConfigMap] != 1 || got[api.Deployment] != 1 {
		t.Fatalf("after writing a Deployment: converters built %v, want ConfigMap and Deployment once each", got)
	}
}

// typeschema_gen.go is what go generate makes from the client-go in go.mod.
func TestTypeSchemaUpToDate(t *testing.T) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/client-go").Output()
	if err != nil {
		t.Fatalf("locating k8s.io/client-go: %v", err)
	}
	want, err := typeschema.Generate(strings.TrimSpace(string(dir)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("typeschema_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("typeschema_gen.go is stale: run go generate ./sim/apiserver")
	}
}

// A kind's cut of the schema types an object exactly as client-go's whole
// schema does: the same field set, lists merged by the same keys.
func TestTypeSchemaMatchesClientGo(t *testing.T) {
	scheme, err := typeschema.Scheme()
	if err != nil {
		t.Fatal(err)
	}
	full := applyconfigurations.NewTypeConverter(scheme)
	objects := map[api.Kind]string{
		api.ConfigMap: `
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: default, labels: {a: b}, finalizers: [x, z],
  ownerReferences: [{apiVersion: v1, kind: Pod, name: p, uid: u1}],
  managedFields: [{manager: m, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:data": {}}}]}
data: {x: "1"}
binaryData: {b: AAAA}
immutable: false
`,
		api.Deployment: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: default, annotations: {k: v}}
spec:
  replicas: 2
  selector: {matchLabels: {app: d}, matchExpressions: [{key: k, operator: In, values: [a]}]}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}
  template:
    metadata: {labels: {app: d}}
    spec:
      initContainers: [{name: init, image: busybox}]
      containers:
      - name: app
        image: nginx
        ports: [{containerPort: 80, protocol: TCP}, {containerPort: 443, protocol: TCP, name: https}]
        env: [{name: A, value: "1"}, {name: B, valueFrom: {configMapKeyRef: {name: c, key: x}}}]
        resources: {limits: {cpu: "1"}, requests: {memory: 1Gi}}
        volumeMounts: [{name: v, mountPath: /v}]
        readinessProbe: {httpGet: {path: /, port: 80}}
      volumes: [{name: v, configMap: {name: c}}]
      tolerations: [{key: k, operator: Exists}]
      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: k, operator: In, values: [v]}]}]}}}
status:
  replicas: 2
  conditions: [{type: Available, status: "True"}]
`,
	}
	for k, doc := range objects {
		info, _ := api.Lookup(k)
		name, err := scheme.ToOpenAPIDefinitionName(info.GVK())
		if err != nil {
			t.Fatal(err)
		}
		parser, err := typed.NewParser(typed.YAMLObject(builtinTypeSchemas[name]))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		cut := managedfields.NewSchemeTypeConverter(scheme, parser)
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
			t.Fatal(err)
		}
		want, err := full.ObjectToTyped(u)
		if err != nil {
			t.Fatalf("%s with client-go's schema: %v", k, err)
		}
		got, err := cut.ObjectToTyped(u)
		if err != nil {
			t.Fatalf("%s with its cut of the schema: %v", k, err)
		}
		wantSet, err := want.ToFieldSet()
		if err != nil {
			t.Fatal(err)
		}
		gotSet, err := got.ToFieldSet()
		if err != nil {
			t.Fatal(err)
		}
		if !gotSet.Equals(wantSet) {
			t.Errorf("%s: field set\n%s\nwant (client-go's schema)\n%s", k, gotSet.String(), wantSet.String())
		}
		// The merge keys show in the set: a container is [name="app"].
		if k == api.Deployment && !strings.Contains(gotSet.String(), `containers[name="app"]`) {
			t.Errorf("Deployment: containers not keyed by name:\n%s", gotSet.String())
		}
	}
}

// BenchmarkFieldManagerBuild is the cost of a kind's first write's field
// manager: its type converter and managers, from a fresh schema, against
// "clientgo-all" (what every run paid before: client-go's schema of every
// built-in type). client-go parses its schema once per process, so only
// the first iteration of that one is real: run it with -benchtime 1x in
// fresh processes (BENCHMARKS.md, "Simulator").
func BenchmarkFieldManagerBuild(b *testing.B) {
	for _, k := range []api.Kind{api.ConfigMap, api.Deployment, api.Widget} {
		b.Run(string(k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s, err := newSchema()
				if err != nil {
					b.Fatal(err)
				}
				if s.manager(k, "") == nil {
					b.Fatal("no manager")
				}
			}
		})
	}
	b.Run("clientgo-all", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			scheme, err := typeschema.Scheme()
			if err != nil {
				b.Fatal(err)
			}
			info, _ := api.Lookup(api.Deployment)
			tc := applyconfigurations.NewTypeConverter(scheme)
			if _, err := managedfields.NewDefaultFieldManager(tc, identity{}, identity{}, creater{}, info.GVK(), info.GVK().GroupVersion(), "", nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
