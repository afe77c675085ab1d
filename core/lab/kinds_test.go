package lab_test

// The registered kinds, for the tests that run every kind (the golden
// results, the spec fields).
import _ "github.com/refreshlab/refreshlab/core/monitor/monitorkind"
