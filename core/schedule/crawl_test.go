package schedule

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// poissonData returns a dataset of len(rates) pages, page i changing in
// each cycle with probability 1 − e^{−rates[i]} (a Poisson process of
// rates[i] changes per cycle seen once a cycle), over cycles cycles.
func poissonData(t testing.TB, rates []float64, cycles int, seed uint64) *dataset.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	d := &dataset.Dataset{Info: dataset.Info{ID: "poisson"}}
	d.Sites = []string{"p.example"}
	for range rates {
		d.Pages = append(d.Pages, dataset.Page{Site: 0})
	}
	changed := make([][]int32, cycles)
	for c := range changed {
		for p, r := range rates {
			if rng.Float64() < -math.Expm1(-r) {
				changed[c] = append(changed[c], int32(p))
			}
		}
	}
	d.Truth = dataset.Truth{Changed: changed}
	if err := d.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return d
}

// build makes descriptor id's policy for d with the given values.
func build(t testing.TB, id string, d *dataset.Dataset, sim *refresh.Sim, budget int, v param.Values) *Refresher {
	t.Helper()
	for _, desc := range RefreshDescriptors() {
		if desc.ID != id {
			continue
		}
		env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Rand: rand.New(rand.NewPCG(1, 1)), Params: v}
		if desc.Oracle {
			env.Truth = sim
		}
		p, err := desc.New(env)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		return p.(*Refresher)
	}
	t.Fatalf("no descriptor %s", id)
	return nil
}

// downloadsOf returns how many times each page was downloaded.
func downloadsOf(r *Refresher) []int {
	out := make([]int, len(r.class))
	for i, k := range r.got {
		out[i] = int(k)
		if !r.oracle && r.keys[r.class[i]].n != k {
			panic("class and download count disagree")
		}
	}
	return out
}

// TestRefresherSpendsBudget checks every allocation and estimator spends
// exactly the budget every cycle (Download panics past it), for budgets
// from one page to every page.
func TestRefresherSpendsBudget(t *testing.T) {
	rates := make([]float64, 60)
	for i := range rates {
		rates[i] = 0.02 * float64(1+i%20)
	}
	d := poissonData(t, rates, 15, 1)
	for _, alloc := range allocationIDs() {
		for _, est := range []string{EstimatorChoGarciaMolina, EstimatorNaive} {
			for _, budget := range []int{1, 7, 30, 60} {
				for _, id := range []string{"rate-schedule", "rate-schedule-oracle"} {
					sim := refresh.NewSim(d)
					p := build(t, id, d, sim, budget, param.Values{"allocation": alloc, "estimator": est})
					for c, cy := range sim.Run(p, budget, d.Truth.Cycles(), nil) {
						if cy.Downloads != budget {
							t.Errorf("%s %s %s budget %d: cycle %d downloads %d", id, alloc, est, budget, c, cy.Downloads)
						}
					}
				}
			}
		}
	}
}

// TestRefresherUniformRoundRobin checks that the uniform allocation
// downloads every page equally often: after C cycles of B downloads among
// N pages each page has ⌊BC/N⌋ or ⌈BC/N⌉ downloads, exactly BC/N when it
// is whole.
func TestRefresherUniformRoundRobin(t *testing.T) {
	rates := make([]float64, 20)
	for i := range rates {
		rates[i] = 0.05 * float64(1+i)
	}
	d := poissonData(t, rates, 24, 2)
	for _, budget := range []int{1, 3, 5, 7, 20} {
		for _, cycles := range []int{5, 12, 20, 24} {
			sim := refresh.NewSim(d)
			p := build(t, "rate-schedule", d, sim, budget, param.Values{"allocation": "cgm-uniform"})
			sim.Run(p, budget, cycles, nil)
			total := budget * cycles
			lo, hi := total/len(rates), (total+len(rates)-1)/len(rates)
			for i, n := range downloadsOf(p) {
				if n < lo || n > hi {
					t.Errorf("budget %d, %d cycles: page %d downloaded %d times, want %d..%d", budget, cycles, i, n, lo, hi)
				}
			}
		}
	}
}

// TestRefresherFreshnessFavoursSlowPages checks Cho & Garcia-Molina's
// point (SIGMOD 2000 §5) in batch cycles: with half the pages changing
// 0.05 times a cycle and half 2 times, the freshness optimum gives the
// slow half more downloads than the proportional policy, which pours the
// budget into pages it cannot keep fresh. It runs the oracle, whose rates
// are the truth (Sim.Rates estimates them from the whole truth here): the
// estimated variant does not show it over 12 cycles (see Refresher: a page
// whose downloads saw no change is estimated at 0 and left alone by both
// policies, and the plan's surplus on the few pages known to change goes
// to the leftover pass). The difference in the slow half's downloads is
// averaged over 40 seeds and must exceed 4 standard errors (were the true
// difference 4 SE or more, a false failure has probability about 3e-5
// under the normal approximation).
func TestRefresherFreshnessFavoursSlowPages(t *testing.T) {
	const n, seeds, budget, cycles = 100, 40, 20, 12
	rates := make([]float64, n)
	for i := range rates {
		rates[i] = 0.05
		if i >= n/2 {
			rates[i] = 2
		}
	}
	slow := func(d *dataset.Dataset, alloc string) float64 {
		sim := refresh.NewSim(d)
		p := build(t, "rate-schedule-oracle", d, sim, budget, param.Values{"allocation": alloc})
		sim.Run(p, budget, cycles, nil)
		var s int
		for i, k := range downloadsOf(p) {
			if i < n/2 {
				s += k
			}
		}
		return float64(s)
	}
	var sum, sum2 float64
	for seed := range uint64(seeds) {
		d := poissonData(t, rates, cycles, 100+seed)
		diff := slow(d, "cgm-optimal-freshness") - slow(d, "cgm-proportional")
		sum += diff
		sum2 += diff * diff
	}
	mean := sum / seeds
	se := math.Sqrt((sum2/seeds - mean*mean) / (seeds - 1))
	if !(mean > 4*se) {
		t.Errorf("slow half: freshness optimum − proportional = %.2f downloads (SE %.2f), want > 4 SE", mean, se)
	}
}

// fakeTruth is a Truth whose rates contradict the dataset, to show where
// the oracle reads them.
type fakeTruth struct {
	refresh.Truth
	rates []float64
	calls int
}

func (f *fakeTruth) Rates() []float64 { f.calls++; return f.rates }

// TestRefresherOracleReadsTruth checks the oracle plans from Truth.Rates
// alone: given rates that say only the first four pages change, a
// proportional oracle downloads only them, whatever the dataset does.
func TestRefresherOracleReadsTruth(t *testing.T) {
	rates := make([]float64, 40)
	for i := range rates {
		rates[i] = 1
	}
	d := poissonData(t, rates, 10, 3)
	sim := refresh.NewSim(d)
	fake := &fakeTruth{Truth: sim, rates: make([]float64, 40)}
	for i := range 4 {
		fake.rates[i] = 0.5
	}
	env := refresh.Env{Repo: &d.Repository, Budget: 4, Cycles: 10, Truth: fake}
	p, err := NewRefresher(env, Proportional{}, EstimatorChoGarciaMolina, true)
	if err != nil {
		t.Fatal(err)
	}
	for c, cy := range sim.Run(p, 4, 10, nil) {
		if cy.Downloads != 4 {
			t.Errorf("cycle %d: %d downloads, want 4", c, cy.Downloads)
		}
	}
	if fake.calls == 0 {
		t.Fatal("the oracle never read Truth.Rates")
	}
	// Pages 0..3 earn f = B·0.5/Σcλ = 1 a cycle and spend it on a
	// download every cycle; the others earn nothing and, had any been
	// downloaded, would hold negative credit.
	for i, cr := range p.credit {
		if cr != 0 {
			t.Errorf("page %d: credit %g after the run, want 0", i, cr)
		}
		if i < 4 && sim.StaleSince(int32(i)) != -1 {
			t.Errorf("page %d: stale after being downloaded in the last cycle", i)
		}
	}
	if _, err := NewRefresher(refresh.Env{Repo: &d.Repository, Budget: 4}, Proportional{}, EstimatorChoGarciaMolina, true); err == nil {
		t.Error("an oracle without the truth was built")
	}
}

// BenchmarkRefresher runs rate-schedule (each allocation that costs most
// per plan) and its oracle on 300,000 pages for 12 cycles at a budget of
// 10% of the pages a cycle, the size of the lab's largest dataset, and
// reports ns per page-cycle.
func BenchmarkRefresher(b *testing.B) {
	const n, cycles, budget = 300000, 12, 30000
	rng := rand.New(rand.NewPCG(7, 7))
	rates := make([]float64, n)
	for i := range rates {
		rates[i] = 0.01 * math.Pow(100, rng.Float64()) // 0.01 to 1 change a cycle
	}
	d := poissonData(b, rates, cycles, 7)
	for _, c := range []struct{ id, alloc string }{
		{"rate-schedule", "cgm-optimal-freshness"},
		{"rate-schedule", "cgm-optimal-age"},
		{"rate-schedule", "olston-pandey"},
		{"rate-schedule-oracle", "cgm-optimal-freshness"},
	} {
		b.Run(c.id+"/"+c.alloc, func(b *testing.B) {
			sim := refresh.NewSim(d)
			v := param.Values{"allocation": c.alloc}
			p := build(b, c.id, d, sim, budget, v)
			env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, Rand: rand.New(rand.NewPCG(1, 1)), Params: v}
			if c.id == "rate-schedule-oracle" {
				env.Truth = sim
			}
			out := make([]refresh.Cycle, 0, cycles)
			b.ResetTimer()
			for b.Loop() {
				sim.Reset()
				p.Reuse(env)
				out = sim.Run(p, budget, cycles, out[:0])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n*cycles), "ns/page-cycle")
		})
	}
}

// BenchmarkRefresherLong runs rate-schedule on a long log of mostly quiet
// pages, 500 changing once in 10,000 to once in 10 cycles, at a budget of
// 10% of the pages, over 50, 400 and 3,200 cycles, and reports ns per
// cycle: the cost of a run should grow linearly with its cycles, though
// the pages' rate classes multiply over the first hundreds of cycles.
func BenchmarkRefresherLong(b *testing.B) {
	const n, budget = 500, 50
	rng := rand.New(rand.NewPCG(8, 8))
	rates := make([]float64, n)
	for i := range rates {
		rates[i] = 1e-4 * math.Pow(1000, rng.Float64())
	}
	d := poissonData(b, rates, 3200, 8)
	for _, alloc := range []string{"cgm-optimal-freshness", "cgm-optimal-age", "olston-pandey"} {
		for _, cycles := range []int{50, 400, 3200} {
			b.Run(fmt.Sprintf("%s/%d", alloc, cycles), func(b *testing.B) {
				sim := refresh.NewSim(d)
				v := param.Values{"allocation": alloc}
				p := build(b, "rate-schedule", d, sim, budget, v)
				env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, Rand: rand.New(rand.NewPCG(1, 1)), Params: v}
				out := make([]refresh.Cycle, 0, cycles)
				for b.Loop() {
					sim.Reset()
					p.Reuse(env)
					out = sim.Run(p, budget, cycles, out[:0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cycles), "ns/cycle")
			})
		}
	}
}

// TestRefresherClassesStayFew checks that a long run keeps no more classes
// than pages (plus the never-downloaded class): on thousands of cycles
// nearly every download makes a new (n, X, T), and the plan's cost grows
// with the classes, so empty ones must be reused.
func TestRefresherClassesStayFew(t *testing.T) {
	rates := make([]float64, 30)
	for i := range rates {
		rates[i] = 0.02 * float64(1+i)
	}
	const cycles = 2000
	d := poissonData(t, rates, cycles, 3)
	sim := refresh.NewSim(d)
	p := build(t, "rate-schedule", d, sim, 5, param.Values{})
	sim.Run(p, 5, cycles, nil)
	if n := len(p.keys); n > len(rates)+1 {
		t.Errorf("%d classes after %d cycles of %d pages, want at most %d", n, cycles, len(rates), len(rates)+1)
	}
	var total float64
	for _, c := range p.counts {
		total += c
	}
	if total != float64(len(rates)) {
		t.Errorf("the classes hold %v pages, want %d", total, len(rates))
	}
}

// TestRevisiterFollowsTheRule checks the re-visit policy: it spends the
// whole budget every cycle; with a budget of every page it downloads every
// page every cycle and leaves each with the state the rule reaches by hand;
// with less, it downloads the pages the rule made due soonest.
func TestRevisiterFollowsTheRule(t *testing.T) {
	rates := []float64{0.05, 0.3, 1, 3, 0.1, 0.7}
	const cycles = 40
	d := poissonData(t, rates, cycles, 4)
	for _, id := range ruleIDs() {
		for _, budget := range []int{1, 2, len(rates)} {
			rule, err := ruleOf(param.Values{"rule": id})
			if err != nil {
				t.Fatal(err)
			}
			sim := refresh.NewSim(d)
			env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, CycleDays: 1, Rand: rand.New(rand.NewPCG(1, 2))}
			p := NewRevisiter(env, rule)
			checked := &dueCheck{Revisiter: p, t: t, id: id}
			out := sim.Run(checked, budget, cycles, nil)
			for c, cy := range out {
				if cy.Downloads != budget {
					t.Fatalf("%s: cycle %d downloaded %d, budget %d", id, c, cy.Downloads, budget)
				}
			}
			if budget < len(rates) {
				continue
			}
			for i := range rates {
				s, _ := rule.Start()
				last := -1
				for c := range cycles {
					changed := false
					for k := last + 1; k <= c; k++ {
						changed = changed || slices.Contains(d.Truth.Changed[k], int32(i))
					}
					rule.Next(&s, float64(c+1), changed)
					last = c
				}
				if s != p.state[i] {
					t.Errorf("%s: page %d ends in %+v, the rule by hand in %+v", id, i, p.state[i], s)
				}
			}
		}
	}
}

// dueCheck wraps a Revisiter and checks, each cycle, that no page left
// out was listed sooner than a page downloaded.
type dueCheck struct {
	*Revisiter
	t  *testing.T
	id string
}

func (w *dueCheck) Refresh(c *refresh.Crawl) {
	now := float64(c.Cycle()+1) * w.days
	before := make([]float64, len(w.queue))
	for _, s := range w.queue {
		before[s.page] = w.rule.Listed(s.due, now)
	}
	k := c.Remaining()
	w.Revisiter.Refresh(c)
	picked := map[int32]bool{}
	for _, s := range w.queue[:k] {
		picked[s.page] = true
	}
	var latestPicked, soonestLeft float64 = -1, math.Inf(1)
	for i, t := range before {
		if picked[int32(i)] {
			latestPicked = max(latestPicked, t)
		} else {
			soonestLeft = min(soonestLeft, t)
		}
	}
	if latestPicked > soonestLeft {
		w.t.Errorf("%s: cycle %d downloaded a page listed at %v but left one listed at %v", w.id, c.Cycle(), latestPicked, soonestLeft)
	}
}

// picks wraps a Revisiter and records the pages each cycle downloads.
type picks struct {
	*Revisiter
	got [][]int32
}

func (w *picks) Refresh(c *refresh.Crawl) {
	k := c.Remaining()
	w.Revisiter.Refresh(c)
	var pages []int32
	for _, s := range w.queue[:k] {
		pages = append(pages, s.page)
	}
	w.got = append(w.got, pages)
}

// TestRevisiterPullBack checks Nutch's pull-back in the refresh
// simulator: a page whose next visit lies more than 90 days after a
// cycle's fetch list is listed at once, for that list only. Cycles of 5
// days, one download each, pages that never change:
//
//   - page 0 is due at 98.5, page 1 at 20, page 2 at 30: the list of
//     cycle 0, made at day 5, lists page 0 at 5 (93.5 days ahead) and
//     downloads it;
//   - with page 1 overdue instead (due at 3, its interval 60 days), cycle
//     0 downloads page 1 (next visit 5 − 0.3·5 + 84 = 87.5) and leaves
//     page 0 due at 98.5; the list of cycle 1, made at day 10, lists it
//     there (88.5 days ahead), after page 2 at 30, which goes next.
func TestRevisiterPullBack(t *testing.T) {
	d := poissonData(t, []float64{0, 0, 0}, 2, 1)
	for _, c := range []struct {
		name string
		due  [3]float64
		want [][]int32
	}{
		{"pulled back", [3]float64{98.5, 20, 30}, [][]int32{{0}, {1}}},
		{"for one list only", [3]float64{98.5, 3, 30}, [][]int32{{1}, {2}}},
	} {
		env := refresh.Env{Repo: &d.Repository, Budget: 1, Cycles: 2, CycleDays: 5}
		r := NewRevisiter(env, NutchDefault)
		for i := range r.queue {
			s := &r.queue[i]
			s.due = c.due[s.page]
			r.state[s.page] = PageState{Interval: 60}
		}
		w := &picks{Revisiter: r}
		refresh.NewSim(d).Run(w, 1, 2, nil)
		if !slices.EqualFunc(w.got, c.want, slices.Equal) {
			t.Errorf("%s: downloaded %v, want %v", c.name, w.got, c.want)
		}
	}
}
