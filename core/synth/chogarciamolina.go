package synth

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// ChoGarciaMolina5Days is the number of daily cycles of ChoGarciaMolina5's
// truth, for refresh experiments; schedule experiments use Truth.Rates.
const ChoGarciaMolina5Days = 365

// ChoGarciaMolina5 builds Cho & Garcia-Molina's five-page example (SIGMOD
// 2000 / TODS 2003): pages e1..e5 change as Poisson processes of 1, 2, 3, 4
// and 5 changes a day. With 5 syncs a day the paper's table gives mean
// freshness 0.374 for the optimal allocation, 0.365 for uniform and 0.317
// for proportional (package schedule's golden tests reproduce it). Truth.Rates holds
// those rates (schedule experiments simulate from them in continuous time);
// Truth.Changed and Truth.First record a year of daily cycles drawn from
// them, with each cycle's first change time, so refresh experiments run on
// the same pages.
func ChoGarciaMolina5(seed uint64) *dataset.Dataset {
	b := newBuilder(dataset.Info{
		ID:     "cho-garcia-molina-5",
		Name:   "Five pages changing 1 to 5 times a day (Cho & Garcia-Molina)",
		Source: "paper",
		Cite:   "Cho & Garcia-Molina, Synchronizing a database to improve freshness (SIGMOD 2000); Effective page refresh policies (TODS 2003)",
		Description: fmt.Sprintf("Pages e1..e5 change as Poisson processes of 1, 2, 3, 4 and 5 changes a day; their true rates are known "+
			"(Truth.Rates). %d daily cycles of changes, with each cycle's first change time, let refresh experiments run on them too.", ChoGarciaMolina5Days),
		CycleLength: 86400,
		CycleUnit:   "day",
	}, ChoGarciaMolina5Days, true)
	rng := newRand(seed, "cho-garcia-molina-5")
	site := b.site("cgm.example")
	rates := []float64{1, 2, 3, 4, 5}
	for i, r := range rates {
		p := b.page(fmt.Sprintf("https://cgm.example/e%d", i+1), site)
		poissonCycles(rng, r, ChoGarciaMolina5Days, func(c int, t float64) { b.change(c, p, t) })
	}
	b.d.Truth.Rates = rates
	return b.finish()
}
