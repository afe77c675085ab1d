package api

import (
	"fmt"
	"math"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

// allocationChart draws, for each page, each policy's syncs per day (the
// plan's, or an adaptive rule's measured rate) with its 95% interval across
// repeats, and the page's change rate (hatched) last.
func allocationChart(res *lab.Result, opts ChartOptions, pols []lab.PolicyResult, styles func(string) *chart.Style, refs []chart.Ref) (figure, error) {
	sres := schedulekind.ResultOf(res)
	if sres == nil || sres.TrueRates == nil {
		return nil, fmt.Errorf("an allocation chart needs a schedule result on at most %d pages", schedulekind.MaxAllocationPages)
	}
	rates := sres.TrueRates
	c := chart.Grouped{
		Title: opts.Title,
		Description: fmt.Sprintf("Syncs per day each policy gives each page, mean over %d repeats with 95%% intervals, beside the page's change rate. %s, %d syncs per day, seed %d.",
			res.Spec.Repeats, res.Dataset.Name, res.Spec.Budget, res.Spec.Seed),
		XLabel: "Page (changes per day)", YLabel: "Syncs per day", Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = "Allocation per page"
	}
	for i, r := range rates {
		c.Groups = append(c.Groups, fmt.Sprintf("e%d (λ=%.3g)", i+1, r))
	}
	name := seriesNames(pols)
	for _, p := range pols {
		sp := schedulekind.PolicyResultOf(p)
		if sp == nil || len(sp.Allocation) != len(rates) {
			continue
		}
		s := chart.GroupSeries{Name: name(p), Key: p.Key(), Style: styles(p.Key())}
		for _, a := range sp.Allocation {
			lo, hi := a.Lo, a.Hi
			if lo != lo { // one repeat, or a fixed plan: no interval
				lo, hi = a.Mean, a.Mean
			}
			s.Values, s.Lo, s.Hi = append(s.Values, a.Mean), append(s.Lo, max(lo, 0)), append(s.Hi, hi)
		}
		c.Series = append(c.Series, s)
	}
	c.Series = append(c.Series, chart.GroupSeries{Name: "Change rate", Values: rates, Style: &chart.Reference})
	return c, nil
}

// exactBarsChart draws a metric per policy beside its exact expectation
// (the metric's Exact fact: a schedule plan's, say), where the policy has
// one: the measured mean with its 95% interval across repeats, then the
// expectation as an open bar. It answers a bars chart with "expected".
func exactBarsChart(res *lab.Result, opts ChartOptions, m lab.Metric, pols []lab.PolicyResult, styles func(string) *chart.Style, ylabel string, yr *chart.Range, refs []chart.Ref) (figure, error) {
	c := chart.Grouped{
		Title: opts.Title,
		Description: fmt.Sprintf("Mean %s of %d policies over %d repeats with 95%% intervals, beside each one's exact expectation where it has one. %s, budget %d, seed %d.",
			m.Name, len(pols), res.Spec.Repeats, res.Dataset.Name, res.Spec.Budget, res.Spec.Seed),
		YLabel: ylabel, YRange: yr, Refs: refs, Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = m.Name + " by policy"
	}
	name := seriesNames(pols)
	sim := chart.GroupSeries{Name: "Simulated"}
	exact := chart.GroupSeries{Name: "Exact expectation", Style: &chart.Style{Open: true}}
	for _, p := range pols {
		c.Groups, c.GroupKeys = append(c.Groups, name(p)), append(c.GroupKeys, p.Key())
		c.GroupStyles = append(c.GroupStyles, styles(p.Key()))
		s := p.Metric(m.ID)
		sim.Values, sim.Lo, sim.Hi = append(sim.Values, s.Mean), append(sim.Lo, s.Lo), append(sim.Hi, s.Hi)
		e, ok := p.Fact(m.Exact)
		if !ok {
			e = math.NaN()
		}
		exact.Values = append(exact.Values, e)
	}
	c.Series = []chart.GroupSeries{sim, exact}
	return c, nil
}
