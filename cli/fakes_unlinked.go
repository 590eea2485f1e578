//go:build !fakes

package cli

// linkedFakes is nil: without -tags fakes the binary links none of the fake
// client libraries, and sim --backend says how to build one that does.
var linkedFakes fakeBackends
