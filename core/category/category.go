// Package category is sampling with correlation (Taleghani &
// Ugur-Ozekinci, "Sampling-based Refresh Policy with Correlation", §3-4
// and §7.1): pages are grouped into categories of related pages, which are
// expected to change together across sites; each cycle a crawler samples
// every category, estimates from the sample what share of it changed, and
// spends the rest of its budget on the categories that changed most.
//
// The categories are the dataset's labels or TOPIC's (core/topic): each
// page in the categories of its top k topics, ranked after the crawl or,
// as Algorithm 2 does, while crawling. Optionally the sample size follows
// eq. 7 and a category's change history (§7.1.1) weighs in. Categories may overlap; a
// page is downloaded at most once per cycle.
package category

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/stat"
	"github.com/refreshlab/refreshlab/core/topic"
)

// Parameter values.
const (
	FromDataset = "dataset" // categories: the dataset's labels
	FromTopic   = "topic"   // categories: TOPIC's top-k topics
	FromCrawl   = "crawl"   // categories: TOPIC's top-k topics at crawl time (Alg. 2)

	SizingEqual        = "equal"         // every category samples s pages (§4.1)
	SizingScaled       = "scaled"        // s·n_c·|C_i|/|R| (§7.1.2 eq. 8)
	SizingScaledShared = "scaled-shared" // s·n_c·|C_i|/Σ|C_j| (§7.1.2)
)

// Params are the category-sampling policies' parameters.
var Params = []param.Param{
	param.Param{
		Name: "sampleSize", Label: "Sample size per category", Type: param.Int, Auto: "√(N·r)", Step: 1,
		Help: "Pages each category's sample downloads per cycle. The default is the rough optimum √(N·r) of §4.1: N pages per category on average (a page counted in each of its categories), r the share of the repository downloaded per cycle.",
	}.Range(1, 10000),
	sampling.SampleRuleParam,
	{
		Name: "sizing", Label: "Sample size by category", Type: param.Enum, Default: SizingEqual, Options: []string{SizingEqual, SizingScaled, SizingScaledShared},
		OptionLabels: []string{"The same for every category", "Scaled by category size", "Scaled, shared pages counted once"},
		Help:         "How the sample size varies with the category: equal (s for every category, §4.1), scaled (s·n_c·|C_i|/|R|, eq. 8) or scaled-shared (s·n_c·|C_i|/Σ|C_j|, §7.1.2's correction for pages in several categories).",
	},
	{
		Name: "categories", Label: "Categories from", Type: param.Enum, Default: FromDataset, Options: []string{FromDataset, FromTopic, FromCrawl},
		OptionLabels: []string{"The dataset's labels", "TOPIC's topics", "TOPIC's topics at crawl time"},
		Help:         "Where the categories come from: the dataset's labels (pages without one form one more category); TOPIC's reputation ranks (Alg. 1) over the pages' links and terms, each page in its top-k topics; or the same at crawl time (Alg. 2), each page ranked once, as a breadth-first crawl downloads it, from the pages crawled before it that link to it.",
	},
	param.Param{
		Name: "topK", Label: "Topics per page", Type: param.Int, Default: 6, Step: 1,
		Help: "With TOPIC categories: how many topics each page is assigned to (§3.1.1; §5.4 found 6 best on the paper's data).",
	}.Range(1, MaxTopK),
	param.Param{
		Name: "damping", Label: "TOPIC jump probability (d)", Type: param.Float, Default: topic.DefaultDamping, Step: 0.01,
		Help: "With TOPIC categories: d, the probability that TOPIC's random surfer jumps to a page containing the topic instead of following a link (Alg. 1).",
	}.Range(0.05, 0.95),
	param.Param{
		Name: "inLinks", Label: "In-links per page (0: all)", Type: param.Int, Default: 0, Step: 1,
		Help: "With TOPIC categories: how many of a page's in-links its reputation is computed from, the first ones found (the crawl's order at crawl time, the linking pages' order otherwise); 0 takes them all. Table 2 of §5.1 times 10 to 300.",
	}.Range(0, 100000),
	param.Param{
		Name: "history", Label: "Weight of the category's change history", Type: param.Float, Default: 0.0, Step: 0.05,
		Help: "§7.1.1's remedy for a small sample of a skewed category: rank categories by (1 − w)·(the sample's change fraction) + w·(the fraction the category's change history predicts: its past changes per page and cycle, from every earlier download of its pages, times the cycles since its pages were last downloaded). 0 keeps no history, as the paper's policy.",
	}.Range(0, 1),
	{
		Name: "interval", Label: "Rank by the interval's lower end", Type: param.Bool, Default: false,
		Help: "Rank and weigh categories by the lower end l of a confidence interval l ≤ p ≤ h for their change fraction (§7.1.3, eq. 9), so a high estimate from few pages counts for less.",
	},
	param.Param{
		Name: "confidence", Label: "Confidence level (ε)", Type: param.Float, Default: 0.95, Step: 0.01,
		Help: "The interval's confidence level ε (eq. 9), with interval on.",
	}.Range(0.5, 0.999),
}

// Descriptors lists the category-sampling policies for the catalog.
func Descriptors() []refresh.Descriptor {
	return []refresh.Descriptor{
		{
			ID: "category-greedy", Name: "Category sampling, greedy",
			Cost:    40,
			Paper:   "Taleghani & Ugur-Ozekinci §2.3.2, §3.1.1 (Alg. 2), §4 (eq. 7, Alg. 3), §5.1 (Table 2), §7.1.1, §7.1.2 (eq. 8, Alg. 4), §7.1.3 (eq. 9); TOPIC after Rafiei & Mendelzon (Alg. 1)",
			Summary: "Samples pages from every category of related pages, then downloads whole categories, the one whose sample changed most first, until the budget runs out; a page is downloaded at most once per cycle.",
			Params:  Params,
			New:     func(env refresh.Env) (refresh.Policy, error) { return New(env, sampling.Greedy) },
			Expect:  expect(sampling.Greedy),
		},
		{
			ID: "category-proportional", Name: "Category sampling, proportional",
			Cost:    35,
			Paper:   "Taleghani & Ugur-Ozekinci §2.1, §3.1.1 (Alg. 2), §4 (eq. 7), §5.1 (Table 2), §7.1; allocation as in Al-Qaaideh §2.5.2",
			Summary: "Samples pages from every category of related pages, then gives each category a share of the remaining budget proportional to its sample's change fraction.",
			Params:  Params,
			New:     func(env refresh.Env) (refresh.Policy, error) { return New(env, sampling.Proportional) },
			Expect:  expect(sampling.Proportional),
		},
	}
}

// DefaultSampleSize is §4.1's rough optimal sample size √(N·r), "similar
// to [Cho & Ntoulas]", for categories: N is the average category size
// (Sets.MeanSize, a page counted in each of its categories) and r the
// share of the repository's pages downloaded per cycle. It is rounded to
// the nearest page and is at least 1.
func DefaultSampleSize(sets *Sets, budget int) int {
	r := float64(budget) / float64(sets.Pages)
	return max(1, int(math.Round(math.Sqrt(sets.MeanSize()*r))))
}

// SampleSizes returns the pages each category's sample downloads, from
// the base size s and the sizing rule:
//
//   - equal: s (§4.1 assumes categories of about the same size);
//   - scaled: s·n_c·|C_i|/|R| (§7.1.2, eq. 8);
//   - scaled-shared: s·n_c·|C_i|/Σ_j|C_j|, eq. 8 with the total size of
//     the categories in place of |R|, which counts a page in several
//     categories once per category (§7.1.2, "the ratio of size of
//     category to the total size of all the categories").
//
// Each is rounded to the nearest page, at least 1 (every category gets an
// estimate, as Algorithm 3 samples every category) and at most |C_i|. On
// disjoint categories covering the repository, scaled and scaled-shared
// agree.
func SampleSizes(sets *Sets, s int, sizing string) []int {
	return sampleSizes(make([]int, sets.Len()), sets, s, sizing)
}

// sampleSizes is SampleSizes into out.
func sampleSizes(out []int, sets *Sets, s int, sizing string) []int {
	nc := float64(sets.Len())
	for i := range out {
		size := float64(len(sets.Category(i)))
		x := float64(s)
		switch sizing {
		case SizingScaled:
			x = float64(s) * nc * size / float64(sets.Pages)
		case SizingScaledShared:
			x = float64(s) * nc * size / float64(sets.Total)
		}
		out[i] = min(max(1, int(math.Round(x))), int(size))
	}
	return out
}

// Sampling is category-level sampling, Taleghani & Ugur-Ozekinci §4. Each
// cycle:
//
//  1. Sampling (Algorithm 3 with Algorithm 4, §4.2 and §7.1.2). The
//     categories are visited in a random order (so when the budget cannot
//     pay for every sample, the unsampled categories are a random few).
//     Category C_i draws pages uniformly without replacement until it has
//     downloaded k_i of them (its sample size), or holds all its pages, or
//     the budget is spent. Algorithm 3 draws an index and redraws when the
//     page is already in S_Ci (the membership check); we draw by a partial
//     Fisher-Yates shuffle, which gives the same uniformly random sequence
//     of distinct pages with one draw per page. A drawn page already
//     sampled for another category this cycle is not downloaded again
//     (Algorithm 4): it joins S_Ci, its change counts toward C_i's
//     estimate, and "the sample-size increases by one", which we read as:
//     the loop goes on to download k_i pages of its own, so the sample
//     holds k_i downloads plus every reused page. The estimate is
//     p_i = changed pages in S_Ci / |S_Ci|.
//  2. Allocation. Greedy downloads whole categories, highest p_i first
//     (ties in random order), skipping pages already downloaded this
//     cycle, until the budget runs out (§4.2: "the greedy policy will
//     download the categories with the highest p_i until there is no
//     download resource left"). Proportional gives category i the share
//     p_i/Σp of the remaining budget (§2.1; rounded and capped as
//     sampling.Plan does for sites). Both use sampling.Plan over the pages
//     each category has left; when categories overlap, a quota can find
//     some of its pages already downloaded by another category, and what
//     it could not spend is planned again among the categories with pages
//     left, until the budget is spent or no page is left. On disjoint
//     categories this is exactly site sampling's allocation. Within a
//     category, pages are downloaded in random order.
//
// With interval set, categories are ranked (greedy) and weighted
// (proportional) by the lower end l_i of the eq. 9 interval instead of p_i:
// our reading of §7.1.3's "smarter choices about which C_i to download",
// which lets a confident estimate outrank a higher but less certain one.
// The paper names the interval but not its formula; ours is Wilson's score
// interval with the finite-population correction (stat.WilsonInterval),
// which does not collapse to a point when a sample of a few pages shows no
// change or only changes, as the normal-approximation interval does.
//
// Two parameters carry something from one cycle to the next:
//
//   - sampleRule eq7: the first cycle samples with the base size s (√(N·r)
//     unless set) and each later cycle with the base size eq. 7 gives from
//     the previous cycle's estimates (sampling.Eq7Size, N the mean category
//     size, r the share of |R| downloaded per cycle), capped where the
//     samples alone would take the budget; sizing then scales it per
//     category as above.
//   - history w > 0: §7.1.1 proposes to "combine our method with the
//     frequency-based policy" by keeping "the history of change for a
//     category" (see history): each category's past changes per
//     page-cycle predict h_i, its change fraction now, and categories are
//     ranked (greedy) and weighted (proportional) by (1 − w)·p_i + w·h_i,
//     or (1 − w)·l_i + w·h_i with the interval; a category none of whose
//     pages was downloaded in an earlier cycle is ranked by its sample
//     alone. The history corrects a small sample that happened on the few
//     fast pages of a skewed category (§7.1.1's 0.5 for a category whose
//     change ratio is 0.05), and is slow to follow a category whose change
//     moves from week to week.
//
// Without them, nothing is kept from one cycle to the next.
type Sampling struct {
	alloc    sampling.Allocation
	sets     *Sets
	size     []int // k_i
	interval bool
	z        float64 // the interval's normal quantile: P(|Z| ≤ z) = confidence

	// sampleRule eq7
	eq7    bool
	base   int // s of the first cycle
	sizing string
	n, r   float64 // eq. 7's N and r
	most   int     // the largest s whose equal samples fit the budget
	sc     []float64
	// history
	w     float64  // its weight
	hist  *history // nil when w is 0
	cycle int

	rng   *rand.Rand
	pages []int32 // each category's pages (CSR as in sets), permuted in place
	pos   []int   // per category: how far its permutation has been drawn
	left  []int   // per category: pages not downloaded this cycle
	got   []int   // |S_Ci|: sampled pages, downloaded or reused
	chg   []int   // changed pages in S_Ci
	est   []float64
	plan  *sampling.Plan
	mark  []uint32 // per page: epoch<<1 | changed, when downloaded this cycle
	epoch uint32
}

// New builds a category-sampling policy from env. env.Params may set the
// parameters of Params; when sampleSize is unset, DefaultSampleSize is used
// and recorded in env.Params.
func New(env refresh.Env, alloc sampling.Allocation) (*Sampling, error) {
	sets, err := setsFor(env)
	if err != nil {
		return nil, err
	}
	s := env.Params.Int("sampleSize", 0)
	if s == 0 {
		s = DefaultSampleSize(sets, env.Budget)
		env.Params["sampleSize"] = float64(s)
	}
	nc := sets.Len()
	sizing := env.Params.String("sizing", SizingEqual)
	p := &Sampling{
		alloc: alloc, sets: sets,
		size:     SampleSizes(sets, s, sizing),
		interval: env.Params.Bool("interval", false),
		z:        stat.NormalQuantile((1 + env.Params.Float("confidence", 0.95)) / 2),
		eq7:      env.Params.String("sampleRule", sampling.RuleSqrt) == sampling.RuleEq7,
		base:     s, sizing: sizing,
		n: sets.MeanSize(), r: float64(env.Budget) / float64(max(1, sets.Pages)), most: env.Budget / max(1, nc),
		w:     env.Params.Float("history", 0),
		pages: make([]int32, sets.Total),
		pos:   make([]int, nc), left: make([]int, nc), got: make([]int, nc), chg: make([]int, nc),
		est: make([]float64, nc), plan: sampling.NewPlan(nc), mark: make([]uint32, sets.Pages),
	}
	if p.eq7 {
		p.sc = make([]float64, 0, nc)
	}
	if p.w > 0 {
		p.hist = newHistory(sets)
	}
	p.Reuse(env)
	return p, nil
}

// setsFor returns the categories env.Params ask for.
func setsFor(env refresh.Env) (*Sets, error) {
	switch c := env.Params.String("categories", FromDataset); c {
	case FromDataset:
		v, err := env.Remember("category/labels", func() (any, error) { return LabelSets(env.Repo), nil })
		if err != nil {
			return nil, err
		}
		return v.(*Sets), nil
	case FromTopic, FromCrawl:
		return TopicSets(env, env.Params.Int("topK", 6), env.Params.Float("damping", topic.DefaultDamping), env.Params.Int("inLinks", 0), c == FromCrawl)
	default:
		return nil, fmt.Errorf("unknown categories %q", c)
	}
}

// Reuse implements refresh.Reuser: the categories' pages back in their
// original order, no page downloaded, and a new random source, as New
// leaves them.
func (s *Sampling) Reuse(env refresh.Env) {
	s.rng = env.Rand
	copy(s.pages, s.sets.pages)
	clear(s.mark)
	s.epoch = 0
	if s.eq7 {
		sampleSizes(s.size, s.sets, s.base, s.sizing)
		for i := range s.est {
			s.est[i] = -1
		}
	}
	if s.hist != nil {
		s.hist.reset()
	}
	for i := range s.plan.Order {
		s.plan.Order[i] = i
	}
}

// Sets returns the categories the policy samples.
func (s *Sampling) Sets() *Sets { return s.sets }

// SampleSizes returns k_i, the pages each category's sample downloads.
// The slice is shared.
func (s *Sampling) SampleSizes() []int { return s.size }

// Estimates returns, after Refresh, each category's estimated change
// fraction p_i for the cycle, or −1 for a category left unsampled. The
// slice is shared.
func (s *Sampling) Estimates() []float64 { return s.est }

// Samples returns, after Refresh, |S_Ci| for each category: the pages of
// its sample, downloaded or reused (Algorithm 4). The slice is shared.
func (s *Sampling) Samples() []int { return s.got }

// Groups implements refresh.Grouper: the categories, by name, each with
// its pages in ascending order.
func (s *Sampling) Groups() (kind string, names []string, pages [][]int32) {
	pages = make([][]int32, s.sets.Len())
	for i := range pages {
		pages[i] = s.sets.Category(i)
	}
	return "category", s.sets.Names, pages
}

// Refresh implements refresh.Policy.
func (s *Sampling) Refresh(c *refresh.Crawl) {
	s.epoch++
	if s.eq7 {
		if e := sampling.Eq7Size(s.n, s.r, s.est, s.sc); !math.IsNaN(e.Size) {
			sampleSizes(s.size, s.sets, sampling.RoundSize(e.Size, s.base, s.most), s.sizing)
		}
	}
	s.cycle = c.Cycle()
	if s.hist != nil {
		s.hist.fold()
	}
	order := s.plan.Order
	s.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for i := range s.left {
		s.left[i] = len(s.sets.Category(i))
	}
	for _, i := range order {
		s.sample(c, i)
	}
	for c.Remaining() > 0 {
		for i, e := range s.est {
			s.plan.Est[i] = e
			if s.interval && e >= 0 {
				s.plan.Est[i], _ = stat.WilsonInterval(s.chg[i], s.got[i], len(s.sets.Category(i)), s.z)
			}
			if s.hist != nil && e >= 0 {
				if h, ok := s.hist.predict(i, s.cycle); ok {
					s.plan.Est[i] = (1-s.w)*s.plan.Est[i] + s.w*h
				}
			}
		}
		copy(s.plan.Left, s.left)
		s.plan.Share(s.alloc, c.Remaining())
		made := 0
		for _, i := range s.plan.Order {
			if q := s.plan.Quota[i]; q > 0 {
				made += s.download(c, i, q)
			}
		}
		if made == 0 {
			return
		}
	}
}

// sample draws category i's sample (Algorithms 3 and 4) and sets its
// estimate.
func (s *Sampling) sample(c *refresh.Crawl, i int) {
	n := len(s.sets.Category(i))
	pos, made, got, chg := 0, 0, 0, 0
	for made < s.size[i] && pos < n {
		if c.Remaining() == 0 && s.left[i] == n-pos {
			break // nothing left to reuse, and no budget to download
		}
		u := s.pick(i, pos)
		if m := s.mark[u]; m>>1 == s.epoch {
			// Sampled for another category this cycle: reused, free.
			pos++
			got++
			chg += int(m & 1)
			continue
		}
		if c.Remaining() == 0 {
			break // u stays unsampled, at position pos
		}
		pos++
		changed := c.Sample(u)
		s.downloaded(u, changed)
		made++
		got++
		if changed {
			chg++
		}
	}
	s.pos[i], s.got[i], s.chg[i] = pos, got, chg
	s.est[i] = -1
	if got > 0 {
		s.est[i] = float64(chg) / float64(got)
	}
}

// download downloads up to q of category i's pages not yet downloaded this
// cycle, in random order, and returns how many it downloaded.
func (s *Sampling) download(c *refresh.Crawl, i, q int) int {
	lo, n := int(s.sets.start[i]), len(s.sets.Category(i))
	pos, made := s.pos[i], 0
	if q >= s.left[i] {
		// The whole rest of the category: no need to draw an order.
		for ; pos < n && c.Remaining() > 0 && s.left[i] > 0; pos++ {
			if u := s.pages[lo+pos]; s.mark[u]>>1 != s.epoch {
				s.downloaded(u, c.Download(u))
				made++
			}
		}
		s.pos[i] = pos
		return made
	}
	for made < q && pos < n && c.Remaining() > 0 {
		u := s.pick(i, pos)
		pos++
		if s.mark[u]>>1 != s.epoch {
			s.downloaded(u, c.Download(u))
			made++
		}
	}
	s.pos[i] = pos
	return made
}

// downloaded marks page u downloaded this cycle and takes it off the
// pages left in each of its categories. Every page before a category's
// pos is marked, so left[i] is also what its permutation has left unmarked.
func (s *Sampling) downloaded(u int32, changed bool) {
	m := s.epoch << 1
	if changed {
		m |= 1
	}
	s.mark[u] = m
	for _, j := range s.sets.Of(u) {
		s.left[j]--
	}
	if s.hist != nil {
		s.hist.record(u, changed, s.cycle)
	}
}

// pick moves a uniformly random page among category i's pages at
// positions pos and beyond to position pos and returns it: step pos of a
// partial Fisher-Yates shuffle.
func (s *Sampling) pick(i, pos int) int32 {
	p := s.pages[s.sets.start[i]:s.sets.start[i+1]]
	j := pos + s.rng.IntN(len(p)-pos)
	p[pos], p[j] = p[j], p[pos]
	return p[pos]
}
