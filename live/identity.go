package live

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/conflictlab/conflictlab/sim/api"
	"github.com/conflictlab/conflictlab/sim/controller"
)

// checkSubresource: a request goes to its object or to the object's
// /status, nothing else. The dynamic client joins subresources into the
// URL path, where "../victim" would name another object.
func checkSubresource(req api.Request) error {
	if req.Subresource != "" && req.Subresource != controller.StatusSubresource {
		return fmt.Errorf("its subresource %q is not status", req.Subresource)
	}
	return nil
}

// checkJSONPatchIdentity refuses a JSON patch with an operation that
// writes to the fields that say which object this is (controller's
// IdentityPointer, the rule the scenario format checks hand-written bodies
// by): any operation but test on such a path, or a move from one. A test
// only reads, and a copy from one writes elsewhere. The operations are read
// one by one, so that a list with one malformed item (which the server
// answers with a 400) is still checked item by item, and op names and keys
// are compared without case (encoding/json matches struct fields so).
func checkJSONPatchIdentity(body []byte) error {
	var items []json.RawMessage
	if json.Unmarshal(body, &items) != nil {
		return nil // not a list: the server refuses it whole (400), harmlessly
	}
	for _, raw := range items {
		var op map[string]any
		if json.Unmarshal(raw, &op) != nil {
			continue
		}
		var name string
		pointers := map[string][]string{}
		for k, v := range op {
			s, _ := v.(string)
			switch strings.ToLower(k) {
			case "op":
				name = strings.ToLower(s)
			case "path", "from":
				pointers[strings.ToLower(k)] = append(pointers[strings.ToLower(k)], s)
			}
		}
		for _, p := range pointers["path"] {
			if name != "test" && controller.IdentityPointer(p) {
				return fmt.Errorf("its JSON patch op %s %s touches the object's identity", name, p)
			}
		}
		for _, p := range pointers["from"] {
			if name != "copy" && name != "test" && controller.IdentityPointer(p) {
				return fmt.Errorf("its JSON patch op %s from %s touches the object's identity", name, p)
			}
		}
	}
	return nil
}
