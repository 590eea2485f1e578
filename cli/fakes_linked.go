//go:build fakes

package cli

import "github.com/conflictlab/conflictlab/fakes"

// linkedFakes: this binary was built with -tags fakes.
var linkedFakes fakeBackends = fakes.Runner{}
