package lab

import "github.com/refreshlab/refreshlab/core/refresh"

// newDivergenceTally gathers MetricDivergence over the repeats of one
// policy: each repeat's mean over its cycles, and each cycle's value.
func newDivergenceTally(repeats, cycles int) *cycleTally {
	return newCycleTally(MetricDivergence, repeats, cycles, meanDivergence, func(c refresh.Cycle) float64 { return c.Divergence })
}

// meanDivergence is the mean of the cycles' divergence.
func meanDivergence(cycles []refresh.Cycle) float64 {
	var sum float64
	for _, cy := range cycles {
		sum += cy.Divergence
	}
	return sum / float64(len(cycles))
}
