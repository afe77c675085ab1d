package policy

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// build returns a finished one-site dataset of n pages with the given truth
// (first may be nil: midpoint rule).
func build(t testing.TB, n int, changed [][]int32, first [][]float64) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "test"}}
	d.Sites = []string{"test.example"}
	d.Pages = make([]dataset.Page, n)
	d.Truth = dataset.Truth{Changed: changed, First: first}
	if err := d.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return d
}

// allChange returns n pages over the given cycles in which every page
// changes in every cycle. At the start of each cycle's downloads every copy
// is stale, so the pages a policy downloaded in a cycle are exactly those
// no longer stale after it, and a page downloaded twice in one cycle shows
// as a download that found no change.
func allChange(t testing.TB, n, cycles int) *dataset.Dataset {
	changed := make([][]int32, cycles)
	for c := range changed {
		for p := range int32(n) {
			changed[c] = append(changed[c], p)
		}
	}
	return build(t, n, changed, nil)
}

// recorder wraps a policy and records, for each cycle, the set of pages it
// downloaded, read from the simulator's stale list after the cycle (valid
// on allChange datasets).
type recorder struct {
	sim   *refresh.Sim
	inner refresh.Policy
	n     int
	sets  [][]int32
}

func (r *recorder) Refresh(c *refresh.Crawl) {
	r.inner.Refresh(c)
	stale := make([]bool, r.n)
	for _, p := range r.sim.Stale() {
		stale[p] = true
	}
	var set []int32
	for p := range int32(r.n) {
		if !stale[p] {
			set = append(set, p)
		}
	}
	r.sets = append(r.sets, set)
}

// TestRoundRobin checks round-robin: each cycle downloads min(B, N)
// distinct pages; the downloads follow one fixed permutation of the pages,
// continuing each cycle where the last stopped, so every N consecutive
// downloads cover every page exactly once (a pass takes ⌈N/B⌉ cycles, and
// exactly N/B when B divides N); a budget above N downloads each page once
// per cycle.
func TestRoundRobin(t *testing.T) {
	tests := []struct{ n, budget, cycles int }{
		{10, 3, 12},
		{10, 5, 8},
		{10, 10, 3},
		{7, 1, 15},
		{12, 4, 9},
		{10, 25, 3}, // budget above N
		{1, 1, 3},
		{1, 4, 2},
	}
	for _, tt := range tests {
		d := allChange(t, tt.n, tt.cycles)
		for seed := range uint64(5) {
			sim := refresh.NewSim(d)
			rr := NewRoundRobin(tt.n, rand.New(rand.NewPCG(seed, 0)))
			order := slices.Clone(rr.order)
			if sorted := slices.Sorted(slices.Values(order)); !slices.Equal(sorted, iota(tt.n)) {
				t.Fatalf("n=%d: order %v is not a permutation of the pages", tt.n, order)
			}
			rec := &recorder{sim: sim, inner: rr, n: tt.n}
			out := sim.Run(rec, tt.budget, tt.cycles, nil)
			per := min(tt.budget, tt.n)
			count := make([]int, tt.n)
			for c, cy := range out {
				if cy.Downloads != per || cy.Changed != per {
					t.Errorf("n=%d B=%d cycle %d: %d downloads, %d changed; want %d distinct pages", tt.n, tt.budget, c, cy.Downloads, cy.Changed, per)
				}
				// The pages this cycle should take from the fixed order.
				var want []int32
				for i := range per {
					want = append(want, order[(c*per+i)%tt.n])
				}
				slices.Sort(want)
				if !slices.Equal(rec.sets[c], want) {
					t.Errorf("n=%d B=%d seed %d cycle %d: downloaded %v, want %v (order %v)", tt.n, tt.budget, seed, c, rec.sets[c], want, order)
				}
				for _, p := range rec.sets[c] {
					count[p]++
				}
				// Whenever the downloads so far fill whole passes, every
				// page has been downloaded the same number of times.
				if total := (c + 1) * per; total%tt.n == 0 {
					for p, k := range count {
						if k != total/tt.n {
							t.Errorf("n=%d B=%d after cycle %d (%d passes): page %d downloaded %d times", tt.n, tt.budget, c, total/tt.n, p, k)
						}
					}
				}
			}
			// When B divides N, each block of N/B cycles is one pass.
			if per < tt.n && tt.n%per == 0 {
				pass := tt.n / per
				for start := 0; start+pass <= tt.cycles; start += pass {
					var seen []int32
					for c := start; c < start+pass; c++ {
						seen = append(seen, rec.sets[c]...)
					}
					slices.Sort(seen)
					if !slices.Equal(seen, iota(tt.n)) {
						t.Errorf("n=%d B=%d: cycles %d..%d downloaded %v, want every page once", tt.n, tt.budget, start, start+pass-1, seen)
					}
				}
			}
		}
	}
}

// TestRoundRobinOrderIsRandom checks that the order is drawn from the
// policy's random source: different seeds give different orders (for 50
// pages two independent uniform permutations coincide with probability
// 1/50!, and the identity order with the same probability).
func TestRoundRobinOrderIsRandom(t *testing.T) {
	a := NewRoundRobin(50, rand.New(rand.NewPCG(1, 0))).order
	b := NewRoundRobin(50, rand.New(rand.NewPCG(2, 0))).order
	if slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 gave the same order %v", a)
	}
	if slices.Equal(a, iota(50)) {
		t.Errorf("order is the listing order")
	}
}

func iota(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// TestRandomDistinct checks that Random downloads min(B, N) distinct pages
// each cycle (a repeat within a cycle would show as a download that found
// no change on a dataset where every page is stale).
func TestRandomDistinct(t *testing.T) {
	for _, tt := range []struct{ n, budget int }{{20, 5}, {20, 20}, {20, 35}, {1, 1}, {100, 99}} {
		d := allChange(t, tt.n, 6)
		for seed := range uint64(20) {
			sim := refresh.NewSim(d)
			rec := &recorder{sim: sim, inner: NewRandom(tt.n, rand.New(rand.NewPCG(seed, 1))), n: tt.n}
			for c, cy := range sim.Run(rec, tt.budget, 6, nil) {
				want := min(tt.budget, tt.n)
				if cy.Downloads != want || cy.Changed != want || len(rec.sets[c]) != want {
					t.Errorf("n=%d B=%d seed %d cycle %d: %d downloads, %d changed, %d distinct; want %d distinct",
						tt.n, tt.budget, seed, c, cy.Downloads, cy.Changed, len(rec.sets[c]), want)
				}
			}
		}
	}
}

// TestRandomUniform checks that Random's cycle samples are uniform: over
// M = runs × cycles samples of B = 5 of N = 20 pages, each page's inclusion
// frequency estimates B/N = 0.25 and each pair's B(B−1)/(N(N−1)) = 1/19.
// Each count is binomial(M, p), SE = √(p(1−p)/M). The test fails when the
// largest deviation over the 20 pages exceeds 4.6·SE (two-sided normal tail
// 4.2e-6 per page, so by the union bound a correct sampler fails with
// probability at most 20·4.2e-6 ≈ 8.5e-5), or the largest over the 190
// pairs exceeds 5·SE (190·5.7e-7 ≈ 1.1e-4). The pair check catches samplers
// with the right marginals but correlated picks (e.g. runs of neighbours).
func TestRandomUniform(t *testing.T) {
	const n, budget, cycles, runs = 20, 5, 10, 2000
	d := allChange(t, n, cycles)
	sim := refresh.NewSim(d)
	var single [n]int
	var pair [n][n]int
	for run := range uint64(runs) {
		sim.Reset()
		rec := &recorder{sim: sim, inner: NewRandom(n, rand.New(rand.NewPCG(run, 42))), n: n}
		sim.Run(rec, budget, cycles, nil)
		for _, set := range rec.sets {
			for i, p := range set {
				single[p]++
				for _, q := range set[i+1:] {
					pair[p][q]++
				}
			}
		}
	}
	m := float64(runs * cycles)
	p1 := float64(budget) / n
	se1 := math.Sqrt(p1 * (1 - p1) / m)
	worst := 0.0
	for p, k := range single {
		dev := math.Abs(float64(k)/m - p1)
		worst = max(worst, dev/se1)
		if dev > 4.6*se1 {
			t.Errorf("page %d included in %.4f of cycles, want %.4f ± %.4f (4.6·SE)", p, float64(k)/m, p1, 4.6*se1)
		}
	}
	p2 := float64(budget*(budget-1)) / (n * (n - 1))
	se2 := math.Sqrt(p2 * (1 - p2) / m)
	for p := range n {
		for q := p + 1; q < n; q++ {
			if dev := math.Abs(float64(pair[p][q])/m - p2); dev > 5*se2 {
				t.Errorf("pair (%d,%d) included in %.4f of cycles, want %.4f ± %.4f (5·SE)", p, q, float64(pair[p][q])/m, p2, 5*se2)
			}
		}
	}
	t.Logf("largest page deviation: %.2f SE", worst)
}

// oracleFor builds the oracle through its catalog descriptor, as the lab
// does, with the simulator as its truth.
func oracleFor(t testing.TB, d *dataset.Dataset, sim *refresh.Sim, budget int) refresh.Policy {
	t.Helper()
	for _, desc := range Descriptors() {
		if desc.ID == "oracle" {
			if !desc.Oracle {
				t.Fatal("the oracle's descriptor is not marked Oracle")
			}
			p, err := desc.New(refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Truth: sim})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatal("no oracle descriptor")
	return nil
}

// randomTruth draws a dataset of n pages where each page changes in each
// cycle with probability q; with continuous set, first-change times are
// drawn too, otherwise the midpoint rule makes many ties.
func randomTruth(t testing.TB, rng *rand.Rand, n, cycles int, q float64, continuous bool) *dataset.Dataset {
	changed := make([][]int32, cycles)
	var first [][]float64
	if continuous {
		first = make([][]float64, cycles)
	}
	for c := range cycles {
		for p := range int32(n) {
			if rng.Float64() < q {
				changed[c] = append(changed[c], p)
				if continuous {
					first[c] = append(first[c], float64(c)+1-rng.Float64()) // in (c, c+1]
				}
			}
		}
	}
	return build(t, n, changed, first)
}

// TestOracle checks the oracle on random datasets and budgets: it downloads
// only stale pages (every download finds a change, so ChangeRatio is 1
// whenever anything is stale), min(B, stale) of them, exactly the ones
// whose first missed change is oldest (ties to the lower page index), and
// leaves every copy fresh when the budget covers the stale pages.
func TestOracle(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 1 + rng.IntN(40)
		budget := 1 + rng.IntN(n)
		continuous := seed%2 == 0
		d := randomTruth(t, rng, n, 6, rng.Float64(), continuous)
		sim := refresh.NewSim(d)
		o := oracleFor(t, d, sim, budget)
		var want [][]int32
		var staleBefore []int
		p := policyFunc(func(c *refresh.Crawl) {
			stale := slices.Clone(sim.Stale())
			slices.SortFunc(stale, func(a, b int32) int {
				sa, sb := sim.StaleSince(a), sim.StaleSince(b)
				switch {
				case sa < sb:
					return -1
				case sa > sb:
					return 1
				}
				return int(a - b)
			})
			staleBefore = append(staleBefore, len(stale))
			w := stale[:min(budget, len(stale))]
			slices.Sort(w)
			want = append(want, w)
			o.Refresh(c)
			// Downloaded = stale before and fresh now.
			var got []int32
			for _, q := range stale {
				if sim.StaleSince(q) < 0 {
					got = append(got, q)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, w) {
				t.Errorf("seed %d (n=%d B=%d first=%v) cycle %d: refreshed %v, want the oldest %v", seed, n, budget, continuous, c.Cycle(), got, w)
			}
		})
		for c, cy := range sim.Run(p, budget, 6, nil) {
			k := min(budget, staleBefore[c])
			if cy.Downloads != k || cy.Changed != k {
				t.Errorf("seed %d cycle %d: %d downloads, %d changed; want %d of %d stale pages, all changed", seed, c, cy.Downloads, cy.Changed, k, staleBefore[c])
			}
			if staleBefore[c] > 0 && cy.ChangeRatio() != 1 {
				t.Errorf("seed %d cycle %d: ChangeRatio %v with %d stale pages, want 1", seed, c, cy.ChangeRatio(), staleBefore[c])
			}
			if budget >= staleBefore[c] && cy.Freshness != 1 {
				t.Errorf("seed %d cycle %d: budget %d ≥ %d stale, freshness %v, want 1", seed, c, budget, staleBefore[c], cy.Freshness)
			}
		}
	}
}

// policyFunc adapts a function to refresh.Policy.
type policyFunc func(c *refresh.Crawl)

func (f policyFunc) Refresh(c *refresh.Crawl) { f(c) }

// TestChangeFrequencyRate checks the rate estimate λ = (x + ½)/(T + 1), x the
// changes the page's downloads found and T the cycles they covered, on
// scenarios worked out by hand.
func TestChangeFrequencyRate(t *testing.T) {
	t.Run("budget covers every page", func(t *testing.T) {
		// Every page downloaded every cycle, so after 4 cycles T = 4 and
		// λ = (x + ½)/5 with x the cycles in which the page changed.
		changed := [][]int32{{0, 2}, {0}, {0, 2}, {0, 3}}
		d := build(t, 4, changed, nil)
		f := NewChangeFrequency(4, rand.New(rand.NewPCG(1, 2)))
		for p := range int32(4) {
			if r := f.Rate(p); r != 0.5 {
				t.Errorf("before any download: Rate(%d) = %v, want 0.5", p, r)
			}
		}
		refresh.NewSim(d).Run(f, 4, 4, nil)
		for p, x := range []float64{4, 0, 2, 1} {
			if got, want := f.Rate(int32(p)), (x+0.5)/5; math.Abs(got-want) > 1e-15 {
				t.Errorf("Rate(%d) = %v, want (%v+½)/5 = %v", p, got, x, want)
			}
		}
	})
	t.Run("one download per cycle", func(t *testing.T) {
		// Two pages, both changing every cycle, budget 1. Call X the page
		// the random tie order puts first. Cycle 0 (t=1): both score ½, X
		// is taken and changed: λX = 1.5/2. Cycle 1 (t=2): X scores
		// 0.75·1, Y 0.5·2 = 1: Y, λY = 1.5/3. Cycle 2 (t=3): X 0.75·2 =
		// 1.5, Y 0.5·1: X, watched 1+2 = 3, λX = 2.5/4. Cycle 3 (t=4):
		// X 0.625, Y 0.5·2 = 1: Y, watched 2+2 = 4, λY = 2.5/5.
		d := allChange(t, 2, 4)
		for seed := range uint64(4) {
			f := NewChangeFrequency(2, rand.New(rand.NewPCG(seed, 3)))
			x, y := int32(0), int32(1)
			if f.tie[1] < f.tie[0] {
				x, y = y, x
			}
			for c, cy := range refresh.NewSim(d).Run(f, 1, 4, nil) {
				if cy.Changed != 1 {
					t.Errorf("seed %d cycle %d: changed %d, want 1", seed, c, cy.Changed)
				}
			}
			if f.Rate(x) != 2.5/4 || f.Rate(y) != 2.5/5 {
				t.Errorf("seed %d: λX = %v, λY = %v; want 0.625, 0.5", seed, f.Rate(x), f.Rate(y))
			}
			if f.last[x] != 3 || f.last[y] != 4 {
				t.Errorf("seed %d: last downloads X at %v, Y at %v; want 3, 4", seed, f.last[x], f.last[y])
			}
		}
	})
}

// TestChangeFrequencyExploresFirst checks that pages never downloaded are
// downloaded before any page downloaded already, on a repository that
// never changes: a never-downloaded page scores ½·t, a page last downloaded
// at l ≥ 1 without finding a change scores ½·(t−l)/(l+1) < ½·t. So the first
// ⌊N/B⌋ cycles download only new pages, and after ⌈N/B⌉ cycles every page has
// been downloaded.
func TestChangeFrequencyExploresFirst(t *testing.T) {
	for _, tt := range []struct{ n, budget int }{{10, 3}, {12, 4}, {100, 7}, {5, 5}} {
		d := build(t, tt.n, make([][]int32, 20), nil)
		for seed := range uint64(10) {
			f := NewChangeFrequency(tt.n, rand.New(rand.NewPCG(seed, 5)))
			passes := (tt.n + tt.budget - 1) / tt.budget
			p := policyFunc(func(c *refresh.Crawl) {
				before := slices.Clone(f.last)
				f.Refresh(c)
				now := float64(c.Cycle() + 1)
				fresh, old := 0, 0
				for q := range tt.n {
					if f.last[q] == now {
						if before[q] == 0 {
							fresh++
						} else {
							old++
						}
					}
				}
				unseen := 0
				for q := range tt.n {
					if before[q] == 0 {
						unseen++
					}
				}
				if want := min(tt.budget, unseen); fresh != want {
					t.Errorf("n=%d B=%d seed %d cycle %d: %d never-downloaded pages taken, want %d (of %d left)", tt.n, tt.budget, seed, c.Cycle(), fresh, want, unseen)
				}
				if c.Cycle() < tt.n/tt.budget && old != 0 {
					t.Errorf("n=%d B=%d seed %d cycle %d: re-downloaded %d pages during exploration", tt.n, tt.budget, seed, c.Cycle(), old)
				}
				if c.Cycle() == passes-1 {
					for q := range tt.n {
						if f.last[q] == 0 {
							t.Errorf("n=%d B=%d seed %d: page %d never downloaded after %d cycles", tt.n, tt.budget, seed, q, passes)
						}
					}
				}
			})
			refresh.NewSim(d).Run(p, tt.budget, 20, nil)
		}
	}
}

// TestChangeFrequencyHalfHot checks the policy's long-run ChangeRatio on N =
// 2M pages, M of which ("hot") change every cycle and M never ("cold"), with
// budget B = 3M/2. The best any policy can do is download all M hot pages
// and fill the other M/2 downloads with cold ones: ChangeRatio M/B = 2/3.
// Change-frequency reaches it exactly from cycle 1 for every seed:
//
//   - cycle 0 (t=1): all score ½; B random pages, h₀ of them hot (h₀ ≤ M).
//   - cycle 1 (t=2): the N−B = M/2 unseen pages score 1 and go first; hot
//     pages seen at t=1 score (1.5/2)·1 = 0.75, seen cold ones (0.5/2)·1 =
//     0.25; the 2B−N = M slots left take all h₀ ≤ M seen hot pages first. So
//     every hot page is downloaded.
//   - cycle 2 (t=3): hot pages seen twice score 2.5/3 ≈ 0.83, hot pages
//     first seen at t=2 score (1.5/3)·1 = 0.5, as do the M/2 cold pages last
//     seen at t=1 (0.5/2·2); cold pages seen at t=2 score 1/6. Exactly
//     h₀ + (M−h₀) + M/2 = B pages score ≥ 0.5, so all are downloaded.
//   - cycle c ≥ 3 (t=c+1): by induction every hot page was downloaded in
//     every cycle since 1, so x ≥ c−1 over T = c and it scores ≥ (c−½)/(c+1)
//     ≥ 5/8, while the M/2 cold downloads per cycle go to the cold pages
//     seen longest ago, so every cold page was seen at t−1 or t−2 and scores
//     ≤ ½·2/c ≤ 1/3. Hot pages win: ChangeRatio = M/B.
func TestChangeFrequencyHalfHot(t *testing.T) {
	const cycles = 20
	for _, m := range []int{10, 20, 50} {
		n, budget := 2*m, 3*m/2
		changed := make([][]int32, cycles)
		for c := range changed {
			changed[c] = iota(m)
		}
		d := build(t, n, changed, nil)
		sim := refresh.NewSim(d)
		for seed := range uint64(100) {
			sim.Reset()
			f := NewChangeFrequency(n, rand.New(rand.NewPCG(seed, 11)))
			for c, cy := range sim.Run(f, budget, cycles, nil) {
				if c >= 1 && (cy.Changed != m || cy.Downloads != budget) {
					t.Errorf("M=%d seed %d cycle %d: %d of %d downloads changed, want %d of %d (ChangeRatio %v, want %v)",
						m, seed, c, cy.Changed, cy.Downloads, m, budget, cy.ChangeRatio(), float64(m)/float64(budget))
				}
			}
		}
	}
}

// TestBudgetRespected checks that no baseline policy downloads past the
// budget (the simulator would panic) and that each spends all of it when
// it has pages to download, on random datasets and budgets, including
// budgets above the page count (then each downloads at most N pages; the
// oracle only the stale ones).
func TestBudgetRespected(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 13))
		n := 1 + rng.IntN(30)
		budget := 1 + rng.IntN(2*n)
		d := randomTruth(t, rng, n, 5, 0.3, seed%2 == 0)
		for _, desc := range Descriptors() {
			sim := refresh.NewSim(d)
			env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: 5, Rand: rand.New(rand.NewPCG(seed, 17))}
			if desc.Oracle {
				env.Truth = sim
			}
			p, err := desc.New(env)
			if err != nil {
				t.Fatalf("%s: %v", desc.ID, err)
			}
			for c, cy := range sim.Run(p, budget, 5, nil) {
				if !desc.Oracle && cy.Downloads != min(budget, n) {
					t.Errorf("%s n=%d B=%d cycle %d: %d downloads, want %d", desc.ID, n, budget, c, cy.Downloads, min(budget, n))
				}
			}
		}
	}
}

// benchData returns 100,000 pages × 12 cycles in which each page changes in
// each cycle with probability 0.2 (seeded), the benchmark size of the brief.
func benchData(b testing.TB) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	return randomTruth(b, rng, 100_000, 12, 0.2, false)
}

// benchPolicy measures a whole run (building the policy, 12 cycles, budget
// 10%) and reports nanoseconds per page-cycle.
func benchPolicy(b *testing.B, id string) {
	d := benchData(b)
	n, cycles := len(d.Pages), d.Truth.Cycles()
	var desc refresh.Descriptor
	for _, x := range Descriptors() {
		if x.ID == id {
			desc = x
		}
	}
	sim := refresh.NewSim(d)
	rng := rand.New(rand.NewPCG(3, 4))
	var out []refresh.Cycle
	for b.Loop() {
		sim.Reset()
		env := refresh.Env{Repo: &d.Repository, Budget: n / 10, Cycles: cycles, Rand: rng}
		if desc.Oracle {
			env.Truth = sim
		}
		p, err := desc.New(env)
		if err != nil {
			b.Fatal(err)
		}
		out = sim.Run(p, n/10, cycles, out[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*cycles), "ns/page-cycle")
}

func BenchmarkRoundRobin(b *testing.B)      { benchPolicy(b, "round-robin") }
func BenchmarkRandom(b *testing.B)          { benchPolicy(b, "random") }
func BenchmarkChangeFrequency(b *testing.B) { benchPolicy(b, "change-frequency") }
func BenchmarkOracle(b *testing.B)          { benchPolicy(b, "oracle") }

// TestExpect checks each baseline's Descriptor.Expect, the exact expected
// ChangeRatio of a first cycle, against simulation. Round-robin, random and
// change-frequency (all pages tie at first) download a uniform random set of
// B of the N pages, K of which changed: a hypergeometric count with mean
// ratio K/N and SD √((1/B)·(K/N)(1−K/N)·(N−B)/(N−1)). Over R = 2000 repeats
// the mean must lie within 4·SE of Expect (false failure about 6e-5 per
// case, 5e-4 over the 9 cases; exact when B = N). The oracle's is 1, and an
// error when nothing changed.
func TestExpect(t *testing.T) {
	const reps = 2000
	cases := []struct{ n, k, budget int }{{50, 10, 5}, {200, 100, 20}, {30, 29, 30}}
	for _, tc := range cases {
		changed := [][]int32{iota(tc.k)}
		d := build(t, tc.n, changed, nil)
		sim := refresh.NewSim(d)
		for _, desc := range Descriptors() {
			if desc.Expect == nil {
				continue
			}
			e, err := desc.Expect(d, tc.budget, nil)
			if err != nil {
				t.Fatalf("%s: %v", desc.ID, err)
			}
			if desc.Oracle {
				if e != 1 {
					t.Errorf("oracle: Expect %v, want 1", e)
				}
				continue
			}
			p := float64(tc.k) / float64(tc.n)
			if e != p {
				t.Errorf("%s n=%d k=%d: Expect %v, want K/N = %v", desc.ID, tc.n, tc.k, e, p)
			}
			var sum float64
			for r := range uint64(reps) {
				sim.Reset()
				pol, err := desc.New(refresh.Env{Repo: &d.Repository, Budget: tc.budget, Cycles: 1, Rand: rand.New(rand.NewPCG(r, 21))})
				if err != nil {
					t.Fatal(err)
				}
				sum += sim.Run(pol, tc.budget, 1, nil)[0].ChangeRatio()
			}
			b, n := float64(tc.budget), float64(tc.n)
			se := math.Sqrt(p*(1-p)/b*(n-b)/(n-1)) / math.Sqrt(reps)
			if mean := sum / reps; math.Abs(mean-e) > max(4*se, 1e-12) {
				t.Errorf("%s n=%d k=%d B=%d: simulated %.4f, Expect %.4f ± %.4f (4·SE)", desc.ID, tc.n, tc.k, tc.budget, mean, e, 4*se)
			}
		}
	}
	for _, desc := range Descriptors() {
		if desc.Oracle && desc.Expect != nil {
			if _, err := desc.Expect(build(t, 3, [][]int32{{}}, nil), 1, nil); err == nil {
				t.Error("oracle: Expect with nothing changed gave no error")
			}
		}
	}
}
