package lab_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/lab"
)

// The Taleghani §2.3 example: 200 pages, 100 downloads, every baseline
// policy and greedy site sampling with the paper's 10-page samples, 200
// repeats. Site sampling's expected ChangeRatio is near the paper's 0.66;
// the oracle finds a change with every download.
func ExampleLab_Run() {
	res, err := lab.New().Run(lab.Spec{
		Dataset: lab.DatasetRef{ID: "taleghani-example"},
		Budget:  100, Repeats: 200, Seed: 7,
		Policies: []lab.PolicySpec{
			{ID: "round-robin"}, {ID: "random"}, {ID: "change-frequency"}, {ID: "oracle"},
			{ID: "site-greedy", Params: map[string]any{"sampleSize": 10}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range res.Policies {
		cr := p.Metric(lab.MetricChangeRatio)
		fmt.Printf("%-16s ChangeRatio %.3f [%.3f, %.3f]  freshness %.3f\n", p.ID, cr.Mean, cr.Lo, cr.Hi, p.Metric(lab.MetricFreshness).Mean)
	}
	// Output:
	// round-robin      ChangeRatio 0.499 [0.495, 0.504]  freshness 0.750
	// random           ChangeRatio 0.496 [0.491, 0.501]  freshness 0.748
	// change-frequency ChangeRatio 0.500 [0.495, 0.504]  freshness 0.750
	// oracle           ChangeRatio 1.000 [1.000, 1.000]  freshness 1.000
	// site-greedy      ChangeRatio 0.649 [0.641, 0.656]  freshness 0.824
}
