package api

import (
	"fmt"
	"slices"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
)

// Chart types of the monitor kind (Pandey, Ramamritham & Chakrabarti,
// WWW 2003), which names them in its Charts.
const (
	// ChartMonitorEpochs draws a metric per monitored epoch, one line per
	// policy: RIR as re-allocation learns the update probabilities
	// (Figs. 13–14).
	ChartMonitorEpochs = "monitor-epochs"
	// ChartMonitorAllocation draws each policy's tasks per bin of pages in
	// the instance's order, the most dynamic first (Figs. 5 and 7).
	ChartMonitorAllocation = "monitor-allocation"
	// ChartMonitorLosses draws the information lost in allocation beside
	// that lost in scheduling (Fig. 16): per policy, or against the swept
	// field on a result with a sweep.
	ChartMonitorLosses = "monitor-losses"
)

// monitorChartTypes are the monitor kind's chart types; the kind adds
// itself to their Kinds when it registers.
var monitorChartTypes = []ChartType{
	{ID: ChartMonitorEpochs, Kinds: []string{}, Metric: "rir", Help: "A metric per monitored epoch, one line per policy, as re-allocation learns the update probabilities (Pandey et al. Figs. 13–14)."},
	{ID: ChartMonitorAllocation, Kinds: []string{}, Help: "Each policy's monitoring tasks per bin of pages, the most dynamic pages first (Pandey et al. Figs. 5 and 7)."},
	{ID: ChartMonitorLosses, Kinds: []string{}, Help: "The information lost in allocation beside that lost in scheduling, per policy or against the swept field (Pandey et al. Fig. 16)."},
}

// monitorBins is how many bins of pages an allocation chart draws at most
// (the paper's 500 pages in bins of 50).
const monitorBins = 10

// monitorChart draws the monitor chart type opts.Type of res.
func monitorChart(res *lab.Result, opts ChartOptions, m lab.Metric, pols []lab.PolicyResult, styles func(string) *chart.Style, yr *chart.Range, refs []chart.Ref) (figure, error) {
	name := seriesNames(pols)
	setting := fmt.Sprintf("%s, %d monitoring tasks per epoch, %d repeats, seed %d.", res.Dataset.Name, res.Spec.Budget, res.Spec.Repeats, res.Spec.Seed)
	switch opts.Type {
	case ChartMonitorEpochs:
		c := chart.Line{
			Title:       opts.Title,
			Description: fmt.Sprintf("Mean %s in each monitored epoch of %d policies with 95%% intervals across repeats. %s", m.Name, len(pols), setting),
			XLabel:      "Monitored epoch", YLabel: m.Name, YRange: yr, Refs: refs,
			Width: opts.Width, Height: opts.Height,
		}
		if c.Title == "" {
			c.Title = m.Name + " per epoch"
		}
		var err error
		c.Series, err = stepSeries(pols, m, name, styles, "per epoch (expected rir or realisedRir)")
		return c, err
	case ChartMonitorAllocation:
		return monitorAllocationChart(res, opts, pols, name, styles, refs, setting)
	}
	return monitorLossesChart(res, opts, pols, name, styles, refs, setting)
}

// monitorAllocationChart draws each policy's tasks per bin of consecutive
// pages, each bin labelled with its pages and, where known, their
// expected changes in an epoch.
func monitorAllocationChart(res *lab.Result, opts ChartOptions, pols []lab.PolicyResult, name func(lab.PolicyResult) string, styles func(string) *chart.Style, refs []chart.Ref, setting string) (figure, error) {
	n := 0
	for _, p := range pols {
		if mp := monitorkind.PolicyResultOf(p); mp != nil {
			n = len(mp.Tasks)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("a %s chart needs a monitor result with its tasks per page", ChartMonitorAllocation)
	}
	size := (n + monitorBins - 1) / monitorBins
	var changes []float64
	if mr := monitorkind.ResultOf(res); mr != nil && len(mr.Changes) == n {
		changes = mr.Changes
	}
	c := chart.Grouped{
		Title:       opts.Title,
		Description: fmt.Sprintf("Monitoring tasks per epoch each policy gives each bin of %d pages, the most dynamic pages first, mean over repeats. %s", size, setting),
		XLabel:      "Pages (expected changes per epoch)", YLabel: "Monitoring tasks per epoch", Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = "Monitoring tasks per bin of pages"
	}
	for lo := 0; lo < n; lo += size {
		hi := min(lo+size, n)
		label := fmt.Sprintf("%d–%d", lo+1, hi)
		if changes != nil {
			var sum float64
			for _, x := range changes[lo:hi] {
				sum += x
			}
			label += fmt.Sprintf(" (%.3g)", sum)
		}
		c.Groups = append(c.Groups, label)
	}
	for _, p := range pols {
		mp := monitorkind.PolicyResultOf(p)
		if mp == nil || len(mp.Tasks) != n {
			continue
		}
		s := chart.GroupSeries{Name: name(p), Key: p.Key(), Style: styles(p.Key())}
		for lo := 0; lo < n; lo += size {
			var sum float64
			for _, x := range mp.Tasks[lo:min(lo+size, n)] {
				sum += x
			}
			s.Values = append(s.Values, sum)
		}
		c.Series = append(c.Series, s)
	}
	return c, nil
}

// monitorLossesChart draws the expected information lost in allocation
// (1 − RIR) beside that lost in scheduling (RIR − scheduled RIR), the y
// axis fitted to them (the scheduling loss is often a few thousandths): on a
// result with a sweep, two lines per policy against the swept field, the
// scheduling loss thin and hollow in the policy's style; otherwise two
// bars per policy, the scheduling loss open.
func monitorLossesChart(res *lab.Result, opts ChartOptions, pols []lab.PolicyResult, name func(lab.PolicyResult) string, styles func(string) *chart.Style, refs []chart.Ref, setting string) (figure, error) {
	alloc, sched := "lostInAllocation", "lostInScheduling"
	ma, _ := lab.MetricByID(alloc)
	ms, _ := lab.MetricByID(sched)
	if sw := res.Sweep; sw != nil {
		xlabel := lab.FieldLabel(res.Spec, sw.Field)
		c := chart.Line{
			Title:       opts.Title,
			Description: fmt.Sprintf("Expected information lost in allocation and in scheduling against %s, %d values, with 95%% intervals across repeats. %s", xlabel, len(sw.Values), setting),
			XLabel:      xlabel, YLabel: "Information lost", Refs: refs,
			Width: opts.Width, Height: opts.Height,
		}
		if c.Title == "" {
			c.Title = "Information lost in allocation and in scheduling"
		}
		for _, p := range sw.Policies {
			if len(opts.Policies) > 0 && !slices.Contains(opts.Policies, p.Key()) {
				continue
			}
			for _, m := range []lab.Metric{ma, ms} {
				per, ok := p.Metrics[m.ID]
				if !ok {
					continue
				}
				st := styles(p.Key())
				if m.ID == sched {
					st = expectation(st)
				}
				s := chart.Series{Name: p.Name + ": " + lowerFirst(m.Name), Key: p.Key(), Style: st}
				for i, v := range per {
					s.X = append(s.X, sw.Values[i])
					s.Y, s.Lo, s.Hi = append(s.Y, v.Mean), append(s.Lo, max(v.Lo, 0)), append(s.Hi, v.Hi)
				}
				c.Series = append(c.Series, s)
			}
		}
		return c, nil
	}
	c := chart.Grouped{
		Title:       opts.Title,
		Description: fmt.Sprintf("Expected information each policy lost in allocation and in scheduling, mean over repeats with 95%% intervals. %s", setting),
		YLabel:      "Information lost", Refs: refs, Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = "Information lost in allocation and in scheduling"
	}
	a := chart.GroupSeries{Name: ma.Name}
	s := chart.GroupSeries{Name: ms.Name, Style: &chart.Style{Open: true}}
	for _, p := range pols {
		c.Groups, c.GroupKeys = append(c.Groups, name(p)), append(c.GroupKeys, p.Key())
		c.GroupStyles = append(c.GroupStyles, styles(p.Key()))
		for _, x := range []struct {
			g  *chart.GroupSeries
			id string
		}{{&a, alloc}, {&s, sched}} {
			// A loss is at least 0; the t-interval of a mean near 0 may
			// not be, so its whisker is cut there.
			v := p.Metric(x.id)
			x.g.Values, x.g.Lo, x.g.Hi = append(x.g.Values, v.Mean), append(x.g.Lo, max(v.Lo, 0)), append(x.g.Hi, v.Hi)
		}
	}
	c.Series = []chart.GroupSeries{a, s}
	return c, nil
}
