package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

func serve(rt *Router, method, path, query, body string) (Response, map[string]any) {
	req := Request{Method: method, Path: path, Body: []byte(body)}
	if query != "" {
		req.Query = map[string][]string{}
		for _, kv := range strings.Split(query, "&") {
			k, v, _ := strings.Cut(kv, "=")
			req.Query[k] = append(req.Query[k], v)
		}
	}
	resp := rt.Serve(req)
	var m map[string]any
	if resp.ContentType == "application/json" {
		json.Unmarshal(resp.Body, &m)
	}
	return resp, m
}

// TestRoutes checks each endpoint's status and, for errors, that the
// answer says where the problem is.
func TestRoutes(t *testing.T) {
	rt := New(lab.New())
	rt.Handle("POST", "/api/test/panic", panicking)
	good := `{"dataset":{"id":"taleghani-example"},"repeats":3,"policies":[{"id":"site-greedy"},{"id":"oracle"}]}`
	tests := []struct {
		name, method, path, query, body string
		status                          int
		check                           func(map[string]any) string
	}{
		{"health", "GET", "/api/health", "", "", 200, has("ok")},
		{"datasets", "GET", "/api/datasets", "", "", 200, has("datasets")},
		{"policies", "GET", "/api/policies", "", "", 200, has("policies")},
		{"trailing slash", "GET", "/api/policies/", "", "", 200, has("policies")},
		{"head", "HEAD", "/api/health", "", "", 200, nil},
		{"run", "POST", "/api/run", "", good, 200, has("policies")},
		{"run empty", "POST", "/api/run", "", "  ", 400, errorContains("empty body")},
		{"run syntax", "POST", "/api/run", "", "{\n  \"budget\": 10,,\n}", 400, field("line", 2.0)},
		{"run type", "POST", "/api/run", "", `{"budget":"ten"}`, 400, field("field", "budget")},
		{"run unknown field", "POST", "/api/run", "", `{"budjet":10}`, 400, field("field", "budjet")},
		{"run unknown nested field", "POST", "/api/run", "", "{\"dataset\":{\"id\":\"taleghani-example\"},\n\"policies\":[{\"id\":\"site-greedy\", \"parms\":{}}]}", 400,
			all(field("field", "policies[0].parms"), errorContains(`unknown field "policies[0].parms"`), field("line", 2.0), field("column", 34.0))},
		{"run not an object", "POST", "/api/run", "", `[1]`, 400, all(errorContains("expected lab.Spec, got a JSON array"), field("line", 1.0))},
		{"run unknown kind field", "POST", "/api/run", "", "{\"kind\":\"schedule\",\n\"schedule\":{\"dayz\":5}}", 400,
			all(field("field", "schedule.dayz"), field("line", 2.0), field("column", 13.0))},
		{"chart nested type", "POST", "/api/chart", "", "{\"chart\":{},\n\"spec\":{\"kind\":\"schedule\",\"schedule\":{\"days\":\"x\"}}}", 400,
			all(field("field", "spec.schedule.days"), field("line", 2.0), field("column", 49.0))},
		{"run two objects", "POST", "/api/run", "", good + good, 400, errorContains("single JSON object")},
		{"run bad dataset", "POST", "/api/run", "", `{"dataset":{"id":"x"},"policies":[{"id":"random"}]}`, 400, field("field", "dataset.id")},
		{"run bad param", "POST", "/api/run", "", `{"dataset":{"id":"taleghani-example"},"policies":[{"id":"site-greedy","params":{"sampleSize":0}}]}`, 400, field("field", "policies[0].params")},
		{"chart nothing", "POST", "/api/chart", "", `{"chart":{}}`, 400, errorContains(`"result"`)},
		{"chart bad metric", "POST", "/api/chart", "", `{"spec":` + good + `,"chart":{"metric":"speed"}}`, 400, field("field", "chart")},
		{"chart bad type", "POST", "/api/chart", "", `{"spec":` + good + `,"chart":{"type":"pie"}}`, 400, errorContains("unknown chart type")},
		{"chart bad spec", "POST", "/api/chart", "", `{"spec":{"dataset":{"id":"x"},"policies":[{"id":"random"}]},"chart":{}}`, 400, field("field", "dataset.id")},
		{"upload bad format", "POST", "/api/datasets", "format=xml", "x", 400, errorContains("unknown format")},
		{"upload bad cycle", "POST", "/api/datasets", "cycle=soon", "x", 400, field("field", "cycle")},
		{"upload bad file", "POST", "/api/datasets", "", "page,time,changed\nhttp://a.example/,2024-01-01,0\nhttp://a.example/,yesterday,1\n", 400, field("line", 3.0)},
		{"upload good", "POST", "/api/datasets", "name=t.csv&cycle=1d", "page,time,changed\nhttp://a.example/,2024-01-01,0\nhttp://a.example/,2024-01-02,1\n", 201, has("summary")},
		{"wrong method", "DELETE", "/api/run", "", "", 405, errorContains("expected POST")},
		{"no route", "GET", "/api/nothing", "", "", 404, errorContains("no such endpoint")},
		{"panic", "POST", "/api/test/panic", "", "", 500, errorContains("internal error: runtime error: index out of range")},
		{"after panic", "GET", "/api/health", "", "", 200, has("ok")},
		{"added route's method", "GET", "/api/test/panic", "", "", 405, errorContains("expected POST")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, m := serve(rt, tt.method, tt.path, tt.query, tt.body)
			if resp.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.Status, tt.status, resp.Body)
			}
			if tt.check != nil {
				if msg := tt.check(m); msg != "" {
					t.Errorf("%s: %s", msg, resp.Body)
				}
			}
		})
	}
}

// panicking is a handler with a bug, an index out of range: a runtime
// panic.
func panicking(req Request) Response {
	return Response{Status: int(req.Body[len(req.Body)])}
}

// TestNoPanicRoute checks that the API serves no route that panics on
// purpose: only tests add one.
func TestNoPanicRoute(t *testing.T) {
	for _, path := range []string{"/api/selftest/panic", "/api/test/panic"} {
		if resp, _ := serve(New(lab.New()), "POST", path, "", ""); resp.Status != 404 {
			t.Errorf("POST %s: %d %s, want 404", path, resp.Status, resp.Body)
		}
	}
}

func has(key string) func(map[string]any) string {
	return func(m map[string]any) string {
		if _, ok := m[key]; !ok {
			return "missing " + key
		}
		return ""
	}
}

func field(key string, want any) func(map[string]any) string {
	return func(m map[string]any) string {
		if m[key] != want {
			return "want " + key + " = " + jsonOf(want)
		}
		return ""
	}
}

// all runs each check, and reports the first that fails.
func all(checks ...func(map[string]any) string) func(map[string]any) string {
	return func(m map[string]any) string {
		for _, c := range checks {
			if msg := c(m); msg != "" {
				return msg
			}
		}
		return ""
	}
}

func errorContains(s string) func(map[string]any) string {
	return func(m map[string]any) string {
		if e, _ := m["error"].(string); !strings.Contains(e, s) {
			return "error lacks " + s
		}
		return ""
	}
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestUploadThenRun checks that an uploaded log is listed and runs.
func TestUploadThenRun(t *testing.T) {
	rt := New(lab.New())
	resp, m := serve(rt, "POST", "/api/datasets", "name=t.csv", "page,site,time,changed\np1,a,2024-01-01,0\np1,a,2024-01-02,1\np2,b,2024-01-01,0\np2,b,2024-01-02,0\n")
	if resp.Status != 201 {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	id := m["dataset"].(map[string]any)["id"].(string)
	_, list := serve(rt, "GET", "/api/datasets", "", "")
	if !strings.Contains(jsonOf(list), id) {
		t.Fatalf("uploaded %s not listed", id)
	}
	resp, m = serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"`+id+`"},"budget":1,"repeats":2,"policies":[{"id":"oracle"}]}`)
	if resp.Status != 200 {
		t.Fatalf("run on upload: %d %s", resp.Status, resp.Body)
	}
	cr := m["policies"].([]any)[0].(map[string]any)["metrics"].(map[string]any)["changeRatio"].(map[string]any)["mean"]
	if cr != 1.0 {
		t.Errorf("oracle on the upload: ChangeRatio %v, want 1", cr)
	}
}

// TestChartFromResult draws a chart from a result, as the site does.
func TestChartFromResult(t *testing.T) {
	rt := New(lab.New())
	resp, _ := serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-jordan"},"repeats":2,"policies":[{"id":"random"},{"id":"oracle"}]}`)
	for _, typ := range []string{"cycles", "bars"} {
		for _, metric := range []string{"changeRatio", "freshness", "age"} {
			body := `{"result":` + string(resp.Body) + `,"chart":{"type":"` + typ + `","metric":"` + metric + `","refs":[{"y":0.5,"label":"<b>half</b>"}]}}`
			c, _ := serve(rt, "POST", "/api/chart", "", body)
			svg := string(c.Body)
			if c.Status != 200 || c.ContentType != "image/svg+xml" || !strings.Contains(svg, `role="img"`) {
				t.Fatalf("%s %s: %d %.300s", typ, metric, c.Status, svg)
			}
			if strings.Contains(svg, "<b>") {
				t.Errorf("%s %s: a label's markup reached the SVG unescaped", typ, metric)
			}
		}
	}
}

// TestResultsByID checks that a run's id (in its body and its response's
// ResultID) draws charts without sending the result back, that a repeated
// spec is answered from the cache with the same body, and that an unknown
// id is a 404 saying what to send instead.
func TestResultsByID(t *testing.T) {
	rt := New(lab.New())
	spec := `{"dataset":{"id":"taleghani-example"},"repeats":5,"policies":[{"id":"site-greedy"},{"id":"oracle"}]}`
	first, m := serve(rt, "POST", "/api/run", "", spec)
	id, _ := m["id"].(string)
	if first.Status != 200 || !strings.HasPrefix(id, "r") {
		t.Fatalf("run: %d, id %q", first.Status, id)
	}
	again, _ := serve(rt, "POST", "/api/run", "", spec)
	if string(again.Body) != string(first.Body) {
		t.Error("the same spec gave a different answer")
	}
	if first.ResultID != id || again.ResultID != id {
		t.Errorf("the responses name results %q and %q, the body %q", first.ResultID, again.ResultID, id)
	}
	c, _ := serve(rt, "POST", "/api/chart", "", `{"id":"`+id+`","chart":{"type":"bars"}}`)
	if c.Status != 200 || c.ContentType != "image/svg+xml" {
		t.Errorf("chart by id: %d %.200s", c.Status, c.Body)
	}
	byResult, _ := serve(rt, "POST", "/api/chart", "", `{"result":`+string(first.Body)+`,"chart":{"type":"bars"}}`)
	if string(byResult.Body) != string(c.Body) {
		t.Error("the chart by id differs from the chart of the same result sent back")
	}
	miss, m := serve(rt, "POST", "/api/chart", "", `{"id":"r0","chart":{}}`)
	if miss.Status != 404 || m["field"] != "id" {
		t.Errorf("unknown id: %d %s", miss.Status, miss.Body)
	}
}
