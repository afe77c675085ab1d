package prior_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
)

// FuzzDist feeds arbitrary bin edges and masses (a user's empirical
// distribution) to Check, the posterior estimators and the fit: whatever
// Check accepts must give finite estimates, a finite loss and a fit within
// the interval limits; whatever it refuses must be refused everywhere.
func FuzzDist(f *testing.F) {
	add := func(xs ...float64) {
		var b []byte
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		f.Add(b)
	}
	add(0, 1, 3, 1, 3)                   // edges 0, 1, 3; masses 1, 3
	add(0, 1e-9, 1e9, 0.5, 0.5)          // extreme edges
	add(0, 1, 2, 3, math.NaN(), 1, 1)    // NaN mass
	add(0, 1, 1, 1, 1)                   // repeated edge
	add(5e-324, 1, 2, 0, 1e308)          // subnormal edge, huge mass
	add(0, 0.01, 0.1, 1, 10, 1, 2, 3, 0) // four bins
	f.Fuzz(func(t *testing.T, data []byte) {
		var xs []float64
		for len(data) >= 8 {
			xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		nb := (len(xs) - 1) / 2 // bins: nb+1 edges, then nb masses
		if nb < 1 || nb > 64 {
			return
		}
		d := estimate.Dist{Edges: xs[:nb+1], Mass: xs[nb+1 : 2*nb+1]}
		err := d.Check()
		pm, err1 := estimate.NewPosteriorMean(d)
		_, err2 := prior.Fit(d, prior.Options{Steps: 20, Restarts: 1}, rand.New(rand.NewPCG(1, 1)))
		if (err == nil) != (err1 == nil) || (err == nil) != (err2 == nil) {
			t.Fatalf("Check %v, NewPosteriorMean %v, Fit %v", err, err1, err2)
		}
		if err != nil {
			return
		}
		h := &estimate.History{}
		for _, obs := range []bool{true, false, true} {
			r := pm.Estimate(h)
			if !(r.Rate > 0) || math.IsInf(r.Rate, 0) {
				t.Fatalf("posterior mean on %+v: %+v", d, r)
			}
			_ = h.Add(1, obs)
		}
		if l := prior.Loss(d, prior.Induced{Changed: 1, Unchanged: 1}); math.IsNaN(l) || math.IsInf(l, 0) {
			t.Fatalf("loss %v on %+v", l, d)
		}
	})
}
