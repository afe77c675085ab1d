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
