//go:build !js

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/report"
	"github.com/refreshlab/refreshlab/core/version"
)

const usage = `Refresh Lab %s

Usage:
  refresh-lab [serve]
      Serve the lab on http://localhost:$PORT (default 9900), the site from
      $SITE_DIR (default site/dist) beside the API.
  refresh-lab run SPEC.json [--log FILE [--format F] [--columns MAP] [--sep C]
                  [--cycle D] [--merge D] [--name N]] [--report md|latex|csv|json]
                  [--metric ID]
      Run an experiment spec and print its result as JSON on standard output,
      or its report with --report; progress and errors go to standard error.
      With --log, FILE is read first (as the upload page reads it, through
      POST /api/datasets; gzip-compressed or not) and the spec runs on it,
      whatever dataset it names.

Flags of run:
`

// main runs the command line: serve (the default) or run.
func main() {
	args := os.Args[1:]
	if len(args) == 0 || args[0] == "serve" {
		serve()
		return
	}
	switch args[0] {
	case "run":
		os.Exit(run(args[1:], os.Stdout, os.Stderr))
	case "version", "--version", "-version":
		fmt.Println(version.String())
	case "help", "-h", "--help", "-help":
		fmt.Fprintf(os.Stdout, usage, version.String())
		fs, _ := runFlags(os.Stdout)
		fs.PrintDefaults()
	default:
		fmt.Fprintf(os.Stderr, "refresh-lab: unknown command %q (expected serve, run or help)\n", args[0])
		os.Exit(2)
	}
}

// runOptions are the flags of refresh-lab run.
type runOptions struct {
	log, format, columns, sep, cycle, merge, name string
	report, metric                                string
}

func runFlags(stderr io.Writer) (*flag.FlagSet, *runOptions) {
	o := &runOptions{}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.log, "log", "", "a log `FILE` to run the spec on")
	fs.StringVar(&o.format, "format", "", "the log's format: crawl-log (the default), change-events, cdx, cdxj, jsonl, or rates (the Beam pipeline's rates.csv, for a schedule spec)")
	fs.StringVar(&o.columns, "columns", "", "which of the log's columns hold what (`MAP` such as page=url,time=crawled_at, as POST /api/datasets takes it)")
	fs.StringVar(&o.sep, "sep", "", "a CSV log's separator: one character such as ';', or tab (default ',')")
	fs.StringVar(&o.cycle, "cycle", "", "the cycle length: seconds, or a duration such as 12h or 1d (default: inferred, or 1d for change events)")
	fs.StringVar(&o.merge, "merge", "", "change events: merge a page's changes closer than this (default 1h; 0 for none)")
	fs.StringVar(&o.name, "name", "", "the dataset's name (default: the file's name)")
	fs.StringVar(&o.report, "report", "", "print the report instead of the result: md, latex, csv or json")
	fs.StringVar(&o.metric, "metric", "", "the metric the report ranks by (default: the kind's headline)")
	return fs, o
}

// run is refresh-lab run: it reads the spec (and the log), runs it through
// the API router in this process, as the page and the server do, and
// writes the result or its report to stdout. It returns the exit status:
// 0, 1 for a spec, log or run that failed, 2 for a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	fs, o := runFlags(stderr)
	// Flags may come after the spec's file name, as the usage shows.
	var files []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "refresh-lab run: expected one spec file, got %d (refresh-lab help shows the usage)\n", len(files))
		return 2
	}
	if o.report != "" && !slices.Contains(report.Formats, o.report) {
		fmt.Fprintf(stderr, "refresh-lab run: --report %q: expected one of %s\n", o.report, strings.Join(report.Formats, ", "))
		return 2
	}
	if o.log == "" && (o.format != "" || o.columns != "" || o.sep != "" || o.cycle != "" || o.merge != "" || o.name != "") {
		fmt.Fprintln(stderr, "refresh-lab run: --format, --columns, --sep, --cycle, --merge and --name describe a log: give it with --log")
		return 2
	}
	specFile := files[0]
	body, err := os.ReadFile(specFile)
	if err != nil {
		fmt.Fprintf(stderr, "refresh-lab: %v\n", err)
		return 1
	}
	rt := api.New(lab.New())
	var log *report.Log
	if o.log != "" {
		var id string
		if id, log, err = upload(rt, o, stderr); err != nil {
			fmt.Fprintf(stderr, "refresh-lab: %s: %v\n", o.log, err)
			return 1
		}
		// The spec runs on the log: read it as the API reads a spec, then
		// name the uploaded dataset in it.
		var spec lab.Spec
		if resp, ok := api.Decode(body, &spec); !ok {
			fmt.Fprintf(stderr, "refresh-lab: %s: %v\n", specFile, apiError(resp))
			return 1
		}
		spec.Dataset.ID = id
		body, _ = json.Marshal(spec)
	}
	fmt.Fprintf(stderr, "refresh-lab: running %s…\n", specFile)
	t0 := time.Now()
	res := rt.Serve(api.Request{Method: "POST", Path: "/api/run", Body: body})
	if res.Status != 200 {
		fmt.Fprintf(stderr, "refresh-lab: %s: %v\n", specFile, apiError(res))
		return 1
	}
	var about struct{ Work string }
	json.Unmarshal(res.Body, &about)
	fmt.Fprintf(stderr, "refresh-lab: %s: ran in %v\n", about.Work, time.Since(t0).Round(time.Millisecond))
	out := res.Body
	if o.report != "" || o.metric != "" {
		rr, _ := json.Marshal(api.ReportRequest{ID: res.ResultID, Metric: o.metric, Log: log, Format: cmpOr(o.report, report.FormatJSON)})
		rep := rt.Serve(api.Request{Method: "POST", Path: "/api/report", Body: rr})
		if rep.Status != 200 {
			fmt.Fprintf(stderr, "refresh-lab: report: %v\n", apiError(rep))
			return 1
		}
		out = rep.Body
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "refresh-lab: %v\n", err)
		return 1
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		fmt.Fprintln(stdout)
	}
	return 0
}

// upload reads the log through POST /api/datasets, telling stderr how far
// it has read, and returns the dataset's id and what a report says of the
// log: its name, SHA-256 and summary.
func upload(rt *api.Router, o *runOptions, stderr io.Writer) (string, *report.Log, error) {
	data, err := os.ReadFile(o.log)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(data)
	name := cmpOr(o.name, filepath.Base(o.log))
	q := url.Values{"name": {name}}
	for k, v := range map[string]string{"format": o.format, "columns": o.columns, "sep": o.sep, "cycle": o.cycle, "merge": o.merge} {
		if v != "" {
			q.Set(k, v)
		}
	}
	p := progress{w: stderr, what: "reading " + filepath.Base(o.log), total: int64(len(data))}
	resp := rt.Serve(api.Request{Method: "POST", Path: "/api/datasets", Query: q, Body: data, Progress: p.report})
	p.done()
	if resp.Status != 201 {
		return "", nil, apiError(resp)
	}
	var up struct {
		Dataset struct {
			ID     string
			Pages  int
			Sites  int
			Cycles int
		}
		Summary json.RawMessage
	}
	if err := json.Unmarshal(resp.Body, &up); err != nil {
		return "", nil, err
	}
	fmt.Fprintf(stderr, "refresh-lab: %s: dataset %s, %d pages on %d sites, %d cycles\n", filepath.Base(o.log), up.Dataset.ID, up.Dataset.Pages, up.Dataset.Sites, up.Dataset.Cycles)
	return up.Dataset.ID, &report.Log{Name: name, SHA256: hex.EncodeToString(sum[:]), Summary: up.Summary}, nil
}

// progress reports how much of a file has been read: on a terminal one
// line rewritten in place, elsewhere (a notebook, a log file) a line at
// every tenth.
type progress struct {
	w     io.Writer
	what  string
	total int64
	shown int64 // the last tenth (or, on a terminal, percent) shown
	tty   bool
	init  bool
}

func (p *progress) report(read int64) {
	if !p.init {
		p.init = true
		if f, ok := p.w.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				p.tty = true
			}
		}
	}
	if p.total <= 0 {
		return
	}
	pct := 100 * read / p.total
	switch {
	case p.tty && pct != p.shown:
		fmt.Fprintf(p.w, "\rrefresh-lab: %s: %d%%", p.what, pct)
		p.shown = pct
	case !p.tty && pct/10 > p.shown/10:
		fmt.Fprintf(p.w, "refresh-lab: %s: %d%%\n", p.what, pct/10*10)
		p.shown = pct
	}
}

func (p *progress) done() {
	if p.tty && p.init {
		fmt.Fprintln(p.w)
	}
}

// apiError turns an API error response into an error that says where:
// the line and column of a file, or the field of a spec.
func apiError(resp api.Response) error {
	var e struct {
		Error  string `json:"error"`
		Field  string `json:"field"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	if json.Unmarshal(resp.Body, &e) != nil || e.Error == "" {
		return fmt.Errorf("HTTP %d: %s", resp.Status, bytes.TrimSpace(resp.Body))
	}
	msg := e.Error
	if e.Line > 0 && !strings.Contains(msg, fmt.Sprintf("line %d", e.Line)) {
		where := fmt.Sprintf("line %d", e.Line)
		if e.Column > 0 {
			where += fmt.Sprintf(", column %d", e.Column)
		}
		msg = where + ": " + msg
	}
	if e.Field != "" && !strings.Contains(msg, e.Field) {
		msg += " (in " + e.Field + ")"
	}
	return errors.New(msg)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
