package monitor

import (
	"cmp"
	"slices"
)

// TasksForShare returns the fewest tasks an epoch needs for an optimal
// allocation (CAM's) to return at least share of the expected information
// under the instance's ρ: the expected RIR of C tasks at best is the sum of
// the C largest W_i ρ_{i,j} over Σ W_i λ_i (the objective of §3 is linear
// in y), so it counts those values, largest first, until their sum
// reaches share of the total. Pandey et al. §5.5 (Fig. 12) read the
// monitoring-to-change ratio at which CAM returns 90% this way. It is 0
// when share ≤ 0 or no change is expected.
func TasksForShare(in *Instance, share float64) int {
	var vals []float64
	for i, w := range in.Weight {
		for _, r := range in.Rho[i] {
			if v := w * r; v > 0 {
				vals = append(vals, v)
			}
		}
	}
	total := TotalInformation(in)
	if !(share > 0) || !(total > 0) {
		return 0
	}
	slices.SortFunc(vals, func(a, b float64) int { return cmp.Compare(b, a) })
	var sum float64
	for k, v := range vals {
		sum += v
		// A relative slack of 1e-12 so that share 1 is reached despite the
		// sums' rounding.
		if sum >= share*total*(1-1e-12) {
			return k + 1
		}
	}
	return len(vals)
}
