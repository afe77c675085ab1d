package dataset

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// A change-event log records, for each page, when it changed (and
// optionally when tracking of it began), rather than every crawl: the shape
// of change feeds, sitemaps' lastmod histories and archives such as Open
// Terms Archive, which record a version only when a page's text differed
// from the previous crawl's. ReadEventLog turns one into a Dataset whose
// truth is known to the second, and Observe derives from it what a crawler
// visiting every k-th cycle would have seen: censored observations with
// known ground truth (Grimes & Ford §3.1), which change-rate estimators need.

// EventLogOptions controls ReadEventLog.
type EventLogOptions struct {
	// Name is shown as the dataset's name (e.g. the file name); default
	// "Uploaded change events".
	Name string
	// Layout gives the separator and maps roles (page, url, site, time,
	// event) to columns named otherwise.
	Layout
	// CycleLength is the length of one cycle in seconds; 0 means one day.
	// An event log records changes, not the crawls between them, so there
	// is no crawl grid to infer a length from: one day is the default
	// because it is the cadence of most of the papers' experiments. Between
	// 1 ns and 4e9 s.
	CycleLength float64
	// Merge: changes of one page less than Merge seconds after the change
	// that began their group count as that one change; 0 means one hour
	// (an archive such as Open Terms Archive records each change of a
	// crawl run as its own commit, minutes apart, so one change of a page
	// can show as several rows), negative means no merging.
	Merge float64
	// Start and End bound the observation window (Start, End]; zero values
	// mean the log's earliest and latest event (of any kind).
	Start, End time.Time
	// Progress, when not nil, is called with the number of bytes of the
	// file consumed (compressed, when it is) about every MiB and once at
	// the end, to drive a progress bar.
	Progress func(bytes int64)
}

// EventLogSummary describes what ReadEventLog read, to show the researcher
// after an upload. Change rows split exactly into Changes + Merged +
// Outside.
type EventLogSummary struct {
	Rows          int            `json:"rows"`          // event rows read
	Pages         int            `json:"pages"`         // distinct pages
	Sites         int            `json:"sites"`         // distinct sites
	Layout        string         `json:"layout"`        // LayoutEvents or LayoutOTA
	ReadAs        string         `json:"readAs"`        // how the columns were read, in words
	ChangeRows    int            `json:"changeRows"`    // rows recording a change
	Changes       int            `json:"changes"`       // changes kept: in the window, tracked, after merging
	Merged        int            `json:"merged"`        // change rows merged into an earlier change of their page
	Outside       int            `json:"outside"`       // change rows outside the window or not after their page's tracking began
	Starts        int            `json:"starts"`        // start rows (tracking began)
	Dropped       map[string]int `json:"dropped"`       // rows of other event kinds, by kind (lower case), not counted as changes
	ChangedCycles int            `json:"changedCycles"` // page-cycles with at least one change: what the dataset's truth holds
	Start         string         `json:"start"`         // RFC 3339 UTC: the window's start
	End           string         `json:"end"`           // RFC 3339 UTC: the window's end
	Cycles        int            `json:"cycles"`        // cycles of the dataset
	CycleLength   float64        `json:"cycleLength"`   // seconds, as used
	CycleDefault  bool           `json:"cycleDefault"`  // CycleLength was not given: one day
	Merge         float64        `json:"merge"`         // seconds, as used; 0 when changes were not merged
	TrackedDays   float64        `json:"trackedDays"`   // page-days observed: the sum of pages' tracked spans
	ChangesPerDay float64        `json:"changesPerDay"` // Changes / TrackedDays: the mean change rate per page per day
	Columns       []string       `json:"columns"`       // columns used, in the file's spelling
	Ignored       []string       `json:"ignored"`       // columns ignored, in the file's spelling
}

// Layouts of an event log, as EventLogSummary.Layout names them.
const (
	LayoutEvents = "change-events"      // page or url, site, time, event
	LayoutOTA    = "open-terms-archive" // ts_unix or ts_utc, service, document_type, event
)

// FeatureTracked names the feature ReadEventLog sets on every page: when
// tracking of the page began, in cycles since the window's start (0 when
// tracked from the start). A crawler knows when it began watching a page,
// so this is repository knowledge, not truth; Observe reads it.
const FeatureTracked = "tracked"

const (
	expectEvent = "an event (change, start, or another kind, which is dropped)"
	// maxKinds bounds the distinct dropped event kinds counted by name;
	// more are counted under otherKinds.
	maxKinds   = 20
	otherKinds = "(other kinds)"
	// Default cycle length and merge window, in seconds.
	defaultEventCycle = 86400
	defaultMerge      = 3600
	// Bounds on the cycle length, in seconds.
	minEventCycle = 1e-9
	maxEventCycle = 4e9
)

// Event kinds kept.
const (
	evChange uint8 = iota
	evStart
	evOther // a kind dropped: never kept among the events
)

// event is one kept row of an event log: 16 bytes.
type event struct {
	t    int64 // unix nanoseconds
	page int32
	kind uint8
}

// ReadEventLog reads a change-event log in CSV (see datasets/README.md,
// "Change-event logs") into a Dataset: one row per event of a page, with
// columns page (or url), optional site (else the URL's host), time and
// optional event (change, start, or another kind, dropped); or the Open
// Terms Archive layout as it is (ts_unix, ts_utc, service, document_type,
// event, ...), detected from the header: page = service + " / " +
// document_type, site = service, time = ts_unix (else ts_utc).
//
// With t0 the window's start and L the cycle length, cycle c covers
// (t0 + cL, t0 + (c+1)L]. A page is tracked from its earliest start event
// if it has one inside the window, else from t0; it can change only while
// tracked, so before that it simply does not change. Its changes in
// (tracked, End], merged as EventLogOptions.Merge says, mark it changed in
// their cycles; Truth.First holds the first one's time, so age is exact. A
// change at t0 itself is outside every cycle: with the default window it is
// the log's earliest event, which the initial copy already holds.
//
// Any separator may be set, and columns named otherwise mapped to roles
// (EventLogOptions.Layout); the file may be gzip-compressed. Problems in
// the file are reported as *ParseError; options that do not fit as
// *OptionError, other bad options as other errors.
func ReadEventLog(r io.Reader, opt EventLogOptions) (*Dataset, *EventLogSummary, error) {
	if err := checkEventOptions(opt); err != nil {
		return nil, nil, err
	}
	lr, err := newLogRead(r, FormatChangeEvents, opt.Layout, eventRoles, opt.Progress)
	if err != nil {
		return nil, nil, err
	}
	er := &eventRead{logRead: lr}
	d, sum, err := er.read(opt)
	if err != nil {
		return nil, nil, err
	}
	if opt.Progress != nil {
		opt.Progress(er.in.consumed())
	}
	return d, sum, nil
}

// checkEventOptions reports a bad option.
func checkEventOptions(opt EventLogOptions) error {
	L := opt.CycleLength
	if L != 0 && !(L >= minEventCycle && L <= maxEventCycle) {
		return fmt.Errorf("dataset: event log: cycle length %v: expected between %g and %g seconds, or 0 for one day", L, minEventCycle, maxEventCycle)
	}
	if math.IsNaN(opt.Merge) || math.IsInf(opt.Merge, 0) || opt.Merge > maxEventCycle {
		return fmt.Errorf("dataset: event log: merge %v: expected at most %g seconds (0 for one hour, negative for none)", opt.Merge, maxEventCycle)
	}
	lo, hi := time.Unix(0, minCrawlTime), time.Unix(0, maxCrawlTime)
	for _, w := range []struct {
		name string
		t    time.Time
	}{{"start", opt.Start}, {"end", opt.End}} {
		if !w.t.IsZero() && (w.t.Before(lo) || !w.t.Before(hi)) {
			return fmt.Errorf("dataset: event log: window %s %s: expected a time between 1970 and 2200", w.name, w.t.UTC().Format(time.RFC3339))
		}
	}
	if !opt.Start.IsZero() && !opt.End.IsZero() && !opt.End.After(opt.Start) {
		return fmt.Errorf("dataset: event log: window end %s is not after its start %s",
			opt.End.UTC().Format(time.RFC3339Nano), opt.Start.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// eventRead holds the state of one ReadEventLog call; the crawl-log
// reader's state gives it the CSV reading, pages, sites and errors.
type eventRead struct {
	*logRead
	ota        bool
	colEvent   int // -1 when absent: every row is a change
	colService int // OTA only
	colDocType int // OTA only
	idBuf      []byte

	events  []event
	starts  int
	changes int // change rows
}

func (er *eventRead) read(opt EventLogOptions) (*Dataset, *EventLogSummary, error) {
	rec, line, err := er.src.header()
	if err != nil {
		return nil, nil, err
	}
	er.headerLine = line
	sum := &EventLogSummary{Dropped: map[string]int{}}
	if err := er.parseHeader(rec, sum); err != nil {
		return nil, nil, err
	}
	er.src.strict()

	er.pageIndex = make(map[string]int32)
	er.siteIndex = make(map[string]int32)
	er.dropped = sum.Dropped
	for {
		rec, err := er.src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if err := er.row(rec); err != nil {
			return nil, nil, err
		}
	}
	if er.rows == 0 {
		return nil, nil, &ParseError{Line: er.headerLine, Expected: "at least one event row", Got: gotEOF, described: true}
	}
	return er.build(opt, sum)
}

// parseHeader assigns the columns' roles and detects the layout: Open
// Terms Archive when there is a service and a document_type column and no
// page or url column.
func (er *eventRead) parseHeader(rec []string, sum *EventLogSummary) error {
	c, err := er.columns(rec, er.roles)
	if err != nil {
		return err
	}
	page, url, site, tm, ev, service, doc, unix, utc := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
	er.colEvent = ev
	er.colURL = -1
	var used []int
	if page < 0 && url < 0 && service >= 0 && doc >= 0 {
		er.ota = true
		sum.Layout = LayoutOTA
		er.colService, er.colDocType = service, doc
		er.colSite, er.colPage = service, service
		er.colTime = unix
		if unix < 0 {
			er.colTime = utc
		}
		if er.colTime < 0 {
			return er.missing("time", append(slices.Clip(roleOTAUnix.names), roleOTAUTC.names...), "")
		}
		used = []int{service, doc, er.colTime, ev}
		sum.ReadAs = fmt.Sprintf("read as Open Terms Archive events: page = %s + \" / \" + %s, site = %s, time = %s",
			er.header[service], er.header[doc], er.header[service], er.header[er.colTime])
		if ev >= 0 {
			sum.ReadAs += ", event = " + er.header[ev]
		} else {
			sum.ReadAs += "; no event column, so every row is a change"
		}
	} else {
		sum.Layout = LayoutEvents
		if page < 0 && url < 0 {
			// A header of the Open Terms Archive's, lacking a column of
			// it, is not one a map of the other layout's roles would fix.
			role := "page"
			if service >= 0 || doc >= 0 || unix >= 0 || utc >= 0 {
				role = ""
			}
			return er.missing("page", append(slices.Clip(rolePage.names), append(roleURL.names, "service and document_type (Open Terms Archive)")...), role)
		}
		if tm < 0 {
			return er.missing("time", roleTime.names, "time")
		}
		er.colPage = page
		if page < 0 {
			er.colPage = url
		} else if url >= 0 {
			er.colURL = url
		}
		er.colSite, er.colTime = site, tm
		used = []int{page, url, site, tm, ev}
		sum.ReadAs = "read as change events"
		if ev < 0 {
			sum.ReadAs += "; no event column, so every row is a change"
		}
	}
	sum.Columns, sum.Ignored = er.split(used)
	if er.ota {
		er.use(usedColumn{"service", er.colService}, usedColumn{"document_type", er.colDocType}, usedColumn{"time", er.colTime}, usedColumn{"event", er.colEvent})
	} else {
		er.use(usedColumn{"page", er.colPage}, usedColumn{"url", er.colURL}, usedColumn{"site", er.colSite}, usedColumn{"time", er.colTime}, usedColumn{"event", er.colEvent})
	}
	return nil
}

// parse reads one event row's page id, time and kind (with its name,
// other, when it is a kind dropped). The id may share rec's buffer or
// er.idBuf: the caller copies it to keep it.
func (er *eventRead) parse(rec []string) (id string, t int64, kind uint8, other string, err error) {
	if err := er.checkRow(rec, "event rows"); err != nil {
		return "", 0, 0, "", err
	}
	if t, err = er.timeAt(rec, er.colTime); err != nil {
		return "", 0, 0, "", err
	}
	kind = evChange
	if er.colEvent >= 0 {
		switch k := trim(rec[er.colEvent]); {
		case strings.EqualFold(k, "change"):
		case strings.EqualFold(k, "start"):
			kind = evStart
		case k == "":
			return "", 0, 0, "", er.emptyError(er.colEvent, expectEvent)
		default:
			kind, other = evOther, k
		}
	}
	if er.ota {
		service, doc := trim(rec[er.colService]), trim(rec[er.colDocType])
		if service == "" {
			return "", 0, 0, "", er.emptyError(er.colService, "a service name")
		}
		if doc == "" {
			return "", 0, 0, "", er.emptyError(er.colDocType, "a document type")
		}
		er.idBuf = append(append(append(er.idBuf[:0], service...), " / "...), doc...)
		return string(er.idBuf), t, kind, other, nil
	}
	if id = trim(rec[er.colPage]); id == "" {
		return "", 0, 0, "", er.emptyError(er.colPage, "a page id")
	}
	return id, t, kind, other, nil
}

// row reads one event row.
func (er *eventRead) row(rec []string) error {
	id, t, kind, other, err := er.parse(rec)
	if err != nil {
		return err
	}
	keep := kind != evOther
	if !keep {
		er.drop(other)
	}

	// The page, and its site on first sight. Dropped rows name pages too:
	// a page seen only in them is still a tracked page.
	p, seen := er.pageIndex[id]
	if !seen {
		if p, err = er.newPage(rec, id); err != nil {
			return err
		}
	} else if !er.ota {
		if err := er.checkSite(rec, p); err != nil {
			return err
		}
	}

	line := 0
	if er.rows == 0 || t < er.tmin || t > er.tmax {
		line, _ = er.src.pos(er.colTime)
	}
	if er.rows == 0 || t < er.tmin {
		er.tmin, er.lineMin = t, line
	}
	if er.rows == 0 || t > er.tmax {
		er.tmax, er.lineMax = t, line
	}
	er.rows++
	if er.rows == presizeAfter && er.size > 0 {
		// Size the events once from the bytes per row so far, rather than
		// growing them by doubling, as ReadCrawlLog does.
		est := min(float64(er.size)/float64(max(er.src.offset(), 1))*presizeAfter*1.05, float64(maxCrawlRows))
		if n := int(est) - len(er.events); n > 0 {
			er.events = slices.Grow(er.events, n)
		}
	}
	if !keep {
		return nil
	}
	if kind == evStart {
		er.starts++
	} else {
		er.changes++
	}
	er.events = append(er.events, event{t: t, page: p, kind: kind})
	return nil
}

// build turns the events into the dataset's truth.
func (er *eventRead) build(opt EventLogOptions, sum *EventLogSummary) (*Dataset, *EventLogSummary, error) {
	npages := len(er.pages)

	// The window and the cycles.
	w, cycles64 := resolveWindow(opt, er.tmin, er.tmax)
	t0, t1, L, Lns, mergeNs := w.Start, w.End, w.Cycle, w.CycleNs, w.Merge
	if t1 <= t0 {
		if opt.Start.IsZero() && opt.End.IsZero() {
			return nil, nil, &ParseError{Line: er.headerLine,
				Expected: "events at two or more different times (or a window set at upload)",
				Got:      "all at " + formatNanos(t0), described: true}
		}
		return nil, nil, fmt.Errorf("dataset: event log: the window (%s, %s] is empty: set its start before its end",
			formatNanos(t0), formatNanos(t1))
	}
	sum.CycleDefault = w.CycleDefault
	if cycles64 > int64(maxCrawlRounds) {
		if opt.End.IsZero() {
			return nil, nil, &ParseError{Line: er.lineMax, Column: er.colTime + 1, Field: er.header[er.colTime],
				Expected: fmt.Sprintf("an event at most %d cycles of %g s after the window's start (%s)", maxCrawlRounds, L, formatNanos(t0)),
				Got:      fmt.Sprintf("one %d cycles after it", cycles64), described: true}
		}
		return nil, nil, fmt.Errorf("dataset: event log: the window spans %d cycles of %g s; at most %d", cycles64, L, maxCrawlRounds)
	}
	cycles := w.Cycles

	// Group events by page (counting sort, keeping file order), then put
	// each page's events in time order; stable, so equal times keep file
	// order.
	start := make([]int32, npages+1)
	for _, e := range er.events {
		start[e.page+1]++
	}
	for p := range npages {
		start[p+1] += start[p]
	}
	byPage := make([]event, len(er.events))
	fill := slices.Clone(start[:npages])
	for _, e := range er.events {
		byPage[fill[e.page]] = e
		fill[e.page]++
	}
	er.events = nil

	changed := make([][]int32, cycles)
	first := make([][]float64, cycles)
	tracked := make([]float64, npages)
	var trackedNs float64
	for p := range npages {
		evs := byPage[start[p]:start[p+1]]
		if !slices.IsSortedFunc(evs, func(a, b event) int { return cmp.Compare(a.t, b.t) }) {
			slices.SortStableFunc(evs, func(a, b event) int { return cmp.Compare(a.t, b.t) })
		}
		var ns int64
		tracked[p], ns = w.page(evs, sum, func(c int, at float64) {
			changed[c] = append(changed[c], int32(p))
			first[c] = append(first[c], at)
		})
		trackedNs += float64(ns)
	}

	d := &Dataset{
		Info: Info{
			ID:          uploadID("events-", er.in.log.sum, fmt.Sprintf("change-events cycle=%d merge=%d window=%d,%d%s", Lns, mergeNs, t0, t1, er.applied())),
			Name:        opt.Name,
			Source:      "upload",
			CycleLength: L,
			CycleUnit:   cycleUnit(L),
		},
		Repository: Repository{Pages: er.pages, Sites: er.sites, Labels: []string{},
			Features: map[string][]float64{FeatureTracked: tracked}},
		Truth: Truth{Changed: changed, First: first},
	}
	if d.Info.Name == "" {
		d.Info.Name = "Uploaded change events"
	}
	sum.Start, sum.End = formatNanos(t0), formatNanos(t1)
	d.Info.Description = fmt.Sprintf("Change events: %d changes of %d pages on %d sites, %s to %s.",
		sum.Changes, npages, len(er.sites), sum.Start, sum.End)
	if err := d.Finish(); err != nil {
		return nil, nil, fmt.Errorf("dataset: event log: %w", err) // a bug: the reader built an invalid dataset
	}

	sum.Rows, sum.Pages, sum.Sites, sum.Cycles = er.rows, npages, len(er.sites), cycles
	sum.ChangeRows, sum.Starts = er.changes, er.starts
	sum.CycleLength = L
	if mergeNs >= 0 {
		sum.Merge = float64(mergeNs) / 1e9
	}
	sum.TrackedDays = trackedNs / (86400 * 1e9)
	if sum.TrackedDays > 0 {
		sum.ChangesPerDay = float64(sum.Changes) / sum.TrackedDays
	}
	return d, sum, nil
}

// cyclesAfter converts d nanoseconds after the window's start into cycles
// of Lns nanoseconds, exactly at cycle boundaries: for d in (cLns,
// (c+1)Lns] it returns a value in (c, c+1] (float64(d)/float64(Lns) alone
// can round across a boundary once d passes 2^53 ns, about 104 days).
func cyclesAfter(d, Lns int64) float64 {
	if d <= 0 {
		return 0
	}
	c := (d - 1) / Lns
	x := float64(c) + float64(d-c*Lns)/float64(Lns)
	if x <= float64(c) { // a sliver too thin for float64 at this c
		x = math.Nextafter(float64(c), math.Inf(1))
	}
	return x
}

// ParseTime reads a time in any of the forms crawl and event logs accept
// (datasets/README.md, "Times"), for options given as text.
func ParseTime(s string) (time.Time, error) {
	ns, status := parseCrawlTime(strings.TrimSpace(s), nil)
	switch status {
	case timeBad:
		return time.Time{}, errors.New("expected " + expectTime)
	case timeRange:
		return time.Time{}, errors.New("expected " + expectRange)
	}
	return time.Unix(0, ns).UTC(), nil
}

// Observation is one page's history as a crawler visiting it every k-th
// cycle would see it, beside the truth at the dataset's full resolution.
//
// The crawler fetches the page when its tracking begins (time s, in
// cycles: the FeatureTracked feature, else 0) and then at every cycle
// boundary that is a multiple of k, after s and up to the last cycle's end.
// Interval j runs between consecutive fetches (the first may be shorter
// than k cycles when s is not a multiple of k); Changed[j] says whether
// the page changed at least once in it: a censored Poisson observation
// (Grimes & Ford §3.1: z = 1 when x > 0 changes fell in the interval).
type Observation struct {
	Page      int32
	Intervals []float64 // lengths of the crawl intervals, in days
	Changed   []bool    // Changed[j]: at least one change fell in interval j
	Changes   int       // changed cycles of the page while tracked: the truth at full resolution
	AfterLast int       // of those, how many fell after the last fetch, so in no interval
	Span      float64   // the tracked span, from s to the last cycle's end, in days
	Rate      float64   // Changes / Span: the true change rate per day (0 when Span is 0)
}

// Observe returns, for each page of d in order, what a crawler fetching it
// every k-th cycle sees (see Observation). Lengths are in days of
// d.Info.CycleLength; a dataset without a cycle length counts a cycle as a
// day. With k = 1 every changed cycle is observed as a changed interval;
// with a coarser k, changes sharing an interval count once and changes
// after the last fetch are not seen: exactly the censoring of §3.1.
//
// The slices of all pages share two backing arrays.
func Observe(d *Dataset, k int) ([]Observation, error) {
	if k < 1 {
		return nil, fmt.Errorf("dataset: observe every %d cycles: expected at least 1", k)
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("dataset: observe: %w", err)
	}
	n := len(d.Pages)
	N := d.Truth.Cycles()
	unit := d.Info.CycleLength / 86400
	if !(unit > 0) || math.IsInf(unit, 0) {
		unit = 1
	}
	tracked := d.Features[FeatureTracked]

	// Each page's changed cycles, ascending (counting sort over cycles).
	start := make([]int32, n+1)
	for _, ch := range d.Truth.Changed {
		for _, p := range ch {
			start[p+1]++
		}
	}
	for p := range n {
		start[p+1] += start[p]
	}
	cyc := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for c, ch := range d.Truth.Changed {
		for _, p := range ch {
			cyc[fill[p]] = int32(c)
			fill[p]++
		}
	}

	from := func(p int) float64 {
		if tracked == nil {
			return 0
		}
		s := tracked[p]
		if !(s > 0) { // also NaN
			return 0
		}
		return min(s, float64(N))
	}
	total := 0
	for p := range n {
		total += fetches(from(p), k, N)
	}
	lengths := make([]float64, 0, total)
	seen := make([]bool, 0, total)

	obs := make([]Observation, n)
	for p := range n {
		obs[p], lengths, seen = observePage(int32(p), from(p), cyc[start[p]:start[p+1]], k, N, unit, lengths, seen)
	}
	return obs, nil
}

// firstFetch is the first cycle boundary after s that is a multiple of k:
// a page tracked from s is fetched there and every k cycles after it.
func firstFetch(s float64, k int) int {
	return (int(math.Floor(s/float64(k))) + 1) * k
}

// fetches counts the fetches of a page tracked from s every k cycles, up
// to boundary N: the multiples of k in (s, N].
func fetches(s float64, k, N int) int {
	if b := firstFetch(s, k); b <= N {
		return (N-b)/k + 1
	}
	return 0
}

// WriteEventLog writes d as a change-event log, so that datasets with
// continuous truth can be exported and read back: header
// page,site,time,event; a start row for each page when its tracking began
// (FeatureTracked, else the start), then a change row at the time of each
// page's first change in each cycle (Truth.First, else mid-cycle), cycles
// of d's length (one day when it has none) from start.
//
// Reading the log back with ReadEventLog, with the same cycle length,
// Start = start, End = start plus the cycles and Merge < 0, reproduces d's
// pages, sites in use and Truth.Changed, and Truth.First to the
// nanosecond. Page ids must be unique, and ids and site names non-empty,
// without surrounding spaces and without carriage returns.
func WriteEventLog(w io.Writer, d *Dataset, start time.Time) error {
	if err := d.Validate(); err != nil {
		return fmt.Errorf("dataset: write event log: %w", err)
	}
	seen := make(map[string]bool, len(d.Pages))
	for i, p := range d.Pages {
		switch {
		case !writable(p.URL):
			return fmt.Errorf("dataset: write event log: page %d: id %q is empty, has surrounding spaces or a carriage return", i, p.URL)
		case seen[p.URL]:
			return fmt.Errorf("dataset: write event log: page %d: id %q is not unique", i, p.URL)
		case !writable(d.Sites[p.Site]):
			return fmt.Errorf("dataset: write event log: site %q is empty, has surrounding spaces or a carriage return", d.Sites[p.Site])
		}
		seen[p.URL] = true
	}
	Lns := d.CycleNanos()
	t0 := start.UnixNano()
	tracked := d.Features[FeatureTracked]

	bw := bufio.NewWriter(w)
	bw.WriteString("page,site,time,event\n")
	var buf []byte
	row := func(p int32, at int64, kind string) error {
		buf = appendCSVField(buf[:0], d.Pages[p].URL)
		buf = append(buf, ',')
		buf = appendCSVField(buf, d.Sites[d.Pages[p].Site])
		buf = append(buf, ',')
		buf = time.Unix(0, t0+at).UTC().AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, ',')
		buf = append(buf, kind...)
		buf = append(buf, '\n')
		_, err := bw.Write(buf)
		return err
	}
	for p := range d.Pages {
		var at int64
		if tracked != nil && tracked[p] > 0 {
			at = NanosAt(min(tracked[p], float64(d.Truth.Cycles())), Lns)
		}
		if err := row(int32(p), at, "start"); err != nil {
			return err
		}
	}
	for c, ch := range d.Truth.Changed {
		for i, p := range ch {
			if err := row(p, NanosAt(d.Truth.FirstChange(c, i), Lns), "change"); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// CycleNanos returns the length of d's cycles in nanoseconds:
// Info.CycleLength, or one day when it has none (or one outside the range
// an event log may have), as WriteEventLog writes times.
func (d *Dataset) CycleNanos() int64 {
	L := d.Info.CycleLength
	if !(L >= minEventCycle && L <= maxEventCycle) {
		L = defaultEventCycle
	}
	return int64(math.Round(L * 1e9))
}

// NanosAt converts x cycles of Lns nanoseconds into nanoseconds after the
// start of cycle 0, so that x in (c, c+1] lands in (cLns, (c+1)Lns]
// whatever the rounding (the inverse of the reader's conversion): a time
// in Truth.First, or the FeatureTracked feature, as a whole number of
// nanoseconds, for callers that cut time into slots of their own.
func NanosAt(x float64, Lns int64) int64 {
	if !(x > 0) {
		return 0
	}
	c := int64(math.Ceil(x)) - 1
	r := int64(math.Round((x - float64(c)) * float64(Lns)))
	return c*Lns + min(max(r, 1), Lns)
}
