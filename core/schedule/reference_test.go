package schedule

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

var updateReference = flag.Bool("update-reference", false, "rewrite testdata/solver-reference.json from today's solvers (natively on amd64; only when the plans are meant to change)")

// referencePolicies are the allocations that solve for a Lagrange
// multiplier, whose plans testdata/solver-reference.json records.
var referencePolicies = []struct {
	name string
	p    Policy
}{{"cho-freshness", ChoFreshness{}}, {"cho-age", ChoAge{}}, {"lambdacrawl", LambdaCrawl{}}}

// referenceInputs draws the inputs of TestSolversMatchReference from a
// fixed seed, with arithmetic alone (see spread): rate sets of 1 to 40
// entries with zero rates, tiny ones (down to 1e-12 a day) and huge ones
// (up to 1e12, far beyond any budget), with and without weights (some 0)
// and counts (some 0), and budgets from a millionth of a sync per page per
// day, which starves all but the slowest pages, to a hundred; then sets
// shaped like a long quiet log's classes (rates 1e-5 to 0.3 a cycle, a
// tenth of the pages a cycle).
func referenceInputs() []Input {
	rng := rand.New(rand.NewPCG(2000, 2003))
	var ins []Input
	for c := range 48 {
		n := 1 + rng.IntN(40)
		in := Input{Rates: make([]float64, n)}
		for i := range in.Rates {
			switch rng.IntN(10) {
			case 0:
			case 1:
				in.Rates[i] = spread(rng, 1e6, 1e12)
			case 2:
				in.Rates[i] = spread(rng, 1e-12, 1e-6)
			default:
				in.Rates[i] = spread(rng, 1e-4, 100)
			}
		}
		if c%2 == 1 {
			in.Weights = make([]float64, n)
			for i := range in.Weights {
				if rng.IntN(8) > 0 {
					in.Weights[i] = spread(rng, 0.1, 10)
				}
			}
		}
		if c%3 == 2 {
			in.Counts = make([]float64, n)
			for i := range in.Counts {
				in.Counts[i] = float64(rng.IntN(5))
			}
			in.Counts[0]++
		}
		in.Budget = in.pages() * spread(rng, 1e-6, 100)
		ins = append(ins, in)
	}
	for range 8 {
		n := 50 + rng.IntN(250)
		in := Input{Rates: make([]float64, n), Counts: make([]float64, n)}
		for i := range in.Rates {
			in.Counts[i] = 1
			if rng.IntN(3) > 0 {
				in.Rates[i] = spread(rng, 1e-5, 0.3)
			}
		}
		in.Counts[0] = float64(rng.IntN(500))
		in.Budget = math.Round(in.pages() / 10)
		ins = append(ins, in)
	}
	return ins
}

// adjacent returns adjacent positive floats a < b with above(a) and not
// above(b), for a predicate true at lo and false at hi that flips once in
// between: a bisection on the bit patterns, which order positive floats as
// their values, so it ends on neighbours whatever the scale.
func adjacent(lo, hi float64, above func(float64) bool) (a, b float64) {
	l, h := math.Float64bits(lo), math.Float64bits(hi)
	for h-l > 1 {
		m := l + (h-l)/2
		if above(math.Float64frombits(m)) {
			l = m
		} else {
			h = m
		}
	}
	return math.Float64frombits(l), math.Float64frombits(h)
}

// bisected is a plan made the slow, sure way, as a check on the solvers:
// rate(i, ν) is entry i's rate at multiplier ν, each found by bisection to
// neighbouring floats, and ν is bisected to neighbours a < b with S(a) ≥
// B > S(b), S(ν) = Σ c_i rate(i, ν); the plan blends the two ends to spend
// B, which meets every Lagrange condition to an ulp of ν (see
// spendBudget). nil rate means entry i takes no syncs.
func bisected(in Input, rate func(i int, nu float64) float64) []float64 {
	n := len(in.Rates)
	f := make([]float64, n)
	spend := func(nu float64, f []float64) float64 {
		var s float64
		for i := range in.Rates {
			f[i] = 0
			if in.Rates[i] > 0 && in.weight(i) > 0 {
				f[i] = rate(i, nu)
			}
			s += in.count(i) * f[i]
		}
		return s
	}
	if in.Budget == 0 || spend(math.SmallestNonzeroFloat64, f) < in.Budget {
		clear(f)
		return f
	}
	a, b := adjacent(math.SmallestNonzeroFloat64, math.MaxFloat64, func(nu float64) bool { return spend(nu, f) >= in.Budget })
	fb := make([]float64, n)
	sa, sb := spend(a, f), spend(b, fb)
	theta := (in.Budget - sb) / (sa - sb)
	for i := range f {
		f[i] = theta*f[i] + (1-theta)*fb[i]
	}
	return f
}

// bisectedFreshness is ChoFreshness's plan by bisection: f = λ/x with
// h(x) = λν/μ (0 when λν/μ ≥ 1), x bisected on h below h(1), where h is
// well conditioned, and on ψ(x) = x − ln(1 + x) = −ln(1 − y) above.
func bisectedFreshness(in Input) []float64 {
	return bisected(in, func(i int, nu float64) float64 {
		r := in.Rates[i]
		y := r * nu / in.weight(i)
		if y >= 1 {
			return 0
		}
		var x float64
		if y < gain(1) {
			x, _ = adjacent(math.SmallestNonzeroFloat64, 1, func(x float64) bool { return gain(x) < y })
		} else {
			c := -math.Log1p(-y)
			x, _ = adjacent(1, 1e300, func(x float64) bool { return x-math.Log1p(x) < c })
		}
		return r / x
	})
}

// bisectedAge is ChoAge's plan by bisection: f = λ/x with k(x) = νλ²/μ.
func bisectedAge(in Input) []float64 {
	return bisected(in, func(i int, nu float64) float64 {
		r := in.Rates[i]
		c := nu * r * r / in.weight(i)
		x, _ := adjacent(math.SmallestNonzeroFloat64, 1e300, func(x float64) bool { return ageDrop(x) < c })
		return r / x
	})
}

// bisectedLambdaCrawl is LambdaCrawl's plan by bisection: ρ with ρ(ρ + Δ)
// = μΔ/ν.
func bisectedLambdaCrawl(in Input) []float64 {
	return bisected(in, func(i int, nu float64) float64 {
		d := in.Rates[i]
		q := in.weight(i) * d / nu
		rho, _ := adjacent(math.SmallestNonzeroFloat64, math.MaxFloat64, func(rho float64) bool { return rho*(rho+d) < q })
		return rho
	})
}

// oldOffBisection lists the reference plans that are themselves off the
// bisection's by more than 1e-12, by policy and input: the solver that
// recorded them stopped on a single multiplier where one page's rate moves
// by far more than an ulp per ulp of ν (input 29's entry 5, by 5.9e-8).
var oldOffBisection = map[string][]int{"cho-freshness": {29}}

// TestSolversMatchReference checks the multiplier solvers' plans on
// referenceInputs, without a guess and with the guess a Refresher gives
// (the plan for rates moved by up to 0.1%): every rate must agree to 1e-12
// of itself or of the mean rate B/Σc with the plan made the slow, sure way
// (bisected), and as closely with testdata/solver-reference.json, the
// plans the solvers made before they were made faster, except where that
// plan is itself off the bisection's (oldOffBisection, which must list
// exactly those).
func TestSolversMatchReference(t *testing.T) {
	path := filepath.Join("testdata", "solver-reference.json")
	ins := referenceInputs()
	if *updateReference {
		if runtime.GOARCH != "amd64" {
			t.Fatal("-update-reference must run natively on amd64")
		}
		ref := make([]map[string][]float64, len(ins))
		for k, in := range ins {
			ref[k] = map[string][]float64{}
			for _, rp := range referencePolicies {
				plan, err := rp.p.Allocate(in, nil)
				if err != nil {
					t.Fatal(err)
				}
				ref[k][rp.name] = plan.Rates
			}
		}
		b, err := json.Marshal(ref)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ref []map[string][]float64
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref) != len(ins) {
		t.Fatalf("%d reference plans for %d inputs", len(ref), len(ins))
	}
	rng := rand.New(rand.NewPCG(5, 5))
	bis := map[string]func(Input) []float64{"cho-freshness": bisectedFreshness, "cho-age": bisectedAge, "lambdacrawl": bisectedLambdaCrawl}
	// diff returns the largest difference of got from want, relative to
	// the rate or the mean rate, and its entry.
	diff := func(got, want []float64, mean float64) (float64, int) {
		var w float64
		at := 0
		for i, f := range got {
			if d := math.Abs(f-want[i]) / math.Max(want[i], mean); d > w {
				w, at = d, i
			}
		}
		return w, at
	}
	worst := map[string]float64{}
	for k, in := range ins {
		moved := in
		moved.Rates = slices.Clone(in.Rates)
		for i := range moved.Rates {
			moved.Rates[i] *= 1 + 1e-3*(2*rng.Float64()-1)
		}
		mean := in.Budget / in.pages()
		for _, rp := range referencePolicies {
			old, sure := ref[k][rp.name], bis[rp.name](in)
			oldOff, at := diff(old, sure, mean)
			if listed := slices.Contains(oldOffBisection[rp.name], k); listed != (oldOff > 1e-12) {
				t.Errorf("%s, input %d: the reference plan is off the bisection's by %.3g at entry %d (%.17g, bisection %.17g); oldOffBisection lists it: %v", rp.name, k, oldOff, at, old[at], sure[at], listed)
			}
			near, err := rp.p.Allocate(moved, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, guess := range [][]float64{nil, near.Rates} {
				gin := in
				gin.Guess = guess
				got, err := rp.p.Allocate(gin, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []struct {
					what string
					want []float64
				}{{"the bisection", sure}, {"the reference", old}} {
					if c.what == "the reference" && oldOff > 1e-12 {
						continue
					}
					d, at := diff(got.Rates, c.want, mean)
					key := fmt.Sprintf("%s, guess %v, against %s", rp.name, guess != nil, c.what)
					worst[key] = math.Max(worst[key], d)
					if d > 1e-12 {
						t.Errorf("%s, input %d (guess %v): entry %d (λ = %g) gets %.17g, %s %.17g (off by %.3g)", rp.name, k, guess != nil, at, in.Rates[at], got.Rates[at], c.what, c.want[at], d)
					}
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(worst)) {
		t.Logf("%s: largest difference %.3g of a rate or the mean rate", k, worst[k])
	}
}

// TestInvertGainTable checks gainTable, piece by piece, against h⁻¹ found
// by bisection to neighbouring floats: at 2,000 points of each piece of s
// = √(2y), its ends included, x must be within 2e-15 of itself (a few
// ulps); and on both sides of y = 1/2, where invertGain passes from the
// table to Newton's method, the two agree as closely, and invertGain is as
// close above it, up to y = 0.9 (beyond, h pins x less tightly).
func TestInvertGainTable(t *testing.T) {
	exact := func(y float64) float64 {
		x, _ := adjacent(math.SmallestNonzeroFloat64, 40, func(x float64) bool { return gain(x) < y })
		return x
	}
	const per = 2000
	for j := range gainPieces {
		var worst, at float64
		for k := range per + 1 {
			s := (float64(j) + float64(k)/per) / gainPieces
			y := s * s / 2
			if y == 0 {
				continue
			}
			if d := relDiff(invertGain(y, 0), exact(y)); d > worst {
				worst, at = d, y
			}
		}
		if worst > 2e-15 {
			t.Errorf("piece %d: h⁻¹(%.17g) off by %.3g of itself", j, at, worst)
		}
	}
	for _, y := range []float64{math.Nextafter(0.5, 0), 0.5, math.Nextafter(0.5, 1)} {
		if d := relDiff(invertGain(y, 0), newtonGain(y, 0)); d > 2e-15 {
			t.Errorf("h⁻¹(%.17g): the table and Newton's method differ by %.3g", y, d)
		}
	}
	for y := 0.5; y <= 0.9; y += 1.0 / 1024 {
		if d := relDiff(invertGain(y, 0), exact(y)); d > 2e-15 {
			t.Errorf("h⁻¹(%.17g) off by %.3g of itself", y, d)
		}
	}
}
