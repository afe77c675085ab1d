// Package sampling holds the sampling-based refresh policies: a crawler
// downloads a few pages of each group (a site, later a category or a
// cluster), estimates from them how much of the group changed, and spends the
// rest of its budget on the groups that changed most.
package sampling

import (
	"math"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Allocation says how the budget left after sampling is shared among groups.
type Allocation int

const (
	// Greedy downloads whole groups, highest estimated change fraction
	// first, until the budget runs out (Al-Qaaideh §2.5.3; Taleghani §2.1).
	Greedy Allocation = iota
	// Proportional gives each group a quota proportional to its estimated
	// change fraction (Al-Qaaideh §2.5.2).
	Proportional
)

// sampleSizeParam is shared by every site-sampling policy.
var sampleSizeParam = param.Param{
	Name: "sampleSize", Label: "Sample size per site", Type: param.Int, Auto: "√(N·r)", Step: 1,
	Help: "Pages sampled from each site per cycle. The default is Cho & Ntoulas' rough optimum √(N·r): N pages per site on average, r the share of the repository downloaded per cycle (Taleghani eq. 7, §4.1).",
}.Range(1, 10000)

// Descriptors lists the site-sampling policies for the catalog.
func Descriptors() []refresh.Descriptor {
	return []refresh.Descriptor{
		{
			ID: "site-greedy", Name: "Site sampling, greedy",
			Cost:    15,
			Paper:   "Cho & Ntoulas 2002, as in Taleghani & Ugur-Ozekinci §2.1 (3), §2.3.1, §4.1 (eq. 7) and Al-Qaaideh §2.5.3, §2.6",
			Summary: "Samples pages from every site, then downloads whole sites, the one whose sample changed most first, until the budget runs out.",
			Params:  []param.Param{sampleSizeParam, SampleRuleParam},
			New:     func(env refresh.Env) (refresh.Policy, error) { return NewSite(env, Greedy), nil },
			Expect:  expect(Greedy),
		},
		{
			ID: "site-proportional", Name: "Site sampling, proportional",
			Cost:    20,
			Paper:   "Cho & Ntoulas 2002, as in Al-Qaaideh §2.5.2, §2.5.4 and §2.6 (eq. 7 of Taleghani & Ugur-Ozekinci §4.1)",
			Summary: "Samples pages from every site, then gives each site a share of the remaining budget proportional to its sample's change fraction.",
			Params:  []param.Param{sampleSizeParam, SampleRuleParam},
			New:     func(env refresh.Env) (refresh.Policy, error) { return NewSite(env, Proportional), nil },
			Expect:  expect(Proportional),
		},
	}
}

// expect returns a Descriptor.Expect for site sampling with alloc.
func expect(alloc Allocation) func(*dataset.Dataset, int, param.Values) (float64, error) {
	return func(d *dataset.Dataset, budget int, params param.Values) (float64, error) {
		size := params.Int("sampleSize", DefaultSampleSize(len(d.Pages), len(d.Sites), budget))
		return ExpectedChangeRatio(d, budget, size, alloc)
	}
}

// DefaultSampleSize is Cho & Ntoulas' rough optimal sample size √(N·r)
// (Taleghani eq. 7 and §4.1; Al-Qaaideh §2.6; Tan §5.1): N is the average
// number of pages per group and r the share of all pages downloaded per
// cycle. It is rounded to the nearest whole page and is at least 1.
func DefaultSampleSize(pages, groups, budget int) int {
	if pages == 0 || groups == 0 {
		return 1
	}
	n := float64(pages) / float64(groups)
	r := float64(budget) / float64(pages)
	return max(1, int(math.Round(math.Sqrt(n*r))))
}

// Site is site-level sampling (Cho & Ntoulas, "Effective change detection
// using sampling", VLDB 2002), as Taleghani §2.1 (3) and Al-Qaaideh §2.5
// describe it. Each cycle it downloads a uniform random sample of
// SampleSize pages from every site (without replacement; sites are sampled
// in random order, so if the budget cannot cover every sample the unsampled
// sites are a random few), estimates each site's change fraction as the
// share of its sample that changed, and spends the rest of the budget on the
// sites' unsampled pages, in random order within a site:
//
//   - Greedy: sites in decreasing order of their estimate (ties in random
//     order), each downloaded whole before the next, until the budget is
//     spent (Al-Qaaideh §2.5.3; Taleghani §2.1: "if there are resources
//     remaining, we will allocate them to other sites").
//   - Proportional: site w gets Q_w = (c_w/z_w)·D / Σ c/z pages, D the
//     budget left after sampling (Al-Qaaideh §2.5.2). Our reading of what
//     the text leaves open: quotas are rounded by largest remainder so they
//     sum to D (80·7/11 → 51 and 80·4/11 → 29, as in §2.5.4); a quota larger
//     than a site's unsampled pages is capped and the excess shared among
//     the other sites by the same rule; and when every site with a positive
//     estimate is exhausted, what is left goes to the remaining sites in
//     proportion to their unsampled pages rather than being left unspent.
//
// With sampleRule eq7 (RuleEq7), the first cycle samples SampleSize pages
// per site and each later cycle the size eq. 7 gives from the previous
// cycle's estimates (Eq7Size); that is the only thing carried from one
// cycle to the next.
type Site struct {
	alloc Allocation
	size  int
	base  int  // the sample size of the first cycle
	eq7   bool // sampleRule eq7
	n, r  float64
	most  int       // the largest size whose samples fit the budget
	sc    []float64 // scratch for Eq7Size
	rng   *rand.Rand
	pages [][]int32 // each site's pages, reshuffled in place each cycle

	order   []int     // sites in sampling / download order
	sampled []int     // z_w: sample size reached for each site
	changed []int     // c_w: changed pages in each site's sample
	est     []float64 // c_w / z_w, or -1 for a site that was not sampled
	quota   []int     // pages to download beyond the sample
	left    []int     // unsampled pages per site, for plan
	add     []int     // scratch for Plan.share
	rems    []remainder
}

// NewSite builds a site-sampling policy from env; env.Params may set
// sampleSize, otherwise DefaultSampleSize is used and recorded in env.Params.
func NewSite(env refresh.Env, alloc Allocation) *Site {
	repo := env.Repo
	size := env.Params.Int("sampleSize", 0)
	if size == 0 {
		size = DefaultSampleSize(len(repo.Pages), len(repo.Sites), env.Budget)
		env.Params["sampleSize"] = float64(size)
	}
	ns := len(repo.Sites)
	s := &Site{
		alloc: alloc, size: size, base: size, eq7: env.Params.String("sampleRule", RuleSqrt) == RuleEq7,
		most: env.Budget / max(1, ns), sc: make([]float64, 0, ns), pages: make([][]int32, ns),
		order: make([]int, ns), sampled: make([]int, ns), changed: make([]int, ns),
		est: make([]float64, ns), quota: make([]int, ns), add: make([]int, ns),
	}
	if len(repo.Pages) > 0 && ns > 0 {
		s.n, s.r = float64(len(repo.Pages))/float64(ns), float64(env.Budget)/float64(len(repo.Pages))
	}
	for w := range ns {
		s.pages[w] = make([]int32, len(repo.SitePages(w)))
	}
	s.Reuse(env)
	return s
}

// Reuse implements refresh.Reuser: the sites' page lists back in their
// original order, no estimate yet, the first cycle's sample size and a new
// random source, as NewSite leaves them.
func (s *Site) Reuse(env refresh.Env) {
	s.rng = env.Rand
	for w := range s.pages {
		copy(s.pages[w], env.Repo.SitePages(w))
		s.order[w] = w
	}
	if s.eq7 {
		s.size = s.base
		for w := range s.est {
			s.est[w] = -1
		}
	}
}

// SampleSize returns the pages sampled per site in the last cycle's
// samples (the next cycle's before the first).
func (s *Site) SampleSize() int { return s.size }

// SiteEstimates implements refresh.SiteEstimator: the change fraction each
// site's sample showed in the last cycle, -1 for sites left unsampled. The
// slice is shared.
func (s *Site) SiteEstimates() []float64 { return s.est }

// Refresh implements refresh.Policy.
func (s *Site) Refresh(c *refresh.Crawl) {
	if s.eq7 {
		s.size = RoundSize(Eq7Size(s.n, s.r, s.est, s.sc).Size, s.base, s.most)
	}
	s.rng.Shuffle(len(s.order), func(i, j int) { s.order[i], s.order[j] = s.order[j], s.order[i] })
	for _, w := range s.order {
		s.sampled[w], s.changed[w], s.est[w] = 0, 0, -1
		k := min(s.size, len(s.pages[w]), c.Remaining())
		for i := range k {
			if c.Sample(s.pick(w, i)) {
				s.changed[w]++
			}
		}
		s.sampled[w] = k
		if k > 0 {
			s.est[w] = float64(s.changed[w]) / float64(k)
		}
	}
	s.plan(c.Remaining())
	for _, w := range s.order {
		for i := s.sampled[w]; i < s.sampled[w]+s.quota[w]; i++ {
			c.Download(s.pick(w, i))
		}
	}
}

// pick moves a uniformly random page among s.pages[w][i:] to position i and
// returns it: step i of a partial Fisher-Yates shuffle.
func (s *Site) pick(w, i int) int32 {
	p := s.pages[w]
	j := i + s.rng.IntN(len(p)-i)
	p[i], p[j] = p[j], p[i]
	return p[i]
}

// unsampled returns how many of site w's pages the sample left.
func (s *Site) unsampled(w int) int { return len(s.pages[w]) - s.sampled[w] }

// plan sets s.quota, the pages to download from each site beyond its
// sample, for a budget of d downloads, from s.est and the random s.order
// (Plan.Share).
func (s *Site) plan(d int) {
	if len(s.left) != len(s.pages) {
		s.left = make([]int, len(s.pages))
	}
	for w := range s.left {
		s.left[w] = s.unsampled(w)
	}
	p := Plan{Order: s.order, Est: s.est, Left: s.left, Quota: s.quota, add: s.add, rems: s.rems}
	p.Share(s.alloc, d)
	s.rems = p.rems
}
