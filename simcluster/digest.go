package simcluster

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// A code controller's state, for the explorer, is what it has been told:
// the digest chains every call it made, every answer it got and every
// result it returned. It is taken of the content (two runs can give the
// same resourceVersion to different objects), written without reflection:
// the explorer digests every answer of every replay.

// digestWriter encodes values for a digest: equal encodings for equal
// values only (every item is tagged and length-prefixed).
type digestWriter struct{ buf []byte }

func (d *digestWriter) tag(t byte) { d.buf = append(d.buf, t) }

func (d *digestWriter) str(s string) {
	d.buf = binary.AppendUvarint(d.buf, uint64(len(s)))
	d.buf = append(d.buf, s...)
}

func (d *digestWriter) int(n int64) { d.buf = binary.AppendVarint(d.buf, n) }

// value writes a JSON-like value, as unstructured objects hold them.
func (d *digestWriter) value(v any) {
	switch x := v.(type) {
	case nil:
		d.tag('n')
	case map[string]any:
		d.tag('{')
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d.int(int64(len(keys)))
		for _, k := range keys {
			d.str(k)
			d.value(x[k])
		}
	case []any:
		d.tag('[')
		d.int(int64(len(x)))
		for _, e := range x {
			d.value(e)
		}
	case string:
		d.tag('s')
		d.str(x)
	case bool:
		if x {
			d.tag('t')
		} else {
			d.tag('f')
		}
	case int64:
		d.tag('i')
		d.int(x)
	case int:
		d.tag('i')
		d.int(int64(x))
	case float64:
		d.tag('d')
		d.buf = binary.LittleEndian.AppendUint64(d.buf, math.Float64bits(x))
	default:
		d.tag('?')
		d.str(fmt.Sprintf("%T %v", x, x))
	}
}

func (d *digestWriter) response(resp api.Response) {
	d.int(int64(resp.Code))
	d.str(resp.ListRV)
	if st, ok := resp.Err.(apierrors.APIStatus); ok {
		s := st.Status()
		d.str(string(s.Reason))
		d.str(s.Message)
		if s.Details != nil {
			for _, c := range s.Details.Causes {
				d.str(string(c.Type))
				d.str(c.Field)
				d.str(c.Message)
			}
		}
	} else if resp.Err != nil {
		d.str(resp.Err.Error())
	}
	if resp.Object != nil {
		d.value(resp.Object.Object)
	} else {
		d.tag('n')
	}
	d.int(int64(len(resp.Items)))
	for _, it := range resp.Items {
		d.value(it.Object)
	}
}

func (d *digestWriter) action(a controller.Action) {
	d.int(int64(a.Kind))
	d.str(a.Purpose)
	r := a.Request
	d.str(string(r.Verb))
	d.str(string(r.Ref.Kind))
	d.str(r.Ref.Namespace)
	d.str(r.Ref.Name)
	d.str(r.Subresource)
	d.str(string(r.PatchType))
	d.str(string(r.Body))
	d.str(r.FieldManager)
	if r.Force {
		d.tag('t')
	}
	keys := make([]string, 0, len(a.Selector))
	for k := range a.Selector {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d.str(k)
		d.str(a.Selector[k])
	}
}

// chain folds one item into a digest.
func chain(prev [sha256.Size]byte, what byte, write func(*digestWriter)) [sha256.Size]byte {
	d := digestWriter{buf: make([]byte, 0, 1024)}
	d.buf = append(d.buf, prev[:]...)
	d.tag(what)
	write(&d)
	return sha256.Sum256(d.buf)
}

// objectDigest is a cached object's content digest, worked out once per
// cached version.
func (c *conn) objectDigest(u *unstructured.Unstructured) [sha256.Size]byte {
	if d, ok := c.digests.get(u); ok {
		return d
	}
	w := digestWriter{buf: make([]byte, 0, 1024)}
	w.value(u.Object)
	d := sha256.Sum256(w.buf)
	c.digests.put(u, d)
	return d
}
