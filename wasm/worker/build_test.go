package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestBuildsForCloudflare checks that this command builds as a Cloudflare
// Worker: GOOS=js GOARCH=wasm gives a WebAssembly module, and
// syumai/workers' generator writes the JavaScript that loads it. Deploying
// is not tested here.
func TestBuildsForCloudflare(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("building needs the go command, which js/wasm tests do not have")
	}
	if testing.Short() {
		t.Skip("builds a WebAssembly module; skipped with -short")
	}
	dir := t.TempDir()
	gen := exec.Command("go", "run", "github.com/syumai/workers/cmd/workers-assets-gen", "-mode=go", "-o", dir)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("workers-assets-gen: %v\n%s", err, out)
	}
	for _, f := range []string{"worker.mjs", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the Worker's runtime lacks %s: %v", f, err)
		}
	}
	wasm := filepath.Join(dir, "app.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
	b, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x00asm")) {
		t.Fatalf("%s is not a WebAssembly module", wasm)
	}
	t.Logf("Worker module: %d bytes", len(b))
}
