package lab

import (
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// rirTally gathers a refresh policy's RIR (MetricCaughtRIR) over its
// repeats: each repeat's RIR of the whole run (refresh.RunRIR, the changes
// caught over those that happened, summed over the cycles) and each
// cycle's (refresh.Cycle.RIR, the share of that cycle's changes caught by
// the end of the run).
type rirTally struct {
	run   []float64   // per repeat
	cycle [][]float64 // per cycle, per repeat
}

func newRIRTally(repeats, cycles int) *rirTally {
	t := &rirTally{run: make([]float64, repeats), cycle: make([][]float64, cycles)}
	for c := range t.cycle {
		t.cycle[c] = make([]float64, repeats)
	}
	return t
}

// observe records repeat r's cycles.
func (t *rirTally) observe(r int, cycles []refresh.Cycle) {
	t.run[r] = refresh.RunRIR(cycles)
	for c, cy := range cycles {
		t.cycle[c][r] = cy.RIR()
	}
}

// into adds the metric's headline, series and per-repeat values to pr.
func (t *rirTally) into(pr *PolicyResult) {
	pr.Metrics[MetricCaughtRIR] = stat.Summarize(t.run)
	pr.Values[MetricCaughtRIR] = t.run
	s := make(stat.Series, len(t.cycle))
	for c, xs := range t.cycle {
		s[c] = stat.Summarize(xs)
	}
	pr.Series[MetricCaughtRIR] = s
}
