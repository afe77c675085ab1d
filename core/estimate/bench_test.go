package estimate_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

// histories is the benchmark workload, BenchHistories.
func histories(n, k int, seed uint64) []estimate.History { return estimate.BenchHistories(n, k, seed) }

// BenchmarkMLE solves eq. 2 for histories of 20 irregular intervals; the
// budget is 1,000,000 histories per second (≤ 1 µs each).
func BenchmarkMLE(b *testing.B) {
	hs := histories(1024, 20, 1)
	var sink float64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink += estimate.MLE{}.Estimate(&hs[i%len(hs)]).Rate
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "histories/s")
	_ = sink
}

// BenchmarkPseudoMLE is the MLE with two pseudo-intervals on the same
// histories: one more term, and never an edge case.
func BenchmarkPseudoMLE(b *testing.B) {
	hs := histories(1024, 20, 1)
	var sink float64
	for i := 0; b.Loop(); i++ {
		sink += estimate.PseudoMLE{}.Estimate(&hs[i%len(hs)]).Rate
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "histories/s")
	_ = sink
}

// hourlyPrior is a smooth prior over 1-hour bins up to days.
func hourlyPrior(days float64) estimate.Dist {
	d := estimate.Dist{Edges: estimate.HourlyEdges(days)}
	d.Mass = make([]float64, len(d.Edges)-1)
	for k := range d.Mass {
		x := d.Point(k)
		d.Mass[k] = x * math.Exp(-x/3)
	}
	return d
}

// BenchmarkPosteriorMean is §4.3's reference on the paper's 1-hour grid
// (25 days: 600 bins) for histories of 20 intervals, re-reading the history
// (Estimate) or folding one observation into a kept posterior (Tracker).
func BenchmarkPosteriorMean(b *testing.B) {
	pm, err := estimate.NewPosteriorMean(hourlyPrior(25))
	if err != nil {
		b.Fatal(err)
	}
	hs := histories(64, 20, 2)
	b.Run("Estimate", func(b *testing.B) {
		var sink float64
		for i := 0; b.Loop(); i++ {
			sink += pm.Estimate(&hs[i%len(hs)]).Rate
		}
		_ = sink
	})
	b.Run("TrackerObserve", func(b *testing.B) {
		tr := pm.NewTracker()
		var sink float64
		for i := 0; b.Loop(); i++ {
			if i%20 == 0 {
				tr.Reset()
			}
			_ = tr.Observe(1, i%3 == 0)
			sink += tr.Result().Rate
		}
		_ = sink
	})
}

// BenchmarkPaths simulates the later `estimate` experiment's unit of work:
// 1,000 pages × 25 epochs with true rates spread from 1/30 to 4 per day,
// reported per page-epoch (one crawl, one estimate), and per sweep of 25
// initial intervals.
func BenchmarkPaths(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	rates := make([]float64, 1000)
	for i := range rates {
		rates[i] = 1 / (0.25 + 29.75*rng.Float64())
	}
	pm, _ := estimate.NewPosteriorMean(hourlyPrior(25))
	for _, c := range []struct {
		name string
		est  estimate.Estimator
		s    estimate.Schedule
	}{
		{"MLE/fixed", estimate.MLE{}, estimate.Schedule{Initial: 2}},
		{"MLE/sequential", estimate.MLE{}, estimate.Schedule{Initial: 2, Fraction: 0.8}},
		{"PseudoMLE/sequential", estimate.PseudoMLE{Changed: 2, Unchanged: 5}, estimate.Schedule{Fraction: 1}},
		{"PosteriorMean600/sequential", pm, estimate.Schedule{Fraction: 1}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := &estimate.Paths{Estimator: c.est, Schedule: c.s, Epochs: 25, Pool: 5}
			for i := 0; b.Loop(); i++ {
				if _, err := p.Run(rates, rand.New(rand.NewPCG(uint64(i), 1))); err != nil {
					b.Fatal(err)
				}
			}
			perRun := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(perRun/float64(len(rates)*25), "ns/page-epoch")
			b.ReportMetric(perRun*25/1e6, "ms/sweep25")
		})
	}
}
