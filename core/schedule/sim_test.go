package schedule

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// nearSE checks that a simulated mean is within k standard errors of its
// expectation, the SE estimated from the repeats. The caller states the
// false-failure probability P(|t| > k) for its degrees of freedom.
func nearSE(t *testing.T, what string, got stat.Summary, want, k float64) {
	t.Helper()
	se := got.SD / math.Sqrt(float64(got.N))
	if math.IsNaN(got.Mean) || math.Abs(got.Mean-want) > k*se {
		t.Errorf("%s: simulated %.6f ± %.6f (SE, n = %d), expected %.6f: off by %.1f SE", what, got.Mean, se, got.N, want, math.Abs(got.Mean-want)/se)
	}
}

// TestSimulatorMatchesFormulas plays one page at a time, for slow and
// fast changes, rare and frequent syncs, regular and Poisson, and checks
// the simulated freshness, age, harmonic staleness, sync rate and change
// ratio against their formulas. 60 repeats of 400 days each; tolerance 5
// SE: P(|t₅₉| > 5) ≈ 6e-6 per check, about 1e-3 for the 160 checks.
func TestSimulatorMatchesFormulas(t *testing.T) {
	for _, s := range []Spacing{Regular, Poisson} {
		for _, lambda := range []float64{0.3, 2} {
			for _, f := range []float64{0.25, 1, 4, 10} {
				plan := Plan{Rates: []float64{f}, Spacing: s}
				cfg := Config{Rates: []float64{lambda}, Days: 400, Warmup: 20, Repeats: 60, Seed: uint64(17 + 100*lambda + f)}
				res, err := Simulate(cfg, plan)
				if err != nil {
					t.Fatal(err)
				}
				name := func(m string) string { return fmt.Sprintf("%s %v λ=%v f=%v", m, s, lambda, f) }
				nearSE(t, name("freshness"), res.Mean.Freshness, Freshness(lambda, f, s), 5)
				nearSE(t, name("age"), res.Mean.Age, Age(lambda, f, s), 5)
				nearSE(t, name("harmonic"), res.Mean.Harmonic, Harmonic(lambda, f, s), 5)
				nearSE(t, name("change ratio"), res.Mean.ChangeRatio, ChangeRatio(lambda, f, s), 5)
				if s == Poisson {
					nearSE(t, name("syncs per day"), res.Mean.SyncsPerDay, f, 5)
				} else if got := res.Mean.SyncsPerDay; math.Abs(got.Mean-f) > 1.0/400 {
					// Regular syncs: exactly f·T syncs, give or take one.
					t.Errorf("%s: %v syncs per day", name("regular"), got.Mean)
				}
			}
		}
	}
}

// TestSimulatorIntegratesExactly replays page 0's changes and syncs from
// the same random streams and measures the metrics on a fine time grid,
// independently of the simulator's event-by-event integration. The grid's
// midpoint rule errs by at most half a step per event for freshness (and
// proportionally for the others), which bounds the tolerance.
func TestSimulatorIntegratesExactly(t *testing.T) {
	for _, tc := range []struct {
		lambda, f float64
		s         Spacing
	}{{1.3, 0.7, Regular}, {0.4, 2.5, Poisson}, {3, 0.2, Poisson}} {
		const warm, days, seed = 3.0, 40.0, 99
		rec := &recorder{inner: Plan{Rates: []float64{tc.f}, Spacing: tc.s}}
		res, err := Simulate(Config{Rates: []float64{tc.lambda}, Days: days, Warmup: warm, Repeats: 1, Seed: seed}, rec)
		if err != nil {
			t.Fatal(err)
		}
		// The change times, drawn as runPage draws them.
		crng := rand.New(rand.NewPCG(seed, changeStream))
		var changes []float64
		for c := crng.ExpFloat64() / tc.lambda; c < warm+days; c += crng.ExpFloat64() / tc.lambda {
			changes = append(changes, c)
		}
		syncs := rec.times
		const step = 2e-5
		var fresh, age, harm float64
		for k := 0; k < int(days/step); k++ {
			now := warm + (float64(k)+0.5)*step
			// The last sync at or before now, and the changes since.
			j := sort.SearchFloat64s(syncs, now)
			last := 0.0
			if j > 0 {
				last = syncs[j-1]
			}
			a := sort.SearchFloat64s(changes, last)
			b := sort.SearchFloat64s(changes, now)
			if n := b - a; n == 0 {
				fresh++
			} else {
				age += now - changes[a]
				for i := 1; i <= n; i++ {
					harm += 1 / float64(i)
				}
			}
		}
		steps := float64(int(days / step))
		events := float64(len(changes) + len(syncs))
		tol := events * step / days // half a step per event, twice over
		for _, c := range []struct {
			name      string
			sim, grid float64
			scale     float64
		}{
			{"freshness", res.Mean.Freshness.Mean, fresh / steps, 1},
			{"age", res.Mean.Age.Mean, age / steps, 1 / tc.f},
			{"harmonic", res.Mean.Harmonic.Mean, harm / steps, 1 + math.Log1p(tc.lambda/tc.f*4)},
		} {
			if d := math.Abs(c.sim - c.grid); d > tol*c.scale {
				t.Errorf("%+v %s: simulator %v, fine grid %v (|Δ| = %.2g > %.2g)", tc, c.name, c.sim, c.grid, d, tol*c.scale)
			}
		}
		if got := res.Mean.SyncsPerDay.Mean * days; got != float64(countIn(syncs, warm, warm+days)) {
			t.Errorf("%+v: %v syncs counted, %d in the horizon", tc, got, countIn(syncs, warm, warm+days))
		}
	}
}

// recorder is a Syncer that records the sync times another one gives.
type recorder struct {
	inner Syncer
	times []float64
}

func (r *recorder) First(i int, rng *rand.Rand) float64 {
	t := r.inner.First(i, rng)
	r.times = append(r.times, t)
	return t
}

func (r *recorder) Next(i int, now float64, changed bool, rng *rand.Rand) float64 {
	t := r.inner.Next(i, now, changed, rng)
	r.times = append(r.times, t)
	return t
}

func countIn(xs []float64, lo, hi float64) int {
	n := 0
	for _, x := range xs {
		if x >= lo && x < hi {
			n++
		}
	}
	return n
}

// TestSimulatorDeterministic checks a seed fixes the numbers, another seed
// changes them, and two schedules run with one seed see the same changes
// (common random numbers): a page neither syncs has identical metrics.
func TestSimulatorDeterministic(t *testing.T) {
	cfg := Config{Rates: []float64{1, 2, 0.5}, Days: 50, Warmup: 5, Repeats: 4, Seed: 3, PerPage: true}
	a, _ := Simulate(cfg, Plan{Rates: []float64{1, 2, 0}})
	b, _ := Simulate(cfg, Plan{Rates: []float64{1, 2, 0}})
	if fmt.Sprint(a.Mean) != fmt.Sprint(b.Mean) {
		t.Errorf("same seed, different results: %+v, %+v", a.Mean, b.Mean)
	}
	c, _ := Simulate(cfg, Plan{Rates: []float64{3, 0.1, 0}, Spacing: Poisson})
	if fmt.Sprint(c.Pages[2]) != fmt.Sprint(a.Pages[2]) {
		t.Errorf("an unsynced page's metrics depend on the other pages' schedule: %+v, %+v", a.Pages[2], c.Pages[2])
	}
	cfg.Seed = 4
	d, _ := Simulate(cfg, Plan{Rates: []float64{1, 2, 0}})
	if d.Mean.Freshness == a.Mean.Freshness {
		t.Error("another seed gave the same freshness")
	}
}

// TestWeightedMetrics checks the request-weighted averages against the
// per-page results they average.
func TestWeightedMetrics(t *testing.T) {
	cfg := Config{Rates: []float64{1, 3}, Weights: []float64{3, 1}, Days: 30, Repeats: 1, Seed: 5, PerPage: true}
	res, err := Simulate(cfg, Plan{Rates: []float64{1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := (3*res.Pages[0].Freshness.Mean + res.Pages[1].Freshness.Mean) / 4
	if relDiff(res.Weighted.Freshness.Mean, want) > 1e-14 {
		t.Errorf("weighted freshness %v, want %v", res.Weighted.Freshness.Mean, want)
	}
	if want := (res.Pages[0].Age.Mean + res.Pages[1].Age.Mean) / 2; relDiff(res.Mean.Age.Mean, want) > 1e-14 {
		t.Errorf("mean age %v, want %v", res.Mean.Age.Mean, want)
	}
	// Expect weights the same way.
	mean, weighted, err := Expect(cfg.Rates, cfg.Weights, Plan{Rates: []float64{1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if w := (3*Freshness(1, 1, Regular) + Freshness(3, 1, Regular)) / 4; relDiff(weighted.Freshness, w) > 1e-15 {
		t.Errorf("expected weighted freshness %v, want %v", weighted.Freshness, w)
	}
	if mean.SyncsPerDay != 2 {
		t.Errorf("expected spend %v, want 2", mean.SyncsPerDay)
	}
}

// TestConfigCheck checks the errors a caller sees.
func TestConfigCheck(t *testing.T) {
	ok := Config{Rates: []float64{1}, Days: 10, Repeats: 2}
	for _, c := range []struct {
		mod  func(*Config)
		s    Syncer
		want string
	}{
		{func(c *Config) { c.Rates = nil }, Plan{}, "no pages"},
		{func(c *Config) { c.Rates = []float64{-1} }, Plan{Rates: []float64{1}}, "page 0: true change rate -1"},
		{func(c *Config) { c.Days = 0 }, Plan{Rates: []float64{1}}, "days 0"},
		{func(c *Config) { c.Warmup = -1 }, Plan{Rates: []float64{1}}, "warm-up -1"},
		{func(c *Config) { c.Repeats = 0 }, Plan{Rates: []float64{1}}, "repeats 0"},
		{func(c *Config) { c.Weights = []float64{0} }, Plan{Rates: []float64{1}}, "every weight is 0"},
		{func(c *Config) {}, Plan{Rates: []float64{1, 2}}, "2 rates for 1 pages"},
		{func(c *Config) {}, Plan{Rates: []float64{math.NaN()}}, "sync rate NaN"},
		{func(c *Config) {}, NewAdaptive(HeritrixDefault, 2), "holds 2 pages"},
		{func(c *Config) {}, NewAdaptive(Heritrix{ChangedFactor: 0.5, UnchangedFactor: 1.5, Min: 1, Max: 2, Initial: 1}, 1), "factors"},
		{func(c *Config) {}, nil, "no schedule"},
	} {
		cfg := ok
		c.mod(&cfg)
		_, err := Simulate(cfg, c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q", err, c.want)
		}
	}
}

// TestWorkLimit checks Simulate refuses a setting that would run for
// minutes, before it starts.
func TestWorkLimit(t *testing.T) {
	cfg := Config{Rates: []float64{1e6}, Days: 1000, Repeats: 10}
	_, err := Simulate(cfg, Plan{Rates: []float64{1}})
	if err == nil || !strings.Contains(err.Error(), "above the limit") {
		t.Errorf("got %v, want the work limit", err)
	}
	if w := ExpectedEvents(Config{Rates: []float64{1, 2}, Days: 10, Warmup: 5, Repeats: 2}, Plan{Rates: []float64{3, 4}}); w != 10*15*2 {
		t.Errorf("expected events %v, want 300", w)
	}
	// Heritrix visits a page that never changes at days 1, 2.5, 4.75, …,
	// the wait growing ×1.5 from 1 day: nine visits up to day 74.89, then
	// the wait is 28 days, so 29 more from day 102.89 to 886.89: 38 before
	// day 900.
	if w := ExpectedEvents(Config{Rates: []float64{0, 0}, Days: 800, Warmup: 100, Repeats: 3}, NewAdaptive(HeritrixDefault, 2)); w != 2*38*3 {
		t.Errorf("expected events %v for two quiet pages under Heritrix, want %d", w, 2*38*3)
	}
	// Nutch with db.fetch.interval.max above max_interval forces no
	// re-fetch: a quiet page's visits pile up towards day 365/0.3 and
	// never pass it. Refused before it runs.
	pile := NutchDefault
	pile.MaxFetch = 400
	cfg = Config{Rates: []float64{0}, Days: DefaultDays, Warmup: DefaultWarmup, Repeats: DefaultRepeats}
	if w := ExpectedEvents(cfg, NewAdaptive(pile, 1)); !(w > MaxEvents) {
		t.Fatalf("expected events %v for syncs that pile up, want above %v", w, float64(MaxEvents))
	}
	_, err = Simulate(cfg, NewAdaptive(pile, 1))
	if err == nil || !strings.Contains(err.Error(), "above the limit") {
		t.Errorf("got %v, want the work limit for syncs that pile up", err)
	}
}

// FuzzSimulate feeds the simulator arbitrary rates, sync rates, spacings
// and run lengths, under plans and the Nutch and StormCrawler rules (kept
// small enough to run): it must not panic, must reject what Check
// rejects, and must report metrics in range.
func FuzzSimulate(f *testing.F) {
	f.Add(1.0, 2.0, 0.5, 0.0, 10.0, 1.0, uint8(3), uint8(0), uint64(1))
	f.Add(0.0, 1e-12, 1e3, 1e-9, 0.01, 0.0, uint8(1), uint8(1), uint64(2))
	f.Add(5.0, 5.0, 0.0, 0.0, 2.0, 2.0, uint8(2), uint8(2), uint64(3))
	f.Add(0.0, 1e-4, 0.0, 0.0, 1000.0, 365.0, uint8(2), uint8(3), uint64(4))
	f.Fuzz(func(t *testing.T, l0, l1, f0, f1, days, warm float64, reps, kind uint8, seed uint64) {
		cfg := Config{Rates: []float64{l0, l1}, Days: days, Warmup: warm, Repeats: int(reps % 5), Seed: seed, PerPage: true}
		var s Syncer = Plan{Rates: []float64{f0, f1}, Spacing: Spacing(kind % 2)}
		switch kind % 4 {
		case 2:
			s = NewAdaptive(StormCrawlerDefault, 2)
		case 3:
			s = NewAdaptive(NutchDefault, 2)
		}
		if ExpectedEvents(cfg, s) > 1e5 || days > 1e4 || warm > 1e4 {
			t.Skip("too long for a fuzz case")
		}
		res, err := Simulate(cfg, s)
		if (cfg.Check() == nil) != (err == nil) && !strings.Contains(fmt.Sprint(err), "sync rate") {
			t.Fatalf("config %+v: error %v", cfg, err)
		}
		if err != nil {
			return
		}
		for _, m := range append([]Metrics{res.Mean, res.Weighted}, res.Pages...) {
			if fr := m.Freshness.Mean; !(fr >= 0 && fr <= 1+1e-12) {
				t.Fatalf("freshness %v for %+v", fr, cfg)
			}
			if a := m.Age.Mean; !(a >= 0) || a > warm+days {
				t.Fatalf("age %v for %+v", a, cfg)
			}
			if h := m.Harmonic.Mean; !(h >= 0) {
				t.Fatalf("harmonic staleness %v for %+v", h, cfg)
			}
			if c := m.ChangeRatio.Mean; !math.IsNaN(c) && !(c >= 0 && c <= 1) {
				t.Fatalf("change ratio %v for %+v", c, cfg)
			}
		}
	})
}
