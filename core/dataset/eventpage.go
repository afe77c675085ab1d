package dataset

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// EventWindow is what the pages of a change-event log share as ReadEventLog
// reads it: the observation window (Start, End] in unix nanoseconds, the
// cycles that cut it and the merge window. A page's history needs only its
// own events and this, so a reader that never holds the whole log (the
// pipeline of core/pipeline) computes each page's truth and observations
// exactly as ReadEventLog and Observe do, from the log's earliest and
// latest event.
type EventWindow struct {
	Start, End   int64   // the window (Start, End], unix nanoseconds
	Cycle        float64 // the cycle length in seconds, as Info.CycleLength holds it
	CycleNs      int64   // the cycle length in nanoseconds, as the cycles are cut
	Merge        int64   // the merge window in nanoseconds; negative: no merging
	Cycles       int     // cycles of the window
	CycleDefault bool    // the cycle length was not given: one day
}

// resolveWindow applies opt's window, cycle length and merge window to a
// log whose events span [tmin, tmax]. It also returns the number of cycles
// before any bound, for the caller to refuse a window too long.
func resolveWindow(opt EventLogOptions, tmin, tmax int64) (EventWindow, int64) {
	w := EventWindow{Start: tmin, End: tmax, Cycle: opt.CycleLength, Merge: -1}
	if !opt.Start.IsZero() {
		w.Start = opt.Start.UnixNano()
	}
	if !opt.End.IsZero() {
		w.End = opt.End.UnixNano()
	}
	if w.Cycle == 0 {
		w.Cycle, w.CycleDefault = defaultEventCycle, true
	}
	w.CycleNs = int64(math.Round(w.Cycle * 1e9))
	switch {
	case opt.Merge == 0:
		w.Merge = defaultMerge * 1e9
	case opt.Merge > 0:
		w.Merge = int64(math.Round(opt.Merge * 1e9))
	}
	if w.End <= w.Start {
		return w, 0
	}
	span := w.End - w.Start
	cycles := span / w.CycleNs
	if span%w.CycleNs != 0 {
		cycles++
	}
	w.Cycles = int(min(cycles, int64(maxCrawlRounds)+1))
	return w, cycles
}

// NewEventWindow returns the window ReadEventLog would use, with the same
// options, for a log whose earliest and latest events (of any kind) are at
// tmin and tmax, unix nanoseconds; an error when the options do not fit or
// the window is empty or longer than ReadEventLog reads.
func NewEventWindow(opt EventLogOptions, tmin, tmax int64) (EventWindow, error) {
	if err := checkEventOptions(opt); err != nil {
		return EventWindow{}, err
	}
	w, cycles := resolveWindow(opt, tmin, tmax)
	if w.End <= w.Start {
		return EventWindow{}, fmt.Errorf("dataset: event log: the window (%s, %s] is empty: expected events at two or more different times, or a window with its start before its end",
			formatNanos(w.Start), formatNanos(w.End))
	}
	if cycles > int64(maxCrawlRounds) {
		return EventWindow{}, fmt.Errorf("dataset: event log: the window spans %d cycles of %g s; at most %d", cycles, w.Cycle, maxCrawlRounds)
	}
	return w, nil
}

// page computes one page's part of the truth from its events in time
// order (see ReadEventLog): it calls mark with each cycle the page changed
// in, ascending, and the time of its first change there in cycles since
// the window's start, counts the page's change rows into sum (Changes,
// Merged, Outside, ChangedCycles), and returns when its tracking began, in
// cycles (the FeatureTracked feature), and its tracked span in
// nanoseconds.
func (w *EventWindow) page(evs []event, sum *EventLogSummary, mark func(c int, first float64)) (tracked float64, span int64) {
	t0, t1, Lns := w.Start, w.End, w.CycleNs
	// Tracking begins at the page's earliest start event inside the
	// window, else at the window's start.
	from := t0
	for _, e := range evs {
		if e.kind == evStart {
			from = min(max(e.t, t0), t1)
			break
		}
	}
	var anchor int64
	haveAnchor := false
	last := -1 // last cycle marked
	for _, e := range evs {
		if e.kind != evChange {
			continue
		}
		if e.t <= from || e.t > t1 {
			sum.Outside++
			continue
		}
		if haveAnchor && w.Merge >= 0 && e.t-anchor < w.Merge {
			sum.Merged++
			continue
		}
		anchor, haveAnchor = e.t, true
		sum.Changes++
		d := e.t - t0 // in (0, span]
		c := int((d - 1) / Lns)
		if c == last {
			continue
		}
		last = c
		mark(c, cyclesAfter(d, Lns))
		sum.ChangedCycles++
	}
	return cyclesAfter(from-t0, Lns), t1 - from
}

// History returns one page's observation as ReadEventLog with the window's
// options and then Observe(d, 1) give it (every cycle observed): cs are the
// page's rows as ScanEventLog hands them on, in any order (rows of a kind
// dropped, neither Start nor Changed, are passed over), and the page is
// numbered 0. sum, when not nil, counts the page's change rows as
// EventLogSummary does. It also returns when the page's tracking began,
// unix nanoseconds: the crawler's first fetch, before the cycle boundaries
// that end the observation's intervals.
func (w *EventWindow) History(cs []Capture, sum *EventLogSummary) (Observation, int64) {
	evs := make([]event, 0, len(cs))
	for _, c := range cs {
		switch {
		case c.Start:
			evs = append(evs, event{t: c.Time, kind: evStart})
		case c.Changed:
			evs = append(evs, event{t: c.Time, kind: evChange})
		}
	}
	// Ties need no order: a start at a change's time puts the change
	// outside tracking whichever comes first, and changes at one time
	// merge or share a cycle alike.
	slices.SortStableFunc(evs, func(a, b event) int { return cmp.Compare(a.t, b.t) })
	if sum == nil {
		sum = &EventLogSummary{}
	}
	var cyc []int32
	tracked, span := w.page(evs, sum, func(c int, _ float64) { cyc = append(cyc, int32(c)) })
	unit := w.Cycle / 86400
	s := tracked
	if !(s > 0) {
		s = 0
	}
	o, _, _ := observePage(0, min(s, float64(w.Cycles)), cyc, 1, w.Cycles, unit, nil, nil)
	return o, w.End - span
}

// observePage appends to lengths and seen what a crawler fetching page p
// every k-th cycle sees, from s (in cycles) to boundary N: see Observation.
// cs are the page's changed cycles, ascending.
func observePage(p int32, s float64, cs []int32, k, N int, unit float64, lengths []float64, seen []bool) (Observation, []float64, []bool) {
	i := 0
	for i < len(cs) && int(cs[i]) < int(s) { // changes before tracking (none in event logs)
		i++
	}
	o := Observation{Page: p, Changes: len(cs) - i, Span: (float64(N) - s) * unit}
	if o.Span > 0 {
		o.Rate = float64(o.Changes) / o.Span
	}
	j0 := len(lengths)
	a := s
	for b := firstFetch(s, k); b <= N; b += k {
		hit := false
		for i < len(cs) && int(cs[i]) < b {
			hit = true
			i++
		}
		lengths = append(lengths, (float64(b)-a)*unit)
		seen = append(seen, hit)
		a = float64(b)
	}
	o.Intervals, o.Changed = lengths[j0:len(lengths):len(lengths)], seen[j0:len(seen):len(seen)]
	o.AfterLast = len(cs) - i
	return o, lengths, seen
}

// ScanEventLog reads a change-event log as ReadEventLog does (the same
// layouts, columns, times and kinds; gzip recognised by its first bytes)
// but row by row, without gathering pages or cutting cycles, for logs too
// large for one process: each row goes to each as a Capture (Start for a
// start row, Changed for a change row, neither for a row of a kind
// dropped, which still names its page and widens the window), and each row
// ReadEventLog would refuse goes to bad, as the same *ParseError, and the
// scan goes on. Scan.Dropped counts the rows of kinds dropped, by kind. A
// page's rows naming different sites are each handed on as they are. A
// fault of the file as a whole (its encoding, its header, a broken gzip
// stream, a line over the length limit) ends the scan with an error, as
// does an error each returns.
func ScanEventLog(r io.Reader, opt EventLogOptions, each func(Capture) error, bad func(*ParseError)) (*Scan, error) {
	if err := checkEventOptions(opt); err != nil {
		return nil, err
	}
	lr, err := newLogRead(r, FormatChangeEvents, opt.Layout, eventRoles, opt.Progress)
	if err != nil {
		return nil, err
	}
	er := &eventRead{logRead: lr}
	rec, line, err := er.src.header()
	if err != nil {
		return nil, err
	}
	er.headerLine = line
	if err := er.parseHeader(rec, &EventLogSummary{}); err != nil {
		return nil, err
	}
	er.src.strict()
	er.dropped = make(map[string]int)
	sc := &Scan{Format: FormatChangeEvents}
	err = er.scanRows(sc, each, bad, func(rec []string) (Capture, bool, error) {
		id, t, kind, other, err := er.parse(rec)
		var u, site string
		if err == nil {
			u, site, err = er.pageSite(rec, id)
		}
		if err != nil {
			return Capture{}, false, err
		}
		if kind == evOther {
			er.drop(other)
		}
		line, _ := er.src.pos(er.colTime)
		return Capture{Page: strings.Clone(id), URL: u, Site: site, Time: t, Line: line,
			Changed: kind == evChange, Start: kind == evStart}, true, nil
	})
	if err != nil {
		return nil, err
	}
	if len(er.dropped) > 0 {
		sc.Dropped = er.dropped
	}
	if opt.Progress != nil {
		opt.Progress(er.in.consumed())
	}
	return sc, nil
}
