package apiserver

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
)

// BenchmarkWrite pairs, for each write kind, one write through Server.Do
// (".../server") with the same operation done by the bare library the
// server is built on (".../library"), on the same live object and body. The
// ratio server/library is the simulator's own overhead: JSON round trips,
// copies, validation, the no-op check, the store and the event log.
//
//	go test ./sim/apiserver -run '^$' -bench BenchmarkWrite -count 5 -benchtime 200ms
//
// Besides wall time, each reports "cpu-ns/op", the process CPU time per
// write, which a machine busy with other work disturbs far less.
//
// Every server iteration is a real write (the bodies alternate between two
// values), so the no-op short cut never hides the cost.
func BenchmarkWrite(b *testing.B) {
	cm := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}
	info, _ := api.Lookup(api.ConfigMap)

	// newLive returns a server holding a realistic cm1 (a few keys, two
	// finalizers, two managers in managedFields) and that object.
	newLive := func(b *testing.B) (*Server, *unstructured.Unstructured) {
		s := New(nil, 100)
		// x is left to the apply below, so that manager "a" owns it.
		data := map[string]string{"y": "1"}
		for i := 0; i < 8; i++ {
			data[fmt.Sprintf("key%d", i)] = fmt.Sprintf("value-%d", i)
		}
		body, _ := json.Marshal(map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "cm1", "namespace": "default", "finalizers": []string{"x.io/a", "x.io/b"}},
			"data":     data,
		})
		for _, r := range []api.Request{
			{Verb: api.Create, Ref: cm, Body: body, FieldManager: "creator"},
			{Verb: api.Patch, Ref: cm, PatchType: api.ApplyPatch, FieldManager: "a", Body: []byte(applyBody("-"))},
		} {
			if resp := s.Do(r); resp.Err != nil {
				b.Fatal(resp.Err)
			}
		}
		return s, s.Peek(cm)
	}
	two := func(f func(v string) string) [2][]byte { return [2][]byte{[]byte(f("0")), []byte(f("1"))} }

	kinds := []struct {
		name    string
		request func(body []byte) api.Request
		bodies  [2][]byte
		library func(b *testing.B, s *Server, live *unstructured.Unstructured, liveJSON, body []byte)
	}{
		{
			name:    "update",
			request: func(body []byte) api.Request { return api.Request{Verb: api.Update, Ref: cm, Body: body} },
			bodies: two(func(v string) string {
				return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","namespace":"default","finalizers":["x.io/a","x.io/b"]},` +
					`"data":{"x":"` + v + `","y":"1","key0":"value-0","key1":"value-1","key2":"value-2","key3":"value-3",` +
					`"key4":"value-4","key5":"value-5","key6":"value-6","key7":"value-7"}}`
			}),
			// The typed decode, then the field manager's Update.
			library: func(b *testing.B, s *Server, live *unstructured.Unstructured, _, body []byte) {
				next, err := decodeTyped(info, body)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.schema.manager(api.ConfigMap, "").Update(live.DeepCopy(), next, "conflictlab"); err != nil {
					b.Fatal(err)
				}
			},
		},
		{
			name: "merge",
			request: func(body []byte) api.Request {
				return api.Request{Verb: api.Patch, Ref: cm, PatchType: api.MergePatch, Body: body}
			},
			bodies: two(func(v string) string { return `{"data":{"x":"` + v + `"}}` }),
			library: func(b *testing.B, _ *Server, _ *unstructured.Unstructured, liveJSON, body []byte) {
				if _, err := jsonpatch.MergePatch(liveJSON, body); err != nil {
					b.Fatal(err)
				}
			},
		},
		{
			name: "strategic",
			request: func(body []byte) api.Request {
				return api.Request{Verb: api.Patch, Ref: cm, PatchType: api.StrategicPatch, Body: body}
			},
			bodies: two(func(v string) string { return `{"data":{"x":"` + v + `"}}` }),
			library: func(b *testing.B, _ *Server, _ *unstructured.Unstructured, liveJSON, body []byte) {
				if _, err := strategicpatch.StrategicMergePatch(liveJSON, body, &corev1.ConfigMap{}); err != nil {
					b.Fatal(err)
				}
			},
		},
		{
			name: "json",
			request: func(body []byte) api.Request {
				return api.Request{Verb: api.Patch, Ref: cm, PatchType: api.JSONPatch, Body: body}
			},
			bodies: two(func(v string) string { return `[{"op":"replace","path":"/data/x","value":"` + v + `"}]` }),
			library: func(b *testing.B, _ *Server, _ *unstructured.Unstructured, liveJSON, body []byte) {
				p, err := jsonpatch.DecodePatch(body)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Apply(liveJSON); err != nil {
					b.Fatal(err)
				}
			},
		},
		{
			name: "apply",
			request: func(body []byte) api.Request {
				return api.Request{Verb: api.Patch, Ref: cm, PatchType: api.ApplyPatch, FieldManager: "a", Body: body}
			},
			bodies: two(applyBody),
			// The YAML decode, then the field manager's Apply.
			library: func(b *testing.B, s *Server, live *unstructured.Unstructured, _, body []byte) {
				applied := &unstructured.Unstructured{}
				if err := yaml.Unmarshal(body, &applied.Object); err != nil {
					b.Fatal(err)
				}
				if _, err := s.schema.manager(api.ConfigMap, "").Apply(live.DeepCopy(), applied, "a", false); err != nil {
					b.Fatal(err)
				}
			},
		},
	}
	// For the three patch kinds, "library+fieldmanager" adds what any
	// write must do after patching, real server included: decode the result
	// to the typed object and record it in managedFields. The gap between
	// it and "server" is the simulator's own cost.
	withFieldManager := func(patch func(liveJSON, body []byte) ([]byte, error)) func(b *testing.B, s *Server, live *unstructured.Unstructured, liveJSON, body []byte) {
		return func(b *testing.B, s *Server, live *unstructured.Unstructured, liveJSON, body []byte) {
			patched, err := patch(liveJSON, body)
			if err != nil {
				b.Fatal(err)
			}
			next, err := decodeTyped(info, patched)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.schema.manager(api.ConfigMap, "").Update(live.DeepCopy(), next, "conflictlab"); err != nil {
				b.Fatal(err)
			}
		}
	}
	fullLibrary := map[string]func(b *testing.B, s *Server, live *unstructured.Unstructured, liveJSON, body []byte){
		"merge": withFieldManager(jsonpatch.MergePatch),
		"strategic": withFieldManager(func(doc, body []byte) ([]byte, error) {
			return strategicpatch.StrategicMergePatch(doc, body, &corev1.ConfigMap{})
		}),
		"json": withFieldManager(func(doc, body []byte) ([]byte, error) {
			p, err := jsonpatch.DecodePatch(body)
			if err != nil {
				return nil, err
			}
			return p.Apply(doc)
		}),
	}
	library := func(name string, f func(b *testing.B, s *Server, live *unstructured.Unstructured, liveJSON, body []byte), bodies [2][]byte) {
		b.Run(name, func(b *testing.B) {
			s, live := newLive(b)
			liveJSON, err := json.Marshal(live.Object)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				f(b, s, live, liveJSON, bodies[i%2])
			}
			cpu.report(b)
		})
	}
	for _, k := range kinds {
		b.Run(k.name+"/server", func(b *testing.B) {
			s, _ := newLive(b)
			rv := s.RV()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				if resp := s.Do(k.request(k.bodies[i%2])); resp.Err != nil {
					b.Fatal(resp.Err)
				}
			}
			cpu.report(b)
			b.StopTimer()
			if s.RV() != rv+int64(b.N) {
				b.Fatalf("%d writes advanced the RV by %d: some were no-ops", b.N, s.RV()-rv)
			}
		})
		library(k.name+"/library", k.library, k.bodies)
		if f, ok := fullLibrary[k.name]; ok {
			library(k.name+"/library+fieldmanager", f, k.bodies)
		}
	}
}

func applyBody(v string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm1\n  namespace: default\ndata:\n  x: \"" + v + "\"\n"
}

// cpuClock measures the process CPU time of a benchmark loop and reports it
// as "cpu-ns/op" (see processCPUTime).
type cpuClock struct {
	start time.Duration
	ok    bool
}

func startCPU() cpuClock {
	t, ok := processCPUTime()
	return cpuClock{t, ok}
}

func (c cpuClock) report(b *testing.B) {
	if t, ok := processCPUTime(); ok && c.ok {
		b.ReportMetric(float64(t-c.start)/float64(b.N), "cpu-ns/op")
	}
}
