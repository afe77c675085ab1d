package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
)

// crawlLog is a small crawl log whose dataset id depends on tag (its
// page names), so that each tag is another upload.
func crawlLog(tag string) string {
	var b strings.Builder
	b.WriteString("page,time,changed\n")
	for day := 1; day <= 3; day++ {
		for p := range 4 {
			fmt.Fprintf(&b, "http://%s.example/%d,2024-01-%02d,%d\n", tag, p, day, (p+day)%2)
		}
	}
	return b.String()
}

// upload sends log as client and returns the answer's JSON.
func upload(t *testing.T, rt *Router, client, log string) (Response, map[string]any) {
	t.Helper()
	r := rt.Serve(Request{Method: "POST", Path: "/api/datasets", Query: url.Values{"name": {"log"}}, Body: []byte(log), Client: client})
	var m map[string]any
	json.Unmarshal(r.Body, &m)
	return r, m
}

func datasetID(m map[string]any) string {
	d, _ := m["dataset"].(map[string]any)
	id, _ := d["id"].(string)
	return id
}

// bigResult is a result sent back by a client that holds n cycles of one
// series, and names of the given length.
func bigResult(cycles, name int) string {
	res := lab.Result{Dataset: lab.Result{}.Dataset, Policies: []lab.PolicyResult{{ID: "random", Name: strings.Repeat("n", name),
		Metrics: map[string]stat.Summary{lab.MetricChangeRatio: {Mean: 0.5, N: 2}},
		Series:  map[string]stat.Series{lab.MetricChangeRatio: make(stat.Series, cycles)}}}}
	res.Dataset.ID = "taleghani-example"
	b, _ := json.Marshal(res)
	return string(b)
}

// TestLimits checks that each limit on what a client sends answers a 4xx
// that names the field and the limit, and echoes at most a short prefix of
// what it refused.
func TestLimits(t *testing.T) {
	rt := New(lab.New())
	long := strings.Repeat("x", MaxName+1)
	refs := make([]string, MaxRefs+1)
	for i := range refs {
		refs[i] = `{"y":0.5,"label":"r"}`
	}
	tests := []struct {
		name, path, query, body string
		status                  int
		field                   string
		says                    string
	}{
		{"upload name", "/api/datasets", "name=" + long, crawlLog("a"), 400, "name", "at most 200"},
		{"body of a run", "/api/run", "", `{"x":"` + strings.Repeat("x", MaxResultBytes) + `"}`, 413, "", "at most 8 MB"},
		{"chart title", "/api/chart", "", `{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"chart":{"title":"` + long + `"}}`, 400, "chart.title", "at most 200"},
		{"chart refs", "/api/chart", "", `{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"chart":{"refs":[` + strings.Join(refs, ",") + `]}}`, 400, "chart.refs", "at most 20"},
		{"chart ref label", "/api/chart", "", `{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"chart":{"refs":[{"y":1,"label":"` + long + `"}]}}`, 400, "chart.refs[0].label", "at most 200"},
		{"result points", "/api/chart", "", `{"result":` + bigResult(MaxResultPoints/3+1, 5) + `}`, 400, "result", "at most 500000"},
		{"result name", "/api/chart", "", `{"result":` + bigResult(3, MaxName+1) + `}`, 400, "result.policies[0].name", "at most 200"},
		{"report log name", "/api/report", "", `{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"log":{"name":"` + long + `"}}`, 400, "log.name", "at most 200"},
		{"report log summary", "/api/report", "", `{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"log":{"summary":{"x":"` + strings.Repeat("s", MaxLogSummary) + `"}}}`, 400, "log.summary", "at most 65536"},
		{"work", "/api/run", "", fmt.Sprintf(`{"dataset":{"id":"alqaaideh-jordan"},"repeats":%d,"policies":[{"id":"cluster-sampling"}]}`, lab.MaxRepeats), 400, "repeats", "too much work"},
		{"echo of a bad id", "/api/run", "", `{"dataset":{"id":"` + strings.Repeat("d", 1<<20) + `"},"policies":[{"id":"random"}]}`, 400, "dataset.id", "unknown dataset"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, m := serve(rt, "POST", tc.path, tc.query, tc.body)
			if resp.Status != tc.status {
				t.Fatalf("%d %.300s, want %d", resp.Status, resp.Body, tc.status)
			}
			if f, _ := m["field"].(string); f != tc.field {
				t.Errorf("field %q, want %q", f, tc.field)
			}
			if msg, _ := m["error"].(string); !strings.Contains(msg, tc.says) {
				t.Errorf("error %q does not say %q", msg, tc.says)
			}
			if len(resp.Body) > 2000 {
				t.Errorf("a %d-byte answer to a refused request: echoes more than a short prefix", len(resp.Body))
			}
		})
	}
}

// TestUploadsArePrivate checks that on a server shared by many an upload
// is visible to the client that sent it alone: not listed, run, drawn,
// offered as a field's option or named in errors to another client.
func TestUploadsArePrivate(t *testing.T) {
	rt := New(lab.New())
	r, m := upload(t, rt, "alice", crawlLog("alice"))
	if r.Status != 201 {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	id := datasetID(m)
	run := `{"dataset":{"id":"` + id + `"},"repeats":2,"policies":[{"id":"random"}]}`
	ran := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(run), Client: "alice"})
	if ran.Status != 200 {
		t.Fatalf("alice's run on her upload: %d %s", ran.Status, ran.Body)
	}
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/api/datasets", "", 200},
		{"POST", "/api/run", run, 400},
		{"POST", "/api/chart", `{"spec":` + run + `}`, 400},
		{"POST", "/api/chart", `{"id":"` + ran.ResultID + `"}`, 404},
		{"POST", "/api/report", `{"id":"` + ran.ResultID + `"}`, 404},
		{"POST", "/api/trace", `{"spec":` + run + `,"policy":"random"}`, 400},
		{"POST", "/api/fields", `{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"fields":["dataset.id"]}`, 200},
	} {
		for _, client := range []string{"bob", ""} {
			resp := rt.Serve(Request{Method: tc.method, Path: tc.path, Body: []byte(tc.body), Client: client})
			if resp.Status != tc.status {
				t.Errorf("%s %s as %q: %d %.200s, want %d", tc.method, tc.path, client, resp.Status, resp.Body, tc.status)
			}
			body := strings.ReplaceAll(string(resp.Body), `\"`+id+`\"`, "") // the id bob sent, echoed
			if strings.Contains(body, id) || strings.Contains(body, "alice.example") {
				t.Errorf("%s %s as %q names alice's upload: %.300s", tc.method, tc.path, client, resp.Body)
			}
		}
	}
	if tr := rt.Serve(Request{Method: "POST", Path: "/api/trace", Body: []byte(`{"spec":` + run + `,"policy":"random"}`), Client: "alice"}); tr.Status != 200 {
		t.Errorf("alice's trace of her upload: %d %.200s", tr.Status, tr.Body)
	}
	if list := rt.Serve(Request{Method: "GET", Path: "/api/datasets", Client: "alice"}); !strings.Contains(string(list.Body), id) {
		t.Errorf("alice's list lacks her upload: %.300s", list.Body)
	}
}

// TestEvictionIsPerClient checks that a client's uploads past
// MaxClientUploads push out its own oldest, saying so, and never
// another's.
func TestEvictionIsPerClient(t *testing.T) {
	rt := New(lab.New())
	_, m := upload(t, rt, "bob", crawlLog("bob"))
	bobs := datasetID(m)
	var first string
	for i := range MaxClientUploads + 1 {
		r, m := upload(t, rt, "alice", crawlLog(fmt.Sprint("alice", i)))
		if r.Status != 201 {
			t.Fatalf("upload %d: %d %s", i, r.Status, r.Body)
		}
		if i == 0 {
			first = datasetID(m)
			continue
		}
		ev, _ := m["evicted"].([]any)
		switch {
		case i < MaxClientUploads && ev != nil:
			t.Errorf("upload %d evicted %v", i, ev)
		case i == MaxClientUploads && (len(ev) != 1 || ev[0] != first || !strings.Contains(fmt.Sprint(m["note"]), "oldest")):
			t.Errorf("upload %d: evicted %v, note %q; want alice's first, %s, and a note", i, ev, m["note"], first)
		}
	}
	for _, c := range []struct {
		client, id string
		status     int
	}{{"alice", first, 400}, {"bob", bobs, 200}} {
		r := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(`{"dataset":{"id":"` + c.id + `"},"repeats":2,"policies":[{"id":"random"}]}`), Client: c.client})
		if r.Status != c.status {
			t.Errorf("%s's run on %s: %d %.200s, want %d", c.client, c.id, r.Status, r.Body, c.status)
		}
	}
}

// TestUploadsExpire checks that an upload goes UploadTTL after its last
// use, a use keeps it, and the lab lets go of its dataset.
func TestUploadsExpire(t *testing.T) {
	l := lab.New()
	rt := New(l)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rt.owners.now = func() time.Time { return now }
	_, m := upload(t, rt, "alice", crawlLog("alice"))
	id := datasetID(m)
	now = now.Add(UploadTTL - time.Minute)
	if !rt.visible("alice", id) {
		t.Fatal("gone before its time")
	}
	now = now.Add(UploadTTL - time.Minute) // kept by the use just now
	if !rt.visible("alice", id) {
		t.Fatal("a use did not keep it")
	}
	now = now.Add(UploadTTL)
	if rt.visible("alice", id) {
		t.Fatal("kept past UploadTTL after its last use")
	}
	if _, ok := l.Dataset(id); ok {
		t.Error("the lab still holds the expired upload")
	}
	r := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(`{"dataset":{"id":"` + id + `"},"policies":[{"id":"random"}]}`), Client: "alice"})
	if !strings.Contains(string(r.Body), KeptFor()+" after its last use") {
		t.Errorf("the error for an expired upload does not say how long uploads are kept: %s", r.Body)
	}
}

// TestUploadMemory checks that uploads past the server's total are refused
// with a 413 that says why, until one goes.
func TestUploadMemory(t *testing.T) {
	rt := New(lab.New())
	a, b := crawlLog("a"), crawlLog("b")
	rt.owners.maxBytes = int64(len(a) + len(b)/2)
	if r, _ := upload(t, rt, "alice", a); r.Status != 201 {
		t.Fatalf("first upload: %d %s", r.Status, r.Body)
	}
	r, m := upload(t, rt, "bob", b)
	if r.Status != 413 || !strings.Contains(fmt.Sprint(m["error"]), "as many uploaded logs as it may") {
		t.Errorf("an upload past the total: %d %s, want 413", r.Status, r.Body)
	}
}

// TestCancelledRunStops checks that a run whose request's context is done
// (its client gone, or its time up) stops within one repeat and answers
// 503, and that the next request is served in full.
func TestCancelledRunStops(t *testing.T) {
	rt := New(lab.New())
	spec := `{"dataset":{"id":"alqaaideh-jordan"},"repeats":200,"seed":9,"policies":[{"id":"change-frequency"},{"id":"site-greedy"}]}`
	ctx, cancel := context.WithCancel(context.Background())
	var done []int64
	r := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(spec), Context: ctx, Progress: func(n int64) {
		done = append(done, n)
		if n == 5 {
			cancel()
		}
	}})
	if r.Status != 503 {
		t.Errorf("a cancelled run: %d %.200s, want 503", r.Status, r.Body)
	}
	if last := done[len(done)-1]; last != 5 {
		t.Errorf("%d repeats ran after the client went, want none", last-5)
	}
	if r := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(spec)}); r.Status != 200 {
		t.Errorf("the same run afterwards: %d %.200s", r.Status, r.Body)
	}
}
