package sampling

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/internal/apportion"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Parameters of the Al-Qaaideh policies.
var (
	samplePagesParam = param.Param{
		Name: "samplePages", Label: "Sample pages per cycle", Type: param.Int, Auto: "10% of pages, ≤ budget/2", Step: 1,
		Help: "P: pages monitored as samples each cycle, shared among the sites. The thesis monitors 10% of the pages (§4.3); " +
			"the default takes that, but at most half the budget so that sampling leaves downloads to spend. More than the budget is cut to the budget.",
	}.Range(1, 1e7)
	reserveParam = param.Param{
		Name: "reserve", Label: "Share kept for quiet sites", Type: param.Float, Default: 0.05, Step: 0.01,
		Help: "Share of P given to each site whose estimate is zero, so that it can show a change again (§3.2, §3.3.3; " +
			"Appendix A gives such sites P/20, i.e. 0.05). 0 reserves nothing: a site that once shows no change is never sampled again.",
	}.Range(0, 0.5)
	versionsParam = param.Param{
		Name: "versions", Label: "Versions kept per sample page", Type: param.Int, Default: 5, Step: 1,
		Help: "V: versions of each sample page kept as its history; the page's change rate is C = D/V, D the versions that showed a change (§3.3.2). " +
			"The history holds only what the crawler's own downloads saw.",
	}.Range(1, 64)
	redrawParam = param.Param{
		Name: "redraw", Label: "Draw new sample pages every cycle", Type: param.Bool, Default: false,
		Help: "Draw each site's sample pages afresh every cycle, each with its V versions read from the log: the proposed policy of §3.1–3.2 " +
			"(\"the proposed policy should select random pages for creating each web site sample every time\"). Off, the sample pages stay from cycle to cycle, as §4.3 says of its greedy policy.",
	}
)

// HybridDescriptors lists the Al-Qaaideh policies of chapters 3 and 4 for
// the catalog: the greedy sample allocation of §4.3 and the
// frequency-greedy hybrid of chapter 3, one type (Hybrid) with V = 1 and V
// versions of history.
func HybridDescriptors() []refresh.Descriptor {
	return []refresh.Descriptor{
		{
			ID: "greedy-sample-allocation", Name: "Greedy sample allocation",
			Cost:  30,
			Paper: "Al-Qaaideh §4.3 and Appendix A.2",
			Summary: "Monitors P sample pages, first P/W per site, then shared among sites in proportion to their estimated change rate, " +
				"with a reserve for sites that showed none; spends the rest of the budget on whole sites, highest estimate first.",
			Params: []param.Param{samplePagesParam, reserveParam},
			New: func(env refresh.Env) (refresh.Policy, error) {
				return NewHybrid(env, 1), nil
			},
		},
		{
			ID: "frequency-greedy", Name: "Frequency-greedy hybrid",
			Cost:  25,
			Paper: "Al-Qaaideh ch. 3 (§3.3.1-§3.3.3) and §4.4",
			Summary: "Greedy sample allocation in which each sample page keeps a history of its last V versions and counts C = D/V, " +
				"D the versions that showed a change; a site's rate is the mean C of its sample pages. " +
				"History costs storage S = V·P/T of the repository, or 2P/T when only change dates are kept (§3.3.2).",
			Params: []param.Param{samplePagesParam, versionsParam, reserveParam},
			New: func(env refresh.Env) (refresh.Policy, error) {
				return NewHybrid(env, env.Params.Int("versions", 5)), nil
			},
		},
		{
			ID: "frequency-greedy-log", Name: "Frequency-greedy hybrid, history from the full log",
			Cost: 25, Oracle: true,
			Paper: "Al-Qaaideh §4.4 (the conditions of Table 4.2)",
			Summary: "The frequency-greedy hybrid as the thesis ran it: a sample page's last V versions are read from the daily log of every page " +
				"(\"tracking all versions of each page is done at one time\", §4.4), versions the policy's own downloads never saw. " +
				"The log is the truth, so this is an oracle; with V = 1 it is the thesis' greedy policy under the same conditions.",
			Params: []param.Param{samplePagesParam, versionsParam, reserveParam, redrawParam},
			New: func(env refresh.Env) (refresh.Policy, error) {
				return NewHybridFromLog(env, env.Params.Int("versions", 5))
			},
		},
	}
}

// DefaultSamplePages is the default P of the Al-Qaaideh policies: 10% of
// the pages, as §4.3 proposes ("10% of total maintained pages to be for
// sampling, which is 100 pages according the sample of 1000 pages"), but at
// most half the budget. The thesis monitors its samples apart from any
// download budget (its experiment crawled every page daily); here samples
// are downloads, and 10% of the pages is the lab's whole default budget, so
// the cap keeps half of it for the greedy downloads. It is at least 1.
func DefaultSamplePages(pages, budget int) int {
	return max(1, min(int(math.Round(0.1*float64(pages))), budget/2))
}

// Hybrid is Al-Qaaideh's frequency-greedy policy (chapter 3), and with one
// version of history the "greedy policy" of §4.3 that it is compared with
// in Table 4.2 (Appendix A.1 and A.2 are the same allocation code reading
// two change-rate tables). Each cycle:
//
//  1. Allot the P sample pages among the sites. In the first cycle, with no
//     estimates yet, every site gets F = P/W (§3.3.1; P/W is fractional in
//     general: we give ⌊P/W⌋ and the remainder one page each to random
//     sites, and a site smaller than its share lends the excess to the
//     others). Afterwards site w gets F(w) = c_w·P / Σc (§3.3.3, where the
//     text names P "T"), except that every site whose estimate is zero (or
//     that has none yet) first gets ⌈reserve·P⌉ pages (§3.2: "some sampling
//     pages should be reserved for web sites with zero change rate"). Our
//     reading of what the text leaves open: the reserve comes out of P, so
//     the allotments sum to P (Appendix A's code adds P/20 on top for any
//     site whose share is under 5 pages, which can exceed P); shares are
//     rounded by largest remainder rather than floored; a share larger
//     than a site is capped and the excess shared again; and if every site
//     with a positive rate is saturated the rest goes to the zero-rate
//     sites evenly. When every estimate is zero the rule falls back to P/W.
//  2. Keep each site's sample at its allotment. Sample pages persist from
//     cycle to cycle ("in the next cycle same pages in the sample were
//     monitored to count changes", §4.3), which is what gives them a
//     history; when a site's allotment shrinks, random pages leave its
//     sample and their history is discarded (§3.1), and when it grows,
//     random pages of the site join with an empty history.
//  3. Download every sample page. A download that compares the page with
//     a copy fetched in the previous cycle adds a version to the page's
//     history: changed or not (§3.3.2.3: each version compared with the
//     previous one). A page joining the sample whose copy is older (not
//     downloaded last cycle) only gets a fresh copy: its change could lie
//     in any of the cycles since, and the thesis' versions are one cycle
//     apart. The page's rate is C = D/V (§3.3.2.2) over its last V versions,
//     D of which showed a change; a page with fewer than V versions so far
//     divides by the versions it has. The site's rate c_w is the mean C of
//     its sample pages with a version; a site whose sample pages have none
//     (they joined with older copies) keeps its last rate, and a site with
//     no sample page at all (the reserves took all of P) forgets it and
//     counts as not estimated: a rate no sample can measure again would
//     otherwise rank the site first in every greedy step for ever, on one
//     old observation, while the pages of the others wait.
//  4. Spend the rest of the budget greedily (§2.5.3): whole sites, their
//     pages outside the sample, highest c_w first (ties at random; sites
//     never estimated last), in random order within a site.
//
// Only the policy's own downloads feed the history: what a crawler sees.
// NewHybridFromLog builds the variant of the thesis' experiment instead,
// whose histories come from the full change log (see there).
type Hybrid struct {
	versions int
	sample   int // P, at most the budget
	reserve  float64
	rng      *rand.Rand

	pages   [][]int32  // each site's pages, its sample members first
	hist    [][]uint64 // per site and member position: versions, newest in bit 0
	nobs    [][]uint8  // per site and member position: versions recorded, at most V
	members []int      // pages in each site's sample
	allot   []int      // this cycle's allotment F(w)
	rate    []float64  // c_w, the last estimate of each site, -1 before any
	est     []float64  // this cycle's estimates, -1 where none
	fetched []int32    // per page: 1 + the cycle of its last download, 0 for the initial copy

	order  []int // sites in random order, drawn each cycle
	rank   []int // scratch
	weight []float64
	limit  []int
	parts  []apportion.Portion

	// With the full log (NewHybridFromLog): the truth, and per page the
	// cycles with a change, newest in bit 0 at cycle logAt.
	log    refresh.Truth
	redraw bool
	logged []uint64
	logAt  []int32
}

// NewHybrid builds the policy from env with V = versions; env.Params may set
// samplePages and reserve, otherwise DefaultSamplePages and 0.05 apply and
// the computed samplePages is recorded in env.Params.
func NewHybrid(env refresh.Env, versions int) *Hybrid {
	repo := env.Repo
	p := env.Params.Int("samplePages", 0)
	if p == 0 {
		p = DefaultSamplePages(len(repo.Pages), env.Budget)
		env.Params["samplePages"] = float64(p)
	}
	ns := len(repo.Sites)
	h := &Hybrid{
		versions: versions, sample: min(p, env.Budget, len(repo.Pages)), reserve: env.Params.Float("reserve", 0.05),
		pages: make([][]int32, ns), hist: make([][]uint64, ns), nobs: make([][]uint8, ns),
		members: make([]int, ns), allot: make([]int, ns), rate: make([]float64, ns), est: make([]float64, ns),
		fetched: make([]int32, len(repo.Pages)),
		order:   make([]int, ns), rank: make([]int, ns), weight: make([]float64, ns), limit: make([]int, ns),
	}
	for w := range ns {
		n := len(repo.SitePages(w))
		h.pages[w] = make([]int32, n)
		h.hist[w] = make([]uint64, n)
		h.nobs[w] = make([]uint8, n)
		h.limit[w] = n
	}
	h.Reuse(env)
	return h
}

// NewHybridFromLog builds the hybrid as Al-Qaaideh's experiment ran it
// (§4.4): every page had been crawled daily for three weeks, and a sample
// page's history was read from that log "at one time", so its last V
// versions are known from the day it joins the sample, whether or not the
// policy ever fetched it. The log is the truth (refresh.Truth.Changed), so
// the policy is an oracle and needs env.Truth. A page's rate is C = D/V
// over the cycles of the log, V of them or all there are so far; the
// allocation, the sample downloads and the greedy downloads are those of
// NewHybrid. With V = 1 it is the thesis' greedy policy under the same
// conditions. With the parameter redraw, every cycle draws each site's
// sample pages afresh, as §3.1–3.2 describe the proposed policy ("the
// proposed policy should select random pages for creating each web site
// sample every time"; a page leaving the sample loses its versions); the
// honest hybrid cannot, since a new page has no history of its own.
func NewHybridFromLog(env refresh.Env, versions int) (*Hybrid, error) {
	if env.Truth == nil {
		return nil, errors.New("reads the full change log, the truth: only the lab's oracles are given it")
	}
	h := NewHybrid(env, versions)
	h.logged = make([]uint64, len(env.Repo.Pages))
	h.logAt = make([]int32, len(env.Repo.Pages))
	h.log = env.Truth
	h.redraw = env.Params.Bool("redraw", false)
	return h, nil
}

// history returns page p's changes in the log at cycle t, newest in bit 0.
func (h *Hybrid) history(p, t int32) uint64 {
	if s := t - h.logAt[p]; s < 64 {
		return h.logged[p] << s
	}
	return 0
}

// Reuse implements refresh.Reuser: empty samples, no estimates, every copy
// the initial one, the page lists in the repository's order and a new
// random source, as NewHybrid leaves them.
func (h *Hybrid) Reuse(env refresh.Env) {
	h.rng = env.Rand
	for w := range h.pages {
		copy(h.pages[w], env.Repo.SitePages(w))
		h.order[w] = w
		h.members[w] = 0
		h.rate[w] = -1
	}
	clear(h.fetched)
	if h.logged != nil {
		h.log = env.Truth
		clear(h.logged)
		clear(h.logAt)
	}
}

// SiteEstimates implements refresh.SiteEstimator: c_w as measured in the
// last cycle, -1 for sites with no sample page that could record a version.
// The slice is shared.
func (h *Hybrid) SiteEstimates() []float64 { return h.est }

// Refresh implements refresh.Policy.
func (h *Hybrid) Refresh(c *refresh.Crawl) {
	t := int32(c.Cycle())
	h.rng.Shuffle(len(h.order), func(i, j int) { h.order[i], h.order[j] = h.order[j], h.order[i] })
	h.allocate()
	for w := range h.pages {
		if h.redraw {
			h.resize(w, 0)
		}
		h.resize(w, h.allot[w])
	}
	if h.log != nil {
		for _, p := range h.log.Changed(int(t)) {
			h.logged[p] = h.history(p, t) | 1
			h.logAt[p] = t
		}
	}
	// Step 3: monitor the sample.
	for _, w := range h.order {
		h.est[w] = -1
		var sum float64
		n := 0
		for i := range h.members[w] {
			if c.Remaining() == 0 {
				break
			}
			p := h.pages[w][i]
			changed := c.Sample(p)
			if h.fetched[p] == t { // the copy is one cycle old: a version
				h.hist[w][i] <<= 1
				if changed {
					h.hist[w][i] |= 1
				}
				h.nobs[w][i] = uint8(min(int(h.nobs[w][i])+1, h.versions))
			}
			h.fetched[p] = t + 1
			if h.log != nil {
				v := min(h.versions, int(t)+1)
				sum += float64(bits.OnesCount64(h.history(p, t)&(1<<v-1))) / float64(v)
				n++
			} else if v := int(h.nobs[w][i]); v > 0 {
				d := bits.OnesCount64(h.hist[w][i] & (1<<v - 1))
				sum += float64(d) / float64(v)
				n++
			}
		}
		if n > 0 {
			h.est[w] = sum / float64(n)
			h.rate[w] = h.est[w]
		} else if h.members[w] == 0 {
			h.rate[w] = -1 // nothing can measure it again (see step 3)
		}
	}
	// Step 4: greedy on the rest.
	rank := append(h.rank[:0], h.order...)
	h.rank = rank
	slices.SortStableFunc(rank, func(a, b int) int { return descending(h.rate[a], h.rate[b]) })
	for _, w := range rank {
		p := h.pages[w]
		for i := h.members[w]; i < len(p) && c.Remaining() > 0; i++ {
			j := i + h.rng.IntN(len(p)-i)
			p[i], p[j] = p[j], p[i]
			c.Download(p[i])
			h.fetched[p[i]] = t + 1
		}
	}
}

// allocate sets h.allot, the sample pages of each site this cycle (step 1).
func (h *Hybrid) allocate() {
	clear(h.allot)
	P := h.sample
	estimated := slices.ContainsFunc(h.rate, func(r float64) bool { return r > 0 })
	if !estimated {
		// §3.3.1: F = P/W for every site, before any estimate, and
		// whenever no site shows a change.
		for w := range h.weight {
			h.weight[w] = 1
		}
		apportion.Split(P, h.order, h.weight, h.limit, h.allot, &h.parts)
		return
	}
	// The reserve: ⌈reserve·P⌉ for each site with a zero or no estimate,
	// in random order while P lasts.
	m := int(math.Ceil(h.reserve * float64(P)))
	left := P
	for _, w := range h.order {
		if h.rate[w] <= 0 {
			give := min(m, h.limit[w], left)
			h.allot[w] = give
			left -= give
		}
	}
	// §3.3.3: F(w) = c_w·P / Σc over the rest.
	for w, r := range h.rate {
		h.weight[w] = max(r, 0)
	}
	left -= apportion.Split(left, h.order, h.weight, h.limit, h.allot, &h.parts)
	if left > 0 {
		// The changing sites are sampled whole: the rest to the others.
		for w, r := range h.rate {
			h.weight[w] = 0
			if r <= 0 {
				h.weight[w] = 1
			}
		}
		apportion.Split(left, h.order, h.weight, h.limit, h.allot, &h.parts)
	}
}

// resize brings site w's sample to k pages (step 2): random pages of the
// site join with an empty history, or random members leave with theirs.
func (h *Hybrid) resize(w, k int) {
	p, hist, nobs := h.pages[w], h.hist[w], h.nobs[w]
	for m := h.members[w]; m < k; m++ {
		j := m + h.rng.IntN(len(p)-m)
		p[m], p[j] = p[j], p[m]
		hist[m], nobs[m] = 0, 0
	}
	for m := h.members[w]; m > k; m-- {
		j := h.rng.IntN(m)
		p[j], p[m-1] = p[m-1], p[j]
		hist[j], hist[m-1] = hist[m-1], hist[j]
		nobs[j], nobs[m-1] = nobs[m-1], nobs[j]
	}
	h.members[w] = k
}
