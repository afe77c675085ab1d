package estimate

import (
	"math"
	"math/rand/v2"
)

// BenchHistories returns n histories of k intervals each, the workload of
// the speed budget ("the irregular-interval MLE over at least 1,000,000
// page histories per second, histories of 20 intervals"): lengths uniform
// in [0.5, 2] days (a crawler whose fetches are delayed irregularly, §3.3)
// of pages whose rates are spread from one change a month to four a day,
// so all three cases (interior, no change, all changed) occur.
func BenchHistories(n, k int, seed uint64) []History {
	rng := rand.New(rand.NewPCG(seed, 1))
	hs := make([]History, n)
	for i := range hs {
		rate := 1 / 30.0 * float64(uint(1)<<rng.IntN(8))
		for range k {
			t := 0.5 + 1.5*rng.Float64()
			_ = hs[i].Add(t, rng.Float64() < -math.Expm1(-rate*t))
		}
	}
	return hs
}
