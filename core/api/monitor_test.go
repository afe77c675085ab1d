package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestMonitorThroughAPI runs the monitor kind's first request: each
// policy answers its rir as a mean with a 95% interval, CAM above weighted
// proportional above weighted uniform; the forest chart draws the result.
func TestMonitorThroughAPI(t *testing.T) {
	rt := New(lab.New())
	resp, m := serve(rt, "POST", "/api/run", "", `{"kind":"monitor","dataset":{"id":"pandey-cam"},"budget":5000,"repeats":20,"seed":1,`+
		`"policies":[{"id":"cam"},{"id":"weighted-proportional"},{"id":"weighted-uniform"}]}`)
	if resp.Status != 200 {
		t.Fatalf("run: %d %s", resp.Status, resp.Body)
	}
	pols := m["policies"].([]any)
	var ids []string
	prevLo := 2.0
	for _, p := range pols {
		p := p.(map[string]any)
		ids = append(ids, p["id"].(string))
		rir, ok := p["metrics"].(map[string]any)["rir"].(map[string]any)
		if !ok {
			t.Fatalf("%s: no rir in %s", p["id"], jsonOf(p["metrics"]))
		}
		mean, lo, hi := rir["mean"].(float64), rir["lo"].(float64), rir["hi"].(float64)
		if !(lo <= mean && mean <= hi && hi < prevLo) {
			t.Errorf("%s: rir %v [%v, %v] not below the previous policy's interval (from %v)", p["id"], mean, lo, hi, prevLo)
		}
		prevLo = lo
	}
	if !slices.Equal(ids, []string{"cam", "weighted-proportional", "weighted-uniform"}) {
		t.Errorf("policies %v", ids)
	}
	c, _ := serve(rt, "POST", "/api/chart", "", `{"id":"`+resp.ResultID+`","chart":{"type":"forest"}}`)
	if c.Status != 200 || !strings.Contains(string(c.Body), "RIR") {
		t.Errorf("forest chart: %d %.300s", c.Status, c.Body)
	}
}

// TestMonitorCatalogThroughAPI checks that GET /api/policies lists the
// monitor kind, its policies and metrics and a chart for it, and GET
// /api/datasets the pandey-cam dataset.
func TestMonitorCatalogThroughAPI(t *testing.T) {
	rt := New(lab.New())
	_, m := serve(rt, "GET", "/api/policies", "", "")
	if !slices.Contains(m["kinds"].([]any), any("monitor")) {
		t.Errorf("kinds %v", m["kinds"])
	}
	var pols []string
	for _, p := range m["policies"].([]any) {
		if p := p.(map[string]any); p["kind"] == "monitor" {
			pols = append(pols, p["id"].(string))
		}
	}
	if !slices.Equal(pols, []string{"cam", "weighted-proportional", "weighted-uniform", "proportional", "uniform"}) {
		t.Errorf("monitor policies %v", pols)
	}
	metrics := map[string]bool{}
	for _, x := range m["metrics"].([]any) {
		if x := x.(map[string]any); slices.Contains(x["kinds"].([]any), any("monitor")) {
			metrics[x["id"].(string)] = true
		}
	}
	for _, id := range []string{"rir", "realisedRir", "monitoringChangeRatio", "lostInAllocation", "lostInScheduling"} {
		if !metrics[id] {
			t.Errorf("no monitor metric %s in %v", id, metrics)
		}
	}
	charts := 0
	for _, x := range m["charts"].([]any) {
		if slices.Contains(x.(map[string]any)["kinds"].([]any), any("monitor")) {
			charts++
		}
	}
	if charts == 0 {
		t.Error("no chart type draws the monitor kind")
	}
	_, ds := serve(rt, "GET", "/api/datasets", "", "")
	if !strings.Contains(jsonOf(ds), `"id":"pandey-cam"`) {
		t.Error("pandey-cam is not listed")
	}
}

// TestMonitorUploadedLog uploads a change-event log of two pages over
// twelve days, one changing every day at 09:30 and the other at 15:30, and
// monitors it in daily epochs of hourly slots after a tracking phase of
// four days: CAM returns every change of the eight monitored days at its
// own instant, and the expected RIR, which needs the true update
// probabilities, is absent.
func TestMonitorUploadedLog(t *testing.T) {
	rt := New(lab.New())
	var b strings.Builder
	b.WriteString("ts_unix,ts_utc,service,document_type,event\n")
	const start = 1704067200 // 2024-01-01T00:00:00Z
	fmt.Fprintf(&b, "%d,x,X,Terms,start\n%d,x,X,Privacy,start\n", start, start)
	for d := range 12 {
		fmt.Fprintf(&b, "%d,x,X,Terms,change\n%d,x,X,Privacy,change\n", start+d*86400+9*3600+1800, start+d*86400+15*3600+1800)
	}
	fmt.Fprintf(&b, "%d,x,X,Terms,technical\n", start+12*86400)
	resp, m := serve(rt, "POST", "/api/datasets", "format=change-events&cycle=1h&merge=0&name=two.csv", b.String())
	if resp.Status != 201 {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	id := m["dataset"].(map[string]any)["id"].(string)
	resp, m = serve(rt, "POST", "/api/run", "", `{"kind":"monitor","dataset":{"id":"`+id+`"},"budget":2,"repeats":3,"seed":1,`+
		`"policies":[{"id":"cam"}],"monitor":{"tracking":4}}`)
	if resp.Status != 200 {
		t.Fatalf("run: %d %s", resp.Status, resp.Body)
	}
	if ms := m["spec"].(map[string]any)["monitor"].(map[string]any); ms["epochs"] != 8.0 || ms["tracking"] != 4.0 {
		t.Errorf("resolved %v", jsonOf(ms))
	}
	metrics := m["policies"].([]any)[0].(map[string]any)["metrics"].(map[string]any)
	if _, ok := metrics["rir"]; ok {
		t.Error("an expected RIR on a log")
	}
	for _, id := range []string{"realisedRir", "hitRir"} {
		if got := metrics[id].(map[string]any)["mean"]; got != 1.0 {
			t.Errorf("%s %v, want 1", id, got)
		}
	}
}

// TestMonitorWorkLimit checks that a monitor run beyond the work limit is
// refused before it runs, naming the repeats.
func TestMonitorWorkLimit(t *testing.T) {
	rt := New(lab.New())
	resp, m := serve(rt, "POST", "/api/run", "", `{"kind":"monitor","dataset":{"id":"pandey-cam"},"repeats":5000,"policies":[{"id":"cam"}]}`)
	if resp.Status != 400 || m["field"] != "repeats" || !strings.Contains(m["error"].(string), "too much work") {
		t.Errorf("%d %s", resp.Status, resp.Body)
	}
}
