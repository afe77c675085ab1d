package refresh_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/policy"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// eps is the tolerance for metrics computed by hand: they are sums of a few
// numbers with short binary expansions divided by the page count, so only
// the last bits of the division can differ.
const eps = 1e-12

// tiny builds a finished dataset of n pages on one site with the given
// change truth. first may be nil (midpoint rule).
func tiny(t testing.TB, n int, changed [][]int32, first [][]float64) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "tiny"}}
	d.Sites = []string{"tiny.example"}
	for range n {
		d.Pages = append(d.Pages, dataset.Page{Site: 0})
	}
	d.Truth = dataset.Truth{Changed: changed, First: first}
	if err := d.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return d
}

// script is a test Policy that downloads exactly the pages listed for each
// cycle, in order, and records what each Download reported and the budget
// it saw.
type script struct {
	plan      [][]int32
	got       [][]bool // Download results per cycle
	cycles    []int    // Crawl.Cycle() as seen by each call
	remaining []int    // Crawl.Remaining() at the start of each call
}

func (s *script) Refresh(c *refresh.Crawl) {
	s.cycles = append(s.cycles, c.Cycle())
	s.remaining = append(s.remaining, c.Remaining())
	var got []bool
	if c.Cycle() < len(s.plan) {
		for _, p := range s.plan[c.Cycle()] {
			got = append(got, c.Download(p))
		}
	}
	s.got = append(s.got, got)
}

// sameFloat reports whether a and b are equal within eps, NaN matching NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= eps
}

// TestSimByHand checks every per-cycle measurement (downloads, changed
// downloads, ChangeRatio, freshness, age) and every Download result against
// values worked out by hand on 4-page datasets, with and without first-change
// times. Without Truth.First a change counts from the middle of its cycle
// (c+½); with it, from the given time. Age is averaged over all pages, fresh
// ones counting 0, at now = c+1.
func TestSimByHand(t *testing.T) {
	// Page 1 changes in cycles 0 and 1 and is never downloaded: its age
	// runs from its FIRST missed change. Page 3 changes in cycle 2 with no
	// downloads that cycle, so cycle 2's ChangeRatio is NaN.
	changed := [][]int32{{0, 1}, {1, 2}, {3}}
	plan := [][]int32{{0, 3}, {2}, {}}
	wantGot := [][]bool{{true, false}, {true}, nil}
	tests := []struct {
		name  string
		first [][]float64
		want  []refresh.Cycle
		ratio []float64
	}{
		{
			name: "midpoint rule",
			want: []refresh.Cycle{
				// stale {1} since 0.5: age (1−0.5)/4.
				{Downloads: 2, Changed: 1, Freshness: 0.75, Age: 0.5 / 4},
				// stale {1} since 0.5 (its change in cycle 1 is not the first): age (2−0.5)/4.
				{Downloads: 1, Changed: 1, Freshness: 0.75, Age: 1.5 / 4},
				// stale {1 since 0.5, 3 since 2.5}: age (2.5+0.5)/4.
				{Downloads: 0, Changed: 0, Freshness: 0.5, Age: 3.0 / 4},
			},
			ratio: []float64{0.5, 1, math.NaN()},
		},
		{
			name:  "first-change times",
			first: [][]float64{{0.25, 0.875}, {1.125, 1.75}, {2.25}},
			want: []refresh.Cycle{
				{Downloads: 2, Changed: 1, Freshness: 0.75, Age: (1 - 0.875) / 4},
				{Downloads: 1, Changed: 1, Freshness: 0.75, Age: (2 - 0.875) / 4},
				{Downloads: 0, Changed: 0, Freshness: 0.5, Age: ((3 - 0.875) + (3 - 2.25)) / 4},
			},
			ratio: []float64{0.5, 1, math.NaN()},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tiny(t, 4, changed, tt.first)
			sim := refresh.NewSim(d)
			p := &script{plan: plan}
			got := sim.Run(p, 2, 3, nil)
			if len(got) != len(tt.want) {
				t.Fatalf("Run returned %d cycles, want %d", len(got), len(tt.want))
			}
			for c, w := range tt.want {
				g := got[c]
				if g.Downloads != w.Downloads || g.Changed != w.Changed || !sameFloat(g.Freshness, w.Freshness) || !sameFloat(g.Age, w.Age) {
					t.Errorf("cycle %d: got %+v, want %+v", c, g, w)
				}
				if !sameFloat(g.ChangeRatio(), tt.ratio[c]) {
					t.Errorf("cycle %d: ChangeRatio %v, want %v", c, g.ChangeRatio(), tt.ratio[c])
				}
				if !slices.Equal(p.got[c], wantGot[c]) {
					t.Errorf("cycle %d: Download results %v, want %v", c, p.got[c], wantGot[c])
				}
			}
			if !slices.Equal(p.cycles, []int{0, 1, 2}) {
				t.Errorf("policy saw cycles %v, want [0 1 2]", p.cycles)
			}
			if !slices.Equal(p.remaining, []int{2, 2, 2}) {
				t.Errorf("policy saw budgets %v, want [2 2 2]", p.remaining)
			}
		})
	}
}

// TestFirstMissedChangeKept checks that a page changing in several cycles
// before it is downloaded is stale since its first missed change, and that
// after a download the next change starts a new stale period.
func TestFirstMissedChangeKept(t *testing.T) {
	// Page 0 changes in every cycle; it is downloaded only in cycle 2.
	changed := [][]int32{{0}, {0}, {0}, {0}}
	first := [][]float64{{0.25}, {1.5}, {2.125}, {3.75}}
	tests := []struct {
		name  string
		first [][]float64
		since []float64 // StaleSince(0) at the end of each cycle
	}{
		{"first-change times", first, []float64{0.25, 0.25, -1, 3.75}},
		{"midpoint rule", nil, []float64{0.5, 0.5, -1, 3.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tiny(t, 2, changed, tt.first)
			sim := refresh.NewSim(d)
			var since []float64
			var ages []float64
			p := policyFunc(func(c *refresh.Crawl) {
				if c.Cycle() == 2 {
					if !c.Download(0) {
						t.Errorf("cycle 2: Download(0) = false, want true")
					}
				}
				since = append(since, sim.StaleSince(0))
			})
			for _, cy := range sim.Run(p, 1, 4, nil) {
				ages = append(ages, cy.Age)
			}
			if !slices.Equal(since, tt.since) {
				t.Errorf("StaleSince(0) per cycle = %v, want %v", since, tt.since)
			}
			// Age of the 2-page repository: page 1 never changes.
			for c, s := range tt.since {
				want := 0.0
				if s >= 0 {
					want = (float64(c+1) - s) / 2
				}
				if !sameFloat(ages[c], want) {
					t.Errorf("cycle %d: age %v, want %v", c, ages[c], want)
				}
			}
		})
	}
}

// policyFunc adapts a function to refresh.Policy.
type policyFunc func(c *refresh.Crawl)

func (f policyFunc) Refresh(c *refresh.Crawl) { f(c) }

// TestDownloadReports checks Download's result: false for a page whose copy
// is fresh, true for a stale page and then false when the same page is
// downloaded again in the same cycle; each download costs one unit of the
// budget, whatever it finds, and is counted once.
func TestDownloadReports(t *testing.T) {
	d := tiny(t, 3, [][]int32{{1}}, nil)
	tests := []struct {
		name      string
		pages     []int32
		want      []bool
		remaining []int // Remaining() after each download
		changed   int
	}{
		{"fresh page", []int32{0}, []bool{false}, []int{4}, 0},
		{"stale page twice", []int32{1, 1}, []bool{true, false}, []int{4, 3}, 1},
		{"fresh, stale, stale again, fresh", []int32{2, 1, 1, 0}, []bool{false, true, false, false}, []int{4, 3, 2, 1}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim := refresh.NewSim(d)
			var got []bool
			var rem []int
			p := policyFunc(func(c *refresh.Crawl) {
				for _, q := range tt.pages {
					got = append(got, c.Download(q))
					rem = append(rem, c.Remaining())
				}
			})
			// Budget 5: one more than the longest script.
			cy := sim.Run(p, 5, 1, nil)[0]
			if !slices.Equal(got, tt.want) {
				t.Errorf("Download results %v, want %v", got, tt.want)
			}
			if !slices.Equal(rem, tt.remaining) {
				t.Errorf("Remaining after each download %v, want %v", rem, tt.remaining)
			}
			if cy.Downloads != len(tt.pages) || cy.Changed != tt.changed {
				t.Errorf("cycle counted %d downloads, %d changed; want %d, %d", cy.Downloads, cy.Changed, len(tt.pages), tt.changed)
			}
		})
	}
}

// TestChangeRatioNaN checks that a cycle without downloads has a NaN
// ChangeRatio (not 0: nothing was measured), and that the ratio is
// Changed/Downloads otherwise.
func TestChangeRatioNaN(t *testing.T) {
	tests := []struct {
		c    refresh.Cycle
		want float64
	}{
		{refresh.Cycle{}, math.NaN()},
		{refresh.Cycle{Downloads: 4, Changed: 0}, 0},
		{refresh.Cycle{Downloads: 4, Changed: 3}, 0.75},
		{refresh.Cycle{Downloads: 3, Changed: 3}, 1},
	}
	for _, tt := range tests {
		if got := tt.c.ChangeRatio(); !sameFloat(got, tt.want) {
			t.Errorf("%+v.ChangeRatio() = %v, want %v", tt.c, got, tt.want)
		}
	}
	// Through the simulator: a policy that downloads nothing.
	d := tiny(t, 2, [][]int32{{0}}, nil)
	cy := refresh.NewSim(d).Run(policyFunc(func(*refresh.Crawl) {}), 1, 1, nil)[0]
	if !math.IsNaN(cy.ChangeRatio()) {
		t.Errorf("no downloads: ChangeRatio = %v, want NaN", cy.ChangeRatio())
	}
}

// TestDownloadPastBudgetPanics checks that the download after the budget is
// spent panics with ErrBudget, for several budgets including 0, and that the
// downloads within the budget went through.
func TestDownloadPastBudgetPanics(t *testing.T) {
	d := tiny(t, 4, [][]int32{{0, 1, 2, 3}}, nil)
	for _, budget := range []int{0, 1, 3} {
		sim := refresh.NewSim(d)
		done := 0
		p := policyFunc(func(c *refresh.Crawl) {
			for q := range int32(4) {
				c.Download(q)
				done++
			}
		})
		func() {
			defer func() {
				r := recover()
				err, ok := r.(error)
				if !ok || !errors.Is(err, refresh.ErrBudget) {
					t.Errorf("budget %d: panic value %v, want ErrBudget", budget, r)
				}
			}()
			sim.Run(p, budget, 1, nil)
			t.Errorf("budget %d: 4 downloads did not panic", budget)
		}()
		if done != budget {
			t.Errorf("budget %d: %d downloads succeeded before the panic", budget, done)
		}
		if got := len(sim.Stale()); got != 4-budget {
			t.Errorf("budget %d: %d pages stale after the panic, want %d", budget, got, 4-budget)
		}
	}
}

// TestReset checks that Reset makes every copy fresh (freshness 1, no stale
// page, StaleSince −1) and that a run after Reset reproduces the first run
// exactly: nothing of the previous run leaks into the next repeat.
func TestReset(t *testing.T) {
	d := tiny(t, 5, [][]int32{{0, 1, 2}, {2, 3}, {4}}, [][]float64{{0.5, 0.25, 0.75}, {1.5, 1.125}, {2.5}})
	sim := refresh.NewSim(d)
	plan := [][]int32{{1}, {0}, {}}
	first := sim.Run(&script{plan: plan}, 1, 3, nil)
	if len(sim.Stale()) == 0 {
		t.Fatal("test setup: the first run should leave pages stale")
	}
	sim.Reset()
	if n := len(sim.Stale()); n != 0 {
		t.Errorf("after Reset: %d stale pages (freshness %v), want 0 (freshness 1)", n, 1-float64(n)/5)
	}
	for p := range int32(5) {
		if s := sim.StaleSince(p); s != -1 {
			t.Errorf("after Reset: StaleSince(%d) = %v, want -1", p, s)
		}
	}
	// Nothing of the first run is left: a second run, and one on a new
	// simulator, give the first run's numbers.
	second := sim.Run(&script{plan: plan}, 1, 3, nil)
	fresh := refresh.NewSim(d).Run(&script{plan: plan}, 1, 3, nil)
	if !slices.Equal(first, second) || !slices.Equal(first, fresh) {
		t.Errorf("runs differ:\nfirst  %+v\nreset  %+v\nnew    %+v", first, second, fresh)
	}
}

// TestStaleListConsistent drives random download sequences on a random
// dataset and checks after every cycle that Stale lists exactly the pages
// with StaleSince ≥ 0, each once, and that freshness equals 1 − |stale|/N:
// the swap-remove bookkeeping of the stale list is a place for bugs.
func TestStaleListConsistent(t *testing.T) {
	const n, cycles = 40, 8
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		changed := make([][]int32, cycles)
		for c := range changed {
			for p := range int32(n) {
				if rng.IntN(3) == 0 {
					changed[c] = append(changed[c], p)
				}
			}
		}
		d := tiny(t, n, changed, nil)
		sim := refresh.NewSim(d)
		var staleAfter []int
		p := policyFunc(func(c *refresh.Crawl) {
			for c.Remaining() > 0 {
				c.Download(int32(rng.IntN(n)))
			}
			stale := slices.Clone(sim.Stale())
			slices.Sort(stale)
			var want []int32
			for q := range int32(n) {
				if sim.StaleSince(q) >= 0 {
					want = append(want, q)
				}
			}
			if !slices.Equal(stale, want) {
				t.Fatalf("seed %d cycle %d: Stale() = %v, pages with StaleSince ≥ 0 = %v", seed, c.Cycle(), stale, want)
			}
			staleAfter = append(staleAfter, len(stale))
		})
		for c, cy := range sim.Run(p, 7, cycles, nil) {
			if cy.Downloads != 7 {
				t.Errorf("seed %d cycle %d: %d downloads, want 7", seed, c, cy.Downloads)
			}
			if want := 1 - float64(staleAfter[c])/n; cy.Freshness != want {
				t.Errorf("seed %d cycle %d: freshness %v, want 1 − %d/%d = %v", seed, c, cy.Freshness, staleAfter[c], n, want)
			}
		}
	}
}

// benchData returns a synthetic dataset of n pages over cycles cycles in
// which each page changes in each cycle with probability 0.2 (seeded).
func benchData(b testing.TB, n, cycles int) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	changed := make([][]int32, cycles)
	for c := range changed {
		for p := range int32(n) {
			if rng.IntN(5) == 0 {
				changed[c] = append(changed[c], p)
			}
		}
	}
	return tiny(b, n, changed, nil)
}

// BenchmarkSimRandom measures the simulator with the random policy on
// 100,000 pages × 12 cycles, budget 10%, and reports the cost per
// page-cycle (the unit the lab's speed figures use: make bench reports
// every policy's ns per page-cycle natively and in WebAssembly).
func BenchmarkSimRandom(b *testing.B) {
	const n, cycles = 100_000, 12
	d := benchData(b, n, cycles)
	sim := refresh.NewSim(d)
	var out []refresh.Cycle
	rng := rand.New(rand.NewPCG(3, 4))
	for b.Loop() {
		sim.Reset()
		out = sim.Run(policy.NewRandom(n, rng), n/10, cycles, out[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n*cycles), "ns/page-cycle")
}

// TestSample checks Crawl.Sample against Download: it answers the same,
// costs one download of the budget, brings the copy up to date, counts in
// the cycle's downloads and samples, is told to the watcher as a sample,
// and panics with ErrBudget past the budget.
func TestSample(t *testing.T) {
	// Pages 0 and 1 change in cycle 0, page 2 in cycle 1.
	d := tiny(t, 4, [][]int32{{0, 1}, {2}}, nil)
	type seen struct {
		p               int32
		sample, changed bool
	}
	var watched []seen
	var answers []bool
	sim := refresh.NewSim(d)
	sim.Watch = func(p int32, sample, changed bool) { watched = append(watched, seen{p, sample, changed}) }
	p := policyFunc(func(c *refresh.Crawl) {
		if c.Cycle() == 0 {
			answers = append(answers, c.Sample(0), c.Sample(3), c.Download(1))
		} else {
			answers = append(answers, c.Sample(0), c.Sample(2))
		}
	})
	got := sim.Run(p, 3, 2, nil)
	want := []refresh.Cycle{
		{Downloads: 3, Samples: 2, Changed: 2, Freshness: 1},
		{Downloads: 2, Samples: 2, Changed: 1, Freshness: 1},
	}
	for c := range want {
		if got[c].Downloads != want[c].Downloads || got[c].Samples != want[c].Samples || got[c].Changed != want[c].Changed || got[c].Freshness != want[c].Freshness {
			t.Errorf("cycle %d: %+v, want %+v", c, got[c], want[c])
		}
	}
	if w := []bool{true, false, true, false, true}; !slices.Equal(answers, w) {
		t.Errorf("answers %v, want %v", answers, w)
	}
	wantSeen := []seen{{0, true, true}, {3, true, false}, {1, false, true}, {0, true, false}, {2, true, true}}
	if !slices.Equal(watched, wantSeen) {
		t.Errorf("watched %v, want %v", watched, wantSeen)
	}

	// Past the budget.
	sim = refresh.NewSim(d)
	func() {
		defer func() {
			if err, ok := recover().(error); !ok || !errors.Is(err, refresh.ErrBudget) {
				t.Errorf("a sample past the budget panicked with %v, want ErrBudget", err)
			}
		}()
		sim.Run(policyFunc(func(c *refresh.Crawl) { c.Sample(0); c.Sample(1) }), 1, 1, nil)
		t.Error("a second sample on a budget of 1 did not panic")
	}()
}
