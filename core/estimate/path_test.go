package estimate_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

func fill(n int, rate float64) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = rate
	}
	return r
}

// TestPathsFixedIntervalConverges checks that with a fixed crawl interval
// the MLE's mean estimate over many pages matches, at every epoch, its exact
// expectation (a sum over the binomial distribution of the changes seen,
// edge substitutes included) within zTolerance standard errors, and that this
// expectation converges to the true rate as epochs grow.
func TestPathsFixedIntervalConverges(t *testing.T) {
	const rate, interval, pages, epochs = 1.0, 0.5, 2000, 100
	p := &estimate.Paths{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: interval}, Epochs: epochs}
	s, err := p.Run(fill(pages, rate), rand.New(rand.NewPCG(11, 12)))
	if err != nil {
		t.Fatal(err)
	}
	prevBias := math.Inf(1)
	for _, e := range []int{0, 1, 4, 9, 24, 49, 99} {
		exact := exactMean(estimate.MLE{}, e+1, interval, rate)
		se := s.SD[e] / math.Sqrt(pages)
		if math.Abs(s.Mean[e]-exact) > zTolerance*se {
			t.Errorf("epoch %d: mean %v ± %v, exact %v", e+1, s.Mean[e], se, exact)
		}
		if s.Interval[e] != interval {
			t.Errorf("epoch %d: interval %v", e+1, s.Interval[e])
		}
		bias := math.Abs(exact - rate)
		if e >= 4 && !(bias < prevBias) {
			t.Errorf("epoch %d: |E[λ̂] − λ| = %v did not shrink from %v", e+1, bias, prevBias)
		}
		prevBias = bias
	}
	if prevBias > 0.01*rate {
		t.Errorf("after %d epochs |E[λ̂] − λ| = %v", epochs, prevBias)
	}
	// After one crawl both outcomes give 1/I: nothing changed → 1/Σt,
	// a change → 1/min t.
	if s.Mean[0] != 1/interval || s.SD[0] != 0 {
		t.Errorf("epoch 1: mean %v, SD %v, want exactly 1/I", s.Mean[0], s.SD[0])
	}
	// The edge shares are the binomial's end probabilities, p^n and (1−p)^n.
	pc := -math.Expm1(-rate * interval)
	for _, e := range []int{0, 2} {
		n := float64(e + 1)
		for _, c := range []struct {
			got, want float64
		}{{s.AllChanged[e], math.Pow(pc, n)}, {s.NoChange[e], math.Pow(1-pc, n)}} {
			se := math.Sqrt(c.want * (1 - c.want) / pages)
			if math.Abs(c.got-c.want) > zTolerance*se {
				t.Errorf("epoch %d: edge share %v, want %v ± %v", e+1, c.got, c.want, se)
			}
		}
	}
}

// TestPathsSequentialEdges follows §4.1's schedule (next interval 80% of
// Δ̂) through both edge cases, where it is deterministic: a page crawled far
// too rarely changes in every interval, the MLE answers Δ̂ = min t, and the
// interval shrinks by 0.8 each epoch; a page crawled far too often never
// changes, Δ̂ = Σt, and each interval is 0.8 of the time observed so far.
func TestPathsSequentialEdges(t *testing.T) {
	p := &estimate.Paths{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 700 * estimate.Hour, Fraction: 0.8}, Epochs: 8}
	steps, err := p.Page(1e6, rand.New(rand.NewPCG(1, 1)), nil) // changes in every interval
	if err != nil {
		t.Fatal(err)
	}
	want := 700 * estimate.Hour
	for e, st := range steps {
		if st.Edge != estimate.AllChanged || !st.Changed || math.Abs(st.Interval-want) > 1e-12*want || st.Rate != 1/st.Interval {
			t.Fatalf("epoch %d: %+v, want interval %v", e+1, st, want)
		}
		want *= 0.8
	}
	p.Schedule.Initial = estimate.Hour
	steps, _ = p.Page(0, rand.New(rand.NewPCG(1, 1)), steps) // never changes
	total := 0.0
	for e, st := range steps {
		if e > 0 && math.Abs(st.Interval-0.8*total) > 1e-12*total {
			t.Fatalf("epoch %d: interval %v, want 0.8·%v", e+1, st.Interval, total)
		}
		total += st.Interval
		if st.Edge != estimate.NoChange || st.Changed || math.Abs(st.Rate-1/total) > 1e-12/total {
			t.Fatalf("epoch %d: %+v, want rate 1/%v", e+1, st, total)
		}
	}
	// With the pseudo-intervals there is no edge case, and with Initial 0
	// the first interval comes from the pseudo-intervals alone (§5 step 1).
	p = &estimate.Paths{Estimator: estimate.PseudoMLE{}, Schedule: estimate.Schedule{Fraction: 1}, Epochs: 30}
	steps, err = p.Page(1, rand.New(rand.NewPCG(2, 2)), steps)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(steps[0].Interval-1/(2*math.Ln2)) > 1e-15 {
		t.Errorf("first interval %v, want 1/(2 ln 2)", steps[0].Interval)
	}
	for e, st := range steps {
		if st.Edge != estimate.None {
			t.Errorf("epoch %d: edge %v with pseudo-intervals", e+1, st.Edge)
		}
	}
}

// constant is a stand-in estimator that always answers the same rate.
type constant float64

func (c constant) Estimate(*estimate.History) estimate.Result {
	return estimate.Result{Rate: float64(c)}
}

// TestPathsSummary checks the aggregate measures on a hand case.
func TestPathsSummary(t *testing.T) {
	p := &estimate.Paths{Estimator: constant(2), Schedule: estimate.Schedule{Initial: 1, Fraction: 0.8}, Epochs: 3, Pool: 2}
	s, err := p.Run([]float64{1, 1.5, 3}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	// |2 − λ| = 1, 0.5, 1: median 1. |1/2 − 1/λ| = 0.5, 1/6, 1/6: median 1/6.
	// The second interval is 0.8/2.
	want := estimate.Summary{
		Pages: 3, Mean: []float64{2, 2, 2}, SD: []float64{0, 0, 0}, MAD: []float64{1, 1, 1},
		MADPeriod: []float64{1.0 / 6, 1.0 / 6, 1.0 / 6}, NoChange: []float64{0, 0, 0}, AllChanged: []float64{0, 0, 0},
		Interval: []float64{1, 0.4, 0.4}, PooledMAD: 1, PooledMADPeriod: 1.0 / 6,
	}
	near := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) <= 1e-15 })
	}
	if s.Pages != 3 || !near(s.Mean, want.Mean) || !near(s.SD, want.SD) || !near(s.MAD, want.MAD) ||
		!near(s.MADPeriod, want.MADPeriod) || !near(s.NoChange, want.NoChange) || !near(s.AllChanged, want.AllChanged) ||
		!near(s.Interval, want.Interval) || !near([]float64{s.PooledMAD, s.PooledMADPeriod}, []float64{1, 1.0 / 6}) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	// A zero estimate asks for an infinite interval: the clamp's Max.
	p = &estimate.Paths{Estimator: constant(0), Schedule: estimate.Schedule{Initial: 1, Fraction: 0.8, Max: 30}, Epochs: 2}
	s, _ = p.Run([]float64{1, 2, 0}, rand.New(rand.NewPCG(1, 1)))
	if s.Interval[1] != 30 || !math.IsInf(s.MADPeriod[0], 1) || s.MAD[0] != 1 || !math.IsNaN(s.PooledMAD) {
		t.Errorf("zero estimates: %+v", s)
	}
}

// TestPathsDeterministic checks that a seed fixes the result, that Page and
// Run agree, and that the posterior's tracker gives the batch estimates.
func TestPathsDeterministic(t *testing.T) {
	rates := []float64{0.1, 1, 3, 0.5, 10}
	p := &estimate.Paths{Estimator: estimate.PseudoMLE{Changed: 2, Unchanged: 5}, Schedule: estimate.Schedule{Initial: 1, Fraction: 0.8}, Epochs: 12, Pool: 5}
	a, _ := p.Run(rates, rand.New(rand.NewPCG(5, 5)))
	b, _ := p.Run(rates, rand.New(rand.NewPCG(5, 5)))
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different summaries")
	}
	one, _ := p.Run(rates[1:2], rand.New(rand.NewPCG(6, 6)))
	steps, _ := p.Page(rates[1], rand.New(rand.NewPCG(6, 6)), nil)
	for e, st := range steps {
		if one.Mean[e] != st.Rate || one.Interval[e] != st.Interval {
			t.Fatalf("epoch %d: Run %v after %v, Page %+v", e+1, one.Mean[e], one.Interval[e], st)
		}
	}

	prior := estimate.Dist{Edges: estimate.LogEdges(estimate.Hour, 100, 60), Mass: make([]float64, 60)}
	for k := range prior.Mass {
		prior.Mass[k] = 1 + float64(k%7)
	}
	pm, _ := estimate.NewPosteriorMean(prior)
	type batchOnly struct{ estimate.Estimator } // hides NewTracker
	p.Estimator = pm
	tracked, _ := p.Page(1, rand.New(rand.NewPCG(7, 7)), nil)
	p.Estimator = batchOnly{pm}
	batch, _ := p.Page(1, rand.New(rand.NewPCG(7, 7)), nil)
	for e := range tracked {
		if tracked[e].Changed != batch[e].Changed || math.Abs(tracked[e].Rate-batch[e].Rate) > 1e-12*batch[e].Rate {
			t.Fatalf("epoch %d: tracker %+v, batch %+v", e+1, tracked[e], batch[e])
		}
	}
}

func TestPathsErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for name, p := range map[string]estimate.Paths{
		"no estimator":           {Schedule: estimate.Schedule{Initial: 1}, Epochs: 1},
		"no epochs":              {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 1}},
		"fixed without interval": {Estimator: estimate.PseudoMLE{}, Epochs: 1},
		"MLE without interval":   {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Fraction: 0.8}, Epochs: 1},
		"initial out of range":   {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 40, Max: 30}, Epochs: 1},
		"zero initial interval":  {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: -1}, Epochs: 1},
		"clamps reversed":        {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 1, Min: 2, Max: 1}, Epochs: 1},
		"negative fraction":      {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 1, Fraction: -1}, Epochs: 1},
		"NaN fraction":           {Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 1, Fraction: math.NaN()}, Epochs: 1},
	} {
		if _, err := p.Run([]float64{1}, rng); err == nil {
			t.Errorf("%s: Run accepted %+v", name, p)
		}
		if _, err := p.Page(1, rng, nil); err == nil {
			t.Errorf("%s: Page accepted %+v", name, p)
		}
	}
	p := &estimate.Paths{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 1}, Epochs: 1}
	for _, rates := range [][]float64{nil, {-1}, {math.NaN()}, {math.Inf(1)}} {
		if _, err := p.Run(rates, rng); err == nil {
			t.Errorf("Run accepted rates %v", rates)
		}
	}
	if _, err := p.Page(-1, rng, nil); err == nil {
		t.Error("Page accepted a negative rate")
	}
}
