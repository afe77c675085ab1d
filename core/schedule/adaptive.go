package schedule

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Rule is a production crawler's adaptive re-visit rule. It knows neither
// change rates nor a budget: after each sync of a page it sets the page's
// next sync from whether that sync found the page changed, which is all a
// crawler that compares the page with its copy learns. Intervals are in
// days.
//
// A rule has no budget parameter, and its long-run spend is whatever its
// pages' change rates make it. To compare a rule fairly with the
// allocation policies, run it, read Result.SyncsPerDay (its spend), and
// give the allocation policies that budget.
type Rule interface {
	// Start returns the state of a page just fetched for the first time
	// at time 0, and the time of its next sync (> 0).
	Start() (PageState, float64)
	// Next updates s after a sync at time now that found the page changed
	// or not, and returns the time of the next sync (> now).
	Next(s *PageState, now float64, changed bool) float64
	// Listed returns the time at which a fetch list the crawler makes at
	// time now lists a page whose next sync the rule set at due: due
	// itself, except where the crawler moves it (Nutch pulls a time too
	// far ahead back to now). It changes nothing: a page the list does not
	// reach keeps due and is listed afresh next time.
	Listed(due, now float64) float64
}

// PageState is what a rule keeps about one page.
type PageState struct {
	Interval float64 // the current re-visit interval, days
	// Modified is the time of the last sync that found a change (the time
	// of the first fetch until one does): Nutch's modifiedTime when the
	// server sends no Last-Modified header.
	Modified float64
	// Forced is set when Nutch's crawl-database update has forced a
	// re-fetch: the stored signature and modified time are cleared, so the
	// next sync has nothing to compare its copy with and cannot tell
	// whether the page changed. Modified means nothing while it is set.
	Forced bool
}

// Day lengths of the crawlers' native units.
const (
	Second = 1.0 / 86400
	Minute = 1.0 / 1440
	Hour   = 1.0 / 24
	Week   = 7.0
)

// Nutch is Apache Nutch 1.x as it runs an adaptive schedule: the rule of
// AdaptiveFetchSchedule.setFetchSchedule (org.apache.nutch.crawl, the
// properties db.fetch.schedule.adaptive.* of nutch-default.xml) and what
// the crawler does around it, in CrawlDbReducer.reduce and in the fetch
// list's AbstractFetchSchedule.shouldFetch (Nutch 1.20).
//
// After a sync, AdaptiveFetchSchedule sets the interval I to
//
//	I·(1 − DecRate)  if the page changed (and Modified becomes now),
//	I·(1 + IncRate)  if not,
//
// then, with SyncDelta, delta = now − Modified (0 after a change) and I is
// raised to delta if smaller; I is clamped to [Min, Max]; and the next
// sync is at now − delta·SyncDeltaRate + I ("try to synchronize with the
// time of change", in the code's words: the page last changed about delta
// ago, so come back a little earlier than the interval says). Without
// SyncDelta the next sync is at now + I.
//
// Around it, with MaxFetch = db.fetch.interval.max:
//
//   - Forced re-fetch (CrawlDbReducer.reduce after setFetchSchedule, then
//     AbstractFetchSchedule.forceRefetch): when the update leaves I above
//     MaxFetch, I becomes 0.9·MaxFetch and the stored signature and
//     modified time are cleared; the next sync time stays as the rule set
//     it. The sync after that has no signature to compare
//     (FetchSchedule.STATUS_UNKNOWN): the interval neither shrinks nor
//     grows, Modified becomes that sync's time (setFetchSchedule takes a
//     modified time of 0 as the fetch time), so delta is 0.
//   - Pull-back (AbstractFetchSchedule.shouldFetch, which Generator's
//     selector calls on each page when it makes a fetch list at time now):
//     a next sync more than MaxFetch after now is moved to now, and the
//     page is listed at once (see Listed). The generator writes the moved
//     time only into the fetch list, not into the crawl database.
//
// Without these a page that never changes climbs to Max and then, through
// SyncDelta, its syncs pile up towards Max/SyncDeltaRate after its last
// change, each gap (1 − SyncDeltaRate) times the one before, never passing
// that time; with them, under the defaults, its gaps settle at 81 and 89.1
// days in turn (TestNutchQuietPage derives them).
//
// Readings: Modified is the crawler's own record, the fetch time of the
// last sync whose signature changed, as Nutch keeps it when the server
// sends no Last-Modified header (the fetch list carries the stored
// modified time to setFetchSchedule); we do not model Last-Modified
// headers, which would tell the crawler more than "changed since my copy".
// The delta bump is applied before the clamp, as in the code. The first
// fetch (the injected page has no signature yet) is a sync of unknown
// status with the initial interval, db.fetch.interval.default (30 days),
// and goes through the same update. shouldFetch also cuts an interval
// above MaxFetch to 0.9·MaxFetch; after the update's forced re-fetch no
// stored interval is above it, so here the pull-back only moves the time.
// The code computes each update in float32 seconds, stores the interval in
// whole seconds (CrawlDatum rounds it) and times in whole milliseconds; we
// keep float64 days.
type Nutch struct {
	IncRate, DecRate float64 // inc_rate 0.4, dec_rate 0.2 in nutch-default.xml
	Min, Max         float64 // min_interval 60 s, max_interval 365 days
	Initial          float64 // db.fetch.interval.default: 30 days
	SyncDelta        bool    // sync_delta: true
	SyncDeltaRate    float64 // sync_delta_rate: 0.3
	MaxFetch         float64 // db.fetch.interval.max: 90 days
}

// NutchDefault is Nutch's shipped configuration (nutch-default.xml). The
// Java code's own fallbacks, used only without that file, differ: inc_rate
// 0.2 and sync_delta_rate 0.2.
var NutchDefault = Nutch{
	IncRate: 0.4, DecRate: 0.2, Min: 60 * Second, Max: 365, Initial: 30,
	SyncDelta: true, SyncDeltaRate: 0.3, MaxFetch: 90,
}

// Start implements Rule: the first fetch is a sync of unknown status with
// the initial interval.
func (r Nutch) Start() (PageState, float64) {
	s := PageState{Interval: r.Initial, Forced: true}
	return s, r.Next(&s, 0, false)
}

// Next implements Rule: AdaptiveFetchSchedule's update, then
// CrawlDbReducer's forced re-fetch.
func (r Nutch) Next(s *PageState, now float64, changed bool) float64 {
	ref := now
	switch {
	case s.Forced: // no stored signature: status unknown, nothing adapted
		s.Modified = now
		s.Forced = false
	case changed:
		s.Interval *= 1 - r.DecRate
		s.Modified = now
	default:
		s.Interval *= 1 + r.IncRate
	}
	if r.SyncDelta {
		delta := now - s.Modified
		if delta > s.Interval {
			s.Interval = delta
		}
		ref = now - delta*r.SyncDeltaRate
	}
	s.Interval = clamp(s.Interval, r.Min, r.Max)
	next := ref + s.Interval
	if s.Interval > r.MaxFetch {
		s.Interval = 0.9 * r.MaxFetch
		s.Forced = true
	}
	// The next sync lands in the past when SyncDeltaRate·delta exceeds
	// the clamped interval. That takes Max < SyncDeltaRate·delta: with
	// delta at most Max the interval is at least delta (at SyncDeltaRate
	// = 1 it can land at now itself). The next fetch list then lists the
	// page, that is at once; so do we, a hair later.
	return after(now, next)
}

// Listed implements Rule: shouldFetch's pull-back of a next sync more than
// MaxFetch ahead of the fetch list.
func (r Nutch) Listed(due, now float64) float64 {
	if due-now > r.MaxFetch {
		return now
	}
	return due
}

// clamp is min(max(x, lo), hi) for the rules' intervals, which are never
// NaN or zero: plain compares, because in WebAssembly Go's builtin min
// and max on floats (which order −0 before +0 and carry NaN) are calls
// into the runtime, made at every visit of every page.
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		x = lo
	}
	if x > hi {
		x = hi
	}
	return x
}

// Heritrix is Heritrix 1.x's WaitEvaluator (org.archive.crawler.
// postprocessor, the adaptive-revisiting frontier): after a sync the wait
// is divided by ChangedFactor if the page changed and multiplied by
// UnchangedFactor if not, then clamped to [Min, Max]. The first visit
// sets the initial wait. Left out: use-overdue-time (off by default), which
// adds how late a visit came; our syncs are never late. The code keeps
// whole milliseconds; we keep float64 days.
type Heritrix struct {
	ChangedFactor, UnchangedFactor float64 // 1.5 and 1.5
	Min, Max, Initial              float64 // 1 hour, 4 weeks, 1 day
}

// HeritrixDefault is WaitEvaluator's defaults.
var HeritrixDefault = Heritrix{ChangedFactor: 1.5, UnchangedFactor: 1.5, Min: Hour, Max: 4 * Week, Initial: 1}

// Start implements Rule.
func (r Heritrix) Start() (PageState, float64) { return PageState{Interval: r.Initial}, r.Initial }

// Listed implements Rule: Heritrix visits a page when it is due.
func (Heritrix) Listed(due, _ float64) float64 { return due }

// Next implements Rule.
func (r Heritrix) Next(s *PageState, now float64, changed bool) float64 {
	if changed {
		s.Interval /= r.ChangedFactor
		s.Modified = now
	} else {
		s.Interval *= r.UnchangedFactor
	}
	s.Interval = clamp(s.Interval, r.Min, r.Max)
	return now + s.Interval
}

// StormCrawler is StormCrawler's AdaptiveScheduler
// (com.digitalpebble.stormcrawler.persistence; its settings are
// scheduler.adaptive.fetchInterval.*): after a sync that found a change
// (by signature) the interval becomes (1 − DecRate)·I + DecRate·Min,
// which slows the shrinking near the minimum and never goes below it;
// after one that did not, min(I·(1 + IncRate), Max). The first fetch, with
// no old signature to compare, uses DefaultScheduler's interval
// (fetchInterval.default, 1 day). The code keeps whole minutes, truncating
// after each update; we keep float64 days.
type StormCrawler struct {
	IncRate, DecRate float64 // scheduler.adaptive.fetchInterval.rate.incr and .rate.decr: 0.5 and 0.5
	Min, Max         float64 // scheduler.adaptive.fetchInterval.min 60 minutes, .max 14 days
	Initial          float64 // fetchInterval.default: 1 day
}

// StormCrawlerDefault is AdaptiveScheduler's defaults.
var StormCrawlerDefault = StormCrawler{IncRate: 0.5, DecRate: 0.5, Min: 60 * Minute, Max: 14, Initial: 1}

// Start implements Rule.
func (r StormCrawler) Start() (PageState, float64) { return PageState{Interval: r.Initial}, r.Initial }

// Listed implements Rule: StormCrawler emits a page when it is due.
func (StormCrawler) Listed(due, _ float64) float64 { return due }

// Next implements Rule.
func (r StormCrawler) Next(s *PageState, now float64, changed bool) float64 {
	if changed {
		s.Interval = (1-r.DecRate)*s.Interval + r.DecRate*r.Min
		s.Modified = now
	} else {
		if s.Interval *= 1 + r.IncRate; s.Interval > r.Max {
			s.Interval = r.Max
		}
	}
	return now + s.Interval
}

// Adaptive plays a Rule as a Syncer, keeping each page's state. It is not
// safe for concurrent use: give each simulation its own.
type Adaptive struct {
	Rule  Rule
	state []PageState
}

// NewAdaptive returns a Syncer for n pages that follow rule.
func NewAdaptive(rule Rule, n int) *Adaptive {
	return &Adaptive{Rule: rule, state: make([]PageState, n)}
}

// State returns page i's state, for inspection after a run.
func (a *Adaptive) State(i int) PageState { return a.state[i] }

// First implements Syncer: the page was fetched at time 0, and is next
// synced when the rule says.
func (a *Adaptive) First(i int, _ *rand.Rand) float64 {
	s, next := a.Rule.Start()
	a.state[i] = s
	return after(0, a.Rule.Listed(next, 0))
}

// Next implements Syncer. Unbudgeted, the crawler makes its next fetch
// list as soon as it has updated the page, so the list is made at now: a
// page the crawler pulls back (Rule.Listed) is synced again at once.
func (a *Adaptive) Next(i int, now float64, changed bool, _ *rand.Rand) float64 {
	return a.Rule.Listed(a.Rule.Next(&a.state[i], now, changed), now)
}

// checkRule reports a rule whose parameters cannot work.
func checkRule(r Rule) error {
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s %v: expected a finite number > 0", name, v)
		}
		return nil
	}
	var errs []error
	switch r := r.(type) {
	case Nutch:
		errs = append(errs, pos("initial interval", r.Initial), pos("minimum interval", r.Min), pos("maximum interval", r.Max), pos("db.fetch.interval.max", r.MaxFetch))
		if !(r.IncRate >= 0) || math.IsInf(r.IncRate, 0) || !(r.DecRate >= 0 && r.DecRate < 1) || !(r.SyncDeltaRate >= 0 && r.SyncDeltaRate <= 1) {
			errs = append(errs, errors.New("rates: expected inc ≥ 0, 0 ≤ dec < 1 and 0 ≤ sync delta rate ≤ 1"))
		}
		if r.Min > r.Max {
			errs = append(errs, errors.New("minimum interval above the maximum"))
		}
	case Heritrix:
		errs = append(errs, pos("initial wait", r.Initial), pos("minimum wait", r.Min), pos("maximum wait", r.Max))
		if !(r.ChangedFactor >= 1) || !(r.UnchangedFactor >= 1) || math.IsInf(r.ChangedFactor, 0) || math.IsInf(r.UnchangedFactor, 0) {
			errs = append(errs, errors.New("factors: expected finite numbers ≥ 1"))
		}
		if r.Min > r.Max {
			errs = append(errs, errors.New("minimum wait above the maximum"))
		}
	case StormCrawler:
		errs = append(errs, pos("initial interval", r.Initial), pos("maximum interval", r.Max))
		if !(r.Min >= 0) || r.Min > r.Max {
			errs = append(errs, errors.New("minimum interval: expected 0 ≤ min ≤ max"))
		}
		if !(r.IncRate >= 0) || !(r.DecRate > 0 && r.DecRate < 1) || math.IsInf(r.IncRate, 0) {
			errs = append(errs, errors.New("rates: expected inc ≥ 0 and 0 < dec < 1"))
		}
	}
	return errors.Join(errs...)
}
