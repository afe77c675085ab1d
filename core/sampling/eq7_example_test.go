package sampling_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/sampling"
)

// Eq. 7 from last cycle's estimates of five groups of 100 pages, a tenth
// of the pages downloaded per cycle: the threshold sits between the two
// most changed groups, and the sample size asked for is about 2 pages,
// against √(N·r) = √10 ≈ 3.
func ExampleEq7Size() {
	e := sampling.Eq7Size(100, 0.1, []float64{0.1, 0.2, 0.25, 0.5, 0.75}, nil)
	fmt.Printf("p_t %.3f, f(p_t) %.3f, p̄_r %.2f, p̄ %.2f: s ≈ %.2f, %d pages\n",
		e.Threshold, e.Density, e.Top, e.Mean, e.Size, sampling.RoundSize(e.Size, 3, 20))
	// Output:
	// p_t 0.650, f(p_t) 0.686, p̄_r 0.75, p̄ 0.36: s ≈ 1.71, 2 pages
}
