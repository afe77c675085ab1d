//go:build !js

// Command beam runs the lab's Apache Beam pipeline (core/pipeline) over
// crawl logs or web archive indexes too large for the browser: each page's
// change rate with its interval, per-site aggregates, a crawl-log sample
// stratified by site and a summary, written where -output says. It runs on
// this machine with the Prism runner (the default) or, with Beam's own
// flags (--runner=dataflow, --runner=flink, ...), on a cluster; see the
// README.
//
//	go run ./wasm/beam -input 'datasets/example-captures.cdx' -format cdx -output out/
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx" // every runner, and the gs:// file system

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/pipeline"
)

func main() {
	var opt pipeline.Options
	inputs := flag.String("input", "", "file patterns, comma-separated (globs such as 'cc-index/cdx-00*.gz'; gs:// on Dataflow)")
	flag.StringVar(&opt.Format, "format", dataset.FormatCrawlLog, "the files' format: crawl-log, cdx, cdxj, jsonl or change-events (a change-event log, Open Terms Archive's layout included)")
	flag.Float64Var(&opt.CycleLength, "cycle", 0, "change-events: the cycle length in seconds (0: one day)")
	flag.Float64Var(&opt.Merge, "merge", 0, "change-events: changes of a page less than this many seconds apart count once (0: one hour; negative: none)")
	sep := flag.String("sep", "", "the CSV separator of a crawl log: one character, or tab")
	columns := flag.String("columns", "", "a column map, as for an upload: page=url,time=crawled_at,...")
	flag.BoolVar(&opt.Prior, "prior", false, "estimate with two pseudo-intervals (Kolobov et al.'s prior) instead of the plain MLE")
	flag.Float64Var(&opt.PriorChanged, "prior-changed", 0, "the changed pseudo-interval, days (0: half a day)")
	flag.Float64Var(&opt.PriorUnchanged, "prior-unchanged", 0, "the unchanged pseudo-interval, days (0: half a day)")
	flag.IntVar(&opt.Sample, "sample", 1000, "pages in the crawl-log sample, stratified by site (0: none)")
	flag.Uint64Var(&opt.Seed, "seed", 1, "the sample's seed")
	flag.StringVar(&opt.Output, "output", "pipeline-out", "the directory the outputs go into (gs://bucket/dir on Dataflow)")
	flag.IntVar(&opt.Examples, "examples", 5, "malformed rows quoted in the summary")
	flag.Parse()
	beam.Init()

	for _, in := range strings.Split(*inputs, ",") {
		if in = strings.TrimSpace(in); in != "" {
			opt.Inputs = append(opt.Inputs, in)
		}
	}
	if len(opt.Inputs) == 0 {
		fail("no -input given")
	}
	switch *sep {
	case "":
	case "tab":
		opt.Sep = '\t'
	default:
		if r := []rune(*sep); len(r) == 1 {
			opt.Sep = r[0]
		} else {
			fail("-sep %q: expected one character, or tab", *sep)
		}
	}
	if *columns != "" {
		m, err := dataset.ParseColumns(*columns)
		if err != nil {
			fail("-columns: %v", err)
		}
		opt.Columns = m
	}
	if !strings.Contains(opt.Output, "://") {
		if err := os.MkdirAll(opt.Output, 0o755); err != nil {
			fail("%v", err)
		}
	}
	runner := *runners.Runner
	if runner == "" {
		runner = "prism"
	}
	counters, err := pipeline.Run(context.Background(), runner, opt)
	if err != nil {
		fail("%v", err)
	}
	fmt.Fprintf(os.Stderr, "counters (%s):\n", pipeline.Namespace)
	for _, n := range pipeline.CounterNames {
		fmt.Fprintf(os.Stderr, "  %-14s %d\n", n, counters[n])
	}
	if b, err := os.ReadFile(pipeline.OutputPath(opt.Output, pipeline.SummaryFile)); err == nil {
		fmt.Fprintf(os.Stderr, "summary (%s):\n%s", pipeline.OutputPath(opt.Output, pipeline.SummaryFile), b)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "beam: "+format+"\n", args...)
	os.Exit(1)
}
