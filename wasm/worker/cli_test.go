//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crawlLog is a small crawl log: two sites, three pages, four daily
// rounds, a change every other crawl of a.
const crawlLog = `page,site,time,changed
https://a.example/1,a.example,2024-05-01T00:00:00Z,0
https://a.example/2,a.example,2024-05-01T00:00:00Z,0
https://b.example/1,b.example,2024-05-01T00:00:00Z,0
https://a.example/1,a.example,2024-05-02T00:00:00Z,1
https://a.example/2,a.example,2024-05-02T00:00:00Z,0
https://b.example/1,b.example,2024-05-02T00:00:00Z,0
https://a.example/1,a.example,2024-05-03T00:00:00Z,0
https://a.example/2,a.example,2024-05-03T00:00:00Z,1
https://b.example/1,b.example,2024-05-03T00:00:00Z,1
https://a.example/1,a.example,2024-05-04T00:00:00Z,1
https://a.example/2,a.example,2024-05-04T00:00:00Z,0
https://b.example/1,b.example,2024-05-04T00:00:00Z,0
`

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRun runs a spec on a log through the command line: the result on
// stdout as JSON (on the uploaded dataset, whatever the spec names), the
// progress on stderr; and the report in Markdown with the log's SHA-256.
func TestRun(t *testing.T) {
	spec := write(t, "spec.json", `{"dataset":{"id":"ignored"},"budget":1,"repeats":4,"seed":3,"policies":[{"id":"random"},{"id":"round-robin"},{"id":"oracle"}]}`)
	log := write(t, "crawl.csv", crawlLog)
	var out, errs bytes.Buffer
	if code := run([]string{spec, "--log", log, "--cycle", "1d"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var res struct {
		Spec struct {
			Dataset struct{ ID string }
		}
		Policies []struct{ ID string }
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not a result: %v\n%s", err, out.String())
	}
	if !strings.HasPrefix(res.Spec.Dataset.ID, "upload-") || len(res.Policies) != 3 {
		t.Errorf("ran on %q with %d policies", res.Spec.Dataset.ID, len(res.Policies))
	}
	for _, want := range []string{"reading crawl.csv: 100%", "3 pages on 2 sites, 3 cycles", "ran in"} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs.String())
		}
	}

	out.Reset()
	errs.Reset()
	if code := run([]string{spec, "--log", log, "--report", "md"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	md := out.String()
	sum := sha256.Sum256([]byte(crawlLog))
	for _, want := range []string{"# ChangeRatio of 3 policies on crawl.csv", "| Rank | Policy |", "- SHA-256: `" + hex.EncodeToString(sum[:]) + "`", "## Methods", "We compared 3 refresh policies on crawl.csv"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
}

// TestRunFormats runs a spec on logs in other formats: a CDX index,
// gzip-compressed, and a semicolon-separated log whose columns are named
// otherwise, read with --sep and --columns.
func TestRunFormats(t *testing.T) {
	spec := write(t, "spec.json", `{"dataset":{"id":"ignored"},"budget":1,"repeats":2,"policies":[{"id":"random"}]}`)
	cdx, err := os.ReadFile(filepath.Join("..", "..", "datasets", "example-captures.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(cdx)
	w.Close()
	zipped := write(t, "captures.cdx.gz", gz.String())
	semi := write(t, "semi.csv", strings.ReplaceAll(strings.Replace(crawlLog, "page,site,time,changed", "url;host;crawled_at;content_changed", 1), ",", ";"))
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		// 3 pages on 2 sites in 4 daily cycles: core/dataset's
		// TestReadCaptures counts the example by hand.
		{[]string{spec, "--log", zipped, "--format", "cdx"}, "captures.cdx.gz: dataset upload-"},
		{[]string{spec, "--log", zipped, "--format", "cdx"}, "3 pages on 2 sites, 4 cycles"},
		{[]string{spec, "--log", semi, "--sep", ";", "--columns", "site=host,changed=content_changed"}, "3 pages on 2 sites, 3 cycles"},
	} {
		var out, errs bytes.Buffer
		if code := run(tc.args, &out, &errs); code != 0 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("run %q: exit %d, stderr %q; want %q", tc.args, code, errs.String(), tc.want)
		}
	}
	var out, errs bytes.Buffer
	if code := run([]string{spec, "--log", semi}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "the separator looks like ';'") {
		t.Errorf("a semicolon-separated log without --sep: exit %d, stderr %q", code, errs.String())
	}
}

// TestRunErrors: a bad spec or log exits with status 1 and a message that
// says where (line and column); a bad command line with status 2.
func TestRunErrors(t *testing.T) {
	good := write(t, "good.json", `{"dataset":{"id":"alqaaideh-jordan"},"cycles":2,"repeats":2,"policies":[{"id":"random"}]}`)
	badJSON := write(t, "bad.json", "{\n  \"policies\": [\n    {\"id\": \"random\"},,\n  ]\n}\n")
	badParam := write(t, "param.json", `{"dataset":{"id":"alqaaideh-jordan"},"policies":[{"id":"random","params":{"x":1}}]}`)
	badLog := write(t, "bad.csv", "page,time,changed\nhttps://a.example/,2024-05-01,0\nhttps://a.example/,yesterday,1\n")
	log := write(t, "crawl.csv", crawlLog)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{good}, 0, "ran in"},
		{[]string{badJSON}, 1, "bad.json: line 3, column 23: invalid JSON"},
		{[]string{badJSON, "--log", log}, 1, "bad.json: line 3, column 23: invalid JSON"},
		{[]string{badParam}, 1, `policies[0].params: random: unknown parameter "x"`},
		{[]string{good, "--log", badLog}, 1, `bad.csv: line 3, column 2 (time): expected a time`},
		{[]string{good, "--log", log, "--format", "xml"}, 1, `unknown format "xml"`},
		{[]string{good, "--log", filepath.Join(t.TempDir(), "none.csv")}, 1, "no such file"},
		{[]string{good, "--report", "pdf"}, 2, `--report "pdf": expected one of md, latex, csv, json`},
		{[]string{good, "--metric", "downloads"}, 1, "downloads has no better direction"},
		{[]string{good, "--cycle", "1d"}, 2, "give it with --log"},
		{[]string{}, 2, "expected one spec file, got 0"},
		{[]string{good, good}, 2, "expected one spec file, got 2"},
		{[]string{good, "--nonsense"}, 2, "flag provided but not defined"},
	} {
		var out, errs bytes.Buffer
		code := run(tc.args, &out, &errs)
		if code != tc.code || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("run %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs.String(), tc.code, tc.want)
		}
		if code != 0 && out.Len() > 0 {
			t.Errorf("run %q failed but wrote to stdout: %q", tc.args, out.String())
		}
	}
}
