package sampling

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
	"github.com/refreshlab/refreshlab/core/synth"
)

// adaptiveOn returns an Adaptive over d with the given κ and α.
func adaptiveOn(d *dataset.Dataset, budget, kappa int, alpha float64, rng *rand.Rand) *Adaptive {
	return NewAdaptive(refresh.Env{
		Repo: &d.Repository, Budget: budget, Cycles: 1, Rand: rng,
		Params: param.Values{"kappa": float64(kappa), "alpha": alpha},
	})
}

// sitesDataset builds one cycle over sites of the given sizes, with the
// first changed[w] pages of site w changed.
func sitesDataset(t testing.TB, sizes, changed []int) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "test"}}
	d.Truth.Changed = make([][]int32, 1)
	for w, n := range sizes {
		d.Sites = append(d.Sites, fmt.Sprintf("site-%d", w))
		for i := range n {
			if i < changed[w] {
				d.Truth.Changed[0] = append(d.Truth.Changed[0], int32(len(d.Pages)))
			}
			d.Pages = append(d.Pages, dataset.Page{URL: fmt.Sprintf("s%d/p%d", w, i), Site: int32(w)})
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAdaptiveDecisions follows Fig. 2.3 on crafted sites whose samples
// are certain (all or none of their pages changed), so every decision is
// known in advance.
func TestAdaptiveDecisions(t *testing.T) {
	tests := []struct {
		name          string
		sizes, change []int
		budget, kappa int
		wantSampled   []int // n_i at the end of the cycle
		wantDone      []int // pages downloaded from each site
		wantChanged   int
	}{
		// Round 1: 10 + 10 samples, 40 left. Site 0 (p = 1) alone fills
		// the 40, so p_t = 1: site 1's interval lies below it (h < 1) and
		// it is dropped; site 0's reaches 1 (h = 1, l < 1) and it is
		// sampled again, 10 a round, until the budget is gone.
		{"drop", []int{100, 100}, []int{100, 0}, 60, 10, []int{50, 10}, []int{50, 10}, 50},
		// Round 1: 30 samples, 120 left. Site 0's 90 unsampled pages do not
		// fill them; site 1's would: p_t = 0. Site 0's interval lies above
		// it (l > 0): downloaded whole. Sites 1 and 2 (p = 0, h > 0, l = 0)
		// stay; round 2 samples 10 more of each (20 ≤ 30 left); then 10
		// are left, less than the 20 of another round: sampling stops and
		// the 10 go greedily to a site that ties at p = 0.
		{"download", []int{100, 100, 100}, []int{100, 0, 0}, 150, 10, []int{10, 20, 20}, nil, 100},
		// Everything fits: after round 1 all sites of S are downloaded.
		{"fits", []int{30, 20}, []int{30, 0}, 60, 5, []int{5, 5}, []int{30, 20}, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := sitesDataset(t, tt.sizes, tt.change)
			for seed := range uint64(20) {
				sim := refresh.NewSim(d)
				a := adaptiveOn(d, tt.budget, tt.kappa, 0.95, rand.New(rand.NewPCG(seed, 1)))
				cy := sim.Run(a, tt.budget, 1, nil)[0]
				if cy.Downloads != min(tt.budget, len(d.Pages)) || cy.Changed != tt.wantChanged {
					t.Fatalf("seed %d: %d downloads, %d changed; want %d, %d", seed, cy.Downloads, cy.Changed, min(tt.budget, len(d.Pages)), tt.wantChanged)
				}
				if !slices.Equal(a.sampled, tt.wantSampled) {
					t.Errorf("seed %d: sampled %v, want %v", seed, a.sampled, tt.wantSampled)
				}
				if tt.wantDone != nil && !slices.Equal(a.done, tt.wantDone) {
					t.Errorf("seed %d: downloaded %v per site, want %v", seed, a.done, tt.wantDone)
				}
				for w, x := range a.changed {
					if want := float64(x) / float64(a.sampled[w]); a.SiteEstimates()[w] != want {
						t.Errorf("seed %d: estimate of site %d = %v, want %v", seed, w, a.SiteEstimates()[w], want)
					}
				}
			}
		})
	}
}

// TestAdaptiveThreshold checks p_t (Fig. 2.3 line 7, our reading) on
// crafted estimates: the estimate of the site at which the remaining
// budget runs out, sites taken in decreasing order of estimate.
func TestAdaptiveThreshold(t *testing.T) {
	tests := []struct {
		est  []float64
		left []int
		in   []bool
		r    int
		want float64
	}{
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{true, true, true}, 5, 0.9},
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{true, true, true}, 10, 0.9},
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{true, true, true}, 11, 0.5},
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{true, true, true}, 30, 0.2},
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{true, true, true}, 31, -1},
		// Sites out of S do not count.
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{true, false, true}, 11, 0.2},
		{[]float64{0.2, 0.9, 0.5}, []int{10, 10, 10}, []bool{false, false, false}, 1, -1},
	}
	for i, tt := range tests {
		n := len(tt.est)
		a := newAdaptive(n, nil)
		for w := range n {
			a.pages[w] = make([]int32, tt.left[w])
			a.order[w] = w
		}
		copy(a.est, tt.est)
		var live []int
		for w, in := range tt.in {
			if in {
				live = append(live, w)
			}
		}
		if got := a.threshold(live, tt.r); got != tt.want {
			t.Errorf("case %d: threshold(%d) = %v, want %v", i, tt.r, got, tt.want)
		}
	}
}

// adaptiveExpectation derives, independently of Adaptive.Refresh, the
// exact expected number of changed pages adaptive sampling finds in one
// cycle on sites of n[w] pages, k[w] of them changed: a forward pass over
// the distribution of states after each round (pages sampled and changed
// per site, which sites are still undecided, the budget left), with the
// hypergeometric law of each round's samples. The budget must pay for the
// first round whole, so the order of the sites does not matter until the
// greedy spending at the end, where ties are averaged over.
func adaptiveExpectation(n, k []int, budget, kappa int, z float64) float64 {
	const (
		undecided = iota
		dropped
		whole // downloaded whole, or sampled whole
	)
	ns := len(n)
	type state struct {
		x, s, st [3]int
		r        int
	}
	left := func(st state, w int) int {
		if st.st[w] == whole {
			return 0
		}
		return n[w] - st.s[w]
	}
	est := func(st state, w int) float64 { return float64(st.x[w]) / float64(st.s[w]) }
	var expect float64
	// finish adds the expected changed pages of a final state: the whole
	// sites' k, the others' samples, and the greedy spending of what is
	// left, averaged over the orders that rank the sites by estimate.
	finish := func(st state, prob float64) {
		found := 0.0
		for w := range ns {
			if st.st[w] == whole {
				found += float64(k[w])
			} else {
				found += float64(st.x[w])
			}
		}
		var sum float64
		var count int
		for _, o := range permutations(ns) {
			if !slices.IsSortedFunc(o, func(a, b int) int {
				switch {
				case est(st, a) > est(st, b):
					return -1
				case est(st, a) < est(st, b):
					return 1
				}
				return 0
			}) {
				continue
			}
			r, g := st.r, 0.0
			for _, w := range o {
				m := min(left(st, w), r)
				if m > 0 {
					g += float64(m) * float64(k[w]-st.x[w]) / float64(left(st, w))
				}
				r -= m
			}
			sum += g
			count++
		}
		expect += prob * (found + sum/float64(count))
	}
	states := map[state]float64{{r: budget}: 1}
	for round := 0; len(states) > 0; round++ {
		next := map[state]float64{}
		for st, prob := range states {
			cost := 0
			for w := range ns {
				if st.st[w] == undecided {
					cost += min(kappa, left(st, w))
				}
			}
			if cost == 0 || st.r == 0 || (round > 0 && cost > st.r) {
				finish(st, prob)
				continue
			}
			if cost > st.r {
				panic("the budget must pay for the first round")
			}
			// Every combination of this round's sample outcomes.
			var visit func(w int, cur state, p float64)
			visit = func(w int, cur state, p float64) {
				if w < ns {
					if cur.st[w] != undecided {
						visit(w+1, cur, p)
						return
					}
					m := min(kappa, left(cur, w))
					lo := max(0, m-(n[w]-cur.s[w]-(k[w]-cur.x[w])))
					for i, q := range hypergeometric(n[w]-cur.s[w], k[w]-cur.x[w], m) {
						c := cur
						c.x[w] += lo + i
						c.s[w] += m
						c.r -= m
						visit(w+1, c, p*q)
					}
					return
				}
				var lo, hi [3]float64
				for v := range ns {
					if cur.st[v] == undecided {
						if left(cur, v) == 0 {
							cur.st[v] = whole
							continue
						}
						lo[v], hi[v] = stat.WilsonInterval(cur.x[v], cur.s[v], n[v], z)
					}
				}
				// p_t: the estimate at which the budget left runs out.
				var open []int
				for v := range ns {
					if cur.st[v] == undecided {
						open = append(open, v)
					}
				}
				slices.SortFunc(open, func(a, b int) int {
					switch {
					case est(cur, a) > est(cur, b):
						return -1
					case est(cur, a) < est(cur, b):
						return 1
					}
					return 0
				})
				pt, cum := -1.0, 0
				for _, v := range open {
					if cum += left(cur, v); cum >= cur.r {
						pt = est(cur, v)
						break
					}
				}
				for _, v := range open {
					switch {
					case hi[v] < pt:
						cur.st[v] = dropped
					case lo[v] > pt:
						cur.r -= left(cur, v)
						cur.st[v] = whole
					}
				}
				next[cur] += p
			}
			visit(0, st, prob)
		}
		states = next
	}
	return expect
}

// TestAdaptiveExpectation checks the simulated policy against the exact
// expectation of adaptiveExpectation on Al-Qaaideh's §2.5.4 example (two
// sites of 100 pages, 70 and 40 changed, 100 downloads) and on a
// three-site case: over 20,000 repeats the mean changed pages must lie
// within 4 standard errors of the exact value (a correct policy fails one
// case with probability about 6e-5). The example also shows how adaptive
// sampling compares with the paper's greedy 56 + 14 (samples) = 70 and the
// exact expectations of greedy and proportional with 10-page samples.
func TestAdaptiveExpectation(t *testing.T) {
	tests := []struct {
		name          string
		d             *dataset.Dataset
		n, k          []int
		budget, kappa int
		alpha         float64
	}{
		{"alqaaideh-example κ=10", synth.AlQaaidehExample(1), []int{100, 100}, []int{70, 40}, 100, 10, 0.95},
		{"alqaaideh-example κ=5 α=0.8", synth.AlQaaidehExample(1), []int{100, 100}, []int{70, 40}, 100, 5, 0.8},
		{"three sites", sitesDataset(t, []int{40, 30, 20}, []int{10, 20, 5}), []int{40, 30, 20}, []int{10, 20, 5}, 45, 4, 0.9},
	}
	const reps = 20000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := adaptiveExpectation(tt.n, tt.k, tt.budget, tt.kappa, stat.NormalQuantile((1+tt.alpha)/2))
			sim := refresh.NewSim(tt.d)
			found := make([]float64, reps)
			var a *Adaptive
			for r := range reps {
				sim.Reset()
				rng := rand.New(rand.NewPCG(uint64(r), 99))
				if a == nil {
					a = adaptiveOn(tt.d, tt.budget, tt.kappa, tt.alpha, rng)
				} else {
					a.Reuse(refresh.Env{Repo: &tt.d.Repository, Rand: rng})
				}
				found[r] = float64(sim.Run(a, tt.budget, 1, nil)[0].Changed)
			}
			mean, se := meanSE(found)
			t.Logf("exact %.4f changed pages of %d downloads, simulated %.4f ± %.4f (SE)", want, tt.budget, mean, se)
			if math.Abs(mean-want) > zTolerance*se {
				t.Errorf("simulated %.4f ± %.4f (SE), exact %.4f: more than %d SE apart", mean, se, want, zTolerance)
			}
		})
	}
	greedy, _ := ExpectedChangeRatio(synth.AlQaaidehExample(1), 100, 10, Greedy)
	adaptive := adaptiveExpectation([]int{100, 100}, []int{70, 40}, 100, 10, stat.NormalQuantile(0.975)) / 100
	t.Logf("§2.5.4 example, exact ChangeRatio: greedy with 10-page samples %.4f, adaptive κ=10 α=0.95 %.4f", greedy, adaptive)
}

// TestAdaptiveLimits checks the limits: κ as large as the sites makes
// the first round download everything it can, and a budget too small for
// one sample of every site samples a random few, as site sampling does.
func TestAdaptiveLimits(t *testing.T) {
	d := sitesDataset(t, []int{10, 10, 10}, []int{10, 10, 10})
	sim := refresh.NewSim(d)
	a := adaptiveOn(d, 100, 100, 0.95, rand.New(rand.NewPCG(1, 2)))
	if cy := sim.Run(a, 100, 1, nil)[0]; cy.Downloads != 30 || cy.Changed != 30 {
		t.Errorf("κ ≥ site size: %d downloads, %d changed; want all 30 once", cy.Downloads, cy.Changed)
	}
	sim.Reset()
	a = adaptiveOn(d, 4, 3, 0.95, rand.New(rand.NewPCG(1, 2)))
	cy := sim.Run(a, 4, 1, nil)[0]
	if cy.Downloads != 4 || cy.Changed != 4 {
		t.Errorf("budget 4, κ 3: %d downloads, %d changed; want 4 distinct pages", cy.Downloads, cy.Changed)
	}
	sampled := 0
	for _, n := range a.sampled {
		sampled += n
	}
	if sampled != 4 || a.sampled[a.order[0]] != 3 || a.sampled[a.order[1]] != 1 {
		t.Errorf("budget 4, κ 3: sampled %v in order %v, want 3 then 1", a.sampled, a.order)
	}
}
