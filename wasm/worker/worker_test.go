//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// TestWorker checks the Cloudflare Worker running under `wrangler dev` at
// $REFRESHLAB_WORKER (make worker-test starts it; skipped without it),
// where every request starts a fresh Go instance: an upload runs on a
// later request for the browser that sent it and for no other, and a
// lesson's spec runs and draws its charts as the page asks for them with
// ?engine=server, without a 404. With $REFRESHLAB_WORKERD_PID (the
// workerd process serving it, idle otherwise) it logs the CPU time and
// wall time each kind of request takes.
func TestWorker(t *testing.T) {
	base := os.Getenv("REFRESHLAB_WORKER")
	if base == "" {
		t.Skip("REFRESHLAB_WORKER is not set: make worker-test runs the Worker under wrangler dev and sets it")
	}
	alice, bob := browser(t), browser(t)

	log := "page,time,changed\n"
	for day := 1; day <= 6; day++ {
		for p := range 5 {
			log += fmt.Sprintf("http://worker.example/%d,2024-03-%02d,%d\n", p, day, (p*day)%3%2)
		}
	}
	status, body := post(t, alice, base+"/api/datasets?name=worker-test&cycle=1d", []byte(log))
	if status != 201 {
		t.Fatalf("upload: %d %.300s", status, body)
	}
	var up struct{ Dataset struct{ ID string } }
	json.Unmarshal(body, &up)
	run := []byte(`{"dataset":{"id":"` + up.Dataset.ID + `"},"repeats":3,"policies":[{"id":"random"},{"id":"round-robin"}]}`)
	for _, c := range []struct {
		who    string
		client *http.Client
		want   int
	}{{"alice, who sent it", alice, 200}, {"bob", bob, 400}} {
		status, body := post(t, c.client, base+"/api/run", run)
		if status != c.want {
			t.Errorf("run on the upload as %s, on a later request: %d %.300s, want %d", c.who, status, body, c.want)
		}
		if c.want != 200 && bytes.Contains(body, []byte("worker.example")) {
			t.Errorf("bob's error names alice's upload: %.300s", body)
		}
	}
	if _, list := get(t, bob, base+"/api/datasets"); bytes.Contains(list, []byte(up.Dataset.ID)) {
		t.Errorf("bob's list shows alice's upload: %.300s", list)
	}
	if _, list := get(t, alice, base+"/api/datasets"); !bytes.Contains(list, []byte(up.Dataset.ID)) {
		t.Errorf("alice's list lacks her upload: %.300s", list)
	}

	// A lesson, as its page runs it with ?engine=server: the run, then
	// each chart by its spec.
	spec, charts := lesson(t, "naive-estimate")
	if status, body := post(t, alice, base+"/api/run?brief=1", spec); status != 200 {
		t.Fatalf("the lesson's run: %d %.300s", status, body)
	}
	for i, chart := range charts {
		req, _ := json.Marshal(map[string]any{"spec": json.RawMessage(spec), "chart": chart})
		status, body := post(t, alice, base+"/api/chart", req)
		if status != 200 || !bytes.Contains(body[:min(len(body), 300)], []byte("<svg")) {
			t.Errorf("the lesson's chart %d: %d %.200s, want 200 and an SVG", i, status, body)
		}
	}

	pid, _ := strconv.Atoi(os.Getenv("REFRESHLAB_WORKERD_PID"))
	for _, m := range []struct {
		what string
		do   func()
	}{
		{"GET /api/policies", func() { get(t, alice, base+"/api/policies") }},
		{"POST /api/run (the upload, 2 policies, 3 repeats, read back from KV)", func() { post(t, alice, base+"/api/run", run) }},
		{"POST /api/run (lesson naive-estimate)", func() { post(t, alice, base+"/api/run?brief=1", spec) }},
		{"POST /api/chart (the lesson's first chart, by its spec)", func() {
			req, _ := json.Marshal(map[string]any{"spec": json.RawMessage(spec), "chart": charts[0]})
			post(t, alice, base+"/api/chart", req)
		}},
		{"GET /index.html (a static asset)", func() { get(t, alice, base+"/index.html") }},
	} {
		const n = 5
		cpu0, t0 := cpuTime(pid), time.Now()
		for range n {
			m.do()
		}
		wall := time.Since(t0) / n
		if pid > 0 {
			t.Logf("%s: %v wall, %v CPU of workerd per request (mean of %d)", m.what, wall.Round(time.Millisecond), ((cpuTime(pid) - cpu0) / n).Round(time.Millisecond), n)
		} else {
			t.Logf("%s: %v wall per request (mean of %d)", m.what, wall.Round(time.Millisecond), n)
		}
	}
}

// browser is an HTTP client that keeps its cookies, as a browser does.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 2 * time.Minute}
}

func post(t *testing.T, c *http.Client, url string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := c.Post(url, "application/octet-stream", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func get(t *testing.T, c *http.Client, url string) (int, []byte) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// lesson returns the spec (in JSON) and the charts of lessons/NAME.md, as
// its front matter states them.
func lesson(t *testing.T, name string) ([]byte, []any) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "lessons", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(src), "---\n", 3)
	if len(parts) < 3 {
		t.Fatalf("lessons/%s.md has no front matter", name)
	}
	var front struct {
		Spec   map[string]any `yaml:"spec"`
		Charts []any          `yaml:"charts"`
	}
	if err := yaml.Unmarshal([]byte(parts[1]), &front); err != nil {
		t.Fatalf("lessons/%s.md: %v", name, err)
	}
	spec, err := json.Marshal(front.Spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range front.Charts {
		if m, ok := c.(map[string]any); ok {
			delete(m, "caption") // the page's, as the page strips it
		}
	}
	return spec, front.Charts
}

// cpuTime is the CPU time process pid has used (user and system, all its
// threads), from /proc; 0 without one.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if pid <= 0 || err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}
