// Package handlers exists so that a JSON patch body that is not an array is
// rejected with the very text a real kube-apiserver prints: encoding/json
// names the Go type it failed to fill ("[]handlers.jsonPatchOp"), and the real
// type lives in k8s.io/apiserver/pkg/endpoints/handlers.
package handlers

import kjson "sigs.k8s.io/json"

// jsonPatchOp mirrors the shape the real server decodes first, before it
// hands the body to the JSON patch library.
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from"`
	Value any    `json:"value"`
}

// CheckJSONPatchShape reports the decode error the real server reports for a
// body that is not a list of operations. The server's default field
// validation (Warn) decodes strictly: unknown or duplicate fields are only
// warnings, so just the fatal error counts.
func CheckJSONPatchShape(body []byte) error {
	var ops []jsonPatchOp
	_, err := kjson.UnmarshalStrict(body, &ops)
	return err
}
