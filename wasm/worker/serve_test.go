//go:build !js

package main

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBusyPort checks that a server started on a port another holds exits
// at once with status 1 and says why, with no other output.
func TestBusyPort(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "refresh-lab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(), "PORT="+port, "SITE_DIR="+t.TempDir())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("a server on busy port %s: %v, want exit status 1\nstdout: %s\nstderr: %s", port, err, stdout.String(), stderr.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, "cannot listen on port "+port) || strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr %q: want one line saying it cannot listen on port %s", msg, port)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout %q: want nothing (it never served)", stdout.String())
	}
}
