//go:build !js

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// beamModule is the Apache Beam SDK's module path.
const beamModule = "github.com/apache/beam/"

// deps lists the packages pkg imports, directly or not, built for goos and
// goarch.
func deps(t *testing.T, goos, goarch, pkg string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the WebAssembly builds' packages")
	}
	cmd := exec.Command(gobin, "list", "-deps", pkg)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s (%s/%s): %v", pkg, goos, goarch, err)
	}
	return strings.Fields(string(out))
}

// TestWasmBuildsWithoutBeam checks that neither WebAssembly build (the
// browser module, the Worker) links the Beam SDK, which only this command
// needs: its size would land in every visitor's download. The command's
// own native build, which does link it, shows that the check can see it.
func TestWasmBuildsWithoutBeam(t *testing.T) {
	cases := []struct {
		pkg, goos, goarch string
		beam              bool
	}{
		{"../lab", "js", "wasm", false},
		{"../worker", "js", "wasm", false},
		{".", "linux", "amd64", true},
	}
	for _, c := range cases {
		t.Run(c.pkg+" "+c.goos+"/"+c.goarch, func(t *testing.T) {
			var found []string
			for _, p := range deps(t, c.goos, c.goarch, c.pkg) {
				if strings.HasPrefix(p, beamModule) {
					found = append(found, p)
				}
			}
			switch {
			case c.beam && len(found) == 0:
				t.Errorf("%s imports no package of %s: the check cannot see the SDK", c.pkg, beamModule)
			case !c.beam && len(found) > 0:
				t.Errorf("%s imports %d packages of %s, among them %s: keep the pipeline out of the WebAssembly builds", c.pkg, len(found), beamModule, found[0])
			}
		})
	}
}
