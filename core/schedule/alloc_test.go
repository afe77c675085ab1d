package schedule

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// allPolicies lists every allocation policy with a name for messages.
var allPolicies = []struct {
	name string
	p    Policy
}{
	{"uniform", Uniform{}}, {"uniform-poisson", Uniform{Spacing: Poisson}},
	{"proportional", Proportional{}}, {"cho-freshness", ChoFreshness{}}, {"cho-age", ChoAge{}},
	{"olston-pandey", OlstonPandey{}}, {"azar", Azar{}}, {"lambdacrawl", LambdaCrawl{}},
	{"lambdacrawl-approx", LambdaCrawlApprox{}},
}

// spread returns lo + (hi − lo)·u³ for a uniform u: values over several
// orders of magnitude, drawn with arithmetic alone so that the inputs are
// the same bits natively and in WebAssembly (math.Pow is not).
func spread(rng *rand.Rand, lo, hi float64) float64 {
	u := rng.Float64()
	return lo + (hi-lo)*u*u*u
}

// randomInput draws n pages with change rates from 0.01 to 100 a day,
// request rates from 0.1 to 10, and a budget between a tenth of a sync and
// ten syncs per page per day.
func randomInput(rng *rand.Rand, n int, weighted bool) Input {
	in := Input{Rates: make([]float64, n), Budget: float64(n) * spread(rng, 0.1, 10)}
	for i := range in.Rates {
		in.Rates[i] = spread(rng, 0.01, 100)
	}
	if weighted {
		in.Weights = make([]float64, n)
		for i := range in.Weights {
			in.Weights[i] = spread(rng, 0.1, 10)
		}
	}
	return in
}

// simplex calls visit with every point of the grid {f ≥ 0, Σf = budget}
// in steps of budget/steps, for n = 3 or 4 pages.
func simplex(n, steps int, budget float64, visit func(f []float64)) {
	f := make([]float64, n)
	var rec func(i, left int)
	rec = func(i, left int) {
		if i == n-1 {
			f[i] = budget * float64(left) / float64(steps)
			visit(f)
			return
		}
		for k := 0; k <= left; k++ {
			f[i] = budget * float64(k) / float64(steps)
			rec(i+1, left-k)
		}
	}
	rec(0, steps)
}

// objective returns Σ μ_i·m(λ_i, f_i) for a metric m.
func objective(in Input, f []float64, m func(lambda, f float64) float64) float64 {
	var s float64
	for i, r := range in.Rates {
		if w := in.weight(i); w > 0 {
			s += w * m(r, f[i])
		}
	}
	return s
}

func azarObjective(lambda, f float64) float64 {
	if lambda == 0 {
		return 1
	}
	return f / (f + lambda)
}

// TestAzarMatchesBruteForce checks Azar et al.'s closed form on small
// cases: its request-weighted freshness is at least that of every point
// of a fine grid over the simplex, and a projected-gradient ascent lands
// on the same rates.
func TestAzarMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2018))
	for c := range 12 {
		n := 3 + c%2
		in := randomInput(rng, n, true)
		for i := range in.Rates { // keep the rates within reach of the budget
			in.Rates[i] = spread(rng, 0.1, 3)
		}
		plan, err := Azar{}.Allocate(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		best := objective(in, plan.Rates, azarObjective)
		steps := 200
		if n == 4 {
			steps = 60
		}
		simplex(n, steps, in.Budget, func(f []float64) {
			if v := objective(in, f, azarObjective); v > best+1e-12 {
				t.Fatalf("case %d: grid point %v beats the closed form %v: %v > %v", c, f, plan.Rates, v, best)
			}
		})
		pg := projectedGradient(in, func(lambda, mu, f float64) float64 { return mu * lambda / ((f + lambda) * (f + lambda)) })
		for i := range pg {
			if math.Abs(pg[i]-plan.Rates[i]) > 1e-6*in.Budget {
				t.Errorf("case %d: projected gradient %v, closed form %v", c, pg, plan.Rates)
				break
			}
		}
	}
}

// projectedGradient maximises Σ μ_i g(λ_i, f_i) over the simplex Σ f =
// budget, f ≥ 0, by gradient steps projected back onto it, given the
// gradient grad(λ, μ, f); for concave objectives it reaches the optimum.
func projectedGradient(in Input, grad func(lambda, mu, f float64) float64) []float64 {
	n := len(in.Rates)
	f := make([]float64, n)
	for i := range f {
		f[i] = in.Budget / float64(n)
	}
	g := make([]float64, n)
	for it := range 30000 {
		var gmax float64
		for i := range f {
			g[i] = grad(in.Rates[i], in.weight(i), f[i])
			gmax = math.Max(gmax, math.Abs(g[i]))
		}
		step := in.Budget / (gmax * (20 + float64(it)/50))
		for i := range f {
			f[i] += step * g[i]
		}
		projectSimplex(f, in.Budget)
	}
	return f
}

// projectSimplex replaces f by its Euclidean projection onto {f ≥ 0,
// Σf = budget} (the sort-based algorithm of Held, Wolfe & Crowder).
func projectSimplex(f []float64, budget float64) {
	s := slices.Clone(f)
	slices.Sort(s)
	slices.Reverse(s)
	var cum, theta float64
	for i, v := range s {
		cum += v
		if t := (cum - budget) / float64(i+1); v-t > 0 {
			theta = t
		}
	}
	for i := range f {
		f[i] = math.Max(f[i]-theta, 0)
	}
}

// TestAzarStarves checks the pages Azar et al. give no crawls are those
// with μ/Δ at or below the multiplier, and that the synced ones satisfy
// the Lagrange condition μΔ/(ρ + Δ)² = ν.
func TestAzarStarves(t *testing.T) {
	in := Input{Rates: []float64{1, 1, 10, 0.5}, Weights: []float64{4, 1, 0.5, 2}, Budget: 2}
	plan, err := Azar{}.Allocate(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Rates[2] != 0 {
		t.Errorf("the fast, rarely requested page gets %v crawls per day, want 0", plan.Rates[2])
	}
	var nu float64
	for i, f := range plan.Rates {
		if f == 0 {
			continue
		}
		d, mu := in.Rates[i], in.Weights[i]
		v := mu * d / ((f + d) * (f + d))
		if nu == 0 {
			nu = v
		} else if relDiff(v, nu) > 1e-12 {
			t.Errorf("page %d: marginal value %v, others %v", i, v, nu)
		}
	}
	if r := in.Weights[2] / in.Rates[2]; r > nu {
		t.Errorf("starved page has μ/Δ = %v above the multiplier %v", r, nu)
	}
	if math.Abs(plan.Spent()-in.Budget) > 1e-13 {
		t.Errorf("spent %v of %v", plan.Spent(), in.Budget)
	}
}

func harmonicCost(lambda, f float64) float64 { return Harmonic(lambda, f, Poisson) }

// TestLambdaCrawl checks Kolobov et al.'s policy: every page that changes
// gets crawls, the budget is spent, the Lagrange condition μΔ/(ρ(ρ + Δ)) =
// ν holds, no point of a grid over the simplex has a lower harmonic
// staleness, and LambdaCrawlApprox is its limit for fast-changing pages.
func TestLambdaCrawl(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2019))
	for c := range 10 {
		in := randomInput(rng, 3, true)
		plan, err := LambdaCrawl{}.Allocate(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var nu float64
		for i, f := range plan.Rates {
			if !(f > 0) {
				t.Fatalf("case %d: page %d gets %v crawls per day; LambdaCrawl starves no page", c, i, f)
			}
			d, mu := in.Rates[i], in.Weights[i]
			v := mu * d / (f * (f + d))
			if i == 0 {
				nu = v
			} else if relDiff(v, nu) > 1e-10 {
				t.Errorf("case %d page %d: marginal value %v, page 0's %v", c, i, v, nu)
			}
		}
		if relDiff(plan.Spent(), in.Budget) > 1e-14 {
			t.Errorf("case %d: spent %v of %v", c, plan.Spent(), in.Budget)
		}
		best := objective(in, plan.Rates, harmonicCost)
		simplex(3, 200, in.Budget, func(f []float64) {
			if v := objective(in, f, harmonicCost); v < best-1e-12*best {
				t.Fatalf("case %d: grid point %v beats LambdaCrawl %v: %v < %v", c, f, plan.Rates, v, best)
			}
		})
	}
	// Pages that change far faster than they are crawled: ρ ∝ μ.
	in := Input{Rates: []float64{1e4, 2e4, 5e4}, Weights: []float64{1, 2, 3}, Budget: 6}
	lc, _ := LambdaCrawl{}.Allocate(in, nil)
	ap, _ := LambdaCrawlApprox{}.Allocate(in, nil)
	for i := range lc.Rates {
		if want := float64(i + 1); relDiff(ap.Rates[i], want) > 1e-15 || relDiff(lc.Rates[i], want) > 1e-3 {
			t.Errorf("page %d: LambdaCrawl %v, approximation %v, want about %v", i, lc.Rates[i], ap.Rates[i], want)
		}
	}
}

func choFreshness(lambda, f float64) float64 { return Freshness(lambda, f, Regular) }
func choAge(lambda, f float64) float64       { return -Age(lambda, f, Regular) }

// TestChoOptimaBeatGrid checks Cho & Garcia-Molina's optimal allocations
// (freshness, and age as derived here) against every point of a grid over
// the simplex, weighted and not.
func TestChoOptimaBeatGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2003))
	for c := range 8 {
		in := randomInput(rng, 3, c%2 == 1)
		for i := range in.Rates {
			in.Rates[i] = spread(rng, 0.1, 3)
		}
		for _, tc := range []struct {
			p Policy
			m func(float64, float64) float64
		}{{ChoFreshness{}, choFreshness}, {ChoAge{}, choAge}} {
			plan, err := tc.p.Allocate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			best := objective(in, plan.Rates, tc.m)
			simplex(3, 160, in.Budget, func(f []float64) {
				if v := objective(in, f, tc.m); v > best+1e-12*math.Abs(best) {
					t.Fatalf("case %d %T: grid point %v beats %v: %v > %v", c, tc.p, f, plan.Rates, v, best)
				}
			})
		}
	}
}

// TestChoAgeCondition checks the derived Lagrange condition for age:
// μ_i·dA/df is the same for every page, and every changing page is synced.
func TestChoAgeCondition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for c := range 20 {
		in := randomInput(rng, 8, c%2 == 0)
		plan, err := ChoAge{}.Allocate(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		slope := in.weight(0) * AgeSlope(in.Rates[0], plan.Rates[0])
		for i, f := range plan.Rates {
			if !(f > 0) {
				t.Fatalf("case %d: page %d (λ=%v) gets no syncs", c, i, in.Rates[i])
			}
			if s := in.weight(i) * AgeSlope(in.Rates[i], f); relDiff(s, slope) > 1e-9 {
				t.Errorf("case %d page %d: μ·dA/df = %v, page 0's %v", c, i, s, slope)
			}
		}
	}
}

// TestOlstonPandeyIsChoOptimum checks that refreshing each page when its
// utility reaches one threshold, the threshold set by bisection to spend
// the budget, gives Cho & Garcia-Molina's optimal schedule, on the
// reference case and on random ones, weighted and not.
//
// The tolerance follows the conditioning: a page synced at x = λ/f
// changes per interval satisfies h(x) = λν/μ, and h' = xe^{−x}, so a
// relative error ε in the multiplier moves f by ε·e^x/x² relative. Far
// out (x ≳ 20) F is linear in f to the last bits and f is barely
// determined; both computations then agree only to that precision, with
// ε = 1e-15 (a few ulps), and the budget such pages take or leave shifts
// the others by as much in total.
func TestOlstonPandeyIsChoOptimum(t *testing.T) {
	cases := []Input{{Rates: []float64{1, 2, 3, 4, 5}, Budget: 5}}
	rng := rand.New(rand.NewPCG(8, 2008))
	for c := range 30 {
		cases = append(cases, randomInput(rng, 2+c%20, c%3 == 0))
	}
	for c, in := range cases {
		op, err := OlstonPandey{}.Allocate(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		cgm, _ := ChoFreshness{}.Allocate(in, nil)
		loose := func(i int) float64 { // ε·e^x/x²·f for page i
			if f := cgm.Rates[i]; f > 0 {
				x := in.Rates[i] / f
				return 1e-15 * math.Exp(x) / (x * x) * f
			}
			return 0
		}
		var shift float64
		for i := range cgm.Rates {
			shift += loose(i)
		}
		for i, f := range cgm.Rates {
			tol := 1e-9*in.Budget + loose(i) + shift
			if d := math.Abs(op.Rates[i] - f); d > tol {
				t.Errorf("case %d page %d (λ=%v): threshold rule %v, Cho & Garcia-Molina %v", c, i, in.Rates[i], op.Rates[i], f)
			}
		}
		if op.Spacing != Regular {
			t.Errorf("threshold schedule spaced %v", op.Spacing)
		}
		a, b := objective(in, op.Rates, choFreshness), objective(in, cgm.Rates, choFreshness)
		if relDiff(a, b) > 1e-13 {
			t.Errorf("case %d: threshold rule's freshness %v, Cho & Garcia-Molina's %v", c, a, b)
		}
	}
}

// TestBudgetSpent checks every policy spends exactly its budget on random
// inputs, gives no negative or non-finite rate, and labels the plan.
func TestBudgetSpent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for c := range 40 {
		in := randomInput(rng, 1+c*7, c%2 == 0)
		in.Oracle = c%3 == 0
		for _, tc := range allPolicies {
			plan, err := tc.p.Allocate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Rates) != len(in.Rates) || plan.Oracle != in.Oracle {
				t.Fatalf("%s: %d rates for %d pages, oracle %v for %v", tc.name, len(plan.Rates), len(in.Rates), plan.Oracle, in.Oracle)
			}
			for i, f := range plan.Rates {
				if !(f >= 0) || math.IsInf(f, 0) {
					t.Fatalf("%s case %d: page %d rate %v", tc.name, c, i, f)
				}
			}
			if relDiff(plan.Spent(), in.Budget) > 1e-13 {
				t.Errorf("%s case %d: spent %v of %v", tc.name, c, plan.Spent(), in.Budget)
			}
		}
	}
}

// TestGuessMovesNothing checks that Input.Guess only speeds a plan up:
// every policy's plan with a guess (the plan itself, the plan for rates
// moved by up to 0.1%, as the next cycle's would be, the plan for twice
// the budget, a guess too short, and guesses of 0, negative, NaN,
// infinite or out of range) is the plan
// without one, to 1e-12 of each rate or of the mean rate B/N, on random
// inputs with and without weights and counts. Olston & Pandey's bisection
// stops at 1e-13 of its threshold, which moves a rate near the threshold
// by up to about 1e-8 (its plan and ChoFreshness's, the same optimum,
// differ by that much here), so for it the tolerance is 1e-7.
func TestGuessMovesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for c := range 24 {
		in := randomInput(rng, 2+c*5, c%2 == 0)
		if c%3 == 0 {
			in.Counts = make([]float64, len(in.Rates))
			for i := range in.Counts {
				in.Counts[i] = float64(rng.IntN(4)) // some 0
			}
		}
		moved := in
		moved.Rates = slices.Clone(in.Rates)
		for i := range moved.Rates {
			moved.Rates[i] *= 1 + 1e-3*(2*rng.Float64()-1)
		}
		twice := in
		twice.Budget *= 2
		bad := make([]float64, len(in.Rates))
		for i := range bad {
			bad[i] = []float64{0, -1, math.NaN(), math.Inf(1), 1e300}[i%5]
		}
		for _, tc := range allPolicies {
			want, err := tc.p.Allocate(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			near, err := tc.p.Allocate(moved, nil)
			if err != nil {
				t.Fatal(err)
			}
			far, err := tc.p.Allocate(twice, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range []struct {
				name  string
				guess []float64
			}{
				{"itself", slices.Clone(want.Rates)},
				{"moved rates' plan", near.Rates},
				{"twice the budget's plan", far.Rates},
				{"too short", near.Rates[:len(near.Rates)/2]},
				{"unusable", bad},
			} {
				gin := in
				gin.Guess = g.guess
				got, err := tc.p.Allocate(gin, nil)
				if err != nil {
					t.Fatal(err)
				}
				prec := 1e-12
				if _, ok := tc.p.(OlstonPandey); ok {
					prec = 1e-7
				}
				tol := prec * in.Budget / float64(len(in.Rates))
				for i, f := range got.Rates {
					if d := math.Abs(f - want.Rates[i]); d > tol && d > prec*want.Rates[i] {
						t.Errorf("%s case %d, guess %s: page %d rate %v, %v without a guess", tc.name, c, g.name, i, f, want.Rates[i])
						break
					}
				}
			}
		}
	}
}

// TestDegenerateInputs pins what each policy does when no page can use
// the budget, and when there is none.
func TestDegenerateInputs(t *testing.T) {
	still := Input{Rates: []float64{0, 0, 0}, Budget: 3}
	for _, tc := range allPolicies {
		plan, err := tc.p.Allocate(still, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Policies that plan from rates leave the budget unused; the
		// rate-blind ones (and proportional, falling back) share it.
		want := 0.0
		switch tc.p.(type) {
		case Uniform, Proportional, LambdaCrawlApprox:
			want = 3
		}
		if got := plan.Spent(); got != want {
			t.Errorf("%s with no changes: spent %v, want %v", tc.name, got, want)
		}
		zero, _ := tc.p.Allocate(Input{Rates: []float64{1, 2}, Budget: 0}, nil)
		if zero.Spent() != 0 {
			t.Errorf("%s with no budget: spent %v", tc.name, zero.Spent())
		}
	}
	// Zero weights: those pages get nothing from weighted policies.
	in := Input{Rates: []float64{1, 2, 3}, Weights: []float64{1, 0, 2}, Budget: 3}
	for _, p := range []Policy{ChoFreshness{}, ChoAge{}, OlstonPandey{}, Azar{}, LambdaCrawl{}, LambdaCrawlApprox{}} {
		plan, _ := p.Allocate(in, nil)
		if plan.Rates[1] != 0 {
			t.Errorf("%T gives an unrequested page %v syncs per day", p, plan.Rates[1])
		}
	}
	// The destination slice is reused when long enough.
	dst := make([]float64, 8)
	plan, _ := Uniform{}.Allocate(Input{Rates: []float64{1, 2}, Budget: 2}, dst)
	if &plan.Rates[0] != &dst[0] {
		t.Error("Allocate did not reuse dst")
	}
}

// TestInputCheck checks the errors a caller sees.
func TestInputCheck(t *testing.T) {
	for _, c := range []struct {
		in   Input
		want string
	}{
		{Input{Budget: 1}, "no pages"},
		{Input{Rates: []float64{1, -1}, Budget: 1}, "page 1: change rate -1"},
		{Input{Rates: []float64{math.NaN()}, Budget: 1}, "page 0: change rate NaN"},
		{Input{Rates: []float64{math.Inf(1)}, Budget: 1}, "page 0: change rate +Inf"},
		{Input{Rates: []float64{1}, Weights: []float64{1, 2}, Budget: 1}, "2 weights for 1 pages"},
		{Input{Rates: []float64{1}, Weights: []float64{-2}, Budget: 1}, "page 0: weight -2"},
		{Input{Rates: []float64{1}, Budget: -1}, "budget -1"},
		{Input{Rates: []float64{1}, Budget: math.Inf(1)}, "budget +Inf"},
	} {
		for _, tc := range allPolicies {
			_, err := tc.p.Allocate(c.in, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %+v gave %v, want an error containing %q", tc.name, c.in, err, c.want)
			}
		}
	}
}

// FuzzAllocate feeds every policy arbitrary rates, weights and budgets: it
// must not panic, must give finite non-negative rates, and must spend the
// budget unless it documents why not.
func FuzzAllocate(f *testing.F) {
	f.Add(1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 5.0)
	f.Add(0.0, 0.0, 1e-300, 0.0, 1.0, 1e300, 1e-9)
	f.Add(1e9, 1e-9, 5.0, 1e-9, 1e9, 0.5, 1e6)
	f.Fuzz(func(t *testing.T, r0, r1, r2, w0, w1, w2, budget float64) {
		in := Input{Rates: []float64{r0, r1, r2}, Weights: []float64{w0, w1, w2}, Budget: budget}
		valid := in.Check() == nil
		for _, tc := range allPolicies {
			plan, err := tc.p.Allocate(in, nil)
			if (err == nil) != valid {
				t.Fatalf("%s: error %v for input valid=%v", tc.name, err, valid)
			}
			if err != nil {
				continue
			}
			for _, x := range plan.Rates {
				if !(x >= 0) || math.IsInf(x, 0) {
					t.Fatalf("%s: rates %v for %+v", tc.name, plan.Rates, in)
				}
			}
			if s := plan.Spent(); s > budget*(1+1e-12) || (s < budget*(1-1e-12) && s != 0) {
				t.Fatalf("%s: spent %v of %v for %+v (%v)", tc.name, s, budget, in, plan.Rates)
			}
		}
	})
}
