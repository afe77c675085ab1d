package sampling_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/synth"
)

// The frequency-greedy hybrid on the nine Jordanian sites of Table 4.1:
// its estimate of each site's daily change rate, averaged over the three
// weeks, beside the table's.
func ExampleNewHybrid() {
	d := synth.AlQaaidehJordan(1)
	sim := refresh.NewSim(d)
	h := sampling.NewHybrid(refresh.Env{
		Repo: &d.Repository, Budget: 300, Cycles: 21, Rand: rand.New(rand.NewPCG(1, 2)),
		Params: param.Values{"samplePages": 100.0},
	}, 5)
	sum := make([]float64, len(d.Sites))
	days := make([]int, len(d.Sites))
	sim.After = func(int) {
		for w, e := range h.SiteEstimates() {
			if e >= 0 {
				sum[w] += e
				days[w]++
			}
		}
	}
	sim.Run(h, 300, 21, nil)
	for w := range d.Sites {
		fmt.Printf("%-26s %.3f (Table 4.1: %.3f)\n", d.Sites[w], sum[w]/float64(days[w]), synth.AlQaaidehTable41[w].Rate)
	}
	// Output:
	// www.alarabiya.net          0.000 (Table 4.1: 0.033)
	// www.alaswaq.net            0.235 (Table 4.1: 0.258)
	// www.alzaytoonah.edu.jo     0.000 (Table 4.1: 0.022)
	// www.jordandaily.com        0.830 (Table 4.1: 0.820)
	// www.jordanislamicbank.com  0.000 (Table 4.1: 0.000)
	// www.madabacity.gov.jo      0.000 (Table 4.1: 0.000)
	// www.moe.gov.jo             0.012 (Table 4.1: 0.015)
	// www.mutah.edu.jo           0.368 (Table 4.1: 0.436)
	// www.nitc.gov.jo            0.014 (Table 4.1: 0.091)
}
