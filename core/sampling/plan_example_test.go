package sampling_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/sampling"
)

// ExamplePlan_Share shares the 80 downloads left after Al-Qaaideh's
// §2.5.4 samples (7 and 4 of 10 pages changed; 90 pages left per site).
func ExamplePlan_Share() {
	p := sampling.NewPlan(2)
	copy(p.Est, []float64{0.7, 0.4})
	copy(p.Left, []int{90, 90})
	p.Share(sampling.Greedy, 80)
	fmt.Println("greedy:", p.Quota)
	p.Share(sampling.Proportional, 80)
	fmt.Println("proportional:", p.Quota)
	// Output:
	// greedy: [80 0]
	// proportional: [51 29]
}

// ExampleExpectGroups computes the exact expected ChangeRatio of greedy
// sampling over Taleghani §2.3.2's five categories of 40 pages (40, 30,
// 20, 10 and 0 changed), 4 pages sampled from each, 100 downloads.
func ExampleExpectGroups() {
	var groups []sampling.Group
	for _, k := range []int{40, 30, 20, 10, 0} {
		groups = append(groups, sampling.Group{Pages: 40, Changed: k, Sample: 4})
	}
	e, err := sampling.ExpectGroups(groups, 100, sampling.Greedy, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", e)
	// Output: 0.7384
}
