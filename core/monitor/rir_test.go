package monitor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRIRByHand(t *testing.T) {
	in := &Instance{T: 3, Times: []float64{1, 2, 3}, Weight: []float64{2, 1},
		Rho: [][]float64{{0.1, 0.2, 0.3}, {0.5, 0, 0.5}}}
	a := Allocation{{1, 2}, {0}}
	// (2·(0.2 + 0.3) + 1·0.5) / (2·0.6 + 1·1.0)
	if got, want := RIR(in, a), 1.5/2.2; math.Abs(got-want) > 1e-15 {
		t.Errorf("RIR = %v, want %v", got, want)
	}
	if got := RIR(in, Allocation{{0, 1, 2}, {0, 2}}); got != 1 {
		t.Errorf("RIR monitoring every instant with ρ > 0 = %v, want 1", got)
	}
	if got := MonitoringChangeRatio(in, 8); math.Abs(got-5) > 1e-15 {
		t.Errorf("monitoring-to-change ratio of 8 tasks over 1.6 changes = %v, want 5", got)
	}
	quiet := &Instance{T: 1, Times: []float64{1}, Weight: []float64{1}, Rho: [][]float64{{0}}}
	if got := RIR(quiet, Allocation{{0}}); !math.IsNaN(got) {
		t.Errorf("RIR with no change expected = %v, want NaN", got)
	}
}

// bruteReturned enumerates the coins of two consecutive epochs and returns
// the expected number of the first epoch's changes that a monitor returns
// under the complete-loss rule, monitors at the same times every epoch.
func bruteReturned(rho, times, ms []float64, T float64) float64 {
	p := len(rho)
	type event struct {
		t      float64
		change bool
		j      int // instant of a change, in the first epoch when j < p
	}
	var want float64
	for mask := 0; mask < 1<<(2*p); mask++ {
		prob := 1.0
		var evs []event
		for k := range 2 * p {
			r := rho[k%p]
			if mask&(1<<k) != 0 {
				prob *= r
				evs = append(evs, event{float64(k/p)*T + times[k%p], true, k})
			} else {
				prob *= 1 - r
			}
		}
		if prob == 0 {
			continue
		}
		for e := range 2 {
			for _, m := range ms {
				evs = append(evs, event{t: float64(e)*T + m})
			}
		}
		slices.SortStableFunc(evs, func(a, b event) int {
			switch {
			case a.t < b.t:
				return -1
			case a.t > b.t:
				return 1
			case a.change && !b.change: // a monitor follows an update at its time
				return -1
			case !a.change && b.change:
				return 1
			}
			return 0
		})
		pending := -1
		got := 0
		for _, ev := range evs {
			if ev.change {
				pending = ev.j
			} else {
				if pending >= 0 && pending < p {
					got++
				}
				pending = -1
			}
		}
		want += prob * float64(got)
	}
	return want
}

// CompleteLossRIR's per-page expectation equals the enumeration of every
// pattern of changes over an epoch and the next, for monitors at instants,
// between them, before the first, at T and none.
func TestCompleteLossMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for trial := range 300 {
		p := 1 + rng.IntN(5)
		T := 1.0
		times := UniformTimes(T, p)
		rho := make([]float64, p)
		for j := range rho {
			rho[j] = []float64{0, 0.2, 0.5, 0.7, 1}[rng.IntN(5)]
		}
		var ms []float64
		for range rng.IntN(4) {
			switch rng.IntN(3) {
			case 0:
				ms = append(ms, times[rng.IntN(p)]) // at an instant
			case 1:
				ms = append(ms, float64(rng.IntN(p+1))/float64(p)) // at 0, an instant or T
			default:
				ms = append(ms, rng.Float64()*T)
			}
		}
		slices.Sort(ms)
		got := returned(rho, times, ms)
		want := bruteReturned(rho, times, ms, T)
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: ρ %v at %v, monitors %v: returned %v, enumeration %v", trial, rho, times, ms, got, want)
		}
	}
}

// Returned information is at least what RIR counts, equal when every
// instant with ρ > 0 is monitored, and CompleteLossRIR refuses monitoring
// times out of order or outside the epoch.
func TestCompleteLossAtLeastRIR(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		in := randInstance(rng, 4, 12)
		for _, d := range Descriptors() {
			a, err := d.Policy.Allocate(in, rng.IntN(48), rng)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := CompleteLossRIR(in, a.Times(in))
			if err != nil {
				t.Fatal(err)
			}
			if r := RIR(in, a); cl < r-1e-12 && !math.IsNaN(r) {
				t.Fatalf("%s: complete-loss RIR %v below RIR %v", d.ID, cl, r)
			}
		}
	}
	in := &Instance{T: 3, Times: []float64{1, 2, 3}, Weight: []float64{1}, Rho: [][]float64{{0.3, 0, 0.6}}}
	if got, err := CompleteLossRIR(in, [][]float64{{1, 3}}); err != nil || math.Abs(got-1) > 1e-15 {
		t.Errorf("every instant with a change monitored: %v, %v; want 1", got, err)
	}
	for _, ms := range [][]float64{{2, 1}, {-1}, {3.5}, {math.NaN()}} {
		if _, err := CompleteLossRIR(in, [][]float64{ms}); err == nil {
			t.Errorf("monitors %v accepted", ms)
		}
	}
	if _, err := CompleteLossRIR(in, nil); err == nil {
		t.Error("no rows of monitors accepted")
	}
}

// exactInstance builds pages whose weighted-uniform and
// weighted-proportional shares are whole numbers: weights w, change
// frequencies proportional to m, each page's ρ the same at all its
// instants (Appendix A's assumption), the budget C = ΣW·Σ(W·m) and as many
// instants, so no page is capped.
func exactInstance(w, m []float64) (*Instance, int) {
	var sw, swm float64
	for i := range w {
		sw += w[i]
		swm += w[i] * m[i]
	}
	c := int(sw * swm)
	in := &Instance{T: 1, Times: UniformTimes(1, c), Weight: w, Rho: make([][]float64, len(w))}
	for i := range w {
		in.Rho[i] = make([]float64, c)
		for j := range c {
			in.Rho[i][j] = m[i] / 8
		}
	}
	return in, c
}

// ratioOf returns RIR(num)/RIR(den) on in with budget c.
func ratioOf(t *testing.T, in *Instance, c int, num, den Policy) float64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(8, 8))
	a, err := num.Allocate(in, c, rng)
	if err != nil {
		t.Fatal(err)
	}
	b, err := den.Allocate(in, c, rng)
	if err != nil {
		t.Fatal(err)
	}
	return RIR(in, a) / RIR(in, b)
}

// Appendix A: under uniform update probabilities, RIR(weighted
// proportional)/RIR(weighted uniform) is AppendixARatio on random
// instances whose shares are exact, and so is the unweighted pair's on
// equal weights.
func TestAppendixARatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		n := 2 + rng.IntN(4)
		w, m, ones := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			w[i], m[i], ones[i] = float64(1+rng.IntN(3)), float64(1+rng.IntN(4)), 1
		}
		in, c := exactInstance(w, m)
		lam := make([]float64, n)
		for i := range lam {
			lam[i] = in.Lambda(i)
		}
		got := ratioOf(t, in, c, Share{Weighted: true, Proportional: true}, Share{Weighted: true})
		if want := AppendixARatio(w, lam); math.Abs(got/want-1) > 1e-12 {
			t.Fatalf("W %v, λ ∝ %v: RIR ratio %v, AppendixARatio %v", w, m, got, want)
		}
		in, c = exactInstance(ones, m)
		got = ratioOf(t, in, c, Share{Proportional: true}, Share{})
		want := AppendixARatio(ones, lam)
		if math.Abs(got/want-1) > 1e-12 {
			t.Fatalf("unweighted, λ ∝ %v: RIR ratio %v, AppendixARatio %v", m, got, want)
		}
		if want < 1-1e-15 {
			t.Fatalf("unweighted, λ ∝ %v: proportional loses to uniform (%v)", m, want)
		}
	}
}

// The ratio printed in Appendix A, Σλ·ΣW/Σ(W·λ), is not what the policies
// achieve: three equally weighted pages changing 1, 2 and 3 times give
// 3·14/36 = 7/6, not 3. And with weights, proportional can lose: a page
// of weight 4 changing once and one of weight 1 changing twice give
// 100/108 < 1, and weighted uniform returns more.
func TestAppendixAPrintedRatioAndCounterexample(t *testing.T) {
	in, c := exactInstance([]float64{1, 1, 1}, []float64{1, 2, 3})
	got := ratioOf(t, in, c, Share{Weighted: true, Proportional: true}, Share{Weighted: true})
	if math.Abs(got-7.0/6) > 1e-12 {
		t.Errorf("λ ∝ 1, 2, 3: ratio %v, want 7/6", got)
	}
	lam := []float64{in.Lambda(0), in.Lambda(1), in.Lambda(2)}
	printed := (lam[0] + lam[1] + lam[2]) * 3 / (lam[0] + lam[1] + lam[2])
	if math.Abs(printed-got) < 1 {
		t.Errorf("the printed ratio %v is close to the achieved %v", printed, got)
	}

	in, c = exactInstance([]float64{4, 1}, []float64{1, 2})
	got = ratioOf(t, in, c, Share{Weighted: true, Proportional: true}, Share{Weighted: true})
	if math.Abs(got-100.0/108) > 1e-12 {
		t.Errorf("W 4, 1 and λ ∝ 1, 2: ratio %v, want 100/108", got)
	}
	if w := AppendixARatio([]float64{4, 1}, []float64{1, 2}); math.Abs(w-100.0/108) > 1e-15 {
		t.Errorf("AppendixARatio = %v, want 100/108", w)
	}
}

// When weights and change frequencies are ordered alike, weighted
// proportional never loses (the covariance argument of AppendixARatio).
func TestAppendixAOrderedAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for range 5000 {
		n := 1 + rng.IntN(8)
		w, lam := make([]float64, n), make([]float64, n)
		for i := range n {
			w[i], lam[i] = rng.Float64()*10, rng.Float64()*10
		}
		slices.Sort(w)
		slices.Sort(lam)
		if r := AppendixARatio(w, lam); r < 1-1e-12 {
			t.Fatalf("W %v, λ %v ordered alike: ratio %v < 1", w, lam, r)
		}
	}
}
