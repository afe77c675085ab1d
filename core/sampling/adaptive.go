package sampling

import (
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// Parameters of adaptive sampling, shared with site-grouped.
var (
	kappaParam = param.Param{
		Name: "kappa", Label: "Pages per round (κ)", Type: param.Int, Default: 1, Step: 1,
		Help: "κ: pages sampled from each undecided site in every round of adaptive sampling (Al-Qaaideh Fig. 2.3). With 1, a site is decided as soon as one more page tips its interval; larger steps take fewer rounds and decide later.",
	}.Range(1, 10000)
	alphaParam = param.Param{
		Name: "alpha", Label: "Confidence level (α)", Type: param.Float, Default: 0.95, Step: 0.01,
		Help: "α: confidence level of each site's interval (Wilson score, finite-population corrected). Higher α means wider intervals: more sampling before a site is dropped or downloaded.",
	}.Range(0.5, 0.999)
)

// AdaptiveDescriptors lists adaptive site sampling for the catalog.
func AdaptiveDescriptors() []refresh.Descriptor {
	return []refresh.Descriptor{{
		ID: "site-adaptive", Name: "Site sampling, adaptive",
		Cost:  16,
		Paper: "Cho & Ntoulas 2002, as in Al-Qaaideh §2.7 and Fig. 2.3",
		Summary: "Samples κ pages of every undecided site per round and puts a confidence interval on each site's change fraction: " +
			"sites whose interval lies above the greedy cut-off are downloaded whole, those below it are dropped, the rest are sampled again.",
		Params: []param.Param{kappaParam, alphaParam},
		New: func(env refresh.Env) (refresh.Policy, error) {
			return NewAdaptive(env), nil
		},
	}}
}

// Adaptive is Cho & Ntoulas' adaptive site sampling as Al-Qaaideh §2.7
// reproduces it (Fig. 2.3). Each cycle every site with pages starts in the
// set S of undecided sites. While the budget lasts it runs rounds:
//
//  1. (lines 3-6) sample κ more pages, uniformly without replacement, from
//     each site of S (in random order); estimate the site's change fraction
//     p_i as the share of its sampled pages that changed, and put a
//     100·α% confidence interval (l_i, h_i) on it. Line 6 asks for no more
//     than that; ours is Wilson's score interval with the finite-population
//     correction (stat.WilsonInterval), because the samples are small and
//     their estimates often exactly 0 or 1, where the textbook Wald
//     interval collapses to a point: a site whose first three sampled
//     pages did not change would look certainly unchanged and be dropped
//     at once, which is what adaptive sampling is meant to avoid;
//  2. (line 7) compute the threshold p_t "from the distribution of
//     estimated p_i's". The text leaves the rule open; our reading is Cho &
//     Ntoulas' own definition of p_t (Al-Qaaideh Table 2.2: the sites with
//     p_i > p_t are the top 100·r% that greedy downloads): rank the sites
//     of S by p_i and take their unsampled pages in that order until they
//     fill the remaining budget; p_t is the estimate of the site at which
//     the budget runs out. When all of S's unsampled pages fit in the
//     budget there is no cut-off: every site of S is downloaded;
//  3. (lines 8-10) drop from S every site with h_i < p_t (too surely below
//     the cut-off to be worth more samples) and download whole, and remove
//     from S, every site with l_i > p_t. The sites so downloaded were all
//     ranked above the cut-off, so their pages fit in the budget.
//
// A site whose pages have all been sampled leaves S: it is downloaded
// already. What Fig. 2.3 leaves open, our choices: p_t is computed once
// per round, after the round's samples (line 7 precedes the loop of lines
// 8-10); the first round samples the sites in random order as far as the
// budget goes (as site sampling does); a later round runs only if the
// budget pays for all of it, otherwise sampling stops; and whatever budget
// is left when sampling stops or S empties is spent greedily, on the
// unsampled pages of every site in decreasing order of p_i (ties at
// random; sites never sampled last), rather than left unspent.
//
// No history is kept from one cycle to the next.
type Adaptive struct {
	kappa int
	z     float64 // two-sided standard normal quantile of α: P(|Z| ≤ z) = α
	rng   *rand.Rand
	pages [][]int32 // each site's pages; the first done[w] were downloaded this cycle

	order   []int     // sites in random order, drawn each cycle
	live    []int     // S: the undecided sites, in that order
	rank    []int     // scratch: sites by estimate
	sampled []int     // n_i: pages sampled from each site this cycle
	changed []int     // x_i: changed pages among them
	done    []int     // pages of each site downloaded this cycle (samples first)
	est     []float64 // p_i, or -1 for a site not sampled
	lo, hi  []float64 // the interval of p_i
}

// NewAdaptive builds adaptive site sampling from env; env.Params may set
// kappa and alpha, else their defaults apply.
func NewAdaptive(env refresh.Env) *Adaptive {
	a := newAdaptive(len(env.Repo.Sites), env.Params)
	for w := range a.pages {
		a.pages[w] = make([]int32, len(env.Repo.SitePages(w)))
	}
	a.Reuse(env)
	return a
}

// newAdaptive allocates everything but the page lists.
func newAdaptive(sites int, params param.Values) *Adaptive {
	return &Adaptive{
		kappa: params.Int("kappa", 1),
		z:     stat.NormalQuantile((1 + params.Float("alpha", 0.95)) / 2),
		pages: make([][]int32, sites), order: make([]int, sites), live: make([]int, 0, sites), rank: make([]int, 0, sites),
		sampled: make([]int, sites), changed: make([]int, sites), done: make([]int, sites),
		est: make([]float64, sites), lo: make([]float64, sites), hi: make([]float64, sites),
	}
}

// Reuse implements refresh.Reuser: the page lists back in the
// repository's order and a new random source, as NewAdaptive leaves them.
// A site whose list is empty (site-grouped empties the sites outside a
// group) stays empty.
func (a *Adaptive) Reuse(env refresh.Env) {
	a.rng = env.Rand
	for w := range a.pages {
		copy(a.pages[w], env.Repo.SitePages(w))
		a.order[w] = w
	}
}

// SiteEstimates implements refresh.SiteEstimator: p_i, the share of each
// site's sample that changed in the last cycle, -1 for sites not sampled.
// The slice is shared.
func (a *Adaptive) SiteEstimates() []float64 { return a.est }

// left returns how many of site w's pages were not downloaded this cycle.
func (a *Adaptive) left(w int) int { return len(a.pages[w]) - a.done[w] }

// pick moves a uniformly random page among those of site w not yet
// downloaded this cycle to the front of them and returns it (a step of a
// partial Fisher-Yates shuffle).
func (a *Adaptive) pick(w int) int32 {
	p, i := a.pages[w], a.done[w]
	j := i + a.rng.IntN(len(p)-i)
	p[i], p[j] = p[j], p[i]
	a.done[w]++
	return p[i]
}

// Refresh implements refresh.Policy.
func (a *Adaptive) Refresh(c *refresh.Crawl) {
	a.rng.Shuffle(len(a.order), func(i, j int) { a.order[i], a.order[j] = a.order[j], a.order[i] })
	live := a.live[:0] // S, in the random order
	for _, w := range a.order {
		a.sampled[w], a.changed[w], a.done[w] = 0, 0, 0
		a.est[w], a.lo[w], a.hi[w] = -1, -1, -1
		if len(a.pages[w]) > 0 {
			live = append(live, w)
		}
	}
	for round := 0; len(live) > 0 && c.Remaining() > 0; round++ {
		if round > 0 && a.roundCost(live) > c.Remaining() {
			break
		}
		// Fig. 2.3 lines 3-6: κ more pages from each site of S. A site
		// wholly sampled, or reached by no sample because the budget ran
		// out first, leaves S: nothing is left to decide.
		kept := live[:0]
		for _, w := range live {
			for k := min(a.kappa, a.left(w), c.Remaining()); k > 0; k-- {
				if c.Sample(a.pick(w)) {
					a.changed[w]++
				}
				a.sampled[w]++
			}
			if n := a.sampled[w]; n > 0 {
				a.est[w] = float64(a.changed[w]) / float64(n)
				a.lo[w], a.hi[w] = stat.WilsonInterval(a.changed[w], n, len(a.pages[w]), a.z)
			}
			if a.left(w) > 0 && a.sampled[w] > 0 {
				kept = append(kept, w)
			}
		}
		live = kept
		// Line 7: the threshold; lines 8-10: drop or download.
		pt := a.threshold(live, c.Remaining())
		kept = live[:0]
		for _, w := range live {
			switch {
			case a.hi[w] < pt:
			case a.lo[w] > pt:
				for a.left(w) > 0 && c.Remaining() > 0 {
					c.Download(a.pick(w))
				}
			default:
				kept = append(kept, w)
			}
		}
		live = kept
	}
	a.live = live
	a.spend(c)
}

// roundCost returns the downloads one more round of sampling S takes.
func (a *Adaptive) roundCost(live []int) int {
	cost := 0
	for _, w := range live {
		cost += min(a.kappa, a.left(w))
	}
	return cost
}

// threshold returns p_t for a remaining budget of r downloads: the
// estimate of the site of S at which the budget runs out when S's
// unsampled pages are taken in decreasing order of estimate, or -1 when
// they all fit (then every site of S has l_i > p_t).
func (a *Adaptive) threshold(live []int, r int) float64 {
	rank := append(a.rank[:0], live...)
	a.rank = rank
	// Ties do not matter: only the estimate at the cut is returned.
	slices.SortFunc(rank, a.byEstimate)
	cum := 0
	for _, w := range rank {
		cum += a.left(w)
		if cum >= r {
			return a.est[w]
		}
	}
	return -1
}

// byEstimate orders sites by decreasing estimate.
func (a *Adaptive) byEstimate(x, y int) int { return descending(a.est[x], a.est[y]) }

// spend downloads the rest of the budget greedily: the remaining pages of
// every site, highest estimate first, sites never sampled last, ties in
// random order.
func (a *Adaptive) spend(c *refresh.Crawl) {
	if c.Remaining() == 0 {
		return
	}
	rank := append(a.rank[:0], a.order...) // order is random: a stable sort breaks ties at random
	a.rank = rank
	slices.SortStableFunc(rank, a.byEstimate)
	for _, w := range rank {
		for a.left(w) > 0 && c.Remaining() > 0 {
			c.Download(a.pick(w))
		}
	}
}
