package cluster

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"gonum.org/v1/gonum/stat/distuv"
)

// handmade returns a dataset of one site whose page i has URL
// https://a.example/<section(i)>/item-i.html and changes in every cycle
// when changes(i) is true, never otherwise.
func handmade(n, cycles int, section func(i int) string, changes func(i int) bool) *dataset.Dataset {
	d := &dataset.Dataset{Info: dataset.Info{ID: "handmade"}}
	d.Sites = []string{"a.example"}
	d.Truth.Changed = make([][]int32, cycles)
	for i := range n {
		d.Pages = append(d.Pages, dataset.Page{URL: fmt.Sprintf("https://a.example/%s/item-%d.html", section(i), i)})
		if changes(i) {
			for c := range cycles {
				d.Truth.Changed[c] = append(d.Truth.Changed[c], int32(i))
			}
		}
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	return d
}

// recorder wraps the policy to keep its per-cycle estimates and samples.
type recorder struct {
	p       *Policy
	k       []int
	sampled [][]int
	phi     [][]float64
	samples [][][]int32 // per cycle, per cluster: the pages in the order drawn
}

func (r *recorder) Refresh(c *refresh.Crawl) {
	r.p.Refresh(c)
	phi, s := r.p.Estimates()
	r.k = append(r.k, r.p.Clusters())
	r.sampled = append(r.sampled, append([]int(nil), s...))
	r.phi = append(r.phi, append([]float64(nil), phi...))
	var samples [][]int32
	for k := range r.p.Clusters() {
		samples = append(samples, append([]int32(nil), r.p.Sample(k)...))
	}
	r.samples = append(r.samples, samples)
}

func run(t *testing.T, d *dataset.Dataset, budget int, params param.Values, seed uint64) (*recorder, []refresh.Cycle, param.Values) {
	t.Helper()
	vals, err := param.Check(Params(), params)
	if err != nil {
		t.Fatal(err)
	}
	env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Rand: rand.New(rand.NewPCG(seed, 7)), Params: vals}
	p, err := New(env)
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{p: p}
	return r, refresh.NewSim(d).Run(r, budget, d.Truth.Cycles(), nil), vals
}

// TestNewsAndArchive is a worked example with an exact answer. 1,000
// pages: the 500 under /news/ change every cycle, the 500 under /archive/
// never; 250 downloads a cycle, clustered on URL words into k = 2.
//
// The URL words split the pages into exactly the two sections. Each
// cycle the policy samples pages at random from each cluster (all pages
// of a section are alike, so each as likely as the next). With
// short-sighted weights (sad) every news sample shows φ = 1 − e^(−1),
// since its page changed this cycle, and every archive sample φ = 0; two
// equal values have variance 0, so the t-test calls each sample
// sufficient at m = 2. The 246 downloads left go to the news cluster, all
// changed. ChangeRatio is (2 + 246)/250 = 0.992 in every cycle, whatever
// the seed. With non-adaptive weights (nad) a news sample's φ depends on
// how many of the cycles so far it was downloaded in, so the news sample
// may grow, but every news download still finds a change and the archive
// sample stays at 2: ChangeRatio is again 248/250.
func TestNewsAndArchive(t *testing.T) {
	d := handmade(1000, 5, func(i int) string {
		if i < 500 {
			return "news"
		}
		return "archive"
	}, func(i int) bool { return i < 500 })
	for _, w := range []string{WeightsSAD, WeightsNAD} {
		for _, k := range []float64{2, 0} {
			for seed := range uint64(3) {
				r, cycles, vals := run(t, d, 250, param.Values{"featureSet": SetURL, "weights": w, "k": k, "kMax": 10.0}, seed)
				if k == 0 && vals.Int("k", -1) != 2 {
					t.Errorf("cross-validation chose k = %v, want 2 (two orthogonal groups)", vals["k"])
				}
				for c, cy := range cycles {
					if got := cy.ChangeRatio(); got != 248.0/250 {
						t.Errorf("%s, k %v, seed %d, cycle %d: ChangeRatio %v, want 248/250", w, k, seed, c, got)
					}
					phi, sampled := r.phi[c], r.sampled[c]
					news := 0
					if phi[1] > phi[0] {
						news = 1
					}
					if r.k[c] != 2 || sampled[1-news] != 2 || phi[1-news] != 0 || !(phi[news] > 0) {
						t.Errorf("%s, k %v, seed %d, cycle %d: %d clusters with samples %v and φ %v, want 2 clusters, the archive's sample 2 pages of φ 0", w, k, seed, c, r.k[c], sampled, phi)
					}
					if w == WeightsSAD && (sampled[news] != 2 || phi[news] != Phi(1)) {
						t.Errorf("sad, k %v, seed %d, cycle %d: news sample of %d pages, φ %v, want 2 of 1 − e^(−1)", k, seed, c, sampled[news], phi[news])
					}
				}
			}
		}
	}
}

// TestSampleStopsByTTest checks the sufficient-sample rule inside the
// policy against a direct computation. One cluster (k = 1) whose even
// pages change every cycle and odd pages never; with short-sighted
// weights a sampled even page shows φ = 1 − e^(−1) and an odd one 0. For
// each cycle's sample, in the order the policy drew it, the test finds
// the first m ≥ 2 with t_{(1+c)/2, m−1}·s/√m ≤ δ, s the sample standard
// deviation, computed here with gonum's quantile, and checks that the
// sample stopped there, or at R/k pages when the budget is smaller; and
// that the sample's pages are distinct pages of the cluster.
func TestSampleStopsByTTest(t *testing.T) {
	d := handmade(2000, 3, func(i int) string { return fmt.Sprintf("s%c", 'a'+i%5) }, func(i int) bool { return i%2 == 0 })
	// stop returns the first m at which the sample is sufficient, or its
	// length and false.
	stop := func(sample []int32, conf, delta float64) (int, bool) {
		for m := 2; m <= len(sample); m++ {
			var sum, ss float64
			x := func(i int) float64 {
				if sample[i]%2 == 0 {
					return Phi(1)
				}
				return 0
			}
			for i := range m {
				sum += x(i)
			}
			mean := sum / float64(m)
			for i := range m {
				ss += (x(i) - mean) * (x(i) - mean)
			}
			s := math.Sqrt(ss / float64(m-1))
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 1)}.Quantile((1 + conf) / 2)
			if q*s/math.Sqrt(float64(m)) <= delta {
				return m, true
			}
		}
		return len(sample), false
	}
	for _, c := range []struct{ conf, delta float64 }{{0.8, 0.1}, {0.8, 0.2}, {0.95, 0.1}, {0.6, 0.05}} {
		for _, budget := range []int{1000, 5} {
			for seed := range uint64(4) {
				r, _, _ := run(t, d, budget, param.Values{"featureSet": SetURL, "weights": WeightsSAD, "k": 1.0, "confidence": c.conf, "delta": c.delta}, seed)
				for cy, samples := range r.samples {
					sample := samples[0]
					seen := map[int32]bool{}
					for _, pg := range sample {
						if seen[pg] || pg < 0 || pg >= 2000 {
							t.Fatalf("cycle %d: sample %v repeats a page or leaves the cluster", cy, sample)
						}
						seen[pg] = true
					}
					want, sufficient := stop(sample, c.conf, c.delta)
					if want != len(sample) || !sufficient && len(sample) != budget {
						t.Errorf("confidence %v, δ %v, budget %d, seed %d, cycle %d: sampled %d, the t-test stops at %d", c.conf, c.delta, budget, seed, cy, len(sample), want)
					}
				}
			}
		}
	}
}

// TestNoPageTwiceInACycle: on a dataset where every page changes every
// cycle, a download finds a change unless the page was already downloaded
// in the cycle; so ChangeRatio is exactly 1 for every feature set and
// weighting, and every cycle spends the whole budget.
func TestNoPageTwiceInACycle(t *testing.T) {
	d := handmade(600, 4, func(i int) string { return []string{"news", "blog", "docs"}[i%3] }, func(int) bool { return true })
	for _, set := range []string{SetURL, SetDynamic, SetCombined} { // the sets a dataset without texts or static features has
		for _, w := range WeightSchemes {
			for _, budget := range []int{50, 599, 600, 900} {
				_, cycles, _ := run(t, d, budget, param.Values{"featureSet": set, "weights": w, "k": 3.0}, 2)
				for c, cy := range cycles {
					if cy.ChangeRatio() != 1 || cy.Downloads != min(budget, 600) {
						t.Errorf("%s, %s, budget %d, cycle %d: %d downloads, ChangeRatio %v", set, w, budget, c, cy.Downloads, cy.ChangeRatio())
					}
				}
			}
		}
	}
}

// TestEstimatesAreSampleMeans checks §4.2 on the estimates the policy
// reports: each cluster's φ is the mean of its sampled pages' φ, which lie
// in [0, 1 − e^(−1)] (λ ≤ 1 under every weighting), and a sample never
// exceeds R/k pages.
func TestEstimatesAreSampleMeans(t *testing.T) {
	d := handmade(3000, 6, func(i int) string { return fmt.Sprintf("s%c", 'a'+i%7) }, func(i int) bool { return (i*2654435761)%5 < 2 })
	for _, w := range WeightSchemes {
		r, _, _ := run(t, d, 300, param.Values{"featureSet": SetURL, "weights": w, "k": 7.0}, 3)
		for c := range r.phi {
			for k, phi := range r.phi[c] {
				if s := r.sampled[c][k]; s > 300/7 || (s == 0) != (phi == -1) {
					t.Errorf("%s, cycle %d, cluster %d: %d samples, φ %v", w, c, k, s, phi)
				}
				if phi != -1 && (phi < 0 || phi > Phi(1)+1e-15) {
					t.Errorf("%s, cycle %d, cluster %d: φ %v out of [0, 1 − e^(−1)]", w, c, k, phi)
				}
			}
		}
	}
}

// TestAutoRecluster checks the default re-clustering period: every cycle
// up to the 24 cycles of the paper's scale, about 24 re-clusterings in all
// beyond.
func TestAutoRecluster(t *testing.T) {
	for _, c := range []struct{ cycles, want int }{{0, 1}, {1, 1}, {12, 1}, {24, 1}, {25, 2}, {48, 2}, {49, 3}, {3006, 126}} {
		if got := AutoRecluster(c.cycles); got != c.want {
			t.Errorf("AutoRecluster(%d) = %d, want %d", c.cycles, got, c.want)
		}
		if c.cycles > 0 {
			if n := (c.cycles + AutoRecluster(c.cycles) - 1) / AutoRecluster(c.cycles); n > 24 {
				t.Errorf("%d cycles: %d re-clusterings, want at most 24", c.cycles, n)
			}
		}
	}
}

// TestDrawInProportionToSimilarity checks §4.1's sample as we read it: a
// page is drawn with a chance in proportion to its cosine similarity to
// the centroid (clipped at 0), so the pages nearest the centroid are the
// likeliest and every page of positive similarity can be drawn. Each case
// draws one page from a segment 40,000 times; each page's count must lie
// within 5 binomial standard errors of its expected share (the chance of
// a false alarm over the 33 pages is below 1e-4). The cases cover the
// rejection draw against the largest weight, the exact draw it falls back
// on (a bound top far above the weights, or one page of weight among many
// of none), pages of weight 0 (never drawn) and a segment of all-zero
// weights (drawn uniformly).
func TestDrawInProportionToSimilarity(t *testing.T) {
	const draws = 40000
	for _, c := range []struct {
		name string
		sim  []float32
		top  float64
	}{
		{"high", []float32{1, 0.8, 0.5, 0.5, 0.2, 0.9}, 1},
		{"low", []float32{1e-6, 4e-6, 2e-6, 1e-6, 2e-6}, 4e-6},
		{"low under a high bound", []float32{1e-6, 4e-6, 2e-6, 1e-6, 2e-6}, 1},
		{"some zero", []float32{0.6, 0, 0.3, -0.4, 0.3}, 0.6},
		{"one of weight", []float32{0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0}, 0.5},
		{"all zero", []float32{0, 0, -0.1, 0, 0, 0}, 0},
	} {
		n := len(c.sim)
		p := &Policy{sim: c.sim, rng: rand.New(rand.NewPCG(1, 2))}
		var sum float64
		for _, s := range c.sim {
			sum += math.Max(float64(s), 0)
		}
		count := make([]int, n)
		w := make([]int32, n)
		for range draws {
			for i := range w {
				w[i] = int32(i)
			}
			count[p.draw(w, 0, c.top)]++
		}
		for i, s := range c.sim {
			want := 1 / float64(n)
			if sum > 0 {
				want = math.Max(float64(s), 0) / sum
			}
			se := math.Sqrt(want * (1 - want) / draws)
			if got := float64(count[i]) / draws; math.Abs(got-want) > 5*se || want == 0 && count[i] > 0 {
				t.Errorf("%s: page %d (similarity %v) drawn %.4f of the time, want %.4f ± %.4f", c.name, i, s, got, want, 5*se)
			}
		}
	}
	// Without replacement: drawing a whole segment one page at a time
	// gives every page once, whatever the weights.
	p := &Policy{sim: []float32{0.9, 0, 1e-9, 0.4, 0, 0.7}, rng: rand.New(rand.NewPCG(3, 4))}
	w := []int32{0, 1, 2, 3, 4, 5}
	for i := range w {
		p.draw(w, i, 0.9)
	}
	if s := slices.Sorted(slices.Values(w)); !slices.Equal(s, []int32{0, 1, 2, 3, 4, 5}) {
		t.Errorf("drawing the whole segment gave %v", w)
	}
}

// TestSamplesMove checks that a cluster's samples are not the same pages
// every cycle: 600 pages in three URL sections (k = 3) that never change,
// 30 downloads a cycle over 300 cycles. Each cycle the t-test stops each
// cluster's sample at two pages (their φ are equal), and the other 24
// downloads go to a cluster the random order of ties puts first; so a
// page is downloaded with probability 2/200 + 24/600 = 0.05 a cycle, and
// one is never downloaded with probability 0.95^300 ≈ 2e-7 (about 1e-4
// over the 600 pages). Over the first 60 cycles the samples alone cover
// most pages. Were each cycle's samples the pages nearest each centroid,
// they would be the same six pages every cycle.
func TestSamplesMove(t *testing.T) {
	d := handmade(600, 300, func(i int) string { return []string{"news", "blog", "docs"}[i%3] }, func(int) bool { return false })
	for seed := range uint64(3) {
		r, _, _ := run(t, d, 30, param.Values{"featureSet": SetURL, "k": 3.0}, seed)
		sampled := map[int32]bool{}
		for _, cy := range r.samples[:60] {
			for _, s := range cy {
				for _, pg := range s {
					sampled[pg] = true
				}
			}
		}
		// 360 draws, at most 2 of each cluster's 200 pages a cycle: about
		// 200·(1 − 0.99^60) ≈ 90 of each cluster's pages.
		if len(sampled) < 200 {
			t.Errorf("seed %d: only %d distinct pages sampled over 60 cycles", seed, len(sampled))
		}
		sim := refresh.NewSim(d)
		sim.Downloads = make([]int32, 600)
		vals, _ := param.Check(Params(), param.Values{"featureSet": SetURL, "k": 3.0})
		p, err := New(refresh.Env{Repo: &d.Repository, Budget: 30, Cycles: 300, Rand: rand.New(rand.NewPCG(seed, 7)), Params: vals})
		if err != nil {
			t.Fatal(err)
		}
		sim.Run(p, 30, 300, nil)
		if never := slices.Index(sim.Downloads, 0); never >= 0 {
			t.Errorf("seed %d: page %d never downloaded in 300 cycles of 30 downloads", seed, never)
		}
	}
}

// TestFeatureSetNeeds checks that a feature set that needs what a dataset
// lacks fails with an error naming it, rather than cluster on nothing,
// and that the sets a dataset does have run: on a log of pages with URLs
// and no texts, features or links (what an upload gives), the content
// words need texts; the static set finds depth, domain and file type the
// same for every page and nothing else; URLs whose words every page shares
// give the url set nothing; the dynamic and combined sets always run.
func TestFeatureSetNeeds(t *testing.T) {
	words := handmade(60, 3, func(i int) string { return []string{"news", "blog", "docs"}[i%3] }, func(i int) bool { return i%2 == 0 })
	same := handmade(60, 3, func(int) string { return "pages" }, func(i int) bool { return i%2 == 0 })
	for _, c := range []struct {
		d    *dataset.Dataset
		set  string
		want []string // in the error; nil: runs
	}{
		{words, SetContent, []string{"texts"}},
		{words, SetURLContent, []string{"texts"}},
		{words, SetStatic, []string{"depth", "com", "html", "images", "pagerank"}},
		{words, SetURL, nil},
		{words, SetDynamic, nil},
		{words, SetCombined, nil},
		{same, SetURL, []string{"words of the pages' URLs"}},
		{same, SetDynamic, nil},
		{same, SetCombined, nil},
	} {
		vals, _ := param.Check(Params(), param.Values{"featureSet": c.set, "k": 3.0})
		_, err := New(refresh.Env{Repo: &c.d.Repository, Budget: 10, Cycles: 3, Rand: rand.New(rand.NewPCG(1, 1)), Params: vals})
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%s on %s: %v", c.set, c.d.Pages[0].URL, err)
		case c.want != nil && err == nil:
			t.Errorf("%s on %s: no error, want one naming %q", c.set, c.d.Pages[0].URL, c.want)
		case c.want != nil:
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %q does not name %q", c.set, err, w)
				}
			}
		}
	}
}

// TestDynamicWithoutContent checks the dynamic features of a dataset with
// no content model, such as an uploaded log: a download that finds the
// page changed gives a change in content of 1 (the copies differ; how much
// is unknown), one that finds it unchanged 0. Every page is downloaded
// every cycle (the budget is the repository), half of them change every
// cycle, and from the second cycle the dynamic set's two clusters are
// exactly the changing and the unchanging pages.
func TestDynamicWithoutContent(t *testing.T) {
	d := handmade(200, 4, func(int) string { return "pages" }, func(i int) bool { return i%2 == 0 })
	for seed := range uint64(3) {
		r, _, _ := run(t, d, 200, param.Values{"featureSet": SetDynamic, "k": 2.0}, seed)
		if r.k[0] != 1 {
			t.Errorf("seed %d, cycle 0: %d clusters, want 1 (no copy compared yet)", seed, r.k[0])
		}
		// The clustering of the last cycle.
		if k := r.p.Clusters(); k != 2 {
			t.Fatalf("seed %d: %d clusters, want 2", seed, k)
		}
		for k := range 2 {
			m := r.p.Members(k)
			if len(m) != 100 || slices.ContainsFunc(m, func(pg int32) bool { return pg%2 != m[0]%2 }) {
				t.Errorf("seed %d: cluster %d has %d pages, not the 100 changing or the 100 unchanging ones", seed, k, len(m))
			}
		}
	}
}
