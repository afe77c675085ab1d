package version

import "testing"

// TestString: a version set at build time is reported as it is; without
// one, a test binary (which the go command stamps with no commit) says
// "unknown" rather than nothing.
func TestString(t *testing.T) {
	defer func(v string) { Version = v }(Version)
	Version = "v1.2.3-4-gabcdef0-dirty"
	if got := String(); got != Version {
		t.Errorf("String() = %q, want %q", got, Version)
	}
	Version = ""
	if got := String(); got == "" {
		t.Error(`String() = "" without a version: want "unknown" or a commit`)
	}
}
