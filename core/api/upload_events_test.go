package api

import (
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// eventsLog is a small change-event log in the Open Terms Archive layout:
// two pages, 12-hour runs, one technical event.
const eventsLog = `ts_unix,ts_utc,service,document_type,event
1704069000,2024-01-01T00:30:00Z,X,Terms,start
1704069000,2024-01-01T00:30:00Z,X,Privacy,start
1704112200,2024-01-01T12:30:00Z,X,Terms,change
1704114000,2024-01-01T13:00:00Z,X,Terms,change
1704155400,2024-01-02T00:30:00Z,X,Privacy,technical
1704198600,2024-01-02T12:30:00Z,X,Privacy,change
`

// uploadCase is an upload and what its answer must be.
type uploadCase struct {
	name, query, body string
	status            int
	check             func(m map[string]any) string // a complaint, or ""; nil: anything
}

// runUploads posts each upload in turn, as a subtest.
func runUploads(t *testing.T, rt *Router, tests []uploadCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, m := serve(rt, "POST", "/api/datasets", tt.query, tt.body)
			if resp.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.Status, tt.status, resp.Body)
			}
			if tt.check != nil {
				if msg := tt.check(m); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

// TestUploadChangeEvents uploads change events with each option and checks
// the summary, the errors and that the dataset runs.
func TestUploadChangeEvents(t *testing.T) {
	rt := New(lab.New())
	tests := []uploadCase{
		{"defaults", "format=change-events&name=e.csv", eventsLog, 201, func(m map[string]any) string {
			s := m["summary"].(map[string]any)
			d := m["dataset"].(map[string]any)
			if m["format"] != "change-events" || s["layout"] != "open-terms-archive" || !strings.HasPrefix(s["readAs"].(string), "read as Open Terms Archive events") ||
				s["changes"] != 2.0 || s["merged"] != 1.0 || s["cycles"] != 2.0 || s["cycleDefault"] != true || s["merge"] != 3600.0 ||
				d["name"] != "e.csv" || d["source"] != "upload" || !strings.HasPrefix(d["id"].(string), "events-") {
				return "answer " + jsonOf(m)
			}
			return ""
		}},
		{"12-hour cycles, no merging, a window", "format=change-events&cycle=12h&merge=0&start=2024-01-01&end=2024-01-03", eventsLog, 201, func(m map[string]any) string {
			s := m["summary"].(map[string]any)
			if s["changes"] != 3.0 || s["merged"] != 0.0 || s["cycles"] != 4.0 || s["merge"] != 0.0 || s["start"] != "2024-01-01T00:00:00Z" {
				return "summary " + jsonOf(s)
			}
			return ""
		}},
		{"merge of a day", "format=change-events&merge=1d", eventsLog, 201, func(m map[string]any) string {
			if s := m["summary"].(map[string]any); s["merge"] != 86400.0 {
				return "summary " + jsonOf(s)
			}
			return ""
		}},
		{"crawl log by default", "", "page,time,changed\nhttp://a.example/,2024-01-01,0\nhttp://a.example/,2024-01-02,1\n", 201, func(m map[string]any) string {
			if m["format"] != "crawl-log" || !strings.HasPrefix(m["dataset"].(map[string]any)["id"].(string), "upload-") {
				return "answer " + jsonOf(m)
			}
			return ""
		}},
		{"bad merge", "format=change-events&merge=soon", eventsLog, 400, field("field", "merge")},
		{"bad start", "format=change-events&start=yesterday", eventsLog, 400, field("field", "start")},
		{"bad end", "format=change-events&end=1960-01-01", eventsLog, 400, field("field", "end")},
		{"bad cycle", "format=change-events&cycle=-1", eventsLog, 400, field("field", "cycle")},
		{"empty window", "format=change-events&start=2024-02-01", eventsLog, 400, errorContains("window")},
		{"bad file", "format=change-events", "page,time,event\nhttp://a.example/,2024-01-01,start\nhttp://a.example/,2024-01-02,\n", 400, func(m map[string]any) string {
			if m["line"] != 3.0 || m["column"] != 3.0 || m["field"] != "event" || !strings.Contains(m["expected"].(string), "an event") {
				return "answer " + jsonOf(m)
			}
			return ""
		}},
		{"a crawl log read as events", "format=change-events", "page,time,changed\nhttp://a.example/,2024-01-01,0\nhttp://a.example/,2024-01-02,1\n", 201, nil},
		{"events read as a crawl log", "format=crawl-log", eventsLog, 400, errorContains("a page column")},
		{"unknown format", "format=events", eventsLog, 400, errorContains(`"change-events"`)},
	}
	runUploads(t, rt, tests)

	resp, m := serve(rt, "POST", "/api/datasets", "format=change-events&cycle=12h", eventsLog)
	if resp.Status != 201 {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	id := m["dataset"].(map[string]any)["id"].(string)
	resp, m = serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"`+id+`"},"budget":2,"repeats":2,"policies":[{"id":"oracle"},{"id":"round-robin"}]}`)
	if resp.Status != 200 {
		t.Fatalf("run on the events: %d %s", resp.Status, resp.Body)
	}
	// The oracle downloads only pages that changed, so each of its
	// downloads finds a change.
	if cr := m["policies"].([]any)[0].(map[string]any)["metrics"].(map[string]any)["changeRatio"].(map[string]any)["mean"]; cr != 1.0 {
		t.Errorf("oracle on the events: ChangeRatio %v, want 1", cr)
	}
}
