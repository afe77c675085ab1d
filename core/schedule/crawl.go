package schedule

import (
	"fmt"
	"math"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Estimators a Refresher can plan with.
const (
	// EstimatorChoGarciaMolina is Cho & Garcia-Molina's bias-reduced
	// estimator for regular accesses (ACM TOIT 2003), as Grimes & Ford
	// state it in their eq. 1 (2008 draft): λ̂ = −ln((n − X + 0.5)/(n +
	// 0.5))/I for n accesses I apart, X of which saw a change.
	EstimatorChoGarciaMolina = "cho-garcia-molina"
	// EstimatorNaive is X/T: changes seen per unit of time watched.
	EstimatorNaive = "naive"
)

// Refresher plays an allocation Policy as a refresh.Policy, so the
// schedules of Cho & Garcia-Molina, Azar et al., Kolobov et al. and Olston
// & Pandey can run batch refresh experiments on every dataset: each cycle
// it plans sync rates from change rates and turns them into that cycle's
// downloads. Without an oracle the rates are estimated from its own
// downloads only (no peeking); the oracle variant takes them from
// refresh.Truth.Rates.
//
// Readings and choices:
//
//   - Time unit: one cycle. The budget B is the downloads per cycle and the
//     rates are changes per cycle, so f_i is downloads per cycle.
//   - Observations: per page, n downloads, X of which found a change, and
//     T, the time of the last download. The repository starts with fresh
//     copies at time 0 and the downloads of cycle c happen at its end,
//     time c + 1, so the n downloads close n intervals covering [0, T].
//   - Estimate: EstimatorChoGarciaMolina with the mean interval I = T/n:
//     the intervals are irregular in general (whatever the plan gives), and
//     the regular-interval estimator treats them as their mean (as
//     core/estimate does); nothing seen changed gives 0. EstimatorNaive is
//     X/T. A page never downloaded has no observation and takes the mean of
//     the known estimates, weighted by how many pages have each; while
//     nothing is known every page gets the rate 1, which every policy here
//     turns into a uniform plan.
//     A consequence worth seeing: a page whose downloads all found it
//     unchanged is estimated at 0, and every rate-driven allocation then
//     gives it nothing; it is downloaded again only from leftover budget.
//     So over a few cycles the estimated schedule can differ sharply from
//     the oracle (TestRefresherFreshnessFavoursSlowPages runs the oracle).
//   - Classes: pages with the same (n, X, T) have the same estimate, so the
//     plan is made on the classes with Input.Counts, at a cost that grows
//     with the number of classes (a few hundred over 12 cycles), not pages.
//     Only a downloaded page changes class, so keeping the counts costs
//     O(budget) map work per cycle, and a class's estimate is worked out
//     once, when it takes its key. Over a long run nearly every page that
//     has shown a change ends in a class of its own, so the plan, solved
//     afresh each cycle, costs more per cycle as the run goes on; each
//     cycle's solve therefore starts from the last cycle's plan
//     (Input.Guess), which the budget's downloads move only a little.
//   - Downloads: a plan gives rates, a cycle needs pages. Each page earns
//     credit f_i per cycle; scanning from a start drawn at random for
//     each run (env.Rand; page 0 without one) that moves on by B each
//     cycle, the pages whose credit reaches 1 are downloaded (credit − 1)
//     until the budget is spent, which makes a page of rate f come every
//     1/f cycles, the regular spacing of Cho & Garcia-Molina. Budget left
//     over (credits that have not yet reached 1) goes to the pages with the
//     highest credit, found by one bucketed pass: credits are binned into
//     1024 equal bins between the lowest and highest, whole bins are taken
//     from the top, and the last bin in scan order. Every page is downloaded
//     at most once a cycle, and the budget is spent whenever there are
//     that many pages.
//
// The oracle plans once per repeat, since the true rates do not change;
// pages with equal true rates share a class.
type Refresher struct {
	alloc     Policy
	estimator string
	oracle    bool

	budget int
	cycle  int
	start  int

	class  []int32   // each page's class
	credit []float64 // each page's credit, in downloads
	done   []int32   // cycle+1 of the page's last download in this run
	got    []int32   // downloads of each page in this run

	keys   []classKey // class → (n, X, T)
	counts []float64  // class → pages in it
	rates  []float64  // class → estimated rate
	plan   []float64  // class → f
	last   []float64  // class → f of the last plan, the next one's guess
	index  map[classKey]int32
	free   []int32           // classes left empty, for reuse
	byRate map[float64]int32 // the oracle's classes
	bins   []int32
}

// classKey is a class: downloads, changes seen, time of the last download.
type classKey struct{ n, x, t int32 }

// refresherBins is the number of credit bins of the leftover pass.
const refresherBins = 1024

// NewRefresher returns a Refresher for env that plans with alloc and
// estimator (EstimatorChoGarciaMolina or EstimatorNaive); with oracle it
// plans from env.Truth.Rates() instead, and env.Truth must be set.
func NewRefresher(env refresh.Env, alloc Policy, estimator string, oracle bool) (*Refresher, error) {
	if estimator != EstimatorChoGarciaMolina && estimator != EstimatorNaive {
		return nil, fmt.Errorf("unknown estimator %q (expected %s or %s)", estimator, EstimatorChoGarciaMolina, EstimatorNaive)
	}
	if oracle && env.Truth == nil {
		return nil, fmt.Errorf("the oracle schedule needs the truth")
	}
	r := &Refresher{alloc: alloc, estimator: estimator, oracle: oracle, index: map[classKey]int32{}, byRate: map[float64]int32{}}
	r.init(env)
	return r, nil
}

// Reuse implements refresh.Reuser.
func (r *Refresher) Reuse(env refresh.Env) { r.init(env) }

// init starts a run: every page in one class, never downloaded, no
// credit, and a random page to start scanning from: the only randomness,
// which decides who goes first among equal credits (all pages in the first
// cycle) and so makes repeats differ. The constructor and Reuse share it.
func (r *Refresher) init(env refresh.Env) {
	n := len(env.Repo.Pages)
	r.budget, r.cycle, r.start = env.Budget, 0, 0
	if env.Rand != nil && n > 0 {
		r.start = env.Rand.IntN(n)
	}
	r.class = resizeInt32(r.class, n)
	r.done = resizeInt32(r.done, n)
	r.got = resizeInt32(r.got, n)
	clear(r.got)
	r.credit = resize(r.credit, n)
	clear(r.class)
	clear(r.done)
	clear(r.credit)
	r.keys, r.counts, r.free = r.keys[:0], r.counts[:0], r.free[:0]
	r.plan, r.last = r.plan[:0], r.last[:0] // no guess from another run
	clear(r.index)
	if !r.oracle {
		r.keys = append(r.keys, classKey{})
		r.counts = append(r.counts, float64(n))
		r.rates = append(r.rates[:0], 0) // set each cycle (estimateClasses)
		r.index[classKey{}] = 0
		return
	}
	// The oracle: a class per distinct true rate, planned once.
	truth := env.Truth.Rates()
	r.rates = r.rates[:0]
	clear(r.byRate)
	for i, rate := range truth {
		k, ok := r.byRate[rate]
		if !ok {
			k = int32(len(r.rates))
			r.byRate[rate] = k
			r.rates = append(r.rates, rate)
			r.counts = append(r.counts, 0)
		}
		r.class[i] = k
		r.counts[k]++
	}
	r.makePlan()
}

func resizeInt32(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}

// estimate returns the rate, per cycle, of a class that has been
// downloaded.
func (r *Refresher) estimate(k classKey) float64 {
	if k.x == 0 {
		return 0
	}
	n, x, t := float64(k.n), float64(k.x), float64(k.t)
	if r.estimator == EstimatorNaive {
		return x / t
	}
	// −ln(1 − X/(n + 0.5)) = −ln((n − X + 0.5)/(n + 0.5)) through Log1p,
	// which gives the same bits in WebAssembly; divided by I = T/n.
	return -math.Log1p(-x/(n+0.5)) * n / t
}

// estimateClasses sets the rate of the never-downloaded class; the others'
// are set when the class takes its key (download), since a class's
// estimate depends on its key alone.
func (r *Refresher) estimateClasses() {
	var sum, known float64
	for k, key := range r.keys {
		if key.n == 0 {
			continue
		}
		sum += r.counts[k] * r.rates[k]
		known += r.counts[k]
	}
	unknown := 1.0 // nothing known: equal rates, a uniform plan
	if known > 0 {
		unknown = sum / known
	}
	for k, key := range r.keys {
		if key.n == 0 {
			r.rates[k] = unknown
		}
	}
}

// makePlan allocates the budget among the classes, starting from the
// last plan: a class keeps its index while its pages stay in it, and each
// cycle moves at most the budget's pages.
func (r *Refresher) makePlan() {
	r.plan, r.last = r.last, r.plan
	in := Input{Rates: r.rates, Counts: r.counts, Budget: float64(r.budget), Oracle: r.oracle, Guess: r.last}
	p, err := r.alloc.Allocate(in, r.plan)
	r.plan = p.Rates
	if err != nil {
		// Unreachable with valid observations; share the budget evenly
		// rather than stop.
		r.plan = resize(r.plan, len(r.rates))
		for k := range r.plan {
			r.plan[k] = float64(r.budget) / in.pages()
		}
	}
}

// Refresh implements refresh.Policy.
func (r *Refresher) Refresh(c *refresh.Crawl) {
	n := len(r.class)
	r.cycle = c.Cycle()
	if !r.oracle {
		r.estimateClasses()
		r.makePlan()
	}
	stamp := int32(r.cycle + 1)
	start := r.start
	if n > 0 {
		r.start = (r.start + r.budget) % n
	}
	// Pass 1: earn credit; download the pages whose credit reached 1.
	// (The slices in locals: download writes into them but never moves
	// them, and in WebAssembly each field read is a load.)
	credit, class, plan := r.credit[:n], r.class[:n], r.plan
	for j := range n {
		i := start + j
		if i >= n {
			i -= n
		}
		cr := credit[i] + plan[class[i]]
		credit[i] = cr
		if cr >= 1 && c.Remaining() > 0 {
			r.download(c, int32(i), stamp)
		}
	}
	if c.Remaining() == 0 {
		return
	}
	// Pass 2: the leftover budget goes to the highest credits.
	lo, hi := math.Inf(1), math.Inf(-1)
	var free int
	done := r.done[:n]
	for i, d := range done {
		if d != stamp {
			free++
			// Plain compares, not math.Min and math.Max: credits are never
			// NaN, and those are calls in WebAssembly.
			v := credit[i]
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	if free == 0 {
		return
	}
	if cap(r.bins) < refresherBins {
		r.bins = make([]int32, refresherBins)
	}
	bins := r.bins[:refresherBins]
	clear(bins)
	bin := func(v float64) int {
		if hi == lo {
			return 0
		}
		return min(int((v-lo)/(hi-lo)*refresherBins), refresherBins-1)
	}
	for i, d := range done {
		if d != stamp {
			bins[bin(credit[i])]++
		}
	}
	// The lowest bin whose pages are all taken, and how many come from
	// the bin below it.
	need := c.Remaining()
	cut := refresherBins
	for cut > 0 && need >= int(bins[cut-1]) {
		cut--
		need -= int(bins[cut])
	}
	for j := range n {
		if c.Remaining() == 0 {
			return
		}
		i := start + j
		if i >= n {
			i -= n
		}
		if done[i] == stamp {
			continue
		}
		b := bin(credit[i])
		switch {
		case b >= cut:
			r.download(c, int32(i), stamp)
		case b == cut-1 && need > 0:
			need--
			r.download(c, int32(i), stamp)
		}
	}
}

// download fetches page p, spends a unit of its credit and moves it to
// the class of its new observations.
func (r *Refresher) download(c *refresh.Crawl, p int32, stamp int32) {
	changed := c.Download(p)
	r.credit[p]--
	r.done[p] = stamp
	r.got[p]++
	if r.oracle {
		return
	}
	old := r.class[p]
	k := r.keys[old]
	k.n++
	if changed {
		k.x++
	}
	k.t = stamp
	r.counts[old]--
	if r.counts[old] == 0 {
		// An empty class leaves the plan: its slot goes to the next new
		// class, so the classes never outnumber the pages, however long
		// the run (a log of thousands of cycles makes a new (n, X, T) at
		// nearly every download).
		delete(r.index, r.keys[old])
		r.free = append(r.free, old)
	}
	idx, ok := r.index[k]
	switch {
	case ok:
	case len(r.free) > 0:
		idx = r.free[len(r.free)-1]
		r.free = r.free[:len(r.free)-1]
		r.keys[idx] = k
		r.rates[idx] = r.estimate(k)
		r.index[k] = idx
	default:
		idx = int32(len(r.keys))
		r.index[k] = idx
		r.keys = append(r.keys, k)
		r.counts = append(r.counts, 0)
		r.rates = append(r.rates, r.estimate(k))
	}
	r.counts[idx]++
	r.class[p] = idx
}

// allocationIDs are the ids of the allocation policies a Refresher can
// play, as Descriptors names them.
func allocationIDs() []string {
	ids, _ := schedulesOf(TypeAllocation)
	return ids
}

// schedulesOf lists the ids and names of the schedules of type t, in the
// catalog's order: the options of a parameter that chooses one, and their
// labels.
func schedulesOf(t string) (ids, names []string) {
	for _, d := range Descriptors() {
		if d.Type == t {
			ids, names = append(ids, d.ID), append(names, d.Name)
		}
	}
	return ids, names
}

// allocationParam chooses the allocation policy.
func allocationParam() param.Param {
	ids, names := schedulesOf(TypeAllocation)
	return param.Param{
		Name: "allocation", Label: "Allocation policy", Type: param.Enum, Default: "cgm-optimal-freshness", Options: ids, OptionLabels: names,
		Help: "The allocation policy that turns change rates into each page's downloads per cycle (core/schedule's catalog).",
	}
}

// allocationOf builds the allocation policy named by v's allocation.
func allocationOf(v param.Values) (Policy, error) {
	id := v.String("allocation", "cgm-optimal-freshness")
	for _, d := range Descriptors() {
		if d.ID == id && d.Type == TypeAllocation {
			return d.NewPolicy(param.Values{})
		}
	}
	return nil, fmt.Errorf("unknown allocation %q", id)
}

// RefreshDescriptors lists the refresh policies that play this package's
// schedules in batch refresh cycles: allocation policies from estimated
// rates, and as an oracle from the true ones, and the crawlers' re-visit
// rules.
func RefreshDescriptors() []refresh.Descriptor {
	return []refresh.Descriptor{
		revisitDescriptor(),
		{
			ID: "rate-schedule", Name: "Schedule from estimated rates",
			// Bounds a long log of mostly quiet pages too (synth's quiet
			// crawl log), where nearly every page ends in a class of its
			// own and every cycle's plan solves them all.
			Cost:    100,
			Paper:   "Cho & Garcia-Molina, SIGMOD 2000 / TODS 2003 (allocation) and ACM TOIT 2003 (estimator, Grimes & Ford eq. 1); Azar et al. PNAS 2018; Kolobov et al. NeurIPS 2019; Olston & Pandey WWW 2008",
			Summary: "Estimates each page's change rate from its own downloads, plans sync rates with an allocation policy each cycle, and downloads the pages whose accumulated share reaches one download. A page whose downloads all found it unchanged is estimated never to change, and the optimal allocations give such a page no syncs: it is never downloaded again unless the plan leaves budget over.",
			Params: []param.Param{
				allocationParam(),
				{
					Name: "estimator", Label: "Rate estimator", Type: param.Enum, Default: EstimatorChoGarciaMolina, Options: []string{EstimatorChoGarciaMolina, EstimatorNaive},
					OptionLabels: []string{"Cho & Garcia-Molina", "Naive (changes seen / time watched)"},
					Help:         "How a page's rate is estimated from its downloads: Cho & Garcia-Molina's bias-reduced estimator, or the naive changes seen / time watched, which underestimates pages that change more than once between downloads.",
				},
			},
			New: func(env refresh.Env) (refresh.Policy, error) {
				a, err := allocationOf(env.Params)
				if err != nil {
					return nil, err
				}
				return NewRefresher(env, a, env.Params.String("estimator", EstimatorChoGarciaMolina), false)
			},
		},
		{
			ID: "rate-schedule-oracle", Name: "Schedule from rates (true rates)", Oracle: true,
			Cost:    40,
			Paper:   "Cho & Garcia-Molina, SIGMOD 2000 / TODS 2003; Azar et al. PNAS 2018; Kolobov et al. NeurIPS 2019; Olston & Pandey WWW 2008",
			Summary: "An oracle: plans sync rates with an allocation policy from the true change rates, the best any estimator could give it. A page that never changes gets no syncs and is never downloaded (Cho & Garcia-Molina's optimum also gives up pages that change too fast for the budget).",
			Params:  []param.Param{allocationParam()},
			New: func(env refresh.Env) (refresh.Policy, error) {
				a, err := allocationOf(env.Params)
				if err != nil {
					return nil, err
				}
				return NewRefresher(env, a, EstimatorChoGarciaMolina, true)
			},
		},
	}
}
