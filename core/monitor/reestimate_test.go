package monitor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// The paper's example, by hand under each reading: "if a page was updated
// five times in the last 10 monitoring instants, the probability of
// expecting a change at the next update instant is simply set to 0.5".
func TestReestimateByHand(t *testing.T) {
	type obs struct {
		j       int
		changed bool
	}
	// seq returns n observations at the instants js in turn, the first c
	// of them changes.
	seq := func(n, c int, js ...int) []obs {
		out := make([]obs, n)
		for k := range out {
			out[k] = obs{js[k%len(js)], k < c}
		}
		return out
	}
	flat := []float64{0.2, 0.2, 0.2, 0.2}
	for _, tc := range []struct {
		name    string
		reading string
		window  int
		prior   []float64
		obs     []obs
		want    []float64
	}{
		{"instant: 5 of its 10", ReestimateInstant, 10, flat, seq(10, 5, 1), []float64{0.2, 0.5, 0.2, 0.2}},
		{"instant: the last 10 of 12", ReestimateInstant, 10, flat, seq(12, 2, 1), []float64{0.2, 0, 0.2, 0.2}},
		{"instant: all 12", ReestimateInstant, 0, flat, seq(12, 6, 1), []float64{0.2, 0.5, 0.2, 0.2}},
		{"page: 5 of 10 at any instants", ReestimatePage, 10, flat, seq(10, 5, 0, 3, 1), []float64{0.5, 0.5, 0.5, 0.5}},
		{"page: the last 10 of 14", ReestimatePage, 10, flat, append(seq(4, 4, 2), seq(10, 5, 0, 1)...), []float64{0.5, 0.5, 0.5, 0.5}},
		{"page: all 20", ReestimatePage, 0, flat, seq(20, 5, 2, 3), []float64{0.25, 0.25, 0.25, 0.25}},
		// A profile rescaled so that the monitored instant, 0.3, becomes
		// the observed 0.5: s = 5/(10·0.3).
		{"page: the profile rescaled", ReestimatePage, 10, []float64{0.1, 0.3, 0, 0.2}, seq(10, 5, 1), []float64{0.5 / 3, 0.5, 0, 1.0 / 3}},
		{"page: capped at 1", ReestimatePage, 0, []float64{0.1, 0.3, 0, 0.2}, seq(10, 10, 0), []float64{1, 1, 0, 1}},
		{"page: the profile expected nothing there", ReestimatePage, 10, []float64{0.1, 0.3, 0, 0.2}, seq(10, 5, 2), []float64{0.5, 0.5, 0.5, 0.5}},
		{"page: nothing observed", ReestimatePage, 10, []float64{0.1, 0.3, 0, 0.2}, nil, []float64{0.1, 0.3, 0, 0.2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prior := [][]float64{tc.prior}
			est := newEstimator(1, 4, tc.window, prior)
			if tc.reading == ReestimatePage {
				est.page = newPageEstimator(1, tc.window, []float64{1, 2, 3, 4}, 4)
			}
			rho := [][]float64{make([]float64, 4)}
			est.fill(rho) // the first plan: the prior, the page reading's profile
			for _, o := range tc.obs {
				est.observe(0, o.j, o.changed)
				if est.page != nil {
					est.page.observe(0, o.j, o.changed, false, 0, 0)
				}
			}
			est.fill(rho)
			for j, w := range tc.want {
				if math.Abs(rho[0][j]-w) > 1e-12 {
					t.Errorf("instant %d: %v, want %v (all %v)", j, rho[0][j], w, rho[0])
				}
			}
		})
	}
}

// A monitor that learns only whether the page changed since its previous
// monitoring, under the page reading, weighs each observation by the
// chance of a change over its span: two monitors of a flat page at 0.5 a
// whole epoch apart expect 1 − 0.5⁴ each, and finding a change both times
// rescales the profile by 1/(1 − 0.5⁴).
func TestReestimatePageSpans(t *testing.T) {
	est := newEstimator(1, 4, 0, [][]float64{{0.5, 0.5, 0.5, 0.5}})
	est.page = newPageEstimator(1, 0, []float64{1, 2, 3, 4}, 4)
	rho := [][]float64{make([]float64, 4)}
	est.fill(rho)
	for e := range 2 {
		est.observe(0, 1, true)
		est.page.observe(0, 1, true, true, float64(e)+0.5, float64(e+1)+0.5)
	}
	est.fill(rho)
	if want := math.Min(1, 0.5/(1-math.Pow(0.5, 4))); math.Abs(rho[0][0]-want) > 1e-12 {
		t.Errorf("estimate %v, want %v", rho[0][0], want)
	}
}

// rirDrift runs CAM re-allocated every epoch on in under a reading over
// many seeds and returns, per seed, the last epoch's expected RIR minus the
// first's, and the first epoch's RIR; with a tracking phase the first
// plan is the tracking phase's.
func rirDrift(t *testing.T, in *Instance, reading string, tracking, epochs, seeds int) (drift, first []float64) {
	t.Helper()
	for s := range seeds {
		cfg := Config{Policy: CAM{}, Budget: 60, Tracking: tracking, Epochs: epochs, Reallocate: 1, Reestimate: reading, ChangeTimes: true}
		if tracking == 0 {
			cfg.Known = in.Rho
		}
		res, err := Simulate(in, Coins(in.Rho), cfg, rand.New(rand.NewPCG(uint64(s), 1)), rand.New(rand.NewPCG(uint64(s), 2)))
		if err != nil {
			t.Fatal(err)
		}
		drift = append(drift, res.Epochs[epochs-1].RIR-res.Epochs[0].RIR)
		first = append(first, res.Epochs[0].RIR)
	}
	return drift, first
}

// meanSE returns the mean of xs and its standard error.
func meanSE(xs []float64) (float64, float64) {
	s := stat.Summarize(xs)
	return s.Mean, s.SD / math.Sqrt(float64(s.N))
}

// Re-allocation over many seeds, from the true ρ and from a short tracking
// phase. Per instant, starting from the truth, CAM's expected RIR falls by
// far more than its noise: a watched instant seen not to change is dropped
// and never watched again. Per page, it stays within a hundredth of the
// truth's plan: the observations only rescale the true profile. From a
// tracking phase neither reading converges towards the truth's plan: the
// page reading keeps the tracking phase's profile, so its RIR stays level
// with the first plan's, far below the truth's.
func TestReestimateConvergence(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 13))
	in := randInstance(rng, 10, 24)
	truth := RIR(in, mustAllocate(t, in, 60))

	d, _ := rirDrift(t, in, ReestimateInstant, 0, 8, 200)
	m, se := meanSE(d)
	if !(m < -0.05 && m < -3*se) {
		t.Errorf("per instant from the truth: RIR drifts by %.4f ± %.4f, want a fall", m, se)
	}
	d, _ = rirDrift(t, in, ReestimatePage, 0, 8, 200)
	m, se = meanSE(d)
	if !(math.Abs(m) < 0.01+3*se) {
		t.Errorf("per page from the truth: RIR drifts by %.4f ± %.4f, want within a hundredth", m, se)
	}
	d, first := rirDrift(t, in, ReestimatePage, 2, 8, 200)
	m, se = meanSE(d)
	f, _ := meanSE(first)
	if !(math.Abs(m) < 3*se+0.005) || !(f < truth-0.05) {
		t.Errorf("per page from 2 tracking epochs: RIR drifts by %.4f ± %.4f from %.4f, want level and below the truth's %.4f", m, se, f, truth)
	}
}

func mustAllocate(t *testing.T, in *Instance, c int) Allocation {
	t.Helper()
	a, err := CAM{}.Allocate(in, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
