package stat_test

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/refreshlab/refreshlab/core/stat"
)

// The ChangeRatio of five repeats, one of which downloaded nothing (NaN):
// the NaN is skipped, and the 95% interval uses t(0.975, 3).
func ExampleSummarize() {
	s := stat.Summarize([]float64{0.62, 0.70, math.NaN(), 0.66, 0.68})
	fmt.Printf("mean %.3f, 95%% CI [%.3f, %.3f], n = %d\n", s.Mean, s.Lo, s.Hi, s.N)
	b, _ := json.Marshal(stat.Summarize([]float64{0.5}))
	fmt.Println(string(b))
	// Output:
	// mean 0.665, 95% CI [0.611, 0.719], n = 4
	// {"mean":0.5,"lo":null,"hi":null,"sd":null,"n":1}
}

// The two-sided 95% critical values of Student's t, for five repeats
// (ν = 4) and more, approach the normal one as ν grows.
func ExampleTQuantile() {
	for _, nu := range []int{4, 30, 1000} {
		fmt.Printf("t(0.975, %d) = %.4f\n", nu, stat.TQuantile((1+stat.Level)/2, nu))
	}
	fmt.Printf("z(0.975) = %.4f\n", stat.NormalQuantile((1+stat.Level)/2))
	// Output:
	// t(0.975, 4) = 2.7764
	// t(0.975, 30) = 2.0423
	// t(0.975, 1000) = 1.9623
	// z(0.975) = 1.9600
}

// A site of 100 pages, 10 sampled, 3 of them changed: the 95% interval of
// its change fraction, with and without the finite-population correction.
func ExampleWilsonInterval() {
	lo, hi := stat.WilsonInterval(3, 10, 100, stat.NormalQuantile(0.975))
	fmt.Printf("finite site: %.3f to %.3f\n", lo, hi)
	lo, hi = stat.WilsonInterval(3, 10, 1<<40, stat.NormalQuantile(0.975))
	fmt.Printf("endless site: %.3f to %.3f\n", lo, hi)
	// Output:
	// finite site: 0.113 to 0.591
	// endless site: 0.108 to 0.603
}
