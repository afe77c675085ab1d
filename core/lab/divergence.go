package lab

import (
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// divergenceTally gathers MetricDivergence over the repeats of one policy:
// each repeat's mean over its cycles, and each cycle's value per repeat.
type divergenceTally struct {
	mean     []float64   // per repeat
	perCycle [][]float64 // per cycle, per repeat
}

func newDivergenceTally(repeats, cycles int) *divergenceTally {
	t := &divergenceTally{mean: make([]float64, repeats), perCycle: make([][]float64, cycles)}
	for c := range t.perCycle {
		t.perCycle[c] = make([]float64, repeats)
	}
	return t
}

// repeat records repeat r's cycles.
func (t *divergenceTally) repeat(r int, cycles []refresh.Cycle) {
	var sum float64
	for c, cy := range cycles {
		t.perCycle[c][r] = cy.Divergence
		sum += cy.Divergence
	}
	t.mean[r] = sum / float64(len(cycles))
}

// put adds the metric to pr's headlines, values and series.
func (t *divergenceTally) put(pr *PolicyResult) {
	pr.Metrics[MetricDivergence] = stat.Summarize(t.mean)
	pr.Values[MetricDivergence] = t.mean
	s := make(stat.Series, len(t.perCycle))
	for c, x := range t.perCycle {
		s[c] = stat.Summarize(x)
	}
	pr.Series[MetricDivergence] = s
}
