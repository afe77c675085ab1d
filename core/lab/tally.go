package lab

import (
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// cycleTally gathers one metric of a refresh policy that the simulator
// measures per cycle (refresh.Cycle) over its repeats: each repeat's
// headline, computed from all its cycles, and each cycle's value.
type cycleTally struct {
	id      string
	ofRun   func([]refresh.Cycle) float64
	ofCycle func(refresh.Cycle) float64
	run     []float64   // per repeat
	cycle   [][]float64 // per cycle, per repeat
}

func newCycleTally(id string, repeats, cycles int, ofRun func([]refresh.Cycle) float64, ofCycle func(refresh.Cycle) float64) *cycleTally {
	t := &cycleTally{id: id, ofRun: ofRun, ofCycle: ofCycle, run: make([]float64, repeats), cycle: make([][]float64, cycles)}
	for c := range t.cycle {
		t.cycle[c] = make([]float64, repeats)
	}
	return t
}

// observe records repeat r's cycles.
func (t *cycleTally) observe(r int, cycles []refresh.Cycle) {
	t.run[r] = t.ofRun(cycles)
	for c, cy := range cycles {
		t.cycle[c][r] = t.ofCycle(cy)
	}
}

// into adds the metric's headline, series and per-repeat values to pr.
func (t *cycleTally) into(pr *PolicyResult) {
	pr.Metrics[t.id] = stat.Summarize(t.run)
	pr.Values[t.id] = t.run
	s := make(stat.Series, len(t.cycle))
	for c, xs := range t.cycle {
		s[c] = stat.Summarize(xs)
	}
	pr.Series[t.id] = s
}
