package api

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// datasetFile reads a file of the repository's datasets folder.
func datasetFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "datasets", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// gzipped compresses s.
func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil || w.Close() != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestUploadOTAExcerpt uploads the Open Terms Archive excerpt shipped in
// datasets/ as change events. Its counts were computed from the file
// apart from the reader (a short script over its rows): 2,140 events of
// 114 documents of 24 services, 2022-07-11 14:59:24 to 2026-08-22
// 13:12:13 UTC (1,503 daily cycles); 1,801 changes, 114 starts, 224
// technical and 1 other event; of the changes, with every document
// tracked from its start event and changes within an hour of the one
// that began their group merged, 1,773 kept, 28 merged, none outside,
// in 1,527 changed document-days.
func TestUploadOTAExcerpt(t *testing.T) {
	rt := New(lab.New())
	resp, m := serve(rt, "POST", "/api/datasets", "format=change-events&name=ota.csv", datasetFile(t, "ota-pga-excerpt-events.csv"))
	if resp.Status != 201 {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	s := m["summary"].(map[string]any)
	for k, want := range map[string]any{"rows": 2140.0, "pages": 114.0, "sites": 24.0, "changeRows": 1801.0, "starts": 114.0,
		"changes": 1773.0, "merged": 28.0, "outside": 0.0, "changedCycles": 1527.0, "cycles": 1503.0, "layout": "open-terms-archive",
		"start": "2022-07-11T14:59:24Z", "end": "2026-08-22T13:12:13Z"} {
		if s[k] != want {
			t.Errorf("summary %s = %v, want %v", k, s[k], want)
		}
	}
	if d := s["dropped"].(map[string]any); d["technical"] != 224.0 || d["other"] != 1.0 || len(d) != 2 {
		t.Errorf("dropped %v, want technical 224, other 1", d)
	}
}

// TestUploadFormats uploads captures, logs read with a column map or
// another separator, and files that need them.
func TestUploadFormats(t *testing.T) {
	rt := New(lab.New())
	cdx := datasetFile(t, "example-captures.cdx")
	mapped := "url,host,crawled_at,content_changed\nhttps://a.example/,a.example,2024-01-01,0\nhttps://a.example/,a.example,2024-01-02,1\nhttps://a.example/,a.example,2024-01-03,0\n"
	var plainID string
	tests := []uploadCase{
		// The counts of the example files are checked by hand in
		// core/dataset's TestReadCaptures.
		{"cdx", "format=cdx", cdx, 201, func(m map[string]any) string {
			s := m["summary"].(map[string]any)
			plainID = m["dataset"].(map[string]any)["id"].(string)
			if m["format"] != "cdx" || s["format"] != "cdx" || s["rows"] != 13.0 || s["changes"] != 5.0 || s["dropped"].(map[string]any)["robots.txt"] != 1.0 {
				return "answer " + jsonOf(m)
			}
			return ""
		}},
		{"cdx, gzipped", "format=cdx", gzipped(t, cdx), 201, func(m map[string]any) string {
			if id := m["dataset"].(map[string]any)["id"]; id != plainID {
				return "id " + jsonOf(id) + ", the plain file's " + plainID
			}
			return ""
		}},
		{"cdxj", "format=cdxj", datasetFile(t, "example-captures.cdxj"), 201, field("format", "cdxj")},
		{"jsonl, gzipped", "format=jsonl", gzipped(t, datasetFile(t, "example-captures.jsonl")), 201, func(m map[string]any) string {
			if s := m["summary"].(map[string]any); s["changes"] != 5.0 || s["cycles"] != 5.0 {
				return "summary " + jsonOf(s)
			}
			return ""
		}},
		{"columns not named as expected", "", mapped, 400, func(m map[string]any) string {
			p, ok := m["preview"].(map[string]any)
			if !ok || m["line"] != 1.0 || !strings.Contains(m["expected"].(string), "a change column") || len(p["rows"].([]any)) != 3 {
				return "answer " + jsonOf(m)
			}
			return ""
		}},
		{"a column map", "columns=page=url,site=host,time=crawled_at,changed=content_changed", mapped, 201, func(m map[string]any) string {
			if s := m["summary"].(map[string]any); s["changes"] != 1.0 || s["crawls"] != 2.0 {
				return "summary " + jsonOf(s)
			}
			return ""
		}},
		{"a map naming no role of the format", "columns=event=x", mapped, 400, field("field", "columns")},
		{"a map that is not one", "columns=page", mapped, 400, field("field", "columns")},
		{"semicolons", "", strings.ReplaceAll(mapped, ",", ";"), 400, func(m map[string]any) string {
			if m["sep"] != ";" || m["hint"] != "the separator looks like ';'" || m["preview"] != nil {
				return "answer " + jsonOf(m)
			}
			return ""
		}},
		{"semicolons, sep=;", "sep=;&columns=changed=content_changed", strings.ReplaceAll(mapped, ",", ";"), 201, nil},
		{"tabs, sep=tab", "sep=tab&columns=changed=content_changed", strings.ReplaceAll(mapped, ",", "\t"), 201, nil},
		{"a separator of two characters", "sep=;;", mapped, 400, field("field", "sep")},
		{"a separator for CDX", "format=cdx&sep=;", cdx, 400, field("field", "sep")},
		{"CDX read as a crawl log", "", cdx, 400, field("format", "cdx")},
		{"UTF-16", "", "\xff\xfep\x00a\x00g\x00e\x00", 400, field("hint", "the file looks like UTF-16; save it as UTF-8")},
		{"unknown format", "format=warc", cdx, 400, errorContains(`"crawl-log", "change-events", "cdx", "cdxj", "jsonl" or "rates"`)},
	}
	runUploads(t, rt, tests)
}
