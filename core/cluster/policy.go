package cluster

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// Defaults of the policy's parameters.
const (
	DefaultK          = 100 // §5.2: "we use k = 100 for all the clustering processes"
	DefaultFolds      = 10  // §5.2: "10-fold cross-validation"
	DefaultKMax       = 200 // §5.2: k "from 10 to 200"
	DefaultConfidence = 0.8 // §5.2: "confidence level at 80%"
	DefaultDelta      = 0.1
)

// AutoRecluster is the default re-clustering period of a run of the given
// cycles: every cycle on up to 24 cycles, as the paper re-clusters each of
// its monthly snapshots, and about 24 times in all on longer runs. Our
// reading: the paper's year of snapshots never asks what to do with a
// crawl log of thousands of 12-hour cycles, where re-clustering every
// cycle costs minutes and changes little between neighbouring cycles.
func AutoRecluster(cycles int) int { return max(1, (cycles+23)/24) }

// Descriptors lists cluster-level sampling for the catalog.
func Descriptors() []refresh.Descriptor {
	return []refresh.Descriptor{{
		ID: "cluster-sampling", Name: "Cluster sampling",
		Cost:  100,
		Paper: "Tan, Zhuang, Mitra & Giles, WebDB 2007, §3–4 (CLS)",
		Summary: "Clusters pages by features tied to change (URL and content words, size, images, links; and, from the second cycle, " +
			"how much its own copies changed), samples pages of each cluster, those near its centroid likeliest, until a t-test says " +
			"the sample suffices, and downloads whole clusters, the most likely to have changed first. On an uploaded log it has the " +
			"URLs and its own copies to go on; a feature set that needs page texts says so.",
		Params: Params(),
		New: func(env refresh.Env) (refresh.Policy, error) {
			return New(env)
		},
	}}
}

// Params are the parameters of cluster-level sampling.
func Params() []param.Param {
	return []param.Param{
		{Name: "featureSet", Label: "Features clustered on", Type: param.Enum, Default: SetCombined, Options: FeatureSets, OptionLabels: FeatureSetLabels,
			Help: "Features the pages are clustered on (§5.2, Fig. 2): URL words, content words, both, the other static features, the dynamic features (from the second cycle), or all of them. A dataset without page texts, such as an uploaded log, has no content words, and its static features are those its URLs give (depth, domain, file type); the dynamic features come from the crawler's own copies, so every dataset has them."},
		{Name: "weights", Label: "History weights", Type: param.Enum, Default: WeightsNAD, Options: WeightSchemes, OptionLabels: WeightSchemeLabels,
			Help: "Weights of a sampled page's change history (eq. 5): nad equal, sad the last cycle only, aad growing linearly, gad doubling each cycle."},
		param.Param{Name: "k", Label: "Clusters (k)", Type: param.Int, Default: float64(DefaultK), Step: 1,
			Help: "Number of clusters. 0 chooses it by v-fold cross-validation of the criterion τ (eq. 2) over 1 to kMax clusters (§3.3)."}.Range(0, 1000),
		param.Param{Name: "folds", Label: "Cross-validation folds", Type: param.Int, Default: float64(DefaultFolds), Step: 1,
			Help: "Folds v of the cross-validation that chooses k when k is 0."}.Range(2, 20),
		param.Param{Name: "kMax", Label: "Most clusters tried", Type: param.Int, Default: float64(DefaultKMax), Step: 1,
			Help: "Largest number of clusters the cross-validation tries when k is 0."}.Range(2, 1000),
		param.Param{Name: "confidence", Label: "Confidence of the t-test", Type: param.Float, Default: DefaultConfidence, Step: 0.01,
			Help: "Confidence level of the t-test that decides when a cluster's sample is sufficient (§4.1)."}.Range(0.5, 0.999),
		param.Param{Name: "delta", Label: "Tolerance (δ)", Type: param.Float, Default: DefaultDelta, Step: 0.01,
			Help: "δ: a sample suffices when the t-test puts the cluster's mean download probability within ±δ of the sample's (§4.1)."}.Range(0.005, 1),
		param.Param{Name: "recluster", Label: "Re-cluster every (cycles)", Type: param.Int, Auto: "⌈cycles/24⌉", Step: 1,
			Help: "With dynamic features: re-cluster at the start of the second cycle and then every this many cycles. By default every cycle on runs of up to 24 cycles (the paper's monthly snapshots), and about 24 times in all on longer ones, such as a log of years read in 12-hour cycles."}.Range(1, 10000),
	}
}

// Policy is cluster-level sampling (CLS), Tan et al. §3–4:
//
//  1. The pages are clustered by repeated bisection (§3.3, see Tree) on
//     the chosen feature set (§3.1, §3.2, §5.2). Static feature sets are
//     clustered once per dataset (env.Remember). The dynamic and combined
//     sets are clustered again at the start of the second cycle and then
//     every Recluster cycles, with the dynamic features of the crawler's
//     own two latest copies of each page (§3.2: "impossible to calculate
//     … until after the second download cycle"); before that, the
//     combined set clusters on its static part, and the dynamic set,
//     having nothing to go on, puts every page in one cluster. A feature
//     set that needs what the dataset lacks (the content words on an
//     uploaded log, which has no texts) is an error that names it (see
//     needs).
//  2. Each cycle, in a random order of the clusters, it samples each
//     cluster's pages one by one, each drawn at random with a chance in
//     proportion to its cosine similarity to the centroid (§4.1, eq. 3),
//     and stops when the sample is sufficient by a t-test at the
//     confidence level (Sufficient: the t interval of the sample's mean
//     download probability is within ±δ), when it holds R/k pages (§4.1's
//     upper bound: "the total number of download resources over the
//     number of clusters"; at least one page, in the clusters the budget
//     reaches, when the budget is smaller than k), or when the cluster or
//     the budget runs out.
//  3. A sampled page's download probability is φ = 1 − e^(−λ) (eq. 4),
//     λ from its change history with the chosen weights (eq. 5, see
//     History); a cluster's φ is the mean over its sample (§4.2: "the
//     average change frequency of all sampled pages in that cluster").
//  4. It downloads the clusters' other pages, clusters in decreasing order
//     of φ (ties in random order), each whole in random order, until the
//     budget runs out (§4.2).
//
// Which pages a sample holds is our reading of §4.1, which says only that
// the pages "near the cluster's centroid are the most suitable
// candidates" and that the sample's mean must be "valid" for the
// cluster's "at a confidence level … in a standard t-test". A t-test's
// interval covers the cluster's mean only for a sample drawn at random,
// and the paper, noting that the cosine "ranges in [0, 1] and becomes
// larger when the webpage is more similar to the centroid", does not say
// that the same pages are sampled every cycle. So each cycle's sample is
// drawn afresh, the pages nearer the centroid the likelier. The other
// reading, the pages nearest the centroid every cycle, fetches the same
// few pages cycle after cycle while the clusters stay, and never
// downloads the other pages of a cluster that ranks low.
//
// Where the paper is silent, our other readings: a cluster the budget
// left unsampled ranks last; a page's dynamic features compare the two
// latest copies the crawler downloaded (all zero until a download finds
// it changed; without a content model, as on an uploaded log, the copies
// are known only to differ, so the change in content is 1 and the other
// features 0); and a re-clustering with dynamic features works on
// summaries (see reclusterNow: the combined set's pages as micro-clusters
// split into changed and unchanged, the dynamic set's unchanged pages as
// one point) so that it stays within the browser's speed budget every
// cycle. With k = 0 the number of clusters is chosen by cross-validation
// once: for the static sets and the combined set (on its static part)
// before the first cycle, and recorded as k in the result's parameters;
// for the dynamic set at its first re-clustering.
type Policy struct {
	set, scheme string
	k, folds    int
	kMax        int
	conf, delta float64
	recluster   int
	budget      int
	rng         *rand.Rand
	n           int

	memo  memo        // env.Remember
	fixed *Clustering // static feature sets
	book  *Codebook   // combined
	attrs []string    // the content model's attributes, if any
	attrI []int       // their indexes for the dynamic features

	// The current clustering.
	kNow         int
	order, start []int32
	sim          []float32 // per page: cosine to its cluster's centroid
	// work is order with each cluster's pages permuted in place: each
	// cycle a cluster's sample is drawn to the front of its segment, and
	// its other pages follow in random order for downloads.
	work []int32

	hist *History
	tq   []float64

	// Dynamic features: the pages whose latest download found a change,
	// dynPages, and their raw dynamic features, dyn (len(DynamicNames)
	// values each, in the same order); slot gives each page's index in
	// dynPages, or −1.
	slot     []int32
	dyn      []float64
	dynPages []int32
	// dynG gives, for the combined set, the micro-cluster of each page of
	// dynPages (in the same order), so that a re-clustering reads the
	// slots in sequence instead of looking each page up across the
	// repository.
	dynG []int32
	// inD[i] tells whether the page at position i of the codebook's order
	// is in dynPages, so that a re-clustering reads it in sequence.
	inD      []bool
	rank     []int32 // each page's position in the codebook's order
	prevAttr []float64
	curAttr  []float64
	tie      []int32 // dynamic set: the order of the one micro-cluster
	// dynamic set: bit set of the pages in dynPages, so that a
	// re-clustering finds tie's other pages in a small table.
	dynBit  []uint64
	kChosen int // dynamic set with k = 0: chosen at the first re-clustering
	re      reclusterer

	clusters []int     // scratch: cluster order
	est      []float64 // φ of each cluster's sample this cycle
	sampled  []int     // each cluster's sample size this cycle
}

// New builds cluster-level sampling from env (see Params).
func New(env refresh.Env) (*Policy, error) {
	p := &Policy{
		set: env.Params.String("featureSet", SetCombined), scheme: env.Params.String("weights", WeightsNAD),
		k: env.Params.Int("k", DefaultK), folds: env.Params.Int("folds", DefaultFolds), kMax: env.Params.Int("kMax", DefaultKMax),
		conf: env.Params.Float("confidence", DefaultConfidence), delta: env.Params.Float("delta", DefaultDelta),
		recluster: env.Params.Int("recluster", AutoRecluster(env.Cycles)),
		n:         len(env.Repo.Pages),
		memo:      env.Remember,
	}
	if env.Params != nil && !env.Params.Has("recluster") {
		env.Params["recluster"] = float64(p.recluster) // record the computed default
	}
	if !slices.Contains(FeatureSets, p.set) {
		return nil, fmt.Errorf("unknown feature set %q", p.set)
	}
	if _, err := Weights(p.scheme, 1); err != nil {
		return nil, err
	}
	var err error
	switch p.set {
	case SetDynamic:
	case SetCombined:
		if p.book, err = codebook(env.Repo, env.Remember); err != nil {
			return nil, err
		}
		if p.k == 0 {
			s, _, err := static38(env.Repo, env.Remember)
			if err != nil {
				return nil, err
			}
			cv, err := remember(env.Remember, fmt.Sprintf("cluster/cv/static38/%d-%d", p.folds, p.kMax), func() (*CV, error) {
				r := CrossValidate(s, p.folds, min(p.kMax, s.Len()), Options{Seed: RBCSeed})
				return &r, nil
			})
			if err != nil {
				return nil, err
			}
			// Record the chosen k, so that the result's spec reruns it.
			p.k = cv.Best
			env.Params["k"] = float64(p.k)
		}
	default:
		if p.fixed, err = StaticClustering(env.Repo, p.set, p.k, p.folds, p.kMax, env.Remember); err != nil {
			return nil, err
		}
		if p.k == 0 {
			env.Params["k"] = float64(p.fixed.K)
		}
	}
	p.tq, err = remember(env.Remember, fmt.Sprintf("cluster/t/%v", p.conf), func() ([]float64, error) {
		// Two-sided t quantiles for samples of up to 4,096 pages; larger
		// samples (k = 1 with a large budget) compute theirs.
		tq := make([]float64, 4096)
		for nu := 1; nu < len(tq); nu++ {
			tq[nu] = stat.TQuantile((1+p.conf)/2, nu)
		}
		return tq, nil
	})
	if err != nil {
		return nil, err
	}
	if c := env.Repo.Content; c != nil {
		p.attrs = c.Attributes()
		p.attrI = attrIndex(p.attrs)
		p.prevAttr, p.curAttr = make([]float64, len(p.attrs)), make([]float64, len(p.attrs))
	}
	p.hist = NewHistory(p.n)
	p.order, p.work, p.sim = make([]int32, p.n), make([]int32, p.n), make([]float32, p.n)
	if p.dynamicSet() {
		p.slot = make([]int32, p.n)
	}
	if p.book != nil {
		p.inD = make([]bool, p.n)
		p.rank = make([]int32, p.n)
		for i, pg := range p.book.Order {
			p.rank[pg] = int32(i)
		}
	}
	if p.set == SetDynamic {
		p.tie = make([]int32, p.n)
		p.dynBit = make([]uint64, (p.n+63)/64)
	}
	p.Reuse(env)
	return p, nil
}

// dynamicSet reports whether the feature set has dynamic features.
func (p *Policy) dynamicSet() bool { return p.set == SetDynamic || p.set == SetCombined }

// Reuse implements refresh.Reuser: the state New leaves, without
// allocating what can be kept.
func (p *Policy) Reuse(env refresh.Env) {
	p.rng = env.Rand
	p.budget = env.Budget
	p.hist.Reset()
	if p.fixed != nil {
		p.setClustering(p.fixed)
	} else {
		for i := range p.slot {
			p.slot[i] = -1
		}
		p.dyn, p.dynPages, p.dynG = p.dyn[:0], p.dynPages[:0], p.dynG[:0]
		clear(p.inD)
		clear(p.dynBit)
		if p.set == SetDynamic {
			for i := range p.tie {
				p.tie[i] = int32(i)
			}
			p.rng.Shuffle(len(p.tie), func(i, j int) { p.tie[i], p.tie[j] = p.tie[j], p.tie[i] })
		}
		p.kChosen = 0
		p.kNow = 0 // clustered at the start of the first cycle
	}
}

// setClustering makes c the current clustering.
func (p *Policy) setClustering(c *Clustering) {
	p.sim = append(p.sim[:0], c.Sim...)
	p.setOrder(c.K, c.Order, c.Start)
}

// setOrder makes (k, order, start) the current clustering's clusters,
// the pages' similarities being in p.sim already.
func (p *Policy) setOrder(k int, order, start []int32) {
	p.kNow = k
	p.order = append(p.order[:0], order...)
	p.start = append(p.start[:0], start...)
	p.work = append(p.work[:0], order...)
	if cap(p.est) < k {
		p.est, p.clusters, p.sampled = make([]float64, k), make([]int, k), make([]int, k)
	}
	p.est, p.clusters, p.sampled = p.est[:k], p.clusters[:k], p.sampled[:k]
}

// Clusters returns the number of clusters of the current clustering.
func (p *Policy) Clusters() int { return p.kNow }

// Estimates returns, after Refresh, each cluster's download probability φ
// as its sample estimated it this cycle (§4.2), or −1 for a cluster the
// budget left unsampled; and the sample sizes. The slices are shared.
func (p *Policy) Estimates() (phi []float64, sampled []int) { return p.est, p.sampled }

// Members returns the pages of cluster r of the current clustering,
// nearest its centroid first (shared).
func (p *Policy) Members(r int) []int32 { return p.order[p.start[r]:p.start[r+1]] }

// Sample returns, after Refresh, the pages sampled from cluster r this
// cycle, in the order they were drawn (shared).
func (p *Policy) Sample(r int) []int32 { return p.work[p.start[r] : int(p.start[r])+p.sampled[r]] }

// Groups implements refresh.Grouper: the clusters of the current
// clustering, named by their number from 1, each with its pages nearest
// the centroid first.
func (p *Policy) Groups() (kind string, names []string, pages [][]int32) {
	names, pages = make([]string, p.kNow), make([][]int32, p.kNow)
	for r := range p.kNow {
		names[r], pages[r] = fmt.Sprintf("cluster %d", r+1), p.Members(r)
	}
	return "cluster", names, pages
}

// Refresh implements refresh.Policy.
func (p *Policy) Refresh(c *refresh.Crawl) {
	cycle := c.Cycle()
	n := cycle + 1 // cycles in the history, this one included
	switch {
	case p.kNow == 0 && p.set == SetCombined:
		// The first clustering has no dynamic features yet, so it is the
		// same in every repeat: remember it.
		first, _ := remember(p.memo, fmt.Sprintf("cluster/combined0/k%d", p.k), func() (*Clustering, error) {
			p.reclusterNow()
			return &Clustering{K: p.kNow, Order: slices.Clone(p.order), Start: slices.Clone(p.start), Sim: slices.Clone(p.sim)}, nil
		})
		p.setClustering(first)
	case p.dynamicSet() && (p.kNow == 0 || cycle >= 1 && (cycle-1)%p.recluster == 0):
		p.reclusterNow()
	}
	k := p.kNow
	capacity := max(1, p.budget/k)
	for r := range p.clusters {
		p.clusters[r] = r
	}
	p.rng.Shuffle(k, func(i, j int) { p.clusters[i], p.clusters[j] = p.clusters[j], p.clusters[i] })
	// Sampling (§4.1).
	for _, r := range p.clusters {
		p.est[r], p.sampled[r] = -1, 0
		w := p.work[p.start[r]:p.start[r+1]]
		if len(w) == 0 || c.Remaining() == 0 {
			continue
		}
		top := p.weight(p.order[p.start[r]]) // the cluster's largest weight: its first page in order
		var m int
		var mean, m2 float64
		for m < len(w) && m < capacity && c.Remaining() > 0 {
			pg := p.draw(w, m, top)
			p.download(c, pg, n, true)
			phi := Phi(p.hist.Lambda(pg, n, p.scheme))
			m++
			d := phi - mean
			mean += d / float64(m)
			m2 += d * (phi - mean)
			if m >= 2 && Sufficient(m, m2/float64(m-1), p.conf, p.delta, p.tq) {
				break
			}
		}
		if m > 0 {
			p.est[r] = mean
		}
		p.sampled[r] = m
	}
	if c.Remaining() == 0 {
		return // the samples took the budget
	}
	// Downloads by φ (§4.2); the random order above breaks ties. A
	// cluster's pages not in its sample follow it in its segment of work.
	slices.SortStableFunc(p.clusters, func(a, b int) int { return cmp.Compare(p.est[b], p.est[a]) })
	for _, r := range p.clusters {
		w := p.work[int(p.start[r])+p.sampled[r] : p.start[r+1]]
		for i := range w {
			if c.Remaining() == 0 {
				return
			}
			j := i + p.rng.IntN(len(w)-i)
			w[i], w[j] = w[j], w[i]
			p.download(c, w[i], n, false)
		}
	}
}

// draw picks one of the pages w[i:] at random, each with a chance in
// proportion to its weight (its cosine similarity to the centroid,
// clipped to [0, 1]), moves it to w[i] and returns it; top is at least
// every weight of w[i:]. It draws by rejection (a page uniformly, kept
// with probability its weight over top; every page, when top is 0), and
// after as many rejections as there are pages, which only weights far
// below top make likely, exactly from the weights' running sum, or
// uniformly if they are all 0; either way each page's chance is its
// weight over their sum. Random numbers and comparisons only, so the draw
// is the same natively and in WebAssembly.
func (p *Policy) draw(w []int32, i int, top float64) int32 {
	rest := len(w) - i
	j := -1
	for range rest {
		q := i + p.rng.IntN(rest)
		if x := p.weight(w[q]); x >= top || p.rng.Float64()*top < x {
			j = q
			break
		}
	}
	if j < 0 {
		var sum float64
		for _, pg := range w[i:] {
			sum += p.weight(pg)
		}
		if sum > 0 {
			u := p.rng.Float64() * sum
			for q := i; q < len(w); q++ {
				x := p.weight(w[q])
				if x <= 0 {
					continue
				}
				j = q // the last page of positive weight, should rounding leave u ≥ x there
				if u < x {
					break
				}
				u -= x
			}
		} else {
			j = i + p.rng.IntN(rest)
		}
	}
	w[i], w[j] = w[j], w[i]
	return w[i]
}

// weight is page pg's weight in a sample's draw: its cosine similarity to
// its cluster's centroid, clipped to [0, 1].
func (p *Policy) weight(pg int32) float64 { return min(max(float64(p.sim[pg]), 0), 1) }

// download fetches page pg, as a sample of its cluster or not, and
// records what it shows: a change in the page's history, and, for dynamic
// feature sets, the dynamic features of its two latest copies.
func (p *Policy) download(c *refresh.Crawl, pg int32, n int, sample bool) {
	var changed bool
	if sample {
		changed = c.Sample(pg)
	} else {
		changed = c.Download(pg)
	}
	if changed {
		p.hist.Changed(pg, n)
	}
	if p.slot == nil {
		return
	}
	nd := len(DynamicNames)
	s := p.slot[pg]
	if !changed {
		if s >= 0 { // the two latest copies are now the same: swap-remove
			last := int32(len(p.dynPages) - 1)
			moved := p.dynPages[last]
			p.dynPages[s] = moved
			if p.book != nil {
				p.dynG[s] = p.dynG[last]
				p.dynG = p.dynG[:last]
			}
			copy(p.dynAt(int(s)), p.dynAt(int(last)))
			p.slot[moved] = s
			p.dynPages = p.dynPages[:last]
			p.dyn = p.dyn[:int(last)*nd]
			p.slot[pg] = -1
			if p.inD != nil {
				p.inD[p.rank[pg]] = false
			}
			if p.dynBit != nil {
				p.dynBit[pg>>6] &^= 1 << (pg & 63)
			}
		}
		return
	}
	if s < 0 {
		s = int32(len(p.dynPages))
		p.dynPages = append(p.dynPages, pg)
		if p.book != nil {
			p.dynG = append(p.dynG, p.book.Of[pg])
		}
		p.dyn = append(p.dyn, make([]float64, nd)...)
		p.slot[pg] = s
		if p.inD != nil {
			p.inD[p.rank[pg]] = true
		}
		if p.dynBit != nil {
			p.dynBit[pg>>6] |= 1 << (pg & 63)
		}
	}
	out := p.dynAt(int(s))
	if p.attrs == nil {
		// No content model (an uploaded log): the crawler knows only that
		// its two copies differ, so the change in content is 1 and
		// nothing else is known to have changed.
		clear(out)
		out[0] = 1
		return
	}
	c.Previous(pg, p.prevAttr)
	c.Copy(pg, p.curAttr)
	dynamicAt(p.attrI, p.prevAttr, p.curAttr, c.Similarity(pg), p.n, out)
}
