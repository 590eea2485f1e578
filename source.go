package main

import "embed"

// source is what of this module a learner's exercise workspace builds
// with (package exercises/workspace writes it there as a local module,
// since the module is not published): the simulator, simcluster, the
// exercises' check and what they import, with the module's go.mod and
// go.sum so the workspace resolves the same versions. Tests and testdata
// are left out when it is written.
//
//go:embed go.mod go.sum sim simcluster userfile exercises/check exercises/verdict
var source embed.FS
