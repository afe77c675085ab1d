package lab

import "github.com/refreshlab/refreshlab/core/refresh"

// newRIRTally gathers a refresh policy's RIR (MetricCaughtRIR) over its
// repeats: each repeat's RIR of the whole run (refresh.RunRIR, the changes
// caught over those that happened, summed over the cycles) and each
// cycle's (refresh.Cycle.RIR, the share of that cycle's changes caught by
// the end of the run).
func newRIRTally(repeats, cycles int) *cycleTally {
	return newCycleTally(MetricCaughtRIR, repeats, cycles, refresh.RunRIR, refresh.Cycle.RIR)
}
