package api

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestRereadIsAnotherDataset reads one change-event log twice with other
// cycle lengths: each reading is a dataset of its own, and a run on each
// gives its own cycles, never the other's remembered result.
func TestRereadIsAnotherDataset(t *testing.T) {
	rt := New(lab.New())
	upload := func(cycle string) string {
		t.Helper()
		r := rt.Serve(Request{Method: "POST", Path: "/api/datasets", Query: url.Values{"format": {"change-events"}, "cycle": {cycle}}, Body: []byte(eventsLog)})
		if r.Status != 201 {
			t.Fatalf("cycle %s: %d %s", cycle, r.Status, r.Body)
		}
		var m struct{ Dataset struct{ ID string } }
		json.Unmarshal(r.Body, &m)
		return m.Dataset.ID
	}
	cycles := func(id string) int {
		t.Helper()
		r := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(fmt.Sprintf(`{"dataset":{"id":%q},"repeats":2,"policies":[{"id":"random"}]}`, id))})
		if r.Status != 200 {
			t.Fatalf("run on %s: %d %s", id, r.Status, r.Body)
		}
		var res lab.Result
		json.Unmarshal(r.Body, &res)
		return res.Spec.Cycles
	}
	halfDay := upload("12h")
	if got := cycles(halfDay); got != 3 {
		t.Errorf("12-hour reading: %d cycles, want 3", got)
	}
	day := upload("1d")
	if day == halfDay {
		t.Fatalf("both readings are %q: want two datasets", day)
	}
	if got := cycles(day); got != 2 {
		t.Errorf("1-day reading: %d cycles, want 2 (not the 12-hour reading's remembered 3)", got)
	}
	if got := cycles(halfDay); got != 3 {
		t.Errorf("12-hour reading again: %d cycles, want 3", got)
	}
	if again := upload("1d"); again != day {
		t.Errorf("the same reading twice: %q then %q, want one id", day, again)
	}
}

// TestNoResultOutlivesItsData runs a spec on an upload, evicts the upload
// with newer ones, and runs the spec again: the router must not answer
// from what it remembers of a dataset the lab no longer has.
func TestNoResultOutlivesItsData(t *testing.T) {
	rt := New(lab.New())
	read := func(log string) string {
		t.Helper()
		r := rt.Serve(Request{Method: "POST", Path: "/api/datasets", Query: url.Values{"format": {"change-events"}}, Body: []byte(log)})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		var m struct{ Dataset struct{ ID string } }
		json.Unmarshal(r.Body, &m)
		return m.Dataset.ID
	}
	id := read(eventsLog)
	spec := []byte(fmt.Sprintf(`{"dataset":{"id":%q},"repeats":2,"policies":[{"id":"random"}]}`, id))
	run := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: spec})
	if run.Status != 200 {
		t.Fatalf("%d %s", run.Status, run.Body)
	}
	for i := range lab.MaxUploads {
		read(eventsLog + strings.Repeat("\n", i+1)) // other bytes: other datasets
	}
	if again := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: spec}); again.Status != 400 || !strings.Contains(string(again.Body), "unknown dataset") {
		t.Errorf("a run on the evicted upload answered %d %s, want 400 unknown dataset", again.Status, again.Body)
	}
	chart := rt.Serve(Request{Method: "POST", Path: "/api/chart", Body: []byte(fmt.Sprintf(`{"id":%q,"chart":{"type":"bars"}}`, run.ResultID))})
	if chart.Status != 404 {
		t.Errorf("a chart of the evicted upload's result answered %d, want 404", chart.Status)
	}
}

// TestRunBrief checks ?brief=1: the same result without the series per
// cycle, under the same id, from which a cycles chart still draws.
func TestRunBrief(t *testing.T) {
	rt := New(lab.New())
	spec := []byte(`{"dataset":{"id":"alqaaideh-jordan"},"repeats":3,"seed":4,"policies":[{"id":"random"},{"id":"site-greedy"}]}`)
	full := rt.Serve(Request{Method: "POST", Path: "/api/run", Body: spec})
	brief := rt.Serve(Request{Method: "POST", Path: "/api/run", Query: url.Values{"brief": {"1"}}, Body: spec})
	if full.Status != 200 || brief.Status != 200 || brief.ResultID != full.ResultID {
		t.Fatalf("full %d, brief %d, ids %q %q", full.Status, brief.Status, full.ResultID, brief.ResultID)
	}
	var f, b lab.Result
	json.Unmarshal(full.Body, &f)
	json.Unmarshal(brief.Body, &b)
	for i := range f.Policies {
		if len(f.Policies[i].Series) == 0 || b.Policies[i].Series != nil {
			t.Errorf("%s: %d series in full, %d in brief; want some, then none", f.Policies[i].ID, len(f.Policies[i].Series), len(b.Policies[i].Series))
		}
		fm, _ := json.Marshal(f.Policies[i].Metrics)
		bm, _ := json.Marshal(b.Policies[i].Metrics)
		if string(fm) != string(bm) {
			t.Errorf("%s: brief metrics differ from the full result's", f.Policies[i].ID)
		}
	}
	chart := rt.Serve(Request{Method: "POST", Path: "/api/chart", Body: []byte(fmt.Sprintf(`{"id":%q,"chart":{"type":"cycles"}}`, brief.ResultID))})
	if chart.Status != 200 {
		t.Errorf("a cycles chart by the brief answer's id: %d %s", chart.Status, chart.Body)
	}
}
