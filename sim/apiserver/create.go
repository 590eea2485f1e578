package apiserver

import (
	"hash/fnv"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/conflictlab/conflictlab/sim/api"
)

// What the real server's names.SimpleNameGenerator does with a
// generateName: it keeps at most 58 characters of the prefix and appends 5
// characters of utilrand's alphabet (no vowels, no 0/1/3: generated names
// never spell words or look like numbers).
const (
	generatedSuffixLen = 5
	maxGeneratePrefix  = 63 - generatedSuffixLen
	generateAlphabet   = "bcdfghjklmnpqrstvwxz2456789"
)

// generateName gives an object created with metadata.generateName and no
// name its name, as the registry's BeforeCreate does. The real suffix is
// random; the simulator's is a hash of the prefix and the server's uid
// counter (the number of objects created so far), so a run stays a
// function of its schedule, and two creates with the same prefix get two
// names. A name already taken gets the next candidate, as the real store
// retries a generated name that collides.
func (s *Server) generateName(info api.KindInfo, obj *unstructured.Unstructured) {
	prefix := obj.GetGenerateName()
	if obj.GetName() != "" || prefix == "" {
		return
	}
	if len(prefix) > maxGeneratePrefix {
		prefix = prefix[:maxGeneratePrefix]
	}
	for try := 0; ; try++ {
		name := prefix + generatedSuffix(prefix, s.uids+1, try)
		ref := api.Ref{Kind: info.Kind, Namespace: obj.GetNamespace(), Name: name}
		if _, taken := s.objects[ref]; !taken {
			obj.SetName(name)
			return
		}
	}
}

// generatedSuffix is a deterministic stand-in for utilrand.String(5).
func generatedSuffix(prefix string, n, try int) string {
	h := fnv.New64a()
	h.Write([]byte(prefix))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(n)))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(try)))
	x := h.Sum64()
	out := make([]byte, generatedSuffixLen)
	for i := range out {
		out[i] = generateAlphabet[x%uint64(len(generateAlphabet))]
		x /= uint64(len(generateAlphabet))
	}
	return string(out)
}
