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
