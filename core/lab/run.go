package lab

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Result is what a run returns: the spec with every fixed default filled
// in, so that it reproduces the run exactly, the dataset it ran on, and one
// entry per policy in the spec's order. A parameter a policy computes (its
// default is Auto, such as √(N·r)) stays out of the echo, as it was left
// out of the spec: it may take another value at each point of a sweep, and
// a frozen value would reproduce only one of them. Its values are beside
// the echo, in PolicyResult.Params (named in Auto) and SweepSeries.Params.
type Result struct {
	// ID names the result for later chart requests (POST /api/chart with
	// "id"); the API layer sets it from the spec, so one spec has one id.
	ID       string         `json:"id,omitempty"`
	Spec     Spec           `json:"spec"`
	Dataset  dataset.Info   `json:"dataset"`
	Policies []PolicyResult `json:"policies"`
	// Sweep holds the runs at each value of the spec's sweep, if it has one.
	Sweep *SweepResult `json:"sweep,omitempty"`
	// Sections holds what the run's kind says of it as a whole, in the
	// kind's type and in JSON under its id (such as a schedule run's
	// truth, core/schedule/schedulekind.Result).
	Sections Sections `json:"-"`
	// Work says in a phrase what ran ("3 policies × 10 repeats × 21 days
	// of 300 pages"), and About in a sentence or two how to read the
	// numbers (what they average over, their intervals, the setting), for
	// a status line and a table's caption.
	Work  string `json:"work"`
	About string `json:"about"`
}

// count writes n and a noun, singular or plural.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%s %s", thousands(n), many)
}

// Count writes n and a noun, singular or plural, with commas between
// thousands ("1 page", "1,140 pages"), as results and reports say counts.
func Count(n int, one, many string) string { return count(n, one, many) }

// thousands writes n with commas between thousands.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// PolicyResult holds one policy's results. Its metrics are keyed by
// metric id (Metrics): each headline is the per-repeat average over cycles
// (or epochs, or simulated time), summarised across repeats; Series holds a
// metric's summary at each cycle (refresh) or epoch (estimate). Facts are
// single numbers the run derives, such as an exact expectation. What only
// one kind has (per-site estimates, estimation paths, a schedule's
// allocation) is in Sites or Sections.
type PolicyResult struct {
	ID     string `json:"id"`
	Label  string `json:"label,omitempty"` // the spec's label, if any (PolicySpec.Key)
	Name   string `json:"name"`            // with the label in parentheses
	Oracle bool   `json:"oracle"`
	// UpperBound marks the oracle that is a ceiling, not just a reader of
	// the truth (refresh.Descriptor.UpperBound).
	UpperBound bool         `json:"upperBound,omitempty"`
	Params     param.Values `json:"params"`

	// Auto names the parameters whose value the policy computed (their
	// default is Auto, such as √(N·r)); Params holds the values.
	Auto []string `json:"auto,omitempty"`

	Metrics map[string]stat.Summary `json:"metrics"`
	Series  map[string]stat.Series  `json:"series,omitempty"`
	Facts   map[string]float64      `json:"facts,omitempty"`
	// Values holds each headline metric's value in every repeat, for a
	// policy that shares its random streams with another of the run: a
	// labelled copy of the same id draws the same streams (Stream goes by
	// id), so the two are compared repeat by repeat, as pairs (see
	// core/report). Policies whose id is theirs alone leave it out: their
	// repeats share nothing with the others', and the summaries are all a
	// comparison needs.
	Values map[string][]float64 `json:"values,omitempty"`

	// Curves are the curves the policy computed while it was built
	// (refresh.Curver), such as cluster sampling's cross-validated τ
	// against k.
	Curves []refresh.Curve `json:"curves,omitempty"`
	// Sites compares the policy's per-site change estimates with the
	// truth, for policies that estimate them (refresh.SiteEstimator).
	Sites *SiteEstimates `json:"sites,omitempty"`
	// Sections holds the policy's results that only its kind has, in the
	// kind's type and in JSON under its id (such as a schedule's
	// allocation per page, core/schedule/schedulekind.PolicyResult).
	Sections Sections `json:"-"`
}

// Key is how the policy is addressed: its label if it has one, else its id.
func (p PolicyResult) Key() string { return PolicySpec{ID: p.ID, Label: p.Label}.Key() }

// Resolve checks spec against the catalog and fills in its defaults. The
// error, if any, is a *SpecError.
func (l *Lab) Resolve(spec Spec) (Spec, *dataset.Dataset, error) {
	if spec.Kind == "" {
		spec.Kind = KindRefresh
	}
	switch spec.Kind {
	case KindRefresh:
	default:
		if k, ok := kindByID(spec.Kind); ok {
			return l.resolveKind(k, spec)
		}
		return spec, nil, specErr("kind", "unknown experiment kind %s (expected one of %q)", quote.Q(spec.Kind), Kinds())
	}
	d, err := l.lookupDataset(spec)
	if err != nil {
		return spec, nil, err
	}
	n := len(d.Pages)
	switch {
	case spec.Budget == 0:
		spec.Budget = max(1, n/10)
	case spec.Budget < 0:
		return spec, nil, specErr("budget", "must be at least 1 download per cycle, got %d", spec.Budget)
	}
	switch {
	case spec.Cycles == 0:
		spec.Cycles = d.Truth.Cycles()
	case spec.Cycles < 0 || spec.Cycles > d.Truth.Cycles():
		return spec, nil, specErr("cycles", "must be between 1 and the dataset's %d cycles, got %d", d.Truth.Cycles(), spec.Cycles)
	}
	if err := checkRepeats(&spec, DefaultRepeats); err != nil {
		return spec, nil, err
	}
	if err := checkPolicyCount(spec, "policy", "policies", l.policyIDs()); err != nil {
		return spec, nil, err
	}
	points := 1.0
	if spec.Sweep != nil {
		if err := checkSweep(spec.Sweep); err != nil {
			return spec, nil, err
		}
		points += float64(len(spec.Sweep.Values))
	}
	ps, err := l.checkPolicies(spec.Policies, KindRefresh, "policy")
	if err != nil {
		return spec, nil, err
	}
	spec.Policies = ps
	var cost float64 // ns per page-cycle of all the spec's policies
	for _, p := range ps {
		desc, _ := l.policy(p.ID)
		cost += desc.Cost
	}
	pageCycles := float64(n) * float64(spec.Cycles) * float64(spec.Repeats) * points
	if work := time.Duration(pageCycles * cost); work > MaxWork {
		runs := ""
		if points > 1 {
			runs = fmt.Sprintf(" × %.0f runs", points)
		}
		return spec, nil, specErr("repeats", "too much work: %d pages × %d cycles × %d repeats%s of these policies would take about %v, more than the %v a run may take; use fewer repeats",
			n, spec.Cycles, spec.Repeats, runs, work.Round(time.Second), MaxWork)
	}
	return spec, d, nil
}

// Run resolves spec and runs it. A policy that panics is reported as an
// error naming it; the lab stays usable.
func (l *Lab) Run(spec Spec) (*Result, error) {
	return l.RunContext(context.Background(), spec, nil)
}

// RunContext is Run that stops with ctx's error once ctx is done (checked
// between repeats), and tells progress, when not nil, how many repeats of
// the run's policies (and of its sweep's runs) have finished so far; a
// policy the lab remembers counts all its repeats at once.
func (l *Lab) RunContext(ctx context.Context, spec Spec, progress func(repeats int)) (*Result, error) {
	return l.run(spec, &watch{ctx: ctx, progress: progress})
}

// watch is what a run answers to: the context that may stop it, and who
// to tell of its progress.
type watch struct {
	ctx      context.Context
	progress func(repeats int)
	done     int
	shared   map[string]any // RunEnv.Shared
	inSweep  bool           // RunEnv.InSweep
}

// stopped returns the context's error once it is done.
func (w *watch) stopped() error { return w.ctx.Err() }

// add counts n more repeats finished.
func (w *watch) add(n int) {
	w.done += n
	if w.progress != nil {
		w.progress(w.done)
	}
}

func (l *Lab) run(spec Spec, w *watch) (res *Result, err error) {
	if k, ok := kindByID(spec.Kind); ok {
		return l.runKind(k, spec, w)
	}
	spec, d, err := l.Resolve(spec)
	if err != nil {
		return nil, err
	}
	res = &Result{Spec: spec, Dataset: d.Info}
	sim := refresh.NewSim(d)
	buf := runBuf{noReuse: l.noReuse, watch: w}
	for i, ps := range spec.Policies {
		desc, _ := l.policy(ps.ID)
		var pr PolicyResult
		if j := sameAs(spec.Policies[:i], ps); j >= 0 {
			// A copy with the same parameters draws the same streams
			// (Stream goes by id): its numbers are those of policy j.
			pr = res.Policies[j]
			pr.Label, pr.Name = "", desc.Name
			w.add(spec.Repeats)
		} else if pr, err = l.remembered(sim, d, spec, i, desc, &buf); err != nil {
			return nil, err
		}
		if ps.Label != "" {
			pr.Label, pr.Name = ps.Label, pr.Name+" ("+ps.Label+")"
		}
		res.Policies = append(res.Policies, pr)
	}
	if spec.Sweep != nil {
		if res.Sweep, err = l.runSweep(spec, w); err != nil {
			return nil, err
		}
	}
	pairedValues(res)
	unit := d.Info.CycleUnit
	res.Work = fmt.Sprintf("%s × %s × %s of %s", count(len(spec.Policies), "policy", "policies"), count(spec.Repeats, "repeat", "repeats"),
		count(spec.Cycles, unit, unit+"s"), count(len(d.Pages), "page", "pages"))
	res.About = fmt.Sprintf("Mean over %s, averaged over %s; ± is the half-width of the 95%% interval across repeats. %s, %s per %s, seed %d.",
		count(spec.Repeats, "repeat", "repeats"), count(spec.Cycles, unit, unit+"s"), d.Info.Name, count(spec.Budget, "download", "downloads"), unit, spec.Seed)
	return res, nil
}

// MaxRan is how many policy results the lab remembers at least (remembered),
// and at most twice as many (recent). Results with per-site estimates of
// more than MaxRanSites sites are not remembered, so that the memory
// stays within a few tens of megabytes in the browser.
const (
	MaxRan      = 128
	MaxRanSites = 1000
)

// ranKey is everything a refresh policy's result depends on. Its fields
// go to JSON as they are, so a result handed to another lab (shared)
// carries its key.
type ranKey struct {
	Dataset string `json:"dataset"`
	Budget  int    `json:"budget"`
	Cycles  int    `json:"cycles"`
	Repeats int    `json:"repeats"`
	Seed    uint64 `json:"seed"`
	Policy  string `json:"policy"`
	Params  string `json:"params"`
}

// remembered returns runPolicy's result for policy i of spec, computing it
// only when the lab has not lately: a policy's numbers depend on the
// dataset, budget, cycles, repeats, seed and its own id and parameters,
// never on the policies beside it (Stream), so a control that changes one
// policy of a lesson reruns that policy alone.
func (l *Lab) remembered(sim *refresh.Sim, d *dataset.Dataset, spec Spec, i int, desc refresh.Descriptor, buf *runBuf) (PolicyResult, error) {
	k, err := keyOf(d.Info.ID, spec, i)
	if err != nil || l.forget {
		return runPolicy(sim, d, spec, i, desc, l.memoFor(d.Info.ID), buf)
	}
	l.mu.Lock()
	pr, ok := l.ran.get(k)
	l.mu.Unlock()
	if ok {
		buf.watch.add(spec.Repeats)
		return pr, nil
	}
	start := time.Now()
	var built time.Duration
	if pr, err = runPolicy(sim, d, spec, i, desc, l.timedMemo(d.Info.ID, &built), buf); err != nil {
		return pr, err
	}
	l.noteCost(k, time.Since(start)-built)
	if pr.Sites != nil && len(pr.Sites.Sites) > MaxRanSites {
		return pr, nil // an upload's thousands of sites: too big to keep many of
	}
	l.mu.Lock()
	l.ran.put(k, pr)
	l.mu.Unlock()
	return pr, nil
}

// truthFor returns the truth for oracle policies and nil for the others.
func truthFor(desc refresh.Descriptor, sim *refresh.Sim) refresh.Truth {
	if desc.Oracle {
		return sim
	}
	return nil
}

// Stream returns the random stream of repeat r of policy i: PCG seeded with
// the spec's seed, the stream chosen by the policy's id and the repeat, so a
// policy's numbers do not change when others are added to the spec.
func Stream(seed uint64, policyID string, repeat int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, streamOf(policyID, repeat)))
}

// streamOf is the PCG stream of Stream: the FNV-1a hash of the policy id,
// moved along by the repeat.
func streamOf(policyID string, repeat int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(policyID))
	return h.Sum64() + uint64(repeat)*0x9E3779B97F4A7C15
}

// runBuf is what the policies of one run share: a buffer for the cycles'
// measurements, and each site's true change share, built the first time a
// sampling policy needs it (siteTruth walks every change of the run, and a
// run may hold many sampling policies).
type runBuf struct {
	cycles    []refresh.Cycle
	siteTruth []float64
	noReuse   bool // build each policy afresh for every repeat (Lab.noReuse)
	watch     *watch
}

// repeatMeans returns a repeat's headline numbers from its cycles:
// ChangeRatio averaged over the cycles that downloaded something (NaN when
// none did), and freshness, age and downloads averaged over all of them.
func repeatMeans(cycles []refresh.Cycle) (cr, fr, ag, dl float64) {
	var sumCR, sumFr, sumAg, sumDl float64
	var nCR int
	for _, cy := range cycles {
		if x := cy.ChangeRatio(); x == x { // not NaN: a cycle with no downloads has no ChangeRatio
			sumCR += x
			nCR++
		}
		sumFr += cy.Freshness
		sumAg += cy.Age
		sumDl += float64(cy.Downloads)
	}
	n := float64(len(cycles))
	return sumCR / float64(nCR), sumFr / n, sumAg / n, sumDl / n
}

// envFor is the Env policy desc of spec is built from (or reused with) in
// a run on d: rng is the repeat's random stream, params its parameters.
func envFor(sim *refresh.Sim, d *dataset.Dataset, spec Spec, desc refresh.Descriptor, rng *rand.Rand, params param.Values, memo func(string, func() (any, error)) (any, error)) refresh.Env {
	return refresh.Env{
		Repo: &d.Repository, Budget: spec.Budget, Cycles: spec.Cycles, CycleDays: d.Info.CycleLength / 86400, Rand: rng, Params: params,
		Memo: memo, Truth: truthFor(desc, sim),
	}
}

// paramsOf returns a copy of the parameters spec gives policy i, for the
// policy to record the values it computes in.
func paramsOf(spec Spec, i int) param.Values {
	vals := maps.Clone(spec.Policies[i].Params)
	if vals == nil {
		vals = param.Values{}
	}
	return vals
}

// newPolicy builds policy i of spec (desc) for a repeat whose random
// stream is rng; params, the spec's parameters of the policy, receive the
// values it computes. A policy that cannot be built is a *SpecError.
func newPolicy(sim *refresh.Sim, d *dataset.Dataset, spec Spec, i int, desc refresh.Descriptor, rng *rand.Rand, params param.Values, memo func(string, func() (any, error)) (any, error)) (refresh.Policy, error) {
	p, err := desc.New(envFor(sim, d, spec, desc, rng, params, memo))
	if err != nil {
		return nil, specErr(fmt.Sprintf("policies[%d]", i), "%s: %v", desc.ID, err)
	}
	return p, nil
}

func runPolicy(sim *refresh.Sim, d *dataset.Dataset, spec Spec, i int, desc refresh.Descriptor, memo func(string, func() (any, error)) (any, error), buf *runBuf) (pr PolicyResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("policy %s failed: %v", desc.ID, r)
		}
	}()
	reps := spec.Repeats
	nc := spec.Cycles
	cr := make([]float64, reps)
	fr := make([]float64, reps)
	ag := make([]float64, reps)
	dl := make([]float64, reps)
	perCR0 := make([][]float64, nc)
	perFr0 := make([][]float64, nc)
	perAg0 := make([][]float64, nc)
	for c := range nc {
		perCR0[c], perFr0[c], perAg0[c] = make([]float64, reps), make([]float64, reps), make([]float64, reps)
	}
	var params param.Values
	var auto []string
	var curves []refresh.Curve
	// One random source, reseeded per repeat to Stream's state: the same
	// numbers as a fresh Stream(seed, id, r), without allocating.
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	var p refresh.Policy
	var sites *siteTally
	rir := newRIRTally(reps, nc)
	div := newDivergenceTally(reps, nc)
	defer func() { sim.After = nil }()
	for r := range reps {
		if err := buf.watch.stopped(); err != nil {
			return pr, err
		}
		pcg.Seed(spec.Seed, streamOf(desc.ID, r))
		sim.Reset()
		if reuser, ok := p.(refresh.Reuser); ok && !buf.noReuse {
			reuser.Reuse(envFor(sim, d, spec, desc, rng, params, memo))
		} else {
			vals := paramsOf(spec, i)
			var err error
			if p, err = newPolicy(sim, d, spec, i, desc, rng, vals, memo); err != nil {
				return pr, err
			}
			if r == 0 {
				if c, ok := p.(refresh.Curver); ok {
					curves = c.Curves()
				}
				params = vals
				for k := range vals {
					if _, given := spec.Policies[i].Params[k]; !given {
						auto = append(auto, k)
					}
				}
				slices.Sort(auto)
			}
		}
		if e, ok := p.(refresh.SiteEstimator); ok {
			if sites == nil {
				if buf.siteTruth == nil {
					buf.siteTruth = siteTruth(d, nc)
				}
				sites = newSiteTally(buf.siteTruth, len(d.Sites), reps)
			}
			sim.After = func(int) { sites.observe(e) }
		}
		buf.cycles = sim.Run(p, spec.Budget, nc, buf.cycles[:0])
		if sites != nil {
			sites.endRepeat(r)
		}
		for c, cy := range buf.cycles {
			perCR0[c][r], perFr0[c][r], perAg0[c][r] = cy.ChangeRatio(), cy.Freshness, cy.Age
		}
		cr[r], fr[r], ag[r], dl[r] = repeatMeans(buf.cycles)
		rir.observe(r, buf.cycles)
		div.observe(r, buf.cycles)
		buf.watch.add(1)
	}
	pr = PolicyResult{
		ID: desc.ID, Name: desc.Name, Oracle: desc.Oracle, UpperBound: desc.UpperBound, Params: params, Auto: auto, Curves: curves,
		Metrics: map[string]stat.Summary{
			MetricChangeRatio: stat.Summarize(cr), MetricFreshness: stat.Summarize(fr),
			MetricAge: stat.Summarize(ag), MetricDownloads: stat.Summarize(dl),
		},
		Values: map[string][]float64{MetricChangeRatio: cr, MetricFreshness: fr, MetricAge: ag, MetricDownloads: dl},
	}
	if desc.Expect != nil && nc == 1 {
		// Inside the recover above: a policy's theory failing is its error.
		if e, err := desc.Expect(d, spec.Budget, params); err == nil {
			pr.setFact(FactExpectedChangeRatio, e)
		}
	}
	if sites != nil {
		pr.Sites = sites.result(d)
		pr.Metrics[MetricSiteAccuracy] = stat.Summarize(sites.mean)
		pr.Values[MetricSiteAccuracy] = sites.mean
	}
	perCR, perFr, perAg := make(stat.Series, nc), make(stat.Series, nc), make(stat.Series, nc)
	for c := range nc {
		perCR[c], perFr[c], perAg[c] = stat.Summarize(perCR0[c]), stat.Summarize(perFr0[c]), stat.Summarize(perAg0[c])
	}
	pr.Series = map[string]stat.Series{MetricChangeRatio: perCR, MetricFreshness: perFr, MetricAge: perAg}
	rir.into(&pr)
	div.into(&pr)
	return pr, nil
}

// pairedValues keeps the per-repeat values (PolicyResult.Values) of the
// policies of res that share their id with another, and drops the others':
// only those share random streams, and so need them to be compared.
func pairedValues(res *Result) {
	n := map[string]int{}
	for _, p := range res.Policies {
		n[p.ID]++
	}
	for i := range res.Policies {
		if n[res.Policies[i].ID] < 2 {
			res.Policies[i].Values = nil
		}
	}
}

// sameAs returns the index of the first policy of ps with p's id and
// parameters, or −1.
func sameAs(ps []PolicySpec, p PolicySpec) int {
	return slices.IndexFunc(ps, func(q PolicySpec) bool { return q.ID == p.ID && reflect.DeepEqual(q.Params, p.Params) })
}

// checkPolicies resolves the policies of a spec of kind (noun names one in
// errors): each id must name a policy of that kind in the catalog (one
// without a kind is a refresh policy), its parameters are checked and
// completed with their defaults (param.Check), and each is addressed
// unambiguously (checkKeys).
func (l *Lab) checkPolicies(in []PolicySpec, kind, noun string) ([]PolicySpec, error) {
	ps := make([]PolicySpec, len(in))
	for i, p := range in {
		desc, ok := l.policyOf(kind, p.ID)
		if !ok {
			return nil, specErr(fmt.Sprintf("policies[%d].id", i), "unknown %s %s (expected one of %s)", noun, quote.Q(p.ID), l.policyIDsOf(kind))
		}
		vals, err := param.Check(desc.Params, p.Params)
		if err != nil {
			return nil, specErr(fmt.Sprintf("policies[%d].params", i), "%s: %v", p.ID, err)
		}
		ps[i] = PolicySpec{ID: p.ID, Label: p.Label, Params: vals}
	}
	if err := checkKeys(l, ps); err != nil {
		return nil, err
	}
	return ps, nil
}

// checkKeys checks that every policy of a resolved spec is addressed
// unambiguously: a policy that appears twice needs a label on each copy
// after the first, a label is a name like an id (letters, digits, '-'),
// and no label is the id of a policy of the catalog.
func checkKeys(l *Lab, ps []PolicySpec) error {
	seen := make(map[string]int, len(ps))
	for i, p := range ps {
		if p.Label != "" {
			if !validLabel(p.Label) {
				return specErr(fmt.Sprintf("policies[%d].label", i), "%s: expected letters, digits and '-', at most 40", quote.Q(p.Label))
			}
			if _, ok := l.policy(p.Label); ok {
				return specErr(fmt.Sprintf("policies[%d].label", i), "%q is the id of a policy: choose another label", p.Label)
			}
		}
		k := p.Key()
		if j, dup := seen[k]; dup {
			if p.Label == "" {
				return specErr(fmt.Sprintf("policies[%d]", i), "%s appears twice (also policies[%d]): give each copy a distinct label", p.ID, j)
			}
			return specErr(fmt.Sprintf("policies[%d].label", i), "%q is also the label of policies[%d]", p.Label, j)
		}
		seen[k] = i
	}
	return nil
}

func validLabel(s string) bool {
	if len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
