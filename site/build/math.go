package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// typesetter typesets the lessons' formulas as MathML with temml, in one
// Node process (typeset.mjs) for the whole build: the module proxy serves
// no Go library that turns TeX into MathML, and temml's MathML needs no
// script or style sheet in the page. site/package.json pins temml; the
// Makefile installs it (npm ci) before building.
type typesetter struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// startTypesetter starts typeset.mjs, found beside this program's source
// in siteDir (site/), whose node_modules holds temml.
func startTypesetter(siteDir string) (*typesetter, error) {
	if _, err := os.Stat(filepath.Join(siteDir, "node_modules", "temml", "package.json")); err != nil {
		return nil, fmt.Errorf("typesetting formulas needs temml in %s: run `make site`, or `npm ci --prefix %s`", filepath.Join(siteDir, "node_modules"), siteDir)
	}
	cmd := exec.Command("node", filepath.Join(siteDir, "build", "typeset.mjs"))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("typesetting formulas needs Node (node on PATH): %w", err)
	}
	return &typesetter{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// MathML typesets one formula; it is a lesson.Typesetter.
func (t *typesetter) MathML(tex string, display bool) (string, error) {
	req, _ := json.Marshal(map[string]any{"tex": tex, "display": display})
	if _, err := t.in.Write(append(req, '\n')); err != nil {
		return "", fmt.Errorf("temml: %w", err)
	}
	line, err := t.out.ReadBytes('\n')
	if err != nil {
		return "", fmt.Errorf("temml stopped: %w", err)
	}
	var ans struct{ MathML, Error string }
	if err := json.Unmarshal(line, &ans); err != nil {
		return "", fmt.Errorf("temml answered %q: %w", line, err)
	}
	if ans.Error != "" {
		return "", fmt.Errorf("%s", strings.TrimSpace(ans.Error))
	}
	return ans.MathML, nil
}

// Close ends the Node process.
func (t *typesetter) Close() error {
	t.in.Close()
	return t.cmd.Wait()
}
