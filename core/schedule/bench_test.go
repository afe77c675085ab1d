package schedule

import (
	"math/rand/v2"
	"testing"
)

// benchInput is n pages changing between once in 100 days and 10 times a
// day, requested 0.1 to 10 times a day (see spread), with half a sync per
// page per day.
func benchInput(n int) Input {
	rng := rand.New(rand.NewPCG(1, 1))
	in := Input{Rates: make([]float64, n), Weights: make([]float64, n), Budget: float64(n) / 2}
	for i := range in.Rates {
		in.Rates[i] = spread(rng, 0.01, 10)
		in.Weights[i] = spread(rng, 0.1, 10)
	}
	return in
}

// BenchmarkAllocate times each allocation policy on 10,000 pages and
// reports ns per page.
func BenchmarkAllocate(b *testing.B) {
	in := benchInput(10000)
	dst := make([]float64, len(in.Rates))
	for _, tc := range allPolicies {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := tc.p.Allocate(in, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(in.Rates)), "ns/page")
		})
	}
}

// BenchmarkSimulate times the simulator on 1,000 pages over 100 days (the
// benchmark's pages change 2.5 times and are synced 0.5 times per day on
// average: 3 events per page-day) and reports ns per page-day.
func BenchmarkSimulate(b *testing.B) {
	in := benchInput(1000)
	uniform, _ := Uniform{}.Allocate(in, nil)
	azar, _ := Azar{}.Allocate(in, nil)
	for _, tc := range []struct {
		name string
		s    func() Syncer
	}{
		{"regular", func() Syncer { return uniform }},
		{"poisson", func() Syncer { return azar }},
		{"nutch", func() Syncer { return NewAdaptive(NutchDefault, len(in.Rates)) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := Config{Rates: in.Rates, Days: 100, Warmup: 0, Repeats: 1, Seed: 1}
			s := tc.s()
			for b.Loop() {
				if _, err := Simulate(cfg, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(len(in.Rates))*cfg.Days), "ns/page-day")
		})
	}
}
