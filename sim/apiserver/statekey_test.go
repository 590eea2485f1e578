package apiserver

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/statekey/statekeytest"
)

// TestServerEncodesEveryField: every field of the server is written by
// EncodeState, or said not to be state; a field added to Server fails
// here until it is one or the other.
func TestServerEncodesEveryField(t *testing.T) {
	ref := api.Ref{Kind: api.ConfigMap, Namespace: "default", Name: "cm1"}
	cm := func(v string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "cm1", "namespace": "default"}, "data": map[string]any{"v": v}}}
	}
	base := func() *Server {
		s := New(nil, 100)
		s.Memoize()
		s.objects[ref] = cm("1")
		s.events = append(s.events, Event{Type: Added, RV: 101, Object: s.objects[ref]})
		s.rv, s.compacted, s.uids = 101, 50, 1
		return s
	}
	statekeytest.Fields(t, base, (*Server).EncodeState, map[string]statekeytest.Field[Server]{
		"schema":    {Change: func(s *Server) { s.schema = &Schema{} }, NotState: "fixed for a run"},
		"rv":        {Change: func(s *Server) { s.rv++ }},
		"now":       {Change: func(s *Server) { s.SetTime(time.Second) }, NotState: "every request sets it first"},
		"objects":   {Change: func(s *Server) { s.objects[ref] = cm("2") }},
		"events":    {Change: func(s *Server) { s.events = nil }, NotState: "the key maker writes the events still to be delivered"},
		"compacted": {Change: func(s *Server) { s.compacted++ }},
		"uids":      {Change: func(s *Server) { s.uids++ }},
		"memo":      {Change: func(s *Server) { s.memo = nil }, NotState: "replays only what would be computed"},
	})
}
