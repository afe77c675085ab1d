package refresh_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/policy"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// weighted builds a finished dataset of len(w) pages on one site with the
// given change truth and page weights (dataset.FeatureWeight); w nil
// leaves the dataset without weights.
func weighted(t testing.TB, w []float64, n int, changed [][]int32) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "weighted"}}
	d.Sites = []string{"tiny.example"}
	for range n {
		d.Pages = append(d.Pages, dataset.Page{Site: 0})
	}
	if w != nil {
		d.Features = map[string][]float64{dataset.FeatureWeight: w}
	}
	d.Truth = dataset.Truth{Changed: changed}
	if err := d.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return d
}

// TestRIRByHand checks each cycle's Changes and Returned, its RIR and the
// run's, worked out by hand under the complete-loss reading of Cycle.RIR:
// a page that changed in cycle c is one change of cycle c, returned by a
// download at the end of c or of a later cycle before the page's next
// change, lost when that change comes first, not returned when the run
// ends first.
func TestRIRByHand(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name     string
		n        int
		weight   []float64
		changed  [][]int32
		plan     [][]int32 // pages downloaded at the end of each cycle
		sample   bool      // download through Crawl.Sample
		changes  []float64
		returned []float64
		run      float64
	}{
		{name: "downloaded in its cycle", n: 2, changed: [][]int32{{0}}, plan: [][]int32{{0}},
			changes: []float64{1}, returned: []float64{1}, run: 1},
		{name: "never downloaded", n: 2, changed: [][]int32{{0}}, plan: [][]int32{{1}},
			changes: []float64{1}, returned: []float64{0}, run: 0},
		{name: "downloaded two cycles later, credited to its cycle", n: 1, changed: [][]int32{{0}, {}, {}}, plan: [][]int32{{}, {}, {0}},
			changes: []float64{1, 0, 0}, returned: []float64{1, 0, 0}, run: 1},
		{name: "overwritten before the download: lost", n: 1, changed: [][]int32{{0}, {0}}, plan: [][]int32{{}, {0}},
			changes: []float64{1, 1}, returned: []float64{0, 1}, run: 0.5},
		{name: "a second download of a fresh page returns nothing", n: 1, changed: [][]int32{{0}, {}}, plan: [][]int32{{0}, {0}},
			changes: []float64{1, 0}, returned: []float64{1, 0}, run: 1},
		{name: "the run ends before the download", n: 2, changed: [][]int32{{0}, {1}}, plan: [][]int32{{0}, {}},
			changes: []float64{1, 1}, returned: []float64{1, 0}, run: 0.5},
		{name: "a sample returns the change too", n: 2, changed: [][]int32{{0, 1}}, plan: [][]int32{{1}}, sample: true,
			changes: []float64{2}, returned: []float64{1}, run: 0.5},
		{name: "weighted: the heavy page caught", n: 2, weight: []float64{3, 1}, changed: [][]int32{{0, 1}}, plan: [][]int32{{0}},
			changes: []float64{4}, returned: []float64{3}, run: 0.75},
		{name: "weighted: the light page caught", n: 2, weight: []float64{3, 1}, changed: [][]int32{{0, 1}}, plan: [][]int32{{1}},
			changes: []float64{4}, returned: []float64{1}, run: 0.25},
		{name: "weighted: only weightless changes", n: 2, weight: []float64{0, 1}, changed: [][]int32{{0}}, plan: [][]int32{{0}},
			changes: []float64{0}, returned: []float64{0}, run: nan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := weighted(t, tt.weight, tt.n, tt.changed)
			p := policyFunc(func(c *refresh.Crawl) {
				for _, q := range tt.plan[c.Cycle()] {
					if tt.sample {
						c.Sample(q)
					} else {
						c.Download(q)
					}
				}
			})
			got := refresh.NewSim(d).Run(p, tt.n, len(tt.changed), nil)
			for c, cy := range got {
				if cy.Changes != tt.changes[c] || cy.Returned != tt.returned[c] {
					t.Errorf("cycle %d: changes %v, returned %v; want %v, %v", c, cy.Changes, cy.Returned, tt.changes[c], tt.returned[c])
				}
				want := nan
				if tt.changes[c] > 0 {
					want = tt.returned[c] / tt.changes[c]
				}
				if !sameFloat(cy.RIR(), want) {
					t.Errorf("cycle %d: RIR %v, want %v", c, cy.RIR(), want)
				}
			}
			if r := refresh.RunRIR(got); !sameFloat(r, tt.run) {
				t.Errorf("RunRIR = %v, want %v", r, tt.run)
			}
		})
	}
}

// TestRIRCountsChangedDownloads checks the identity the complete-loss
// reading gives on a truth of per-cycle flags: without weights, a run
// returns exactly as many changes as its downloads found changed (each
// such download returns the latest change, one), a cycle returns at most
// its changes, and a second repeat after Reset counts afresh, on random
// truths crawled at random.
func TestRIRCountsChangedDownloads(t *testing.T) {
	const n, cycles = 30, 7
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 9))
		d := randomTruth(rng, t, n, cycles, 0.3)
		sim := refresh.NewSim(d)
		for rep := range 2 {
			sim.Reset()
			var changed int
			var returned float64
			for c, cy := range sim.Run(policy.NewRandom(n, rng), 1+rng.IntN(n), cycles, nil) {
				if cy.Returned > cy.Changes {
					t.Errorf("seed %d repeat %d cycle %d: returned %v of %v changes", seed, rep, c, cy.Returned, cy.Changes)
				}
				if cy.Changes != float64(len(d.Truth.Changed[c])) {
					t.Errorf("seed %d repeat %d cycle %d: %v changes, the truth lists %d", seed, rep, c, cy.Changes, len(d.Truth.Changed[c]))
				}
				changed += cy.Changed
				returned += cy.Returned
			}
			if returned != float64(changed) {
				t.Errorf("seed %d repeat %d: %v changes returned, %d downloads found a change", seed, rep, returned, changed)
			}
		}
	}
}

// randomTruth returns a dataset of n pages over cycles cycles in which each
// page changes in each cycle with probability q, drawn from rng.
func randomTruth(rng *rand.Rand, t testing.TB, n, cycles int, q float64) *dataset.Dataset {
	changed := make([][]int32, cycles)
	for c := range changed {
		for p := range int32(n) {
			if rng.Float64() < q {
				changed[c] = append(changed[c], p)
			}
		}
	}
	return tiny(t, n, changed, nil)
}

// TestRIRExpectation checks RIR's returned changes against their
// expectation under the random policy: each page changes in each cycle
// with probability q and is downloaded with probability a = B/N, all
// independently, so a change of cycle c of a C-cycle run is returned with
// probability P_c = a·Σ_{k=0}^{C−1−c} ((1−a)(1−q))^k: downloaded k cycles
// later, after k cycles neither downloaded nor changed again. Per run,
// X_c = Returned_c − P_c·Changes_c has expectation 0; over R runs, each
// cycle's mean of X_c must lie within 4 standard errors of 0 (a false
// failure about 6e-5 per cycle).
func TestRIRExpectation(t *testing.T) {
	const n, cycles, budget, q, R = 200, 6, 30, 0.3, 400
	a := float64(budget) / n
	r := (1 - a) * (1 - q)
	x := make([][]float64, cycles)
	for seed := range uint64(R) {
		rng := rand.New(rand.NewPCG(seed, 21))
		d := randomTruth(rng, t, n, cycles, q)
		for c, cy := range refresh.NewSim(d).Run(policy.NewRandom(n, rng), budget, cycles, nil) {
			p := a * (1 - math.Pow(r, float64(cycles-c))) / (1 - r)
			x[c] = append(x[c], cy.Returned-p*cy.Changes)
		}
	}
	for c, xs := range x {
		s := stat.Summarize(xs)
		se := s.SD / math.Sqrt(float64(s.N))
		if math.Abs(s.Mean) > 4*se {
			t.Errorf("cycle %d: mean of returned − P_c·changes %.3f, expected 0 within 4·SE = %.3f", c, s.Mean, 4*se)
		}
	}
}
