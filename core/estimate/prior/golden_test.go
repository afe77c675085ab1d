package prior_test

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
)

// goldenBits is the FNV-64a hash of every float64 bit of the runs below,
// recorded natively on amd64. The test runs again under GOOS=js GOARCH=wasm,
// where math.Exp and math.Log are pure Go rather than amd64 assembly: the
// same hash there shows that estimates, paths and fits are identical to the
// last bit on both. If a deliberate change moves the numbers, update it from
// the failure message.
const goldenBits = 0xb750532795ab3929

func TestGoldenBits(t *testing.T) {
	h := fnv.New64a()
	put := func(xs ...float64) {
		var b [8]byte
		for _, x := range xs {
			u := math.Float64bits(x)
			for i := range b {
				b[i] = byte(u >> (8 * i))
			}
			h.Write(b[:])
		}
	}
	rng := rand.New(rand.NewPCG(42, 42))
	rates := make([]float64, 300)
	for i := range rates {
		rates[i] = 1 / (0.1 + 30*rng.Float64())
	}
	prior60 := estimate.Dist{Edges: estimate.LogEdges(estimate.Hour, 400, 60), Mass: make([]float64, 60)}
	for k := range prior60.Mass {
		prior60.Mass[k] = 1 + float64(k%5)
	}
	pm, _ := estimate.NewPosteriorMean(prior60)
	for _, p := range []*estimate.Paths{
		{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 700 * estimate.Hour, Fraction: 0.8}, Epochs: 30, Pool: 5},
		{Estimator: estimate.PseudoMLE{Changed: 2, Unchanged: 5}, Schedule: estimate.Schedule{Fraction: 1}, Epochs: 30, Pool: 5},
		{Estimator: estimate.ChoGarciaMolina{}, Schedule: estimate.Schedule{Initial: 1}, Epochs: 30, Pool: 5},
		{Estimator: estimate.Weighted{Scheme: estimate.GAD}, Schedule: estimate.Schedule{Initial: 1, Fraction: 0.8, Max: 60}, Epochs: 30, Pool: 5},
		{Estimator: pm, Schedule: estimate.Schedule{Fraction: 0.8}, Epochs: 30, Pool: 5},
	} {
		s, err := p.Run(rates, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		put(s.Mean...)
		put(s.SD...)
		put(s.MAD...)
		put(s.MADPeriod...)
		put(s.Interval...)
		put(s.NoChange...)
		put(s.PooledMAD, s.PooledMADPeriod)
	}
	emp := estimate.Dist{Edges: estimate.HourlyEdges(20)}
	emp.Mass = prior.Induced{Changed: 1.5, Unchanged: 3}.Masses(emp.Edges, nil)
	fit, err := prior.Fit(emp, prior.Options{Steps: 300, Restarts: 3}, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fit.Runs {
		put(r.Best.Changed, r.Best.Unchanged, r.Loss, float64(r.Accepted))
	}
	if got := h.Sum64(); got != goldenBits {
		t.Errorf("hash of the runs' bits = %#x, want %#x", got, uint64(goldenBits))
	}
}
