package cluster

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// RBCSeed seeds every clustering the policy makes: a clustering is a
// function of the repository (and the crawler's observations) alone, the
// same in every repeat, so the lab remembers it across repeats and runs.
const RBCSeed = 2007

// CodebookSize is the number of micro-clusters the static part of the
// combined feature set is summarised by (see Codebook).
const CodebookSize = 128

// Clustering is a k-way clustering of a repository's pages, ready for
// cluster-level sampling: each cluster's pages in order of their cosine
// similarity to its centroid, most similar first, and each page's
// similarity, which sets its chance of being sampled (§4.1: "those that
// are near the cluster's centroid are the most suitable candidates"; see
// Policy).
type Clustering struct {
	K     int
	Order []int32 // the pages, cluster by cluster
	Start []int32 // cluster r's pages are Order[Start[r]:Start[r+1]]
	// Sim is each page's cosine similarity to its cluster's centroid
	// (eq. 3), indexed by page.
	Sim []float32
	// CV holds the cross-validation that chose K, when it was chosen so.
	CV *CV
	// Elapsed is how long the clustering took to compute (including the
	// features and clusterings it was built on the first time): reported
	// by benchmarks, never part of a result, which must not depend on the
	// machine.
	Elapsed time.Duration
}

// Of returns the cluster of every page (a fresh slice).
func (c *Clustering) Of() []int32 {
	out := make([]int32, len(c.Order))
	for r := range c.K {
		for _, p := range c.Order[c.Start[r]:c.Start[r+1]] {
			out[p] = int32(r)
		}
	}
	return out
}

// byCluster builds a Clustering from each point's leaf node and its
// similarity to the leaf's centroid: clusters numbered in node order,
// pages by decreasing similarity (ties to the lower page).
func byCluster(leaf []int32, sim []float64) *Clustering {
	var nodes []int32
	seen := map[int32]int32{}
	for _, l := range leaf {
		if _, ok := seen[l]; !ok {
			seen[l] = 0
			nodes = append(nodes, l)
		}
	}
	slices.Sort(nodes)
	for r, l := range nodes {
		seen[l] = int32(r)
	}
	k := len(nodes)
	c := &Clustering{K: k, Order: make([]int32, len(leaf)), Start: make([]int32, k+1), Sim: make([]float32, len(leaf))}
	for p, l := range leaf {
		c.Start[seen[l]+1]++
		c.Sim[p] = float32(sim[p])
	}
	for r := range k {
		c.Start[r+1] += c.Start[r]
	}
	next := slices.Clone(c.Start[:k])
	for p, l := range leaf {
		r := seen[l]
		c.Order[next[r]] = int32(p)
		next[r]++
	}
	for r := range k {
		seg := c.Order[c.Start[r]:c.Start[r+1]]
		slices.SortFunc(seg, func(a, b int32) int {
			if x := cmp.Compare(sim[b], sim[a]); x != 0 {
				return x
			}
			return cmp.Compare(a, b)
		})
	}
	return c
}

// allPoints returns 0..n−1.
func allPoints(n int) []int32 {
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	return idx
}

// memo is the part of refresh.Env the models need.
type memo func(key string, build func() (any, error)) (any, error)

func remember[T any](m memo, key string, build func() (T, error)) (T, error) {
	v, err := m(key, func() (any, error) { return build() })
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// words is the tf·idf clusterings of the URLs and texts.
type words struct {
	url, content *WordClustering // content nil without terms
	elapsed      time.Duration
}

func wordClusterings(repo *dataset.Repository, m memo) (*words, error) {
	return remember(m, "cluster/words", func() (*words, error) {
		t0 := time.Now()
		um, cm := wordMatrices(repo, m)
		w := &words{url: clusterWords(NewSparse(um, nil), WordClusters)}
		if cm != nil {
			w.content = clusterWords(NewSparse(cm, nil), WordClusters)
		}
		w.elapsed = time.Since(t0)
		return w, nil
	})
}

// staticSpace is the space of the 18 non-word static features: those
// the repository gives that vary (names), and those it lacks (absent) or
// gives the same for every page (constant).
type staticSpace struct {
	cols             [][]float32
	names            []string
	absent, constant []string
	elapsed          time.Duration
}

func staticFeatures(repo *dataset.Repository, m memo) (*staticSpace, error) {
	return remember(m, "cluster/static", func() (*staticSpace, error) {
		t0 := time.Now()
		raw, have := RawStatic(repo)
		cols, names := standardized(StaticNames, raw, have, len(repo.Pages))
		st := &staticSpace{cols: cols, names: names}
		for j, name := range StaticNames {
			switch {
			case !have[j]:
				st.absent = append(st.absent, name)
			case !slices.Contains(names, name):
				st.constant = append(st.constant, name)
			}
		}
		st.elapsed = time.Since(t0)
		return st, nil
	})
}

// needs reports, as an error naming what is missing, when repo lacks
// what feature set set clusters on, so that the policy says so rather
// than cluster on nothing: the content words need the pages' texts
// (Repository.Terms), which an uploaded log does not have; the URL words
// need a word in some page's URL that not every page has; the static set
// needs one of its 18 features to vary across the pages (a URL gives
// depth, domain and file type, the rest need the repository's features
// and links). The dynamic set needs nothing the crawler does not see for
// itself (it compares its own copies), and the combined set adds to it
// whatever static features the repository has.
func needs(repo *dataset.Repository, set string, m memo) error {
	switch set {
	case SetContent, SetURLContent:
		if repo.Terms == nil {
			return fmt.Errorf("feature set %s clusters on the words of the pages' texts (§3.1), and this dataset has no texts "+
				"(an uploaded log gives each page's URL and when it changed); the url, dynamic and combined sets need only URLs and the crawler's own downloads", set)
		}
	case SetURL:
		um, _ := wordMatrices(repo, m)
		if !slices.ContainsFunc(um.Norm, func(x float64) bool { return x > 0 }) {
			return fmt.Errorf("feature set url clusters on the words of the pages' URLs (§3.1), and no page of this dataset has one " +
				"that not every page has (a word is a run of two letters or more); the dynamic and combined sets need only the crawler's own downloads")
		}
	case SetStatic:
		st, err := staticFeatures(repo, m)
		if err != nil {
			return err
		}
		if len(st.names) == 0 {
			msg := "feature set static clusters on the static features of §3.1 other than words, and none varies across this dataset's pages"
			if len(st.constant) > 0 {
				msg += ": " + strings.Join(st.constant, ", ") + " (read from the URLs) are the same for every page"
			}
			if len(st.absent) > 0 {
				msg += "; it has no " + strings.Join(st.absent, ", ")
			}
			return errors.New(msg + "; the dynamic and combined sets need only the crawler's own downloads")
		}
	}
	return nil
}

// space returns the exact space of a static feature set (every page a
// point) and how long its inputs took to build; the set has what it needs
// (see needs).
func space(repo *dataset.Repository, set string, m memo) (Space, time.Duration, error) {
	n := len(repo.Pages)
	switch set {
	case SetURL, SetContent, SetURLContent:
		t0 := time.Now()
		um, cm := wordMatrices(repo, m)
		el := time.Since(t0)
		switch {
		case set == SetURL:
			return NewSparse(um, nil), el, nil
		case set == SetContent:
			return NewSparse(cm, nil), el, nil
		}
		return NewSparse(um, cm), el, nil
	case SetStatic:
		st, err := staticFeatures(repo, m)
		if err != nil {
			return nil, 0, err
		}
		d := NewDense(n)
		d.RowDim, d.Rows = len(st.cols), rowsOf(st.cols, n)
		d.Finish()
		return d, st.elapsed, nil
	case SetCombined:
		return static38(repo, m)
	}
	return nil, 0, fmt.Errorf("no static space for feature set %q", set)
}

// static38 returns the space of the 38 static features of the combined
// set: ten URL-word and ten content-word cluster distances (table blocks)
// and the 18 others.
func static38(repo *dataset.Repository, m memo) (*Dense, time.Duration, error) {
	type s38 struct {
		d       *Dense
		elapsed time.Duration
	}
	v, err := remember(m, "cluster/static38", func() (*s38, error) {
		w, err := wordClusterings(repo, m)
		if err != nil {
			return nil, err
		}
		st, err := staticFeatures(repo, m)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		n := len(repo.Pages)
		d := NewDense(n)
		d.Tables = append(d.Tables, w.url.rankTable(n))
		if w.content != nil {
			d.Tables = append(d.Tables, w.content.rankTable(n))
		}
		d.RowDim, d.Rows = len(st.cols), rowsOf(st.cols, n)
		d.Finish()
		return &s38{d: d, elapsed: w.elapsed + st.elapsed + time.Since(t0)}, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return v.d, v.elapsed, nil
}

// StaticClustering returns the clustering of repo's pages by a static
// feature set (url, content, url+content or static) into k clusters, or,
// with k = 0, into the number v-fold cross-validation chooses among 1 to
// kMax (§3.3), remembered through m (refresh.Env.Memo; nil computes it).
func StaticClustering(repo *dataset.Repository, set string, k, folds, kMax int, m memo) (*Clustering, error) {
	if m == nil {
		m = func(_ string, b func() (any, error)) (any, error) { return b() }
	}
	if err := needs(repo, set, m); err != nil {
		return nil, err
	}
	key := fmt.Sprintf("cluster/clustering/%s/k%d", set, k)
	if k == 0 {
		key += fmt.Sprintf("/cv%d-%d", folds, kMax)
	}
	return remember(m, key, func() (*Clustering, error) {
		t0 := time.Now()
		if k == WordClusters && (set == SetURL || set == SetContent) {
			// The clustering the word dimensions are made of (§3.1).
			w, err := wordClusterings(repo, m)
			if err != nil {
				return nil, err
			}
			wc := w.url
			if set == SetContent {
				wc = w.content
			}
			c := byCluster(wc.Cluster, wc.Sim)
			c.Elapsed = time.Since(t0)
			return c, nil
		}
		s, before, err := space(repo, set, m)
		if err != nil {
			return nil, err
		}
		var cv *CV
		if k == 0 {
			r := CrossValidate(s, folds, min(kMax, s.Len()), Options{Seed: RBCSeed})
			cv, k = &r, r.Best
		}
		_, leaf, sim := fitAssign(s, k)
		c := byCluster(leaf, sim)
		c.CV = cv
		c.Elapsed = before + time.Since(t0)
		return c, nil
	})
}

// Codebook summarises the static part of the combined feature set by
// micro-clusters, so that the pages can be clustered again each cycle with
// their dynamic features without going through every page's 38 static
// values: a page's static part is replaced by its micro-cluster's
// centroid. The micro-clusters are the CodebookSize-way repeated
// bisection of the 38 static features (finer than the k ≈ 100 clusters
// sought); each centroid keeps the mean direction of its pages' vectors
// and their mean length, so static and dynamic features keep their
// relative weight.
type Codebook struct {
	M     int
	Dim   int       // static dimensions
	Rows  []float64 // M × Dim
	Of    []int32   // per page: its micro-cluster
	Order []int32   // pages by micro-cluster, nearest its centroid first
	Start []int32
	// Elapsed is how long the codebook took to build, with the static
	// features under it.
	Elapsed time.Duration
}

func codebook(repo *dataset.Repository, m memo) (*Codebook, error) {
	return remember(m, "cluster/codebook", func() (*Codebook, error) {
		s, before, err := static38(repo, m)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		_, leaf, sim := fitAssign(s, CodebookSize)
		c := byCluster(leaf, sim)
		b := &Codebook{M: c.K, Dim: s.Dim(), Of: c.Of(), Order: c.Order, Start: c.Start}
		b.Rows = make([]float64, b.M*b.Dim)
		one := []int32{0}
		raw := make([]float64, b.Dim)
		for r := range b.M {
			row := b.Rows[r*b.Dim : (r+1)*b.Dim]
			var lenSum float64
			pages := c.Order[c.Start[r]:c.Start[r+1]]
			for _, p := range pages {
				// The raw vector is the unit vector over Scale.
				one[0] = p
				clear(raw)
				s.Sum(one, raw)
				sc := s.Scale[p]
				if sc == 0 {
					continue
				}
				for j, x := range raw {
					row[j] += x / sc
				}
				lenSum += 1 / sc
			}
			if l := norm(row); l > 0 {
				f := lenSum / float64(len(pages)) / l
				for j := range row {
					row[j] *= f
				}
			}
		}
		b.Elapsed = before + time.Since(t0)
		return b, nil
	})
}

// FitPages bounds the pages a clustering is fitted on: with more, the
// bisection tree is fitted to a uniform sample of FitPages pages (drawn
// with RBCSeed) and every page is then placed in it by descending the tree
// (Tree.Assign), as a crawler clustering 300,000 pages in a browser must.
// Tan et al. cluster every page; on a sample this large the centroids
// hardly move, and each bisection's trials fit a sample anyway
// (Options.FitSample).
const FitPages = 20000

func newRNG(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// fitAssign clusters the points of s into at most k clusters, fitting on
// at most FitPages of them, and places every point: it returns the tree
// and each point's leaf node and cosine to its centroid.
func fitAssign(s Space, k int) (*Tree, []int32, []float64) {
	n := s.Len()
	t := Bisect(s, sampleOf(n, FitPages), Options{K: k, Seed: RBCSeed})
	leaf, sim := make([]int32, n), make([]float64, n)
	t.Assign(s, allPoints(n), t.K(), leaf, sim)
	return t, leaf, sim
}

// Prepare computes from scratch what cluster sampling derives from a
// repository alone for a feature set, the work the lab remembers across
// repeats and runs (refresh.Env.Memo): for url, content, url+content and
// static the k-way clustering; for combined the word clusterings, the
// static features and the Codebook, and the first clustering; for
// dynamic nothing (it clusters the crawler's own copies during the run).
// It returns how long that took: the clustering time a run on a new
// dataset pays once, reported apart from the run's ns per page-cycle.
func Prepare(repo *dataset.Repository, set string, k int) (time.Duration, error) {
	t0 := time.Now()
	cache := map[string]any{}
	m := func(key string, build func() (any, error)) (any, error) {
		if v, ok := cache[key]; ok {
			return v, nil
		}
		v, err := build()
		if err == nil {
			cache[key] = v
		}
		return v, err
	}
	switch set {
	case SetDynamic:
	case SetCombined:
		if _, err := codebook(repo, m); err != nil {
			return 0, err
		}
	default:
		if _, err := StaticClustering(repo, set, k, DefaultFolds, DefaultKMax, m); err != nil {
			return 0, err
		}
	}
	return time.Since(t0), nil
}
