//go:build !js

package pipeline

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
)

// Options configure the pipeline.
type Options struct {
	// Inputs are file patterns (globs such as cdx-000*.gz) on any file
	// system Beam knows (local paths; gs:// on Dataflow). Files are read
	// in parallel, each whole; gzip is recognised by its first bytes.
	Inputs []string
	// Format is the files' format: dataset.FormatCrawlLog (the default),
	// FormatCDX, FormatCDXJ or FormatJSONL (Common Crawl's index).
	Format string
	// Sep and Columns are the CSV separator and column map, as for an
	// upload (dataset.Layout).
	Sep     rune
	Columns map[string]string
	// Prior, when true, estimates each rate with two pseudo-intervals of
	// PriorChanged and PriorUnchanged days (estimate.PseudoMLE; 0 means
	// estimate.DefaultPseudo) instead of the plain MLE.
	Prior                        bool
	PriorChanged, PriorUnchanged float64
	// Sample is the number of pages in the crawl-log sample, shared among
	// sites in proportion to their pages (Allocate); 0 writes no sample.
	Sample int
	Seed   uint64
	// Output is the directory the outputs are written into: rates.csv,
	// sites.csv, sample.csv and summary.json.
	Output string
	// Examples is how many malformed rows the summary quotes (default 5).
	Examples int
	// Batched is the most captures a worker holds while it gathers a
	// file's captures by page (Batch), encoded, a few bytes each; 0 means
	// DefaultBatched. It hands them on sooner when it holds MaxBatchPages
	// pages.
	Batched int
}

// Output files, in Options.Output.
const (
	RatesFile   = "rates.csv"
	SitesFile   = "sites.csv"
	SampleFile  = "sample.csv"
	SummaryFile = "summary.json"
)

// Counter names, in the namespace Namespace: the Beam metrics a run
// reports.
const (
	Namespace       = "refreshlab"
	CounterFiles    = "files"
	CounterFailed   = "files-failed"
	CounterCaptures = "captures"
	CounterDropped  = "dropped"
	CounterBad      = "malformed"
	CounterURLs     = "urls"
	CounterChanges  = "changes"
)

// CounterNames lists the counters in the order a run reports them.
var CounterNames = []string{CounterFiles, CounterFailed, CounterCaptures, CounterDropped, CounterBad, CounterURLs, CounterChanges}

// BadRow is a malformed row: its file, line, column and error.
type BadRow struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
	Error  string `json:"error"`
}

// FileScan is what reading one file gave.
type FileScan struct {
	File      string         `json:"file"`
	Captures  int            `json:"captures"`
	Dropped   map[string]int `json:"dropped,omitempty"`
	Malformed int            `json:"malformed"`
	Error     string         `json:"error,omitempty"` // a fault of the file as a whole: nothing after it was read
}

// Summary is summary.json: what the run read and the distribution of the
// estimated rates, for the researcher (and the upload page) to see.
type Summary struct {
	Inputs    []string       `json:"inputs"`
	Format    string         `json:"format"`
	Estimator string         `json:"estimator"`
	Files     []FileScan     `json:"files"`
	Dropped   map[string]int `json:"dropped,omitempty"`
	Malformed int            `json:"malformed"`
	Examples  []BadRow       `json:"examples,omitempty"` // the first malformed rows, by file and line
	Sites     int64          `json:"sites"`
	Totals
	// ChangeRate is Changes / Observations, the share of intervals that
	// saw a change.
	ChangeRate float64            `json:"changeRate"`
	Quantiles  map[string]float64 `json:"rateQuantiles"` // p10 … p90 of the pages' rates, changes per day (RateHist.Quantile)
	Histogram  []Bin              `json:"rateHistogram"`
	Sample     int                `json:"samplePages"`
	Outputs    map[string]string  `json:"outputs"`
}

func init() {
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(string, []byte), func(BadRow), func(FileScan), error](&scanFn{})
	register.Emitter2[string, []byte]()
	register.Emitter1[BadRow]()
	register.Emitter1[FileScan]()
	register.DoFn4x0[context.Context, string, func(*[]byte) bool, func(PageRate)](&pageFn{})
	register.Iter1[[]byte]()
	register.Emitter1[PageRate]()
	register.Function2x0[PageRate, func(string, PageRate)](bySite)
	register.Emitter2[string, PageRate]()
	register.Combiner2[Totals, PageRate](&totalsFn{})
	register.Combiner2[SiteTotals, PageRate](&siteFn{})
	register.Function1x1[PageRate, string](rateLine)
	register.Function2x1[string, SiteTotals, string](siteLine)
	register.Combiner2[Sizes, SiteTotals](&sizesFn{})
	register.DoFn2x0[PageRate, func(string, Candidate)](&candidateFn{})
	register.Emitter2[string, Candidate]()
	register.Combiner2[Candidates, Candidate](&smallestFn{})
	register.DoFn4x0[string, Candidates, Sizes, func(string, int)](&chooseFn{})
	register.Emitter2[string, int]()
	register.DoFn4x0[string, func(*[]byte) bool, func(string) func(*int) bool, func(string)](&sampleFn{})
	register.Iter1[int]()
	register.Emitter1[string]()
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeFn{})
	register.Iter1[string]()
	register.DoFn6x1[context.Context, Totals, func(*FileScan) bool, func(*BadRow) bool, int64, int64, error](&summaryFn{})
	register.Iter1[FileScan]()
	register.Iter1[BadRow]()
	register.Function2x0[string, func(int)](one)
	register.Emitter1[int]()
	register.Combiner2[int64, int](&countFn{})
}

// Build adds the pipeline to s: read the inputs, gather each page's
// captures, estimate its rate, and write the outputs.
func Build(s beam.Scope, opt Options) {
	if opt.Format == "" {
		opt.Format = dataset.FormatCrawlLog
	}
	if opt.Examples == 0 {
		opt.Examples = 5
	}
	if opt.Batched <= 0 {
		opt.Batched = DefaultBatched
	}
	var matched []beam.PCollection
	for _, in := range opt.Inputs {
		matched = append(matched, fileio.MatchFiles(s.Scope("match"), in, fileio.MatchEmptyAllowIfWildcard()))
	}
	files := fileio.ReadMatches(s, beam.Flatten(s, matched...), fileio.ReadUncompressed(), fileio.ReadDirectorySkip())
	captures, bad, scans := beam.ParDo3(s.Scope("read"), &scanFn{Format: opt.Format, Sep: opt.Sep, Columns: opt.Columns, Examples: opt.Examples, Batched: opt.Batched}, files)

	pages := beam.GroupByKey(s, captures)
	rates := beam.ParDo(s.Scope("estimate"), &pageFn{Prior: opt.Prior, Changed: opt.PriorChanged, Unchanged: opt.PriorUnchanged}, pages)

	write := func(name, file, header string, lines beam.PCollection) {
		s := s.Scope(name)
		beam.ParDo0(s, &writeFn{Path: OutputPath(opt.Output, file), Header: header}, beam.GroupByKey(s, beam.AddFixedKey(s, lines)))
	}
	write("write rates", RatesFile, dataset.RatesHeader(), beam.ParDo(s, rateLine, rates))

	sites := beam.CombinePerKey(s.Scope("sites"), &siteFn{}, beam.ParDo(s, bySite, rates))
	write("write sites", SitesFile, strings.Join(siteColumns, ",")+"\n", beam.ParDo(s, siteLine, sites))

	nsample := beam.Create(s, int64(0))
	if opt.Sample > 0 {
		s := s.Scope("sample")
		sizes := beam.Combine(s, &sizesFn{}, beam.DropKey(s, sites))
		cands := beam.CombinePerKey(s, &smallestFn{N: opt.Sample}, beam.ParDo(s, &candidateFn{Seed: opt.Seed}, rates))
		chosen := beam.ParDo(s, &chooseFn{N: opt.Sample}, cands, beam.SideInput{Input: sizes})
		lines := beam.ParDo(s, &sampleFn{}, pages, beam.SideInput{Input: chosen})
		write("write sample", SampleFile, dataset.CrawlLogHeader, lines)
		nsample = beam.Combine(s, &countFn{}, beam.ParDo(s, one, beam.DropValue(s, chosen)))
	}

	totals := beam.Combine(s.Scope("totals"), &totalsFn{}, rates)
	nsites := beam.Combine(s, &countFn{}, beam.ParDo(s, one, beam.DropValue(s, sites)))
	beam.ParDo0(s.Scope("write summary"), &summaryFn{Opt: opt}, totals,
		beam.SideInput{Input: scans}, beam.SideInput{Input: bad}, beam.SideInput{Input: nsites}, beam.SideInput{Input: nsample})
}

// OutputPath joins an output directory and a file name, for local paths and
// URLs (gs://bucket/dir) alike.
func OutputPath(dir, file string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + file
	}
	return path.Join(dir, file)
}

// scanFn reads one file with dataset.ScanCrawlLog.
type scanFn struct {
	Format   string
	Sep      rune
	Columns  map[string]string
	Examples int
	Batched  int
}

var (
	countFiles    = beam.NewCounter(Namespace, CounterFiles)
	countFailed   = beam.NewCounter(Namespace, CounterFailed)
	countCaptures = beam.NewCounter(Namespace, CounterCaptures)
	countDropped  = beam.NewCounter(Namespace, CounterDropped)
	countBad      = beam.NewCounter(Namespace, CounterBad)
	countURLs     = beam.NewCounter(Namespace, CounterURLs)
	countChanges  = beam.NewCounter(Namespace, CounterChanges)
)

// DefaultBatched is Options.Batched's default, and MaxBatchPages the most
// pages a worker gathers captures of at once: together some hundreds of MB
// held by each worker, whether a file holds many captures of few pages or
// one capture of each of many.
const (
	DefaultBatched = 1 << 24
	MaxBatchPages  = 1 << 20
)

func (fn *scanFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(string, []byte), bad func(BadRow), scans func(FileScan)) error {
	name := f.Metadata.Path
	h := fnv.New64a()
	h.Write([]byte(name))
	fileKey := h.Sum64()
	countFiles.Inc(ctx, 1)
	fs := FileScan{File: name}
	rc, err := f.Open(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err) // the runner retries, then fails: the file is not there
	}
	defer rc.Close()
	batches := map[string]*Batch{}
	held := 0
	flush := func() {
		for page, b := range batches {
			emit(page, b.Bytes())
		}
		clear(batches)
		countCaptures.Inc(ctx, int64(held))
		held = 0
	}
	sc, err := dataset.ScanCrawlLog(bufio.NewReaderSize(rc, 1<<20), dataset.CrawlLogOptions{Format: fn.Format, Layout: dataset.Layout{Sep: fn.Sep, Columns: fn.Columns}},
		func(c dataset.Capture) error {
			c.File = fileKey
			b := batches[c.Page]
			if b == nil {
				b = &Batch{}
				batches[c.Page] = b
			}
			b.Add(c)
			if held++; held >= fn.Batched || len(batches) >= MaxBatchPages {
				flush()
			}
			return nil
		},
		func(pe *dataset.ParseError) {
			countBad.Inc(ctx, 1)
			if fs.Malformed++; fs.Malformed <= fn.Examples {
				bad(BadRow{File: name, Line: pe.Line, Column: pe.Column, Error: pe.Error()})
			}
		})
	flush()
	if err != nil {
		// A fault of the file as a whole (its header, its encoding): it is
		// reported, and the other files are read.
		countFailed.Inc(ctx, 1)
		fs.Error = err.Error()
		scans(fs)
		return nil
	}
	fs.Captures, fs.Dropped, fs.Malformed = sc.Rows, sc.Dropped, sc.Malformed
	for _, n := range sc.Dropped {
		countDropped.Inc(ctx, int64(n))
	}
	scans(fs)
	return nil
}

// gather appends a page's batches to buf, each capture with its page id.
func gather(buf []dataset.Capture, page string, iter func(*[]byte) bool) []dataset.Capture {
	var b []byte
	for iter(&b) {
		var err error
		if buf, err = DecodeBatch(buf, page, b); err != nil {
			panic(err) // a bug: the batch is the pipeline's own encoding
		}
	}
	return buf
}

// pageFn estimates one page's rate from its captures.
type pageFn struct {
	Prior              bool
	Changed, Unchanged float64
	buf                []dataset.Capture
}

func (fn *pageFn) ProcessElement(ctx context.Context, page string, iter func(*[]byte) bool, emit func(PageRate)) {
	fn.buf = gather(fn.buf[:0], page, iter)
	var est estimate.Estimator = estimate.MLE{}
	if fn.Prior {
		est = estimate.PseudoMLE{Changed: fn.Changed, Unchanged: fn.Unchanged}
	}
	p, _ := Estimate(page, fn.buf, est)
	countURLs.Inc(ctx, 1)
	countChanges.Inc(ctx, int64(p.Changes))
	emit(p)
}

func bySite(p PageRate, emit func(string, PageRate)) { emit(p.Site, p) }

func rateLine(p PageRate) string { return string(dataset.AppendRateRow(nil, p.Row())) }

type totalsFn struct{}

func (totalsFn) CreateAccumulator() Totals            { return Totals{} }
func (totalsFn) AddInput(t Totals, p PageRate) Totals { t.Add(p); return t }
func (totalsFn) MergeAccumulators(a, b Totals) Totals { a.Merge(b); return a }

type siteFn struct{}

func (siteFn) CreateAccumulator() SiteTotals                { return SiteTotals{} }
func (siteFn) AddInput(t SiteTotals, p PageRate) SiteTotals { t.Add(p); return t }
func (siteFn) MergeAccumulators(a, b SiteTotals) SiteTotals { a.Merge(b); return a }

// siteColumns is the header of sites.csv.
var siteColumns = []string{"site", "pages", "captures", "observations", "changes", "no_change_pages", "mean_rate"}

func siteLine(site string, t SiteTotals) string {
	return fmt.Sprintf("%s,%d,%d,%d,%d,%d,%s\n", csvField(site), t.Pages, t.Captures, t.Observations, t.Changes, t.NoChange,
		strconv.FormatFloat(t.Rates/float64(t.Pages), 'g', -1, 64))
}

func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

func one(_ string, emit func(int)) { emit(1) }

type countFn struct{}

func (countFn) CreateAccumulator() int64           { return 0 }
func (countFn) AddInput(n int64, _ int) int64      { return n + 1 }
func (countFn) MergeAccumulators(a, b int64) int64 { return a + b }

// writeFn writes a header and the lines of one output file.
type writeFn struct {
	Path, Header string
}

func (fn *writeFn) ProcessElement(ctx context.Context, _ int, lines func(*string) bool) error {
	fs, err := filesystem.New(ctx, fn.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	f, err := fs.OpenWrite(ctx, fn.Path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(fn.Header)
	var line string
	for lines(&line) {
		w.WriteString(line)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// summaryFn writes summary.json.
type summaryFn struct {
	Opt Options
}

func (fn *summaryFn) ProcessElement(ctx context.Context, t Totals, scans func(*FileScan) bool, bad func(*BadRow) bool, sites, sample int64) error {
	opt := fn.Opt
	sum := Summary{Inputs: opt.Inputs, Format: opt.Format, Estimator: "mle", Files: []FileScan{}, Totals: t, Sites: sites, Sample: int(sample),
		Outputs: map[string]string{"rates": OutputPath(opt.Output, RatesFile), "sites": OutputPath(opt.Output, SitesFile)}}
	if opt.Prior {
		sum.Estimator = "pseudo-mle"
	}
	if opt.Sample > 0 {
		sum.Outputs["sample"] = OutputPath(opt.Output, SampleFile)
	}
	var fs FileScan
	for scans(&fs) {
		sum.Files = append(sum.Files, fs)
		sum.Malformed += fs.Malformed
		for k, v := range fs.Dropped {
			if sum.Dropped == nil {
				sum.Dropped = map[string]int{}
			}
			sum.Dropped[k] += v
		}
		fs = FileScan{}
	}
	slices.SortFunc(sum.Files, func(a, b FileScan) int { return cmp.Compare(a.File, b.File) })
	var b BadRow
	for bad(&b) {
		sum.Examples = append(sum.Examples, b)
	}
	slices.SortFunc(sum.Examples, func(a, b BadRow) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line)) })
	sum.Examples = sum.Examples[:min(len(sum.Examples), opt.Examples)]
	if t.Observations > 0 {
		sum.ChangeRate = float64(t.Changes) / float64(t.Observations)
	}
	if t.Pages > 0 {
		sum.Quantiles = map[string]float64{}
		for _, q := range []int{10, 25, 50, 75, 90} {
			sum.Quantiles["p"+strconv.Itoa(q)] = t.Rates.Quantile(float64(q) / 100)
		}
	}
	sum.Histogram = t.Rates.Bins()
	if sum.Edges == nil {
		sum.Edges = map[string]int64{}
	}
	out, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	p := OutputPath(opt.Output, SummaryFile)
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return err
	}
	defer fsys.Close()
	f, err := fsys.OpenWrite(ctx, p)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(out, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Sizes are the sites' page counts, for the sample's allocation.
type Sizes struct {
	Sites []string
	Pages []int64
}

type sizesFn struct{}

func (sizesFn) CreateAccumulator() Sizes { return Sizes{} }
func (sizesFn) AddInput(a Sizes, t SiteTotals) Sizes {
	a.Sites = append(a.Sites, t.Site)
	a.Pages = append(a.Pages, t.Pages)
	return a
}
func (sizesFn) MergeAccumulators(a, b Sizes) Sizes {
	a.Sites = append(a.Sites, b.Sites...)
	a.Pages = append(a.Pages, b.Pages...)
	return a
}

// Candidate is a page that may be sampled, by its SampleKey.
type Candidate struct {
	Key  uint64
	Page string
}

// Candidates are a site's pages with the smallest keys.
type Candidates struct{ List []Candidate }

// candidateFn keys each page by SampleKey, under its site.
type candidateFn struct{ Seed uint64 }

func (fn *candidateFn) ProcessElement(p PageRate, emit func(string, Candidate)) {
	emit(p.Site, Candidate{Key: SampleKey(fn.Seed, p.Page), Page: p.Page})
}

// smallestFn keeps a site's N candidates with the smallest keys (ties by
// page): no site can be allotted more than the whole sample.
type smallestFn struct{ N int }

func (fn *smallestFn) CreateAccumulator() Candidates { return Candidates{} }
func (fn *smallestFn) AddInput(a Candidates, c Candidate) Candidates {
	a.List = append(a.List, c)
	if len(a.List) >= 2*fn.N {
		a.List = fn.trim(a.List)
	}
	return a
}
func (fn *smallestFn) MergeAccumulators(a, b Candidates) Candidates {
	return Candidates{fn.trim(append(a.List, b.List...))}
}
func (fn *smallestFn) ExtractOutput(a Candidates) Candidates { return Candidates{fn.trim(a.List)} }

func (fn *smallestFn) trim(l []Candidate) []Candidate {
	slices.SortFunc(l, func(a, b Candidate) int { return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Page, b.Page)) })
	return l[:min(len(l), fn.N)]
}

// chooseFn picks each site's quota (Allocate) of its candidates.
type chooseFn struct {
	N     int
	quota map[string]int
}

func (fn *chooseFn) ProcessElement(site string, c Candidates, sizes Sizes, emit func(string, int)) {
	if fn.quota == nil {
		m := make(map[string]int, len(sizes.Sites))
		for i, s := range sizes.Sites {
			m[s] = int(sizes.Pages[i])
		}
		fn.quota = Allocate(m, fn.N)
	}
	for _, x := range c.List[:min(len(c.List), fn.quota[site])] {
		emit(x.Page, 1)
	}
}

// sampleFn writes the crawl-log rows of the pages chosen for the sample:
// each page's history as History gives it.
type sampleFn struct {
	buf []dataset.Capture
	row []byte
}

func (fn *sampleFn) ProcessElement(page string, iter func(*[]byte) bool, chosen func(string) func(*int) bool, emit func(string)) {
	var k int
	if !chosen(page)(&k) {
		return
	}
	fn.buf = gather(fn.buf[:0], page, iter)
	obs := History(fn.buf)
	u, site := fn.buf[0].URL, fn.buf[0].Site
	fn.row = dataset.AppendCrawlRow(fn.row[:0], u, site, timeText(fn.buf[0].Time), false)
	emit(string(fn.row))
	for _, o := range obs {
		fn.row = dataset.AppendCrawlRow(fn.row[:0], u, site, timeText(o.Time), o.Changed)
		emit(string(fn.row))
	}
}

// timeText is t, unix nanoseconds, in RFC 3339.
func timeText(t int64) []byte { return time.Unix(0, t).UTC().AppendFormat(nil, time.RFC3339Nano) }

// Counters are a run's Beam metrics in Namespace, by name, summed over
// steps.
type Counters map[string]int64

// Run builds the pipeline and runs it on the named runner ("prism" runs it
// in this process), returning its counters.
func Run(ctx context.Context, runner string, opt Options) (Counters, error) {
	p, s := beam.NewPipelineWithRoot()
	Build(s, opt)
	pr, err := beam.Run(ctx, runner, p)
	if err != nil {
		return nil, err
	}
	out := Counters{}
	if pr == nil {
		return out, nil
	}
	for _, c := range pr.Metrics().AllMetrics().Counters() {
		if c.Namespace() == Namespace {
			out[c.Name()] += c.Result()
		}
	}
	return out, nil
}
