package apiserver_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/apiserver"
)

// TestAPITranscripts sends requests to the simulated API server and prints
// its answers, request → response, as docs/SEMANTICS.md lists the real
// server's. Each file under testdata/api is one conversation; a case's
// comment names the SEMANTICS.md entry it reproduces.
// Regenerate with: go test ./sim/apiserver -run TestAPITranscripts -rewrite
//
// Commands:
//
//	server [first-rv=N]     a fresh server (first write gets N+1; 227 by default)
//	VERB KIND/NAME [sub=status] [type=merge|strategic|json|apply] [manager=M] [force]
//	                        a request: VERB is create, get, update, patch,
//	                        delete; the input is its body (YAML is turned into
//	                        the JSON a client would send; apply keeps YAML)
//
// An answer prints the code and reason, then the object's resourceVersion,
// its fields (without metadata noise) and its field managers — or the
// status error's message and causes.
func TestAPITranscripts(t *testing.T) {
	datadriven.Walk(t, "testdata/api", func(t *testing.T, path string) {
		var s *apiserver.Server
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "server" {
				first := int64(firstRV)
				for _, a := range d.CmdArgs {
					if a.Key == "first-rv" {
						n, err := strconv.ParseInt(a.Vals[0], 10, 64)
						if err != nil {
							d.Fatalf(t, "first-rv: %v", err)
						}
						first = n
					}
				}
				s = apiserver.New(nil, first)
				return "ok\n"
			}
			if s == nil {
				d.Fatalf(t, "no server yet")
			}
			return answer(s.Do(transcriptRequest(t, d)))
		})
	})
}

func transcriptRequest(t *testing.T, d *datadriven.TestData) api.Request {
	verbs := map[string]api.Verb{"create": api.Create, "get": api.Get, "update": api.Update, "patch": api.Patch, "delete": api.Delete}
	verb, ok := verbs[d.Cmd]
	if !ok {
		d.Fatalf(t, "unknown command %q", d.Cmd)
	}
	if len(d.CmdArgs) == 0 {
		d.Fatalf(t, "%s KIND/NAME", d.Cmd)
	}
	kind, name, ok := strings.Cut(d.CmdArgs[0].Key, "/")
	if !ok {
		d.Fatalf(t, "want KIND/NAME, not %q", d.CmdArgs[0].Key)
	}
	req := api.Request{Verb: verb, Ref: api.Ref{Kind: api.Kind(kind), Namespace: ns, Name: name}}
	for _, a := range d.CmdArgs[1:] {
		switch a.Key {
		case "sub":
			req.Subresource = a.Vals[0]
		case "type":
			types := map[string]types.PatchType{"merge": api.MergePatch, "strategic": api.StrategicPatch, "json": api.JSONPatch, "apply": api.ApplyPatch}
			pt, ok := types[a.Vals[0]]
			if !ok {
				d.Fatalf(t, "type: %q", a.Vals[0])
			}
			req.PatchType = pt
		case "manager":
			req.FieldManager = a.Vals[0]
		case "force":
			req.Force = true
		default:
			d.Fatalf(t, "unknown argument %q", a.Key)
		}
	}
	if in := strings.TrimSpace(d.Input); in != "" {
		if req.PatchType == api.ApplyPatch {
			req.Body = []byte(in)
		} else {
			j, err := yaml.YAMLToJSON([]byte(in))
			if err != nil {
				d.Fatalf(t, "body: %v", err)
			}
			req.Body = j
		}
	}
	return req
}

// answer prints a response the way a person compares it with SEMANTICS.md.
func answer(r api.Response) string {
	var b strings.Builder
	if r.Err != nil {
		var se apierrors.APIStatus
		if !errors.As(r.Err, &se) {
			return fmt.Sprintf("%d error: %v\n", r.Code, r.Err)
		}
		st := se.Status()
		fmt.Fprintf(&b, "%s\nmessage: %s\n", strings.TrimSpace(fmt.Sprintf("%d %s", st.Code, st.Reason)), st.Message)
		if st.Details != nil {
			for _, c := range st.Details.Causes {
				fmt.Fprintf(&b, "cause: %s %s: %s\n", c.Type, c.Field, c.Message)
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d\n", r.Code)
	if r.Object != nil {
		b.WriteString(objectText(r.Object))
	}
	return b.String()
}

// objectText is an object's resourceVersion, generation, the fields that
// are not server bookkeeping, and who manages which fields.
func objectText(o *unstructured.Unstructured) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rv: %s", o.GetResourceVersion())
	if g := o.GetGeneration(); g != 0 {
		fmt.Fprintf(&b, " generation: %d", g)
	}
	if o.GetDeletionTimestamp() != nil {
		b.WriteString(" deleting")
	}
	b.WriteString("\n")
	body := o.DeepCopy().Object
	for _, f := range []string{"apiVersion", "kind"} {
		delete(body, f)
	}
	meta, _ := body["metadata"].(map[string]any)
	for _, f := range []string{"name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "deletionTimestamp"} {
		delete(meta, f)
	}
	if len(meta) == 0 {
		delete(body, "metadata")
	}
	if len(body) > 0 {
		y, _ := yaml.Marshal(body)
		b.Write(y)
	}
	for _, m := range o.GetManagedFields() {
		var fields map[string]any
		if m.FieldsV1 != nil {
			_ = json.Unmarshal(m.FieldsV1.GetRawBytes(), &fields)
		}
		line := fmt.Sprintf("manager %s %s", m.Manager, m.Operation)
		if m.Subresource != "" {
			line += " /" + m.Subresource
		}
		fmt.Fprintf(&b, "%s: %s\n", line, strings.Join(fieldSet(fields, ""), " "))
	}
	return b.String()
}

// fieldSet flattens a fieldsV1 tree to its leaves ("f:data.f:x"); a "."
// entry, which claims the map or list itself, reads "f:data(self)".
func fieldSet(m map[string]any, prefix string) []string {
	var out []string
	for k, v := range m {
		if k == "." {
			out = append(out, prefix+"(self)")
			continue
		}
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			out = append(out, fieldSet(sub, p)...)
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
