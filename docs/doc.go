// Package docs holds the tests that keep the repository's documents true
// to the code: every command BENCHMARKS.md gives still runs as written
// (benchmarks_test.go), ARCHITECTURE.md names every package
// (architecture_test.go), and the README's counts are the course's
// (readme_test.go). The folder also holds the formats' documents
// (docs/*.md).
package docs
