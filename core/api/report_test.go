package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/report"
)

// TestReport asks POST /api/report for a recent result's report in every
// format, by id and with the result itself, and checks the content types,
// that each format carries the log's SHA-256, and that the JSON ranks the
// policies; then its errors, each naming the field at fault.
func TestReport(t *testing.T) {
	rt := New(lab.New())
	run, _ := serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-jordan"},"cycles":3,"repeats":4,"seed":2,"policies":[{"id":"random"},{"id":"site-greedy"},{"id":"oracle"}]}`)
	if run.Status != 200 {
		t.Fatalf("run: %d %s", run.Status, run.Body)
	}
	sha := strings.Repeat("0f", 32)
	log := `"log":{"name":"crawl.csv","sha256":"` + sha + `","summary":{"rows":42}}`
	for format, ct := range map[string]string{"md": "text/markdown", "latex": "application/x-latex", "csv": "text/csv", "json": "application/json", "": "application/json"} {
		for _, by := range []string{`"id":"` + run.ResultID + `"`, `"result":` + string(run.Body)} {
			resp, _ := serve(rt, "POST", "/api/report", "", `{`+by+`,`+log+`,"format":"`+format+`","date":"2026-01-02"}`)
			if resp.Status != 200 || !strings.HasPrefix(resp.ContentType, ct) {
				t.Fatalf("format %q: %d %s %.300s", format, resp.Status, resp.ContentType, resp.Body)
			}
			if !strings.Contains(string(resp.Body), sha) || !strings.Contains(string(resp.Body), "2026-01-02") {
				t.Errorf("format %q: no SHA-256 or date in %.500s", format, resp.Body)
			}
		}
	}
	resp, _ := serve(rt, "POST", "/api/report", "", `{"id":"`+run.ResultID+`"}`)
	var r report.Report
	if err := json.Unmarshal(resp.Body, &r); err != nil {
		t.Fatal(err)
	}
	if r.Metric.ID != lab.MetricChangeRatio || len(r.Rows) != 3 || r.Rows[0].Key != "oracle" || r.Reference != "site-greedy" || r.Version == "" {
		t.Errorf("report: metric %s, rows %+v, reference %s, version %q", r.Metric.ID, r.Rows, r.Reference, r.Version)
	}

	for _, tc := range []struct{ body, field string }{
		{`{"id":"` + run.ResultID + `","format":"pdf"}`, "format"},
		{`{"id":"` + run.ResultID + `","metric":"downloads"}`, "metric"},
		{`{"id":"` + run.ResultID + `","reference":"nobody"}`, "reference"},
		{`{"id":"` + run.ResultID + `","date":"yesterday"}`, "date"},
		{`{"id":"` + run.ResultID + `","log":{"sha256":"xyz"}}`, "log.sha256"},
		{`{"id":"r0"}`, "id"},
		{`{"id":"` + run.ResultID + `","metrik":"age"}`, "metrik"},
	} {
		resp, m := serve(rt, "POST", "/api/report", "", tc.body)
		if resp.Status/100 != 4 || m["field"] != tc.field || m["error"] == "" {
			t.Errorf("%s: %d %s, want a 4xx naming %s", tc.body, resp.Status, resp.Body, tc.field)
		}
	}
}

// TestForestChart draws the forest plot through POST /api/chart, as SVG
// and as a table, ranked by a metric named or by the kind's headline, and
// for the estimate kind too.
func TestForestChart(t *testing.T) {
	rt := New(lab.New())
	run, _ := serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-jordan"},"cycles":3,"repeats":4,"policies":[{"id":"random"},{"id":"site-greedy"},{"id":"oracle"}]}`)
	c, _ := serve(rt, "POST", "/api/chart", "", `{"id":"`+run.ResultID+`","chart":{"type":"forest","width":400}}`)
	svg := string(c.Body)
	if c.Status != 200 || c.ContentType != "image/svg+xml" || !strings.Contains(svg, `viewBox="0 0 400 `) {
		t.Fatalf("forest: %d %.300s", c.Status, svg)
	}
	for _, want := range []string{"Forest plot with 3 rows", "ChangeRatio by policy, ranked", "Dashed line: Site sampling, greedy, the reference"} {
		if !strings.Contains(svg, want) {
			t.Errorf("forest: no %q in its SVG", want)
		}
	}
	tb, m := serve(rt, "POST", "/api/chart", "", `{"id":"`+run.ResultID+`","chart":{"type":"forest","metric":"age","format":"table"}}`)
	rows, _ := m["rows"].([]any)
	if tb.Status != 200 || len(rows) != 3 || fmt.Sprint(rows[0].([]any)[0]) != "Oracle (perfect foresight)" {
		t.Errorf("forest table by age: %d %s", tb.Status, tb.Body)
	}
	est := `{"kind":"estimate","dataset":{"id":"grimes-ford"},"repeats":3,"estimate":{"pages":200,"epochs":4},"policies":[{"id":"naive"},{"id":"mle"}]}`
	c, _ = serve(rt, "POST", "/api/chart", "", `{"spec":`+est+`,"chart":{"type":"forest"}}`)
	if c.Status != 200 || !strings.Contains(string(c.Body), "MAD by policy") {
		t.Errorf("forest of estimators: %d %.300s", c.Status, c.Body)
	}
	c, m = serve(rt, "POST", "/api/chart", "", `{"id":"`+run.ResultID+`","chart":{"type":"forest","metric":"mad"}}`)
	if c.Status != 400 || m["field"] != "chart" {
		t.Errorf("forest by a metric the kind lacks: %d %s", c.Status, c.Body)
	}
}

// TestHealthVersion: GET /api/health says the lab's version, "unknown"
// at worst, beside the API's.
func TestHealthVersion(t *testing.T) {
	_, m := serve(New(lab.New()), "GET", "/api/health", "", "")
	if v, _ := m["labVersion"].(string); v == "" || m["version"] != Version {
		t.Errorf("health: %v", m)
	}
}
