package refresh_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/refresh"
)

// TestDivergenceByHand checks Cycle.Divergence, the versions the copies
// miss averaged over the pages, on small datasets worked out by hand.
func TestDivergenceByHand(t *testing.T) {
	tests := []struct {
		name    string
		pages   int
		changed [][]int32
		plan    [][]int32
		want    []float64
	}{
		{
			// TestSimByHand's dataset. Cycle 0: pages 0 and 1 change, 0 is
			// fetched: 1 is one version behind. Cycle 1: 1 and 2 change, 2
			// is fetched: 1 is two behind. Cycle 2: 3 changes: 1 two
			// behind, 3 one.
			name: "four pages", pages: 4,
			changed: [][]int32{{0, 1}, {1, 2}, {3}},
			plan:    [][]int32{{0, 3}, {2}, {}},
			want:    []float64{1.0 / 4, 2.0 / 4, 3.0 / 4},
		},
		{
			// Page 0 changes every cycle and is fetched in cycle 2 only;
			// page 1 never changes. Freshness is 0.5 in cycles 0, 1 and 3
			// alike; divergence counts the changes the copy misses.
			name: "one page falling behind", pages: 2,
			changed: [][]int32{{0}, {0}, {0}, {0}},
			plan:    [][]int32{{}, {}, {0}, {}},
			want:    []float64{0.5, 1, 0, 0.5},
		},
		{
			// Fetching a page that did not change leaves nothing behind;
			// fetching a fresh page twice changes nothing.
			name: "nothing missed", pages: 3,
			changed: [][]int32{{1}, {}, {2}},
			plan:    [][]int32{{1, 1}, {0}, {2}},
			want:    []float64{0, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tiny(t, tt.pages, tt.changed, nil)
			sim := refresh.NewSim(d)
			for range 2 { // the second run after Reset must repeat the first
				var got []float64
				for _, cy := range sim.Run(&script{plan: tt.plan}, 2, len(tt.changed), nil) {
					got = append(got, cy.Divergence)
				}
				if !slices.EqualFunc(got, tt.want, sameFloat) {
					t.Errorf("divergence per cycle = %v, want %v", got, tt.want)
				}
				sim.Reset()
			}
		})
	}
}

// TestDivergenceCountsMissedVersions compares Cycle.Divergence with a
// direct count, on random datasets crawled by random downloads: at the end
// of cycle c a page's copy misses the cycles after its last download, up
// to c, in which it changed. Each stale page misses at least one, so
// divergence is at least 1 − freshness.
func TestDivergenceCountsMissedVersions(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 9))
		n, cycles := 1+rng.IntN(30), 1+rng.IntN(12)
		changed := make([][]int32, cycles)
		for c := range changed {
			for p := range n {
				if rng.Float64() < 0.4 {
					changed[c] = append(changed[c], int32(p))
				}
			}
		}
		d := tiny(t, n, changed, nil)
		budget := rng.IntN(n + 2)
		plan := make([][]int32, cycles)
		for c := range plan {
			for range budget {
				plan[c] = append(plan[c], int32(rng.IntN(n)))
			}
		}
		last := make([]int, n) // cycle of each page's last download, -1 for the initial copy
		for p := range last {
			last[p] = -1
		}
		for c, cy := range refresh.NewSim(d).Run(&script{plan: plan}, budget, cycles, nil) {
			for _, p := range plan[c] {
				last[p] = c
			}
			missed := 0
			for p := range n {
				for c2 := last[p] + 1; c2 <= c; c2++ {
					if slices.Contains(changed[c2], int32(p)) {
						missed++
					}
				}
			}
			if want := float64(missed) / float64(n); !sameFloat(cy.Divergence, want) {
				t.Fatalf("seed %d cycle %d: divergence %v, want %v", seed, c, cy.Divergence, want)
			}
			if cy.Divergence < 1-cy.Freshness-eps {
				t.Fatalf("seed %d cycle %d: divergence %v below 1 − freshness %v", seed, c, cy.Divergence, 1-cy.Freshness)
			}
		}
	}
}

// TestChangedLog checks Truth.Changed: the log of every cycle up to the
// one being played, and nothing of the cycles to come or outside a run.
func TestChangedLog(t *testing.T) {
	changed := [][]int32{{0, 1}, {1}, {2}}
	d := tiny(t, 3, changed, nil)
	sim := refresh.NewSim(d)
	var truth refresh.Truth = sim
	if got := truth.Changed(0); got != nil {
		t.Errorf("before Run: Changed(0) = %v, want nil", got)
	}
	sim.Run(policyFunc(func(c *refresh.Crawl) {
		for k := range 4 {
			got := truth.Changed(k)
			var want []int32
			if k <= c.Cycle() {
				want = changed[k]
			}
			if !slices.Equal(got, want) {
				t.Errorf("cycle %d: Changed(%d) = %v, want %v", c.Cycle(), k, got, want)
			}
		}
		if got := truth.Changed(-1); got != nil {
			t.Errorf("Changed(-1) = %v, want nil", got)
		}
	}), 1, 3, nil)
	if got := truth.Changed(0); got != nil {
		t.Errorf("after Run: Changed(0) = %v, want nil", got)
	}
}
