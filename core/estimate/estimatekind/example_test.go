package estimatekind_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
)

// Grimes & Ford §3.2 and eq. 1: pages changing once a day, crawled every
// 2 days. The naive estimate settles on (1 − e^{−2})/2 ≈ 0.43 changes per
// day whatever the number of crawls; Cho & Garcia-Molina's bias-reduced
// estimate approaches the true rate of 1.
func ExampleLab_Run_estimate() {
	res, err := lab.New().Run(lab.Spec{
		Kind:     estimatekind.ID,
		Dataset:  lab.DatasetRef{ID: "grimes-ford"},
		Repeats:  20,
		Seed:     4,
		Policies: []lab.PolicySpec{{ID: "naive"}, {ID: "cho-garcia-molina"}},
		Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Rate: 1, Pages: 500, Epochs: 40, Crawl: estimatekind.Crawl{Mode: "fixed", Initial: 2}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range res.Policies {
		mean, mad := p.Series[estimatekind.MetricRateEstimate], p.Series[estimatekind.MetricMAD]
		last := len(mean) - 1
		fmt.Printf("%-17s after %d crawls: mean %.3f (exact %.3f), MAD %.3f per day\n", p.ID, last+1, mean[last].Mean, estimatekind.PolicyResultOf(p).Expected[last], mad[last].Mean)
	}
	// Output:
	// naive             after 40 crawls: mean 0.432 (exact 0.432), MAD 0.563 per day
	// cho-garcia-molina after 40 crawls: mean 0.998 (exact 1.001), MAD 0.104 per day
}
