// Package version holds the lab's version, for reports, GET /api/health,
// the command line and the site: what `git describe --tags --always
// --dirty` said when the lab was built. The Makefile writes it into every
// Go build with
//
//	-ldflags "-X github.com/refreshlab/refreshlab/core/version.Version=…"
//
// A build without it (go run, go test, a tarball without git) falls back
// to the commit the go command stamped into the binary, if any, and else
// says "unknown".
package version

import (
	"runtime/debug"
	"sync"
)

// Version is set at build time; see the package comment. Read it through
// String, which falls back when it is unset.
var Version = ""

// Unknown is the version of a build that knows none.
const Unknown = "unknown"

var fallback = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Unknown
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return Unknown
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
})

// String returns the lab's version: Version when the build set it, else
// the commit stamped into the binary, else "unknown".
func String() string {
	if Version != "" {
		return Version
	}
	return fallback()
}
