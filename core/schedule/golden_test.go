package schedule

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// The reference case of Cho & Garcia-Molina ("Synchronizing a database to
// improve freshness", SIGMOD 2000; "Effective page refresh policies for Web
// crawlers", ACM TODS 2003): five pages changing as Poisson processes of 1,
// 2, 3, 4 and 5 changes a day, B = 5 syncs a day at regular intervals. The
// published figures:
//
//	optimal for freshness   f = 1.15, 1.36, 1.35, 1.14, 0   mean freshness 0.374
//	uniform                 f = 1 each                      mean freshness 0.365, mean age 0.254
//	proportional            f = λ/3                         mean freshness 0.317, mean age 0.373
//
// Uniform beats proportional on both metrics, and the optimum gives up the
// fastest page.
var (
	refRates  = []float64{1, 2, 3, 4, 5}
	refBudget = 5.0
)

// refPlans are the policies of the reference table, with its figures (to 3
// decimals); NaN where it gives none.
var refPlans = []struct {
	name           string
	p              Policy
	freshness, age float64
}{
	{"optimal", ChoFreshness{}, 0.374, math.NaN()},
	{"uniform", Uniform{}, 0.365, 0.254},
	{"proportional", Proportional{}, 0.317, 0.373},
}

// TestChoReferenceAllocation reproduces the optimal allocation f = 1.15,
// 1.36, 1.35, 1.14, 0 to the printed two decimals, from the bisection on
// the Lagrange condition, and checks the condition itself.
func TestChoReferenceAllocation(t *testing.T) {
	plan, err := ChoFreshness{}.Allocate(Input{Rates: refRates, Budget: refBudget}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%.2f", plan.Rates), "[1.15 1.36 1.35 1.14 0.00]"; got != want {
		t.Errorf("optimal allocation %s, Cho & Garcia-Molina (2003): %s", got, want)
	}
	if plan.Rates[4] != 0 {
		t.Errorf("the page changing 5 times a day gets %v syncs, want none", plan.Rates[4])
	}
	nu := FreshnessSlope(1, plan.Rates[0])
	for i := range 4 {
		if s := FreshnessSlope(refRates[i], plan.Rates[i]); relDiff(s, nu) > 1e-12 {
			t.Errorf("page %d: dF/df = %v, page 0's %v", i, s, nu)
		}
	}
	if 1/refRates[4] > nu {
		t.Errorf("1/λ₅ = %v above the multiplier %v: page 5 should be synced", 1/refRates[4], nu)
	}
	if relDiff(plan.Spent(), refBudget) > 1e-15 {
		t.Errorf("spent %v", plan.Spent())
	}
}

// TestChoReferenceMetrics reproduces the table's mean freshness and age
// from the formulas F(λ, f) and A(λ, f), to the printed 3 decimals, and
// the lesson it teaches: uniform beats proportional on both.
func TestChoReferenceMetrics(t *testing.T) {
	got := map[string][2]float64{}
	for _, rp := range refPlans {
		plan, err := rp.p.Allocate(Input{Rates: refRates, Budget: refBudget}, nil)
		if err != nil {
			t.Fatal(err)
		}
		mean, _, err := Expect(refRates, nil, plan)
		if err != nil {
			t.Fatal(err)
		}
		got[rp.name] = [2]float64{mean.Freshness, mean.Age}
		if s := fmt.Sprintf("%.3f", mean.Freshness); s != fmt.Sprintf("%.3f", rp.freshness) {
			t.Errorf("%s: mean freshness %s, Cho & Garcia-Molina (2003): %.3f", rp.name, s, rp.freshness)
		}
		if !math.IsNaN(rp.age) {
			if s := fmt.Sprintf("%.3f", mean.Age); s != fmt.Sprintf("%.3f", rp.age) {
				t.Errorf("%s: mean age %s, Cho & Garcia-Molina (2003): %.3f", rp.name, s, rp.age)
			}
		}
	}
	if u, p := got["uniform"], got["proportional"]; !(u[0] > p[0] && u[1] < p[1]) {
		t.Errorf("uniform %v does not beat proportional %v on freshness and age", u, p)
	}
}

// TestChoReferenceSimulated runs each plan of the table through the
// simulator at the default run length and checks it reproduces the
// formulas within 4 SE (P(|t₃₉| > 4) ≈ 3e-4 per check, 1.4e-3 for the five),
// and the printed figures within 0.005.
func TestChoReferenceSimulated(t *testing.T) {
	cfg := Config{Rates: refRates, Days: DefaultDays, Warmup: DefaultWarmup, Repeats: DefaultRepeats, Seed: 2000}
	for _, rp := range refPlans {
		plan, _ := rp.p.Allocate(Input{Rates: refRates, Budget: refBudget}, nil)
		res, err := Simulate(cfg, plan)
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := Expect(refRates, nil, plan)
		nearSE(t, rp.name+" freshness", res.Mean.Freshness, want.Freshness, 4)
		if d := math.Abs(res.Mean.Freshness.Mean - rp.freshness); d > 0.005 {
			t.Errorf("%s: simulated freshness %.4f, Cho & Garcia-Molina (2003): %.3f", rp.name, res.Mean.Freshness.Mean, rp.freshness)
		}
		if !math.IsNaN(rp.age) {
			nearSE(t, rp.name+" age", res.Mean.Age, want.Age, 4)
			if d := math.Abs(res.Mean.Age.Mean - rp.age); d > 0.005 {
				t.Errorf("%s: simulated age %.4f, Cho & Garcia-Molina (2003): %.3f", rp.name, res.Mean.Age.Mean, rp.age)
			}
		}
	}
}

// intervalMoments returns the mean and variance of Y, a regularly synced
// page's freshness or age averaged over one sync interval, with x = λ/f
// changes expected per interval of length I = 1/f. With u = (time of the
// first change)/I, exponential of rate x: freshness Y = min(u, 1), so
// E[Y] = (1 − e^{−x})/x and E[Y²] = 2h(x)/x²; age Y = (I/2)(1 − u)² while
// u < 1, whose moments we integrate by Simpson's rule.
func intervalMoments(lambda, f float64, ageMetric bool) (mean, variance float64) {
	x, I := lambda/f, 1/f
	if !ageMetric {
		mean = freshUnit(x)
		return mean, 2*gain(x)/(x*x) - mean*mean
	}
	const steps = 4000
	var m1, m2 float64
	for k := 0; k <= steps; k++ {
		u := float64(k) / steps
		w := 2.0
		switch {
		case k == 0 || k == steps:
			w = 1
		case k%2 == 1:
			w = 4
		}
		dens := x * math.Exp(-x*u)
		y := I / 2 * (1 - u) * (1 - u)
		m1 += w * y * dens
		m2 += w * y * y * dens
	}
	m1 /= 3 * steps
	m2 /= 3 * steps
	return m1, m2 - m1*m1
}

// TestDefaultRunLength derives the standard error of the reference case's
// mean freshness and mean age at the default run length, and checks (1)
// it is small enough that 4 SE plus the table's rounding (0.0005) stay
// within 0.005, and (2) the derivation matches the spread the simulator
// shows across repeats.
//
// Derivation (renewal-reward): a regularly synced page's copy is fresh
// after each sync, so its intervals are independent; the time average over
// T days is the mean of n = f·T interval averages Y, with variance
// Var(Y)/(fT). Pages are independent, so the mean over N pages has
// variance Σ Var(Y_i)/(f_i T)/N², and R repeats divide it by R. A page
// never synced is stale throughout the measured horizon (after a year of
// warm-up, with probability 1 − e^{−5·365}) and adds nothing.
func TestDefaultRunLength(t *testing.T) {
	cfg := Config{Rates: refRates, Days: DefaultDays, Warmup: DefaultWarmup, Repeats: DefaultRepeats, Seed: 77}
	n := float64(len(refRates))
	for _, rp := range refPlans {
		plan, _ := rp.p.Allocate(Input{Rates: refRates, Budget: refBudget}, nil)
		res, err := Simulate(cfg, plan)
		if err != nil {
			t.Fatal(err)
		}
		for _, ageMetric := range []bool{false, true} {
			if ageMetric && math.IsNaN(rp.age) {
				continue
			}
			var v float64 // variance of one repeat's mean over pages
			for i, lambda := range refRates {
				f := plan.Rates[i]
				if f == 0 {
					continue
				}
				mean, variance := intervalMoments(lambda, f, ageMetric)
				want := Freshness(lambda, f, Regular)
				if ageMetric {
					want = Age(lambda, f, Regular)
				}
				if relDiff(mean, want) > 1e-9 {
					t.Fatalf("interval moments: mean %v, formula %v", mean, want)
				}
				v += variance / (f * DefaultDays) / (n * n)
			}
			se := math.Sqrt(v / DefaultRepeats)
			name, sum := rp.name+" freshness", res.Mean.Freshness
			if ageMetric {
				name, sum = rp.name+" age", res.Mean.Age
			}
			t.Logf("%s: derived SE %.5f, simulated SD/√R %.5f", name, se, sum.SD/math.Sqrt(DefaultRepeats))
			if 4*se+0.0005 > 0.005 || se > 0.0009 {
				t.Errorf("%s: the default run's SE is %.5f: too large for a 0.005 tolerance", name, se)
			}
			// The sample SD of 40 repeats falls outside [0.55, 1.5] times
			// the true SD with probability below 1e-4 (χ²₃₉).
			if r := sum.SD / math.Sqrt(v); r < 0.55 || r > 1.5 {
				t.Errorf("%s: simulated SD %.5f against derived %.5f (ratio %.2f)", name, sum.SD, math.Sqrt(v), r)
			}
		}
	}
}

// TestSameBitsEverywhere hashes the exact bits of every policy's
// allocation and of simulations of each kind of schedule. The test runs
// natively and under GOOS=js GOARCH=wasm; both must give this hash, so a
// spec and seed give the same numbers in the browser as on a server.
func TestSameBitsEverywhere(t *testing.T) {
	// Recorded natively (linux/amd64) and checked under js/wasm.
	want := map[string]uint64{
		"uniform":            0x265f4720fd69e25,
		"uniform-poisson":    0x265f4720fd69e25,
		"proportional":       0x9332712488aeec4c,
		"cho-freshness":      0x6d50e2ce76770317,
		"cho-age":            0x3c675d2b1fc03f28,
		"olston-pandey":      0xa26ca6220a81038c,
		"azar":               0xb35e388b2d897f3c,
		"lambdacrawl":        0x273015243d10638c,
		"lambdacrawl-approx": 0x3bfe3c203d4373ec,
		"simulation 0":       0x87563048595ac5d0,
		"simulation 1":       0x5ae1bade825302ac,
		"simulation 2":       0x6a1c03f7746bad4f,
		"simulation 3":       0x151efe93795ce912,
		"simulation 4":       0x41429b0ce4dbacd9,
	}
	h := fnv.New64a()
	check := func(part string) {
		t.Helper()
		if got := h.Sum64(); got != want[part] {
			t.Errorf("%s: bits hash %#x, want %#x: the numbers changed, or differ on this platform", part, got, want[part])
		}
		h.Reset()
	}
	put := func(x float64) {
		b := math.Float64bits(x)
		h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
	}
	rng := rand.New(rand.NewPCG(11, 12))
	in := randomInput(rng, 40, true)
	for _, tc := range allPolicies {
		plan, err := tc.p.Allocate(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range plan.Rates {
			put(f)
		}
		check(tc.name)
	}
	cfg := Config{Rates: refRates, Weights: []float64{5, 4, 3, 2, 1}, Days: 200, Warmup: 50, Repeats: 3, Seed: 9, PerPage: true}
	plan, _ := ChoAge{}.Allocate(Input{Rates: refRates, Budget: refBudget}, nil)
	for k, s := range []Syncer{plan, Plan{Rates: plan.Rates, Spacing: Poisson}, NewAdaptive(NutchDefault, 5), NewAdaptive(HeritrixDefault, 5), NewAdaptive(StormCrawlerDefault, 5)} {
		res, err := Simulate(cfg, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range append([]Metrics{res.Mean, res.Weighted}, res.Pages...) {
			for _, x := range []float64{m.Freshness.Mean, m.Freshness.SD, m.Age.Mean, m.Age.Hi, m.Harmonic.Mean, m.Harmonic.Lo, m.SyncsPerDay.Mean, m.ChangeRatio.Mean} {
				put(x)
			}
		}
		check(fmt.Sprintf("simulation %d", k))
	}
}
