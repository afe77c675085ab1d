// Package refresh simulates batch refresh cycles under a download budget, the
// setting of Taleghani & Ugur-Ozekinci §2 and Al-Qaaideh §2.4: each cycle
// the web changes, then a policy spends its budget downloading pages, and the
// cycle is scored by ChangeRatio, freshness and age.
//
// A Policy sees what a real crawler sees, and no more ("no peeking"): the
// repository, and the outcome of its own downloads through Crawl.Download
// (or Crawl.Sample, a download a sampling policy makes to estimate a
// group), which charges the budget. Only policies whose Descriptor is
// marked Oracle (the perfect-foresight upper bound, labelled as such in the
// UI) are handed the truth.
package refresh

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
)

// Policy decides what to download each cycle.
type Policy interface {
	// Refresh spends the cycle's downloads through c. It may stop before
	// the budget is used up.
	Refresh(c *Crawl)
}

// Reuser is a policy that can start a new repeat without being built
// again: Reuse(env) must leave it exactly as Descriptor.New(env) would, only
// without allocating. The runner builds each policy once per run and reuses
// it for the other repeats; a test checks that this changes no number.
type Reuser interface {
	Reuse(env Env)
}

// SiteEstimator is a policy that estimates, each cycle, what share of each
// site's pages changed: a sampling policy's view of the web. The runner
// reports these estimates beside the truth (Al-Qaaideh Table 4.2).
type SiteEstimator interface {
	// SiteEstimates returns, after Refresh, each site's estimated change
	// fraction for the cycle, or a negative value for a site it did not
	// estimate. The runner only reads it.
	SiteEstimates() []float64
}

// Curve is a curve a policy computed while it was built, shown beside its
// results: say the cross-validated clustering criterion τ against the
// number of clusters k (Tan et al. §3.3, Fig. 1), with the k it chose.
type Curve struct {
	ID     string    `json:"id"`
	Name   string    `json:"name"`
	XLabel string    `json:"xLabel"`
	YLabel string    `json:"yLabel"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	// Chosen is the x the policy chose on the curve, if it chose one.
	Chosen *float64 `json:"chosen,omitempty"`
}

// Curver is a policy that computed curves while it was built. The runner
// reads them once, after the first repeat's policy is built: they depend
// on the repository and the parameters, not on the repeat.
type Curver interface {
	Curves() []Curve
}

// Grouper is a policy that groups pages its own way (categories of related
// pages, clusters) rather than by site. A view of its crawl (the lab's
// trace) draws the pages in these groups; other policies' pages are drawn
// by site.
type Grouper interface {
	// Groups returns, after Refresh, what one group is called ("category",
	// "cluster"), each group's name and its pages. A page may be in
	// several groups or in none. The slices are shared; the runner only
	// reads them.
	Groups() (kind string, names []string, pages [][]int32)
}

// Env is what a policy is built from.
type Env struct {
	Repo   *dataset.Repository
	Budget int // downloads per cycle
	Cycles int
	// CycleDays is the length of one cycle in days, from the dataset's
	// cycle length; 0 when the dataset does not say.
	CycleDays float64
	Rand      *rand.Rand   // the policy's own random source
	Params    param.Values // checked; a policy records computed defaults here
	Truth     Truth        // the current truth; nil unless the policy is an oracle
	// Memo keeps what a policy derives from the repository alone (say, a
	// clustering of static features or TOPIC categories) across repeats and
	// runs on the same dataset: build runs once per key. It may be nil, in
	// which case build runs every time.
	Memo func(key string, build func() (any, error)) (any, error)
}

// Remember returns build's value through env.Memo when there is one.
func (env Env) Remember(key string, build func() (any, error)) (any, error) {
	if env.Memo == nil {
		return build()
	}
	return env.Memo(key, build)
}

// Truth is the view of the source that only oracle policies get: which
// pages differ from the crawler's copy right now, and since when.
type Truth interface {
	// Stale lists the pages whose copy is out of date. The slice is shared
	// and changes with every download.
	Stale() []int32
	// StaleSince returns the time of the first change the copy of p misses,
	// in cycles, or -1 when p is up to date.
	StaleSince(p int32) float64
	// Rates returns each page's true change rate in changes per cycle, for
	// oracle schedules that plan from the truth. The slice is shared; do
	// not modify it.
	Rates() []float64
	// Changed returns the pages that changed at the source in cycle c, for
	// c from 0 to the current cycle (nil otherwise): the daily log of a
	// crawler that fetched every page every cycle, such as the one
	// Al-Qaaideh's experiment read its page histories from (§4.4). The
	// slice is shared; do not modify it.
	Changed(c int) []int32
}

// Descriptor names a policy, documents it and builds it.
type Descriptor struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Paper   string `json:"paper"`
	Summary string `json:"summary"`
	Kind    string `json:"kind"`
	Oracle  bool   `json:"oracle"`
	// UpperBound marks the oracle no policy can beat on ChangeRatio; other
	// oracles read the truth (true rates, say) but are not ceilings.
	UpperBound bool          `json:"upperBound,omitempty"`
	Params     []param.Param `json:"params"`
	// Cost is what one page-cycle of the policy costs to simulate, in
	// nanoseconds on the native build: a generous upper bound over the
	// bundled datasets, which make bench checks against measurement. The
	// lab's work limit weighs a run by it, since policies differ in cost
	// tens of times over.
	Cost float64                   `json:"-"`
	New  func(Env) (Policy, error) `json:"-"`
	// Expect, when set, returns the exact expected ChangeRatio of one
	// cycle of the policy on d's first cycle, for lessons that set a
	// simulation beside its theory. It may refuse (an error) where the
	// enumeration is too large.
	Expect func(d *dataset.Dataset, budget int, params param.Values) (float64, error) `json:"-"`
}

// ErrBudget is the panic value of a Download past the cycle's budget: a bug
// in the policy, which should check Remaining.
var ErrBudget = errors.New("refresh: download past the cycle's budget")

// Crawl is a policy's handle on one cycle: the only way to learn whether a
// page changed is to download it, which costs one unit of the budget. A
// policy must not keep it past Refresh.
type Crawl struct {
	sim       *Sim
	cycle     int
	budget    int // the cycle's downloads: budget − remaining were made
	remaining int
	changed   int
	samples   int  // downloads made through Sample
	sampling  bool // within Sample, for Sim.Watch
}

// Cycle returns the 0-based index of the cycle.
func (c *Crawl) Cycle() int { return c.cycle }

// Remaining returns the downloads left in this cycle.
func (c *Crawl) Remaining() int { return c.remaining }

// Download fetches page p and reports whether it changed since the crawler's
// last copy of it. The copy is then up to date. Downloading past the budget
// panics with ErrBudget.
func (c *Crawl) Download(p int32) bool {
	// Kept small enough for the compiler to inline it into the policies'
	// loops (which is why downloads are counted as budget − remaining): in
	// WebAssembly a call passes its arguments through memory, and every
	// policy calls this at every download. refresh counts the changed.
	if c.remaining <= 0 {
		panic(ErrBudget)
	}
	c.remaining--
	return c.sim.refresh(p)
}

// Sample is Download for a page that a sampling policy fetches to estimate
// how much of its group (a site, a category, a cluster) changed, rather
// than because it chose the page itself: it costs one download, brings the
// copy up to date and answers exactly as Download would. The difference is
// only recorded, for the cycle's count of samples (Cycle.Samples) and for
// a watcher of the crawl (Sim.Watch), so that a view of the crawler can
// show where a sampling policy's budget went.
func (c *Crawl) Sample(p int32) bool {
	if c.remaining <= 0 {
		panic(ErrBudget)
	}
	c.remaining--
	c.samples++
	c.sampling = true
	changed := c.sim.refresh(p)
	c.sampling = false
	return changed
}

// Copy writes into out the attributes of the crawler's copy of p, the
// version its last download fetched (or the initial copy), as the
// dataset's Content describes them, and reports whether the dataset has a
// content model. A crawler holds the pages it downloaded, so this is not
// peeking; the source's current version stays hidden until downloaded.
func (c *Crawl) Copy(p int32, out []float64) bool {
	if c.sim.content == nil {
		return false
	}
	c.sim.content.Version(p, c.sim.page[p].copyV, out)
	return true
}

// Previous writes into out the attributes of the copy of p the crawler
// held before its last download of p (the initial copy if it downloaded p
// at most once), and reports whether the dataset has a content model.
func (c *Crawl) Previous(p int32, out []float64) bool {
	if c.sim.content == nil {
		return false
	}
	c.sim.content.Version(p, c.sim.page[p].prevV, out)
	return true
}

// Similarity is the cosine similarity of the texts of the crawler's last
// two copies of p (1 when they are the same, or with no content model).
func (c *Crawl) Similarity(p int32) float64 {
	if c.sim.content == nil {
		return 1
	}
	return c.sim.content.Similarity(p, c.sim.page[p].prevV, c.sim.page[p].copyV)
}

// Cycle holds one cycle's measurements.
type Cycle struct {
	Downloads int // pages downloaded, samples included
	Samples   int // of the downloads, those made through Crawl.Sample
	Changed   int // downloaded pages that had changed
	// Freshness is the fraction of pages whose copy is up to date at the end
	// of the cycle, after its downloads (Taleghani eq. 3).
	Freshness float64
	// Age is the mean over all pages of the time since the first change
	// the copy misses, 0 for fresh pages (Taleghani eq. 4-5), in cycles,
	// at the end of the cycle.
	Age float64
	// Divergence is the mean over all pages of the number of cycles with a
	// change since the crawler's copy was fetched, 0 for fresh pages, at
	// the end of the cycle. Al-Qaaideh §2.4.4 names divergence, how
	// different a page's copy is from the original, without a formula; a
	// copy is read here as that many versions behind, in the unit of his
	// own change counting (§4.2: each day's copy compared with the day
	// before's). Freshness asks whether a copy is behind, age for how
	// long; divergence asks by how many changes.
	Divergence float64
	// Changes is the weight of the cycle's changes: each page that changed
	// during the cycle counts its weight, 1 on a dataset without weights
	// (dataset.FeatureWeight), once however often it changed (see RIR).
	Changes float64
	// Returned is the weight of the cycle's changes that the crawler
	// returned by the end of the run (see RIR). A change of this cycle may
	// be returned by a later cycle's download, so Run fills it in last.
	Returned float64
}

// RIR is the cycle's returned information ratio, Returned / Changes: the
// share of the (weighted) changes that happened during the cycle which the
// crawler returned. NaN when nothing changed.
//
// It carries Pandey, Ramamritham & Chakrabarti's RIR (§5.1: returned over
// total information change, each change weighted by its page's weight
// W_i) from monitoring to refresh cycles, under their complete-loss
// assumption (§3.1: "an update results in complete loss of information
// from previous updates"): a change is returned when the page is
// downloaded after it and before its next change, and lost when the page
// changes again first. On the lab's truths a cycle only says whether a
// page changed (dataset.Truth), and the crawler downloads at the cycle's
// end, so:
//
//   - a page that changed during cycle c is one change, of cycle c. Had
//     it changed several times in the cycle, every change but the last is
//     lost to any crawler that downloads at cycle ends, whatever the
//     policy; the truth does not count them, and neither does RIR;
//   - that change is returned when the page is downloaded (or sampled) at
//     the end of cycle c, or of a later cycle before the next one in which
//     it changes; it is lost when the page changes again first, and not
//     returned when the run ends before either;
//   - so each download that finds a page changed returns exactly one
//     change (the latest), and the others are lost.
//
// ChangeRatio divides the same returned changes by the downloads spent;
// RIR divides them by the changes there were to catch.
func (c Cycle) RIR() float64 {
	if c.Changes == 0 {
		return math.NaN()
	}
	return c.Returned / c.Changes
}

// RunRIR is the RIR of a whole run, its cycles' Returned over their
// Changes summed (CAM's ratio of sums, so that a cycle with many changes
// counts for more than a quiet one). NaN when nothing changed.
func RunRIR(cycles []Cycle) float64 {
	var ret, ch float64
	for _, c := range cycles {
		ret += c.Returned
		ch += c.Changes
	}
	if ch == 0 {
		return math.NaN()
	}
	return ret / ch
}

// ChangeRatio is the fraction of the cycle's downloads that found a change
// (Taleghani eq. 1). It is NaN when nothing was downloaded.
func (c Cycle) ChangeRatio() float64 {
	if c.Downloads == 0 {
		return math.NaN()
	}
	return float64(c.Changed) / float64(c.Downloads)
}

// Sim tracks the crawler's copy of every page against the source. Its
// work per cycle is proportional to the cycle's changes and downloads, not
// to the number of pages, so large repositories and many repeats stay fast.
type Sim struct {
	truth *dataset.Truth
	// cycleDays is the dataset's cycle length in days (0 when unknown), and
	// rates the true rates per cycle, computed on first use.
	cycleDays float64
	rates     []float64
	// page holds each page's state side by side, so that a download or a
	// change touches one cache line, not one per array.
	page  []pageState
	stale []int32
	// sinceSum is Σ since over the stale pages, kept with Neumaier's
	// compensated summation so that age stays exact to the last bits
	// however many pages come and go.
	sinceSum, sinceComp float64
	// behind[p] counts the cycles with a change since p's copy was
	// fetched (Cycle.Divergence), positive exactly when p is stale, and
	// behindSum is their sum, the versions all copies miss. Apart from
	// pageState for the same reason as last.
	behind    []int32
	behindSum int

	// With a content model (pageState's versions), the pages whose
	// versions moved (to reset them).
	content       dataset.Content
	versionsMoved []int32

	// weight is each page's weight (dataset.FeatureWeight), nil when the
	// dataset has none and every page weighs 1; returned holds, during a
	// Run, the weight returned of each of its cycles' changes. last[p] is
	// the cycle of the latest change p's copy misses, when stale: the
	// change a download returns (Cycle.RIR); −1 for a change from before
	// the current Run. It is apart from pageState, which every download
	// reads, because only changes and changed downloads need it.
	weight   []float64
	returned []float64
	last     []int32

	crawl Crawl // reused each cycle
	now   int   // the cycle being played, -1 outside Run

	// After, when set, is called at the end of each cycle with its index,
	// after the policy's downloads: the runner reads diagnostics there.
	After func(cycle int)

	// Downloads, when set (one element per page), counts each page's
	// downloads, across cycles and repeats until the caller clears it: a
	// test's way to find the pages a policy never fetches.
	Downloads []int32

	// Watch, when set, is told of each download as the policy makes it:
	// the page, whether it was a sample (Crawl.Sample), and whether it
	// found the page changed since the crawler's last copy (what Download
	// answers). The lab's trace of a repeat records the crawl through it.
	Watch func(p int32, sample, changed bool)
}

// pageState is one page's part of the Sim.
type pageState struct {
	since float64 // time of the first missed change, -1 when fresh
	pos   int32   // index in Sim.stale, -1 when fresh
	// With a content model: the page's version at the source, of the
	// crawler's copy and of its copy before that.
	version, copyV, prevV int32
}

// NewSim returns a simulator for d with every copy fresh at time 0.
func NewSim(d *dataset.Dataset) *Sim {
	n := len(d.Pages)
	s := &Sim{truth: &d.Truth, cycleDays: d.Info.CycleLength / 86400, page: make([]pageState, n), content: d.Content, now: -1,
		weight: d.Features[dataset.FeatureWeight], last: make([]int32, n), behind: make([]int32, n)}
	for i := range s.page {
		s.page[i] = pageState{since: -1, pos: -1}
	}
	return s
}

// Reset makes every copy fresh again, for the next repeat. Only stale
// pages hold state, so only they are touched.
func (s *Sim) Reset() {
	for _, p := range s.stale {
		s.page[p].since, s.page[p].pos, s.behind[p] = -1, -1, 0
	}
	s.behindSum = 0
	s.stale = s.stale[:0]
	s.sinceSum, s.sinceComp = 0, 0
	for _, p := range s.versionsMoved {
		s.page[p].version, s.page[p].copyV, s.page[p].prevV = 0, 0, 0
	}
	s.versionsMoved = s.versionsMoved[:0]
}

// addSince adds x to sinceSum (Neumaier's variant of Kahan summation).
func (s *Sim) addSince(x float64) {
	t := s.sinceSum + x
	if math.Abs(s.sinceSum) >= math.Abs(x) {
		s.sinceComp += (s.sinceSum - t) + x
	} else {
		s.sinceComp += (x - t) + s.sinceSum
	}
	s.sinceSum = t
}

// Stale implements Truth.
func (s *Sim) Stale() []int32 { return s.stale }

// StaleSince implements Truth.
func (s *Sim) StaleSince(p int32) float64 { return s.page[p].since }

// Changed implements Truth.
func (s *Sim) Changed(c int) []int32 {
	if c < 0 || c > s.now {
		return nil
	}
	return s.truth.Changed[c]
}

// Rates implements Truth. When the dataset records its generator's rates
// (dataset.Truth.Rates, changes per day) and its cycle length (Info.CycleLength,
// seconds), page i's rate per cycle is Rates[i]·CycleLength/86400. Otherwise
// it is estimated once from the whole truth, by Cho & Garcia-Molina's
// bias-reduced estimator for regular accesses (ACM TOIT 2003, as Grimes &
// Ford state it in their eq. 1) with one access per cycle over all C
// cycles: X of them saw a change, so λ̂ = −ln((C − X + 0.5)/(C + 0.5)) per
// cycle. The truth is the best any
// schedule could know, but a page that changed in every cycle still gets
// the finite ln(2C + 1).
func (s *Sim) Rates() []float64 {
	if s.rates != nil {
		return s.rates
	}
	n := len(s.page)
	s.rates = make([]float64, n)
	if s.truth.Rates != nil && s.cycleDays > 0 {
		for i, r := range s.truth.Rates {
			s.rates[i] = r * s.cycleDays
		}
		return s.rates
	}
	for _, changed := range s.truth.Changed {
		for _, p := range changed {
			s.rates[p]++
		}
	}
	c := float64(s.truth.Cycles())
	for i, x := range s.rates {
		// −ln(1 − X/(C + 0.5)) through Log1p, the same bits in WebAssembly.
		s.rates[i] = -math.Log1p(-x / (c + 0.5))
	}
	return s.rates
}

// refresh brings p's copy up to date and reports whether it was stale,
// counting it in the cycle's crawl if it was.
func (s *Sim) refresh(p int32) bool {
	pg := &s.page[p]
	if s.Downloads != nil {
		s.Downloads[p]++
	}
	if s.Watch != nil {
		s.Watch(p, s.crawl.sampling, pg.pos >= 0)
	}
	if s.content != nil {
		pg.prevV, pg.copyV = pg.copyV, pg.version
	}
	i := pg.pos
	if i < 0 {
		return false
	}
	last := s.stale[len(s.stale)-1]
	s.stale[i] = last
	s.page[last].pos = i
	s.stale = s.stale[:len(s.stale)-1]
	pg.pos = -1
	s.behindSum -= int(s.behind[p])
	s.behind[p] = 0
	s.addSince(-pg.since)
	pg.since = -1
	s.crawl.changed++
	if c := s.last[p]; c >= 0 {
		s.returned[c] += s.weightOf(p)
	}
	return true
}

// weightOf returns page p's weight, 1 without weights.
func (s *Sim) weightOf(p int32) float64 {
	if s.weight == nil {
		return 1
	}
	return s.weight[p]
}

// change applies the source changes of cycle c and returns their weight
// (Cycle.Changes). A stale page that changes again loses the change its
// copy missed (Cycle.RIR).
func (s *Sim) change(c int) float64 {
	changed := s.truth.Changed[c]
	var w float64
	for i, p := range changed {
		pg := &s.page[p]
		if s.content != nil {
			if pg.version == 0 {
				s.versionsMoved = append(s.versionsMoved, p)
			}
			pg.version++
		}
		s.behind[p]++
		s.behindSum++
		if s.weight != nil {
			w += s.weight[p]
		}
		s.last[p] = int32(c)
		if pg.pos >= 0 {
			continue
		}
		pg.since = s.truth.FirstChange(c, i)
		s.addSince(pg.since)
		pg.pos = int32(len(s.stale))
		s.stale = append(s.stale, p)
	}
	if s.weight == nil {
		return float64(len(changed))
	}
	return w
}

// Run plays cycles 0..cycles-1 with policy p spending budget downloads per
// cycle, appending each cycle's measurements to out.
func (s *Sim) Run(p Policy, budget, cycles int, out []Cycle) []Cycle {
	n := float64(len(s.page))
	defer func() { s.now = -1 }()
	start := len(out)
	s.returned = slices.Grow(s.returned[:0], cycles)[:cycles]
	clear(s.returned)
	for _, p := range s.stale {
		s.last[p] = -1 // a change from before this run is none of its own
	}
	for c := 0; c < cycles; c++ {
		s.now = c
		changes := s.change(c)
		s.crawl = Crawl{sim: s, cycle: c, budget: budget, remaining: budget}
		cr := &s.crawl
		p.Refresh(cr)
		now := float64(c + 1)
		// Σ (now − since) over the stale pages.
		age := now*float64(len(s.stale)) - (s.sinceSum + s.sinceComp)
		if len(s.stale) == 0 {
			age = 0
		}
		out = append(out, Cycle{
			Downloads: cr.budget - cr.remaining,
			Samples:   cr.samples,
			Changed:   cr.changed,
			Freshness: 1 - float64(len(s.stale))/n,
			Age:       max(age, 0) / n,
			Changes:   changes,
		})
		out[len(out)-1].Divergence = float64(s.behindSum) / n
		if s.After != nil {
			s.After(c)
		}
	}
	for c, r := range s.returned {
		out[start+c].Returned = r
	}
	return out
}
