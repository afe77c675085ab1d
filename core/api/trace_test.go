package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestTraceRoute checks POST /api/trace: a trace whose cycles have the
// per-cycle numbers of POST /api/run with one repeat, its bitsets in
// base64 over the pages shown, and 400s that name the field at fault.
func TestTraceRoute(t *testing.T) {
	rt := New(lab.New())
	spec := `{"dataset":{"id":"alqaaideh-jordan"},"repeats":1,"seed":5,"policies":[{"id":"random"},{"id":"site-greedy","label":"greedy"}]}`
	resp, _ := serve(rt, "POST", "/api/trace", "", `{"spec":`+spec+`,"policy":"greedy","repeat":0,"maxPages":2000}`)
	if resp.Status != 200 {
		t.Fatalf("status %d: %s", resp.Status, resp.Body)
	}
	var tr struct {
		Policy, ID, GroupBy string
		Pages               []int32
		Groups              []struct{ Name string }
		Cycles              []struct {
			Sampled     string
			Downloaded  string
			ChangeRatio *float64
			Freshness   float64
			Totals      struct{ Downloads, Samples int }
		}
	}
	if err := json.Unmarshal(resp.Body, &tr); err != nil {
		t.Fatal(err)
	}
	run, _ := serve(rt, "POST", "/api/run", "", spec)
	var res lab.Result
	if err := json.Unmarshal(run.Body, &res); err != nil {
		t.Fatal(err)
	}
	cr, fr := res.Policies[1].Series[lab.MetricChangeRatio], res.Policies[1].Series[lab.MetricFreshness]
	if tr.Policy != "greedy" || tr.ID != "site-greedy" || tr.GroupBy != "site" || len(tr.Pages) != 1140 || len(tr.Groups) != 9 || len(tr.Cycles) != len(cr) {
		t.Fatalf("trace of %s (%s) by %s: %d pages, %d groups, %d cycles", tr.Policy, tr.ID, tr.GroupBy, len(tr.Pages), len(tr.Groups), len(tr.Cycles))
	}
	for c, cy := range tr.Cycles {
		if cy.ChangeRatio == nil || *cy.ChangeRatio != cr[c].Mean || cy.Freshness != fr[c].Mean {
			t.Errorf("cycle %d: ChangeRatio %v freshness %v, the run's %v %v", c, cy.ChangeRatio, cy.Freshness, cr[c].Mean, fr[c].Mean)
		}
		s, err1 := base64.StdEncoding.DecodeString(cy.Sampled)
		d, err2 := base64.StdEncoding.DecodeString(cy.Downloaded)
		if err1 != nil || err2 != nil || len(s) != (1140+7)/8 || len(d) != len(s) {
			t.Fatalf("cycle %d: bitsets %q, %q: %v %v", c, cy.Sampled, cy.Downloaded, err1, err2)
		}
		if n := ones(s) + ones(d); n != cy.Totals.Downloads || ones(s) != cy.Totals.Samples || cy.Totals.Samples == 0 {
			t.Errorf("cycle %d: %d sampled and %d downloaded pages; totals %+v", c, ones(s), ones(d), cy.Totals)
		}
	}

	bad := []struct {
		name, body string
		status     int
		check      func(map[string]any) string
	}{
		{"unknown policy", `{"spec":` + spec + `,"policy":"site-greedy"}`, 400, all(field("field", "policy"), errorContains("greedy"))},
		{"repeat", `{"spec":` + spec + `,"policy":"random","repeat":1}`, 400, field("field", "repeat")},
		{"too many pages", `{"spec":` + spec + `,"policy":"random","maxPages":100000}`, 400, all(field("field", "maxPages"), errorContains("between 1 and 5000"))},
		{"bad spec", `{"spec":{"dataset":{"id":"x"},"policies":[{"id":"random"}]},"policy":"random"}`, 400, field("field", "dataset.id")},
		{"unknown field", `{"spec":` + spec + `,"policy":"random","pages":10}`, 400, field("field", "pages")},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			resp, m := serve(rt, "POST", "/api/trace", "", tt.body)
			if resp.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.Status, tt.status, resp.Body)
			}
			if msg := tt.check(m); msg != "" {
				t.Errorf("%s: %s", msg, resp.Body)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if resp := rt.Serve(Request{Method: "POST", Path: "/api/trace", Body: []byte(`{"spec":` + spec + `,"policy":"random"}`), Context: ctx}); resp.Status != 503 {
		t.Errorf("a trace whose request was cancelled: status %d, want 503: %.200s", resp.Status, resp.Body)
	}
	if resp, _ := serve(rt, "GET", "/api/trace", "", ""); resp.Status != 405 {
		t.Errorf("GET /api/trace: status %d, want 405", resp.Status)
	}
}

// ones counts the set bits of b.
func ones(b []byte) int {
	n := 0
	for _, x := range b {
		for ; x != 0; x &= x - 1 {
			n++
		}
	}
	return n
}
