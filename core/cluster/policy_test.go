package cluster

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// recorder wraps the policy to keep its per-cycle estimates.
type recorder struct {
	p       *Policy
	k       []int
	sampled [][]int
	phi     [][]float64
}

func (r *recorder) Refresh(c *refresh.Crawl) {
	r.p.Refresh(c)
	phi, s := r.p.Estimates()
	r.k = append(r.k, r.p.Clusters())
	r.sampled = append(r.sampled, append([]int(nil), s...))
	r.phi = append(r.phi, append([]float64(nil), phi...))
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
// cycle the policy samples the two pages nearest each centroid (all pages
// of a section are alike, so the first two by index): two news pages show
// φ = 1 − e^(−1), two archive pages φ = 0; two equal values have variance
// 0, so the t-test calls each sample sufficient at m = 2. The 246
// downloads left go to the news cluster, all changed. ChangeRatio is
// (2 + 246)/250 = 0.992 in every cycle, whatever the seed.
func TestNewsAndArchive(t *testing.T) {
	d := handmade(1000, 5, func(i int) string {
		if i < 500 {
			return "news"
		}
		return "archive"
	}, func(i int) bool { return i < 500 })
	for _, k := range []float64{2, 0} {
		for seed := range uint64(3) {
			r, cycles, vals := run(t, d, 250, param.Values{"featureSet": SetURL, "k": k, "kMax": 10.0}, seed)
			if k == 0 && vals.Int("k", -1) != 2 {
				t.Errorf("cross-validation chose k = %v, want 2 (two orthogonal groups)", vals["k"])
			}
			for c, cy := range cycles {
				if got := cy.ChangeRatio(); got != 248.0/250 {
					t.Errorf("k %v, seed %d, cycle %d: ChangeRatio %v, want 248/250", k, seed, c, got)
				}
				if r.k[c] != 2 || r.sampled[c][0] != 2 || r.sampled[c][1] != 2 {
					t.Errorf("k %v, seed %d, cycle %d: %d clusters with samples %v, want 2 clusters of 2", k, seed, c, r.k[c], r.sampled[c])
				}
				phi := r.phi[c]
				if math.Max(phi[0], phi[1]) != Phi(1) || math.Min(phi[0], phi[1]) != 0 {
					t.Errorf("cycle %d: φ = %v, want {1 − e^(−1), 0}", c, phi)
				}
			}
		}
	}
}

// TestSampleStopsByTTest checks the sufficient-sample rule inside the
// policy against a direct computation. One cluster of pages alike (k = 1,
// so they are sampled in page order) whose even pages change every cycle
// and odd pages never: the sampled φ alternate 1 − e^(−1), 0, …. The
// sample stops at the first m ≥ 2 with t_{(1+c)/2, m−1}·s/√m ≤ δ, s the
// sample standard deviation, computed here with gonum's quantile; with a
// budget too small for that, at R/k.
func TestSampleStopsByTTest(t *testing.T) {
	d := handmade(2000, 3, func(int) string { return "mixed" }, func(i int) bool { return i%2 == 0 })
	for _, c := range []struct{ conf, delta float64 }{{0.8, 0.1}, {0.8, 0.2}, {0.95, 0.1}, {0.6, 0.05}} {
		want := 0
		for m := 2; want == 0; m++ {
			var sum, ss float64
			for i := range m {
				if i%2 == 0 {
					sum += Phi(1)
				}
			}
			mean := sum / float64(m)
			for i := range m {
				x := 0.0
				if i%2 == 0 {
					x = Phi(1)
				}
				ss += (x - mean) * (x - mean)
			}
			s := math.Sqrt(ss / float64(m-1))
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 1)}.Quantile((1 + c.conf) / 2)
			if q*s/math.Sqrt(float64(m)) <= c.delta {
				want = m
			}
		}
		for _, budget := range []int{1000, want - 1} {
			r, _, _ := run(t, d, budget, param.Values{"featureSet": SetURL, "k": 1.0, "confidence": c.conf, "delta": c.delta}, 1)
			exp := min(want, budget)
			for cy, s := range r.sampled {
				if s[0] != exp {
					t.Errorf("confidence %v, δ %v, budget %d, cycle %d: sampled %d, want %d", c.conf, c.delta, budget, cy, s[0], exp)
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
	d := handmade(600, 4, func(i int) string { return []string{"x", "y", "z"}[i%3] }, func(int) bool { return true })
	for _, set := range FeatureSets {
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
