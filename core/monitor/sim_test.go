package monitor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// fixed is a policy that always allocates a.
type fixed Allocation

func (f fixed) Allocate(in *Instance, budget int, _ *rand.Rand) (Allocation, error) {
	return Allocation(f), nil
}

// A run traced by hand: one page of weight 2, instants at 1, 2, 3, 4,
// monitored at instants 1 and 2 (times 2 and 3).
//
//	epoch 0, changes at instants 0 and 2: the monitor at 2 returns the
//	  first; the one at 3 follows the change at instant 2 and returns it,
//	  a hit. 2 changes, 2 returned, 1 hit.
//	epoch 1, changes at 0, 1 and 3: the change at 1 overwrites the one at
//	  0 and is returned at 2, a hit; the monitor at 3 finds nothing new;
//	  the change at 3 waits for the next epoch's first monitor, which
//	  returns it (the settling epoch, no changes). 3 changes, 2 returned,
//	  1 hit.
//
// Both monitors of epoch 0 saw a change, so re-estimating before epoch 1
// sets instants 1 and 2 to 1 and keeps the others at their known values.
func TestSimulateByHand(t *testing.T) {
	in := &Instance{T: 4, Times: []float64{1, 2, 3, 4}, Weight: []float64{2}}
	src := &Recorded{Changed: [][][]int32{{{0, 2}}, {{0, 1, 3}}, {{}}}}
	known := [][]float64{{0.1, 0.2, 0.3, 0.4}}
	res, err := Simulate(in, src, Config{Policy: fixed{{1, 2}}, Budget: 2, Known: known, Epochs: 2, Reallocate: 1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []EpochResult{
		{Tasks: 2, Run: 2, Reallocated: true, Changes: 4, Returned: 4, Hits: 2, ChangeCount: 2, ReturnedCount: 2, HitCount: 1},
		{Tasks: 2, Run: 2, Reallocated: true, Changes: 6, Returned: 4, Hits: 2, ChangeCount: 3, ReturnedCount: 2, HitCount: 1},
	}
	for e, r := range res.Epochs {
		if !math.IsNaN(r.RIR) || !math.IsNaN(r.Total) || !math.IsNaN(r.ScheduledRIR) || !math.IsNaN(r.CompleteLossRIR) {
			t.Errorf("epoch %d: expected metrics without a truth: %+v", e, r)
		}
		r.RIR, r.Total, r.ScheduledRIR, r.CompleteLossRIR = 0, 0, 0, 0
		if r != want[e] {
			t.Errorf("epoch %d: %+v\nwant %+v", e, r, want[e])
		}
	}
	if got := res.Estimate[0]; !slices.Equal(got, []float64{0.1, 1, 1, 0.4}) {
		t.Errorf("estimate %v, want [0.1 1 1 0.4]", got)
	}
	if got := res.Epochs[1].RealisedRIR(); got != 4.0/6 {
		t.Errorf("realised RIR %v, want 4/6", got)
	}
	if got := res.Epochs[1].HitRIR(); got != 2.0/6 {
		t.Errorf("hit RIR %v, want 2/6", got)
	}

	// Without the settling epoch the last change is never returned.
	src.Changed = src.Changed[:2]
	res, err = Simulate(in, src, Config{Policy: fixed{{1, 2}}, Budget: 2, Known: known, Epochs: 2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Epochs[1].ReturnedCount; got != 1 {
		t.Errorf("returned %d in the last epoch of a log with nothing after it, want 1", got)
	}
}

// The tracking phase monitors every instant; the estimate keeps the last
// Window observations of each (or all of them), and none from before a
// page's tracking began.
func TestEstimateWindowAndTracking(t *testing.T) {
	// One instant; the page changes in tracking epochs 0–4 and not in 5–14.
	changed := make([][][]int32, 16)
	for e := range changed {
		changed[e] = [][]int32{nil, nil}
		if e < 5 {
			changed[e] = [][]int32{{0}, {0}}
		}
	}
	in := &Instance{T: 1, Times: []float64{1}, Weight: []float64{1, 1}}
	for _, tc := range []struct {
		window  int
		tracked []float64
		want    [2]float64
	}{
		{0, nil, [2]float64{5.0 / 15, 5.0 / 15}},
		{10, nil, [2]float64{0, 0}},
		{12, nil, [2]float64{2.0 / 12, 2.0 / 12}}, // epochs 3–14
		// Page 1's tracking began at 2.5 epochs: the observation at 3.0
		// covers (2.0, 3.0], begun before, so only those of epochs 3–14
		// count (at 4.0 to 15.0): 12 observations, changes in 2.
		{0, []float64{0, 2.5}, [2]float64{5.0 / 15, 2.0 / 12}},
	} {
		res, err := Simulate(in, &Recorded{Changed: changed, Tracked: tc.tracked},
			Config{Policy: CAM{}, Budget: 1, Tracking: 15, Epochs: 1, Window: tc.window}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range tc.want {
			if got := res.Estimate[i][0]; math.Abs(got-w) > 1e-15 {
				t.Errorf("window %d, tracked %v: page %d's estimate %v, want %v", tc.window, tc.tracked, i, got, w)
			}
		}
	}
}

// Realised against expected: over many runs with the truth known, each
// epoch's hits per unit of expected information average its RIR, and its
// returned information averages CompleteLossRIR; with a scheduler, hits
// average ScheduledRIR. Judged within four standard errors of the mean
// difference, for CAM and for a baseline whose allocation is random.
func TestRealisedMatchesExpected(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	in := &Instance{T: 10, Times: UniformTimes(10, 40), Weight: make([]float64, 30), Rho: make([][]float64, 30)}
	for i := range in.Weight {
		in.Weight[i] = 0.5 + rng.Float64()
		in.Rho[i] = make([]float64, 40)
		for j := range in.Rho[i] {
			if rng.IntN(3) == 0 {
				in.Rho[i][j] = 0.3 * rng.Float64()
			}
		}
	}
	fetch := make([]float64, 30)
	for i := range fetch {
		fetch[i] = 0.05 + 0.1*rng.Float64()
	}
	for _, tc := range []struct {
		name  string
		cfg   Config
		sched bool
	}{
		{"cam", Config{Policy: CAM{}, Budget: 150}, false},
		{"weighted-proportional", Config{Policy: Share{Weighted: true, Proportional: true}, Budget: 150}, false},
		{"cam scheduled", Config{Policy: CAM{}, Budget: 150, Scheduler: AlphaPoint{}, Monitors: 2, Fetch: fetch}, true},
		{"uniform scheduled", Config{Policy: Share{}, Budget: 150, Scheduler: List{}, Monitors: 1, Fetch: fetch}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dHit, dRet []float64
			for run := range 300 {
				cfg := tc.cfg
				cfg.Known, cfg.Epochs = in.Rho, 4
				res, err := Simulate(in, Coins(in.Rho), cfg, rand.New(rand.NewPCG(uint64(run), 1)), rand.New(rand.NewPCG(uint64(run), 2)))
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range res.Epochs {
					dHit = append(dHit, r.Hits/r.Total-r.ScheduledRIR)
					dRet = append(dRet, r.Returned/r.Total-r.CompleteLossRIR)
					if !tc.sched && r.ScheduledRIR != r.RIR {
						t.Fatalf("scheduled RIR %v without a scheduler, RIR %v", r.ScheduledRIR, r.RIR)
					}
				}
			}
			check := func(what string, d []float64) {
				s := stat.Summarize(d)
				if se := s.SD / math.Sqrt(float64(s.N)); math.Abs(s.Mean) > 4*se {
					t.Errorf("%s: realised minus expected %v ± %v", what, s.Mean, se)
				}
			}
			check("hits", dHit)
			if !tc.sched { // a schedule changes from epoch to epoch, the expectation assumes it repeats
				check("returned", dRet)
			}
		})
	}
}

// A tracking phase's estimate is unbiased: the mean over runs of Σ_ij ρ̂
// minus Σ_ij ρ is within four standard errors of 0.
func TestTrackingEstimateUnbiased(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	in := randInstance(rng, 10, 12)
	mean, se := estimateBias(t, in, Config{Policy: CAM{}, Budget: 10, Tracking: 3, Epochs: 1}, 500)
	if math.Abs(mean) > 4*se {
		t.Errorf("Σ(ρ̂ − ρ) averages %v ± %v", mean, se)
	}
}

// estimateBias runs cfg on in runs times and returns the mean over runs of
// Σ_ij (ρ̂_ij − ρ_ij), the last plan's estimates against the truth, with
// its standard error.
func estimateBias(t *testing.T, in *Instance, cfg Config, runs int) (mean, se float64) {
	t.Helper()
	var d []float64
	for run := range runs {
		res, err := Simulate(in, Coins(in.Rho), cfg, rand.New(rand.NewPCG(uint64(run), 3)), rand.New(rand.NewPCG(uint64(run), 4)))
		if err != nil {
			t.Fatal(err)
		}
		var x float64
		for i, row := range res.Estimate {
			for j, r := range row {
				x += r - in.Rho[i][j]
			}
		}
		d = append(d, x)
	}
	s := stat.Summarize(d)
	return s.Mean, s.SD / math.Sqrt(float64(s.N))
}

func TestSimulateRefusesBadConfigs(t *testing.T) {
	in := &Instance{T: 1, Times: []float64{1}, Weight: []float64{1}, Rho: [][]float64{{0.5}}}
	ok := Config{Policy: CAM{}, Budget: 1, Tracking: 1, Epochs: 1}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		src  Source
	}{
		{"no policy", func(c *Config) { c.Policy = nil }, nil},
		{"no epochs", func(c *Config) { c.Epochs = 0 }, nil},
		{"negative tracking", func(c *Config) { c.Tracking = -1 }, nil},
		{"negative budget", func(c *Config) { c.Budget = -1 }, nil},
		{"negative reallocation", func(c *Config) { c.Reallocate = -1 }, nil},
		{"window too long", func(c *Config) { c.Window = 65 }, nil},
		{"nothing to plan from", func(c *Config) { c.Tracking = 0 }, nil},
		{"known rows", func(c *Config) { c.Known = [][]float64{{0.5}, {0.5}} }, nil},
		{"known row length", func(c *Config) { c.Known = [][]float64{{0.5, 0.5}} }, nil},
		{"scheduler without processes", func(c *Config) { c.Scheduler, c.Fetch = List{}, []float64{1} }, nil},
		{"scheduler without fetch times", func(c *Config) { c.Scheduler, c.Monitors = List{}, 1 }, nil},
		{"short log", func(c *Config) {}, &Recorded{Changed: [][][]int32{{{}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ok
			tc.edit(&cfg)
			src := tc.src
			if src == nil {
				src = Coins(in.Rho)
			}
			if _, err := Simulate(in, src, cfg, rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 2))); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := Simulate(in, Coins(in.Rho), ok, rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Error(err)
	}
}

// What a monitor learns decides the bias of re-estimation. Under uniform
// allocation (its instants chosen without looking at ρ), re-allocated every
// epoch from the truth: a monitor that reads the time of the last change
// keeps the estimates unbiased (Σ(ρ̂ − ρ) within four standard errors of
// 0), and one that only sees whether the page changed since its previous
// monitoring biases them up (more than four standard errors above 0).
func TestChangeTimesUnbiased(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	in := randInstance(rng, 8, 24)
	for _, changeTimes := range []bool{true, false} {
		mean, se := estimateBias(t, in, Config{Policy: Share{}, Budget: 40, Known: in.Rho, Epochs: 4, Reallocate: 1, ChangeTimes: changeTimes}, 400)
		if changeTimes && math.Abs(mean) > 4*se {
			t.Errorf("change times: Σ(ρ̂ − ρ) averages %v ± %v, want 0", mean, se)
		}
		if !changeTimes && !(mean > 4*se) {
			t.Errorf("changes since the last monitoring: Σ(ρ̂ − ρ) averages %v ± %v, want it biased up", mean, se)
		}
	}
}
