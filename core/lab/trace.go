package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Limits on a trace (Lab.Trace), so that one fits in a page: the pages it
// shows, and those pages times the cycles.
const (
	DefaultTracePages = 2000
	MaxTracePages     = 5000
	MaxTraceCells     = 250_000
)

// Trace is one repeat of one refresh policy of a spec, cycle by cycle and
// page by page: what the crawler view of a lesson plays. It is recorded
// from the run itself, not simulated again: the policy is built as the
// runner builds it, with the repeat's random stream (Stream), plays in the
// same simulator (refresh.Sim), and its downloads are seen through the
// simulator's watcher (Sim.Watch). So each cycle's ChangeRatio and
// freshness here are those of that repeat of the run, and the run's
// per-cycle series are their means over the repeats.
//
// A large dataset is shown in part (Pages, Shown), but every count and
// number of a cycle is of all its pages.
type Trace struct {
	Policy  string       `json:"policy"` // its key in the spec (PolicySpec.Key)
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Oracle  bool         `json:"oracle,omitempty"`
	Repeat  int          `json:"repeat"`  // from 0
	Repeats int          `json:"repeats"` // the run's
	Budget  int          `json:"budget"`
	Dataset dataset.Info `json:"dataset"`

	// GroupBy says what the groups are: "site", or the policy's own
	// groups ("category", "cluster": refresh.Grouper) as they stood after
	// its first cycle. A page in several of a policy's groups is drawn in
	// the first; pages in none form one more group.
	GroupBy string       `json:"groupBy"`
	Groups  []TraceGroup `json:"groups"`
	// Pages lists the pages shown, group after group: their index in the
	// dataset. Bit i of a cycle's bitsets is page Pages[i]. Labels holds
	// each shown page's URL.
	Pages  []int32  `json:"pages"`
	Labels []string `json:"labels"`
	// Shown says in a sentence which pages are shown.
	Shown string `json:"shown"`

	Cycles []TraceCycle `json:"cycles"`
	// ChangeRatio and Freshness are the repeat's headline numbers: the
	// cycles' values averaged as the runner averages them (ChangeRatio over
	// the cycles that downloaded something).
	ChangeRatio float64 `json:"changeRatio"`
	Freshness   float64 `json:"freshness"`
}

// TraceGroup is one group of a trace's pages.
type TraceGroup struct {
	Name  string `json:"name"`
	Start int    `json:"start"` // its first page in Trace.Pages
	Shown int    `json:"shown"` // its pages shown, from Start on
	Pages int    `json:"pages"` // its pages in the dataset, as the trace groups them
}

// TraceCycle is one cycle of a trace. Its bitsets hold a bit per shown
// page (Trace.Pages), bit i in byte i/8 at value 1<<(i%8), and are written
// to JSON in base64.
type TraceCycle struct {
	// Changed: the page changed at the source during the cycle. Stale:
	// its copy was already out of date when the cycle began. A page in
	// either is out of date before the cycle's downloads.
	Changed Bits `json:"changed"`
	Stale   Bits `json:"stale"`
	// Sampled and Downloaded: the policy fetched the page this cycle as a
	// sample (refresh.Crawl.Sample) or as an ordinary download. Found: a
	// download of it found it changed since the last copy.
	Sampled    Bits `json:"sampled"`
	Downloaded Bits `json:"downloaded"`
	Found      Bits `json:"found"`
	// StaleAfter: the copy is out of date at the end of the cycle, after
	// its downloads; the others are fresh.
	StaleAfter Bits `json:"staleAfter"`

	Totals TraceTotals `json:"totals"`
	// ChangeRatio (NaN, written null, when nothing was downloaded) and
	// Freshness are the simulator's measurement of the cycle
	// (refresh.Cycle).
	ChangeRatio float64 `json:"changeRatio"`
	Freshness   float64 `json:"freshness"`
}

// TraceTotals counts a cycle over every page of the dataset, shown or not.
type TraceTotals struct {
	Changed   int `json:"changed"`   // pages that changed at the source during the cycle
	Stale     int `json:"stale"`     // pages out of date when it began
	OutOfDate int `json:"outOfDate"` // pages out of date before its downloads
	Downloads int `json:"downloads"` // downloads, samples included
	Samples   int `json:"samples"`   // of the downloads, samples
	Found     int `json:"found"`     // downloads that found a change
	Fresh     int `json:"fresh"`     // pages up to date at its end
}

// MarshalJSON writes a NaN ChangeRatio as null.
func (c TraceCycle) MarshalJSON() ([]byte, error) {
	type plain TraceCycle
	// The outer field hides the embedded one of the same JSON name.
	return json.Marshal(struct {
		plain
		ChangeRatio *float64 `json:"changeRatio"`
	}{plain(c), orNull(c.ChangeRatio)})
}

// MarshalJSON writes a NaN ChangeRatio (no cycle downloaded anything) as
// null.
func (t Trace) MarshalJSON() ([]byte, error) {
	type plain Trace
	return json.Marshal(struct {
		plain
		ChangeRatio *float64 `json:"changeRatio"`
	}{plain(t), orNull(t.ChangeRatio)})
}

// orNull returns &x, or nil (JSON null) when x is NaN.
func orNull(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

// Bits is a set of small non-negative integers as a bitset: i is in it
// when byte i/8 has bit i%8.
type Bits []byte

// newBits returns an empty set for 0..n-1.
func newBits(n int) Bits { return make(Bits, (n+7)/8) }

// Has reports whether i is in b.
func (b Bits) Has(i int) bool { return i>>3 < len(b) && b[i>>3]&(1<<(i&7)) != 0 }

func (b Bits) set(i int) { b[i>>3] |= 1 << (i & 7) }

// Count returns the number of elements of b.
func (b Bits) Count() int {
	n := 0
	for _, x := range b {
		for ; x != 0; x &= x - 1 {
			n++
		}
	}
	return n
}

// Trace plays repeat (from 0) of the spec's policy addressed by key
// (PolicySpec.Key) and records it cycle by cycle, showing at most maxPages
// pages (0: DefaultTracePages; see Trace.Shown for which). A spec that
// cannot run, an unknown policy, a repeat outside the run's or more than
// MaxTracePages pages or MaxTraceCells pages × cycles is a *SpecError
// naming the field: spec fields as Run names them, and "policy",
// "repeat" or "maxPages".
func (l *Lab) Trace(spec Spec, key string, repeat, maxPages int) (*Trace, error) {
	return l.TraceContext(context.Background(), spec, key, repeat, maxPages)
}

// TraceContext is Trace that stops with ctx's error once ctx is done
// (checked before the run and after each cycle), so that a server's
// request deadline bounds a trace of a long log as it bounds a run.
func (l *Lab) TraceContext(ctx context.Context, spec Spec, key string, repeat, maxPages int) (tr *Trace, err error) {
	if spec.Kind != "" && spec.Kind != KindRefresh {
		return nil, specErr("kind", "a trace plays a refresh experiment's crawl, not one of kind %s", spec.Kind)
	}
	spec, d, err := l.Resolve(spec)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(spec.Policies, func(p PolicySpec) bool { return p.Key() == key })
	if i < 0 {
		keys := make([]string, len(spec.Policies))
		for j, p := range spec.Policies {
			keys[j] = p.Key()
		}
		return nil, specErr("policy", "%q is not a policy of the spec (expected one of %s)", key, strings.Join(keys, ", "))
	}
	if repeat < 0 || repeat >= spec.Repeats {
		return nil, specErr("repeat", "must be between 0 and %d, one of the run's %d repeats, got %d", spec.Repeats-1, spec.Repeats, repeat)
	}
	switch {
	case maxPages == 0:
		maxPages = DefaultTracePages
	case maxPages < 0 || maxPages > MaxTracePages:
		return nil, specErr("maxPages", "must be between 1 and %d, got %d", MaxTracePages, maxPages)
	}
	if cells := min(maxPages, len(d.Pages)) * spec.Cycles; cells > MaxTraceCells {
		return nil, specErr("maxPages", "%s × %s is %s page-cycles, over the limit of %s: ask for at most %s, or fewer cycles",
			count(min(maxPages, len(d.Pages)), "page", "pages"), count(spec.Cycles, "cycle", "cycles"), thousands(cells), thousands(MaxTraceCells),
			count(max(1, MaxTraceCells/spec.Cycles), "page", "pages"))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	desc, _ := l.policy(spec.Policies[i].ID)
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(stopped); ok {
				tr, err = nil, s.err
				return
			}
			tr, err = nil, fmt.Errorf("policy %s failed: %v", desc.ID, r)
		}
	}()
	sim := refresh.NewSim(d)
	p, err := newPolicy(sim, d, spec, i, desc, Stream(spec.Seed, desc.ID, repeat), paramsOf(spec, i), l.memoFor(d.Info.ID))
	if err != nil {
		return nil, err
	}
	rec := &recorder{ctx: ctx, d: d, sim: sim, policy: p, max: maxPages}
	sim.Watch = rec.watch
	sim.After = rec.after
	cycles := sim.Run(p, spec.Budget, spec.Cycles, nil)
	tr = &Trace{
		Policy: key, ID: desc.ID, Name: desc.Name, Oracle: desc.Oracle, Repeat: repeat, Repeats: spec.Repeats, Budget: spec.Budget,
		Dataset: d.Info, GroupBy: rec.groupBy, Groups: rec.groups, Pages: rec.shown, Shown: rec.says, Cycles: rec.cycles,
	}
	for _, pg := range tr.Pages {
		tr.Labels = append(tr.Labels, d.Pages[pg].URL)
	}
	stale := 0
	for c, cy := range cycles {
		t := &tr.Cycles[c]
		t.ChangeRatio, t.Freshness = cy.ChangeRatio(), cy.Freshness
		fresh := len(d.Pages) - rec.staleAfter[c]
		t.Totals = TraceTotals{
			Changed: len(d.Truth.Changed[c]), Stale: stale, OutOfDate: rec.staleAfter[c] + cy.Changed,
			Downloads: cy.Downloads, Samples: cy.Samples, Found: cy.Changed, Fresh: fresh,
		}
		stale = rec.staleAfter[c]
	}
	tr.ChangeRatio, tr.Freshness, _, _ = repeatMeans(cycles)
	return tr, nil
}

// stopped carries a done context's error out of the simulator, which
// has no way to stop within a run (recorder.after panics with it).
type stopped struct{ err error }

// recorder records a trace as the simulator plays it.
type recorder struct {
	ctx    context.Context
	d      *dataset.Dataset
	sim    *refresh.Sim
	policy refresh.Policy
	max    int

	// This cycle's downloads so far, as dataset pages: samples, the
	// others, and those that found a change.
	sampled, downloaded, found []int32

	// Set at the end of the first cycle (choose).
	groupBy string
	groups  []TraceGroup
	shown   []int32
	says    string
	at      []int32 // per dataset page: its index in shown, or -1

	cycles     []TraceCycle
	staleAfter []int // per cycle: pages out of date at its end, of all
}

func (r *recorder) watch(p int32, sample, changed bool) {
	if sample {
		r.sampled = append(r.sampled, p)
	} else {
		r.downloaded = append(r.downloaded, p)
	}
	if changed {
		r.found = append(r.found, p)
	}
}

// after records cycle c, once the policy has made its downloads.
func (r *recorder) after(c int) {
	if err := r.ctx.Err(); err != nil {
		panic(stopped{err})
	}
	if c == 0 {
		r.choose()
	}
	n := len(r.shown)
	cy := TraceCycle{
		Changed: r.bits(r.d.Truth.Changed[c]), Sampled: r.bits(r.sampled), Downloaded: r.bits(r.downloaded), Found: r.bits(r.found),
		StaleAfter: newBits(n),
	}
	if c > 0 {
		cy.Stale = r.cycles[c-1].StaleAfter
	} else {
		cy.Stale = newBits(n) // every copy is fresh at time 0
	}
	for i, p := range r.shown {
		if r.sim.StaleSince(p) >= 0 {
			cy.StaleAfter.set(i)
		}
	}
	r.cycles = append(r.cycles, cy)
	r.staleAfter = append(r.staleAfter, len(r.sim.Stale()))
	r.sampled, r.downloaded, r.found = r.sampled[:0], r.downloaded[:0], r.found[:0]
}

// bits returns the set of the shown pages among ps (dataset pages).
func (r *recorder) bits(ps []int32) Bits {
	b := newBits(len(r.shown))
	for _, p := range ps {
		if i := r.at[p]; i >= 0 {
			b.set(int(i))
		}
	}
	return b
}

// choose groups the pages (by the policy's own groups if it has them, as
// they stand after its first cycle, else by site) and chooses those shown.
func (r *recorder) choose() {
	d := r.d
	kind, names, lists := "site", d.Sites, make([][]int32, len(d.Sites))
	if g, ok := r.policy.(refresh.Grouper); ok {
		kind, names, lists = g.Groups()
	} else {
		for w := range lists {
			lists[w] = d.SitePages(w)
		}
	}
	// Each page in the first group that lists it; pages in none, last.
	r.at = make([]int32, len(d.Pages))
	for i := range r.at {
		r.at[i] = -1
	}
	var groups [][]int32
	var gnames []string
	for g, ps := range lists {
		var mine []int32
		for _, p := range ps {
			if r.at[p] < 0 {
				r.at[p] = 0
				mine = append(mine, p)
			}
		}
		if len(mine) > 0 {
			groups, gnames = append(groups, mine), append(gnames, names[g])
		}
	}
	var rest []int32
	for p, a := range r.at {
		if a < 0 {
			rest = append(rest, int32(p))
		}
		r.at[p] = -1
	}
	if len(rest) > 0 {
		groups, gnames = append(groups, rest), append(gnames, "(in no "+kind+")")
	}
	r.groupBy = kind
	show, says := choosePages(groups, gnames, len(d.Pages), r.max, kind)
	r.says = says
	for g, k := range show {
		if k == 0 {
			continue
		}
		r.groups = append(r.groups, TraceGroup{Name: gnames[g], Start: len(r.shown), Shown: k, Pages: len(groups[g])})
		for _, p := range groups[g][:k] {
			r.at[p] = int32(len(r.shown))
			r.shown = append(r.shown, p)
		}
	}
}

// choosePages chooses which of n pages in disjoint groups a trace shows,
// at most max, and says which in a sentence: show[g] is how many of
// group g's pages, its first ones. All of them when they fit; otherwise
// whole groups, spread through the list (every k-th group first, k = ⌈n /
// max⌉, then any other that still fits), so that the groups shown are
// neither only the first nor only the smallest; and when no group fits
// whole, the first max pages of the first group.
func choosePages(groups [][]int32, names []string, n, max int, kind string) (show []int, says string) {
	show = make([]int, len(groups))
	kinds := kind + "s"
	if n <= max {
		for g, ps := range groups {
			show[g] = len(ps)
		}
		return show, fmt.Sprintf("All %s, by %s.", count(n, "page", "pages"), kind)
	}
	k := (n + max - 1) / max
	room, taken, shown := max, 0, 0
	for start := range k {
		for g := start; g < len(groups); g += k {
			if size := len(groups[g]); show[g] == 0 && size <= room {
				show[g], room, taken, shown = size, room-size, taken+1, shown+size
			}
		}
	}
	if taken == 0 {
		show[0] = max
		return show, fmt.Sprintf("The first %s of the %s of %s %s (of %s in all); the counts are of every page.",
			thousands(max), count(len(groups[0]), "page", "pages"), kind, names[0], count(n, "page", "pages"))
	}
	return show, fmt.Sprintf("%s of %s: %s of the %s, each whole, chosen through the list; the counts are of every page.",
		thousands(shown), count(n, "page", "pages"), thousands(taken), count(len(groups), kind, kinds))
}
