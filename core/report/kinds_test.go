package report_test

// The tests run results of every kind, some of which register themselves
// from packages of their own.
import _ "github.com/refreshlab/refreshlab/core/kinds"
