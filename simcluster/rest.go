package simcluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/conflictlab/conflictlab/sim/api"
)

// This file speaks the Kubernetes REST protocol for the kinds the
// simulator serves: an HTTP request as client-go builds it becomes an
// api.Request, and an api.Response becomes the HTTP answer a
// kube-apiserver gives, so the real clients decode it as they would a
// cluster's — a failure as the *apierrors.StatusError its Status makes.
//
// Only what the simulator models is served. Everything else is refused
// with a Status that says so (a watch, a dry run, strict field
// validation, a delete of a collection), so code never gets an answer
// the simulator made up.

// restCall is a parsed request: what to hand the simulator, and how to
// shape its answer.
type restCall struct {
	req  api.Request
	info api.KindInfo
	// list: a GET of a collection; sel and fsel filter what it returns
	// (the server filters a LIST; the simulator hands back the lot).
	list bool
	sel  labels.Selector
	fsel fields.Selector
	// limit is a LIST's page size (0: all); the simulator has no pages, so
	// the first page is the whole answer when it is short enough, and
	// otherwise the call is refused.
	limit int64
}

// resourceKinds maps a URL's group/version/resource to a served kind.
var resourceKinds = func() map[string]api.KindInfo {
	m := map[string]api.KindInfo{}
	for _, k := range api.Kinds() {
		info, _ := api.Lookup(k)
		m[info.APIVersion+"/"+info.Resource.Resource] = info
	}
	return m
}()

// parseCall reads an HTTP request; a request the simulator does not serve
// gets a non-nil error to answer with instead.
func parseCall(r *http.Request, userAgent string) (*restCall, error) {
	gv, rest, ok := splitAPIPath(r.URL.Path)
	if !ok {
		return nil, notServed()
	}
	var ns, resource, name, sub string
	switch {
	case len(rest) >= 3 && rest[0] == "namespaces":
		ns, resource = rest[1], rest[2]
		rest = rest[3:]
	case len(rest) >= 1:
		resource = rest[0]
		rest = rest[1:]
	default:
		return nil, notServed()
	}
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		sub, rest = rest[0], rest[1:]
	}
	info, ok := resourceKinds[gv+"/"+resource]
	if !ok || len(rest) > 0 || (sub != "" && sub != "status") {
		return nil, notServed()
	}
	q := r.URL.Query()
	if err := unsupportedParams(q, info); err != nil {
		return nil, err
	}
	body, err := readBody(r)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	c := &restCall{info: info}
	c.req = api.Request{Ref: api.Ref{Kind: info.Kind, Namespace: ns, Name: name}, Subresource: sub,
		FieldManager: q.Get("fieldManager")}
	switch {
	case r.Method == http.MethodGet && name == "":
		c.req.Verb, c.list = api.List, true
		if c.sel, err = labels.Parse(q.Get("labelSelector")); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("unable to parse requirement: %v", err))
		}
		if c.fsel, err = fields.ParseSelector(q.Get("fieldSelector")); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		for _, f := range c.fsel.Requirements() {
			if f.Field != "metadata.name" && f.Field != "metadata.namespace" {
				return nil, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", f.Field))
			}
		}
		if l := q.Get("limit"); l != "" {
			c.limit, _ = strconv.ParseInt(l, 10, 64)
		}
		if q.Get("continue") != "" {
			return nil, apierrors.NewBadRequest("simcluster: the simulated API server answers a LIST in one page; there is nothing to continue")
		}
	case r.Method == http.MethodGet:
		c.req.Verb = api.Get
	case r.Method == http.MethodPost && name == "" && ns != "":
		c.req.Verb, c.req.Body = api.Create, body
		// The URL of a create names no object: the body does (or asks the
		// server to generate a name).
		var meta struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(body, &meta)
		c.req.Ref.Name = meta.Metadata.Name
	case r.Method == http.MethodPut && name != "":
		c.req.Verb, c.req.Body = api.Update, body
	case r.Method == http.MethodPatch && name != "":
		c.req.Verb, c.req.Body = api.Patch, body
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			return nil, unsupportedMediaType(r.Header.Get("Content-Type"))
		}
		switch pt := types.PatchType(mt); pt {
		case types.MergePatchType, types.StrategicMergePatchType, types.JSONPatchType, types.ApplyYAMLPatchType:
			c.req.PatchType = pt
		default:
			return nil, unsupportedMediaType(mt)
		}
		if f := q.Get("force"); f != "" {
			c.req.Force, _ = strconv.ParseBool(f)
		}
	case r.Method == http.MethodDelete && name != "":
		// client-go sends the DeleteOptions (preconditions, propagation)
		// as the body, which is where the simulator reads them.
		c.req.Verb, c.req.Body = api.Delete, body
	default:
		return nil, apierrors.NewMethodNotSupported(info.Resource, strings.ToLower(r.Method)+onCollection(name))
	}
	if c.req.Verb != api.Get && c.req.Verb != api.List && c.req.Verb != api.Delete {
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); c.req.PatchType == "" && (err != nil || mt != "application/json") {
			return nil, unsupportedMediaType(r.Header.Get("Content-Type"))
		}
	}
	if c.req.FieldManager == "" && c.req.PatchType != types.ApplyYAMLPatchType && c.req.Verb != api.Get && c.req.Verb != api.List && c.req.Verb != api.Delete {
		// A kube-apiserver records a write without a fieldManager under
		// its User-Agent's first segment; an apply must name one.
		c.req.FieldManager = managerFromUserAgent(userAgent)
	}
	return c, nil
}

func onCollection(name string) string {
	if name == "" {
		return " on a collection"
	}
	return ""
}

// splitAPIPath splits /api/v1/... and /apis/GROUP/VERSION/... into the
// group/version ("v1", "apps/v1") and the rest of the path.
func splitAPIPath(p string) (string, []string, bool) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		return parts[1], parts[2:], true
	case len(parts) >= 3 && parts[0] == "apis":
		return parts[1] + "/" + parts[2], parts[3:], true
	}
	return "", nil, false
}

// unsupportedParams refuses what the simulator would otherwise quietly
// answer wrong.
func unsupportedParams(q url.Values, info api.KindInfo) error {
	if w := q.Get("watch"); w == "true" || w == "1" {
		return apierrors.NewMethodNotSupported(info.Resource, "watch (simcluster serves no watches: the code reads the simulated informer cache through the clients it was given)")
	}
	if len(q["dryRun"]) > 0 {
		return apierrors.NewBadRequest("simcluster: dryRun is not simulated")
	}
	if v := q.Get("fieldValidation"); v != "" && v != metav1.FieldValidationIgnore && v != metav1.FieldValidationWarn {
		return apierrors.NewBadRequest(fmt.Sprintf("simcluster: fieldValidation=%s is not simulated", v))
	}
	return nil
}

// maxBody bounds a request body: every object of a race is small.
const maxBody = 3 << 20

func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	defer r.Body.Close()
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBody {
		return nil, fmt.Errorf("request body over %d bytes", maxBody)
	}
	return b, nil
}

// managerFromUserAgent is the manager a kube-apiserver derives for a write
// that names none: the User-Agent up to its first "/", at most 128 bytes.
func managerFromUserAgent(ua string) string {
	m, _, _ := strings.Cut(ua, "/")
	if len(m) > 128 {
		m = m[:128]
	}
	return m
}

// notServed is a kube-apiserver's answer to a path it has no handler for.
func notServed() error {
	return apierrors.NewGenericServerResponse(http.StatusNotFound, "", api.KindInfo{}.Resource, "", "", 0, false)
}

// encode shapes the simulator's answer as the server's HTTP response, and
// returns its body too. gone tells a DELETE that removed its object (the
// server answers with a Status) from one that only marked it (the
// object).
func (c *restCall) encode(r *http.Request, resp api.Response, gone bool) (*http.Response, []byte) {
	if resp.Err != nil {
		return errorBody(r, resp.Err)
	}
	var body any
	switch {
	case c.list:
		items := make([]any, 0, len(resp.Items))
		for _, it := range resp.Items {
			if !c.sel.Matches(labels.Set(it.GetLabels())) || !c.fsel.Matches(objectFields(it)) {
				continue
			}
			items = append(items, it.Object)
		}
		if c.limit > 0 && int64(len(items)) > c.limit {
			return errorBody(r, apierrors.NewBadRequest(fmt.Sprintf(
				"simcluster: the simulated API server answers a LIST in one page; %d objects match, more than limit=%d", len(items), c.limit)))
		}
		body = map[string]any{
			"apiVersion": c.info.APIVersion, "kind": string(c.info.Kind) + "List",
			"metadata": map[string]any{"resourceVersion": resp.ListRV},
			"items":    items,
		}
	case c.req.Verb == api.Delete && gone:
		// A kube-apiserver answers a DELETE that removed its object with a
		// Status (docs/SEMANTICS.md), not the object.
		body = &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess,
			Details: &metav1.StatusDetails{Name: c.req.Ref.Name, Group: c.info.Resource.Group, Kind: c.info.Resource.Resource, UID: objectUID(resp.Object)}}
	case resp.Object != nil:
		body = resp.Object.Object
	default:
		body = map[string]any{}
	}
	code := resp.Code
	if code == 0 {
		code = http.StatusOK
	}
	return jsonResponse(r, code, body)
}

func objectUID(u *unstructured.Unstructured) types.UID {
	if u == nil {
		return ""
	}
	return u.GetUID()
}

// objectFields are the fields a LIST's fieldSelector may name.
func objectFields(u *unstructured.Unstructured) fields.Set {
	return fields.Set{"metadata.name": u.GetName(), "metadata.namespace": u.GetNamespace()}
}

// errorResponse is a failure as a kube-apiserver sends it: the Status,
// with its code.
func errorResponse(r *http.Request, err error) *http.Response {
	resp, _ := errorBody(r, err)
	return resp
}

func errorBody(r *http.Request, err error) (*http.Response, []byte) {
	st, ok := err.(apierrors.APIStatus)
	var status metav1.Status
	if ok {
		status = st.Status()
	} else {
		status = apierrors.NewInternalError(err).Status()
	}
	status.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	code := int(status.Code)
	if code == 0 {
		code = http.StatusInternalServerError
	}
	return jsonResponse(r, code, &status)
}

func jsonResponse(r *http.Request, code int, body any) (*http.Response, []byte) {
	b, err := json.Marshal(body)
	if err != nil {
		b, _ = json.Marshal(apierrors.NewInternalError(err).Status())
		code = http.StatusInternalServerError
	}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", code, http.StatusText(code)), StatusCode: code,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": []string{"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)),
		Request:       r,
	}, b
}

// unsupportedMediaType is a kube-apiserver's 415 for a body it cannot
// read.
func unsupportedMediaType(contentType string) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusUnsupportedMediaType, Reason: metav1.StatusReasonUnsupportedMediaType,
		Message: fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json (simcluster serves JSON; got %q)", contentType),
	}}
}
