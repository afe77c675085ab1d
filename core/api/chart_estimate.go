package api

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
)

// pathLines is how many of the paths Fig. 2 draws as lines; the edge cases
// of all of them are marked.
const pathLines = 6

// estimateChart draws the estimate kind's charts.
func estimateChart(res *lab.Result, opts ChartOptions, m lab.Metric, refs []chart.Ref) (figure, error) {
	var pols []lab.PolicyResult
	for _, p := range res.Policies {
		if estimatekind.PolicyResultOf(p) != nil && (len(opts.Policies) == 0 || slices.Contains(opts.Policies, p.ID)) {
			pols = append(pols, p)
		}
	}
	if len(pols) == 0 {
		return nil, fmt.Errorf("a %s chart needs an estimate result (kind %q)", opts.Type, estimatekind.ID)
	}
	es := estimatekind.SpecOf(res.Spec)
	if es == nil {
		es = &estimatekind.Spec{}
	}
	crawl := fmt.Sprintf("%s crawl from %s", es.Crawl.Mode, estimatekind.DaysText(es.Crawl.Initial))
	if es.Crawl.Mode == estimatekind.CrawlSequential {
		crawl += fmt.Sprintf(", next interval %g × the estimated period", es.Crawl.Fraction)
	}
	if es.Every > 0 {
		crawl = fmt.Sprintf("real histories observed every %d %ss", es.Every, res.Dataset.CycleUnit)
	}
	about := fmt.Sprintf("%s; %d pages, %s, %d repeats, seed %d.", res.Dataset.Name, es.Pages, crawl, res.Spec.Repeats, res.Spec.Seed)
	switch opts.Type {
	case ChartEstimatePaths:
		return pathsChart(pols[0], opts, refs, about)
	case ChartEstimateSweep:
		return estimateSweepChart(res, opts, m, policyStyles(res.Policies), refs, about)
	case ChartEstimatePrior:
		return priorChart(pols, opts, refs, about)
	default:
		return epochsChart(res, pols, opts, m, policyStyles(res.Policies), refs, about)
	}
}

// pathsChart is Fig. 2: the estimated change period in hours after each
// epoch, for pathLines of the paths (spread over their initial intervals),
// and the edge-case estimates of every path as dots.
func pathsChart(p lab.PolicyResult, opts ChartOptions, refs []chart.Ref, about string) (figure, error) {
	paths := estimatekind.PolicyResultOf(p).Paths
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s has no estimation paths", p.Name)
	}
	c := chart.Line{
		Title: opts.Title,
		Description: fmt.Sprintf("Estimated change period after each crawl epoch for %d single-page paths of %s started from different initial intervals (%d drawn as lines); "+
			"dots mark estimates in an edge case, no change observed or every interval changed. %s", len(paths), p.Name, min(pathLines, len(paths)), about),
		XLabel: "Crawl epoch", YLabel: "Estimated change period (hours)", Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = "Estimation paths of " + p.Name
	}
	if rate := paths[0].Rate; rate > 0 && len(refs) == 0 && slices.IndexFunc(paths, func(q estimatekind.Path) bool { return q.Rate != rate }) < 0 {
		c.Refs = append(c.Refs, chart.Ref{Y: 24 / rate, Label: fmt.Sprintf("true period %.3g h", 24/rate)})
	}
	n := min(pathLines, len(paths))
	for k := range n {
		i := len(paths) - 1
		if n > 1 {
			i = int(math.Round(float64(k*(len(paths)-1)) / float64(n-1)))
		}
		q := paths[i]
		s := chart.Series{Name: fmt.Sprintf("start %s", estimatekind.DaysText(q.Initial))}
		for e, st := range q.Steps {
			s.X = append(s.X, float64(e+1))
			s.Y = append(s.Y, period(st.Rate))
		}
		c.Series = append(c.Series, s)
	}
	// Edge cases as isolated points on their paths: each point is followed
	// by a gap at the same x, and the chart sorts points stably by x, so no
	// two are joined by a line.
	dot := func(name, edge string) chart.Series {
		s := chart.Series{Name: name}
		for _, q := range paths {
			for e, st := range q.Steps {
				if st.Edge == edge {
					x := float64(e + 1)
					s.X, s.Y = append(s.X, x, x), append(s.Y, period(st.Rate), math.NaN())
				}
			}
		}
		return s
	}
	c.Series = append(c.Series, dot("no change observed", "noChange"), dot("every interval changed", "allChanged"))
	return c, nil
}

// estimateAxis labels an axis of an estimate metric, with its unit.
func estimateAxis(m lab.Metric) string {
	switch m.Unit {
	case "per day":
		return m.Name + " (changes per day)"
	case "hour":
		return m.Name + " (hours)"
	}
	return m.Name
}

// period is 24/λ in hours, NaN for a zero rate.
func period(rate float64) float64 {
	if !(rate > 0) {
		return math.NaN()
	}
	return 24 / rate
}

// estimateSweepChart is Fig. 4: the metric (MAD over the first epochs)
// against the swept estimate field, each estimator whose line varies with
// its minimum marked.
func estimateSweepChart(res *lab.Result, opts ChartOptions, m lab.Metric, styles func(string) *chart.Style, refs []chart.Ref, about string) (figure, error) {
	sw := res.Sweep
	if sw == nil {
		return nil, fmt.Errorf("an %s chart needs a result with a sweep, such as of estimate.crawl.initial", ChartEstimateSweep)
	}
	xlabel := lab.FieldLabel(res.Spec, sw.Field)
	if sw.Field == "estimate.crawl.initial" {
		xlabel = "Initial crawl interval (days)"
	}
	ylabel := estimateAxis(m)
	pool := 0
	if estimatekind.SpecOf(res.Spec) != nil {
		pool = estimatekind.SpecOf(res.Spec).Pool
	}
	c := chart.Line{
		Title:       opts.Title,
		Description: fmt.Sprintf("%s over the first %d crawl epochs against %s, %d values, with 95%% intervals across repeats; the vertical lines mark each varying line's minimum. %s", m.Name, pool, xlabel, len(sw.Values), about),
		XLabel:      xlabel, YLabel: ylabel, Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if m.Max == 1 && !opts.Fit {
		c.YRange = &chart.Range{Min: 0, Max: 1}
	}
	if c.Title == "" {
		c.Title = fmt.Sprintf("%s against %s", m.Name, strings.ToLower(xlabel))
	}
	for _, p := range sw.Policies {
		if len(opts.Policies) > 0 && !slices.Contains(opts.Policies, p.ID) {
			continue
		}
		per, ok := p.Metrics[m.ID]
		if !ok {
			continue
		}
		key := lab.PolicySpec{ID: p.ID, Label: p.Label}.Key()
		s := chart.Series{Name: p.Name, Key: key, Style: styles(key)}
		for i, v := range per {
			s.X = append(s.X, sw.Values[i])
			s.Y, s.Lo, s.Hi = append(s.Y, v.Mean), append(s.Lo, v.Lo), append(s.Hi, v.Hi)
		}
		c.Series = append(c.Series, s)
		if i, ok := argmin(per); ok && varies(per) {
			c.Marks = append(c.Marks, chart.Mark{X: sw.Values[i], Label: fmt.Sprintf("%s minimum at %.3g", p.Name, sw.Values[i])})
		}
	}
	c.Marks = currentMark(res, c.Marks)
	return c, nil
}

// argmin returns the index of the smallest finite mean.
func argmin(s stat.Series) (int, bool) {
	best, at := math.Inf(1), -1
	for i, v := range s {
		if v.Mean < best {
			best, at = v.Mean, i
		}
	}
	return at, at >= 0
}

// varies reports whether the means of s differ: a line flat along the
// sweep (an estimator that ignores the swept field) has no minimum.
func varies(s stat.Series) bool {
	for _, v := range s[1:] {
		if v.Mean != s[0].Mean {
			return true
		}
	}
	return false
}

// priorChart is Fig. 6: the empirical distribution of change periods and
// the prior the pseudo-intervals induce, per day of period up to the end of
// the hourly bins (the probability of each day summed over its 24 1-hour
// bins, so the two lines are comparable and readable at 1,000 pages).
func priorChart(pols []lab.PolicyResult, opts ChartOptions, refs []chart.Ref, about string) (figure, error) {
	var pr *estimatekind.Prior
	name := ""
	for _, p := range pols {
		if q := estimatekind.PolicyResultOf(p).Prior; q != nil && (pr == nil || q.Induced != nil && pr.Induced == nil) {
			pr, name = q, p.Name
		}
	}
	if pr == nil {
		return nil, fmt.Errorf("a %s chart needs an estimator with a prior, such as pseudo-mle", ChartEstimatePrior)
	}
	perDay := func(mass []float64) chart.Series {
		var s chart.Series
		for k, x := range mass {
			if pr.Edges[k+1] > estimatekind.PriorHourlyDays+1e-9 {
				break
			}
			d := math.Floor(pr.Edges[k] + 1e-9)
			if len(s.X) == 0 || s.X[len(s.X)-1] != d+0.5 {
				s.X, s.Y = append(s.X, d+0.5), append(s.Y, 0)
			}
			s.Y[len(s.Y)-1] += x
		}
		return s
	}
	emp := perDay(pr.Empirical)
	emp.Name = "empirical p(Δ)"
	c := chart.Line{
		Title:       opts.Title,
		Description: fmt.Sprintf("Probability of each day of change period, summed over 1-hour bins: the empirical distribution of the pages' periods and the prior induced by %s's two pseudo-intervals. %s", name, about),
		XLabel:      "Change period Δ (days)", YLabel: "Probability per day of Δ", Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	c.Series = append(c.Series, emp)
	if pr.Induced != nil {
		ind := perDay(pr.Induced)
		ind.Name = "induced by the pseudo-intervals"
		c.Description += fmt.Sprintf(" Pseudo-intervals: %s changed, %s unchanged.", estimatekind.DaysText(pr.Changed), estimatekind.DaysText(pr.Unchanged))
		c.Series = append(c.Series, ind)
	}
	if c.Title == "" {
		c.Title = "Empirical prior and the pseudo-intervals' prior"
	}
	return c, nil
}

// epochsChart is Fig. 7 (and the naive lesson's drift): a metric per epoch.
func epochsChart(res *lab.Result, pols []lab.PolicyResult, opts ChartOptions, m lab.Metric, styles func(string) *chart.Style, refs []chart.Ref, about string) (figure, error) {
	if !m.AppliesTo(estimatekind.ID) {
		return nil, fmt.Errorf("an %s chart draws an estimate metric per epoch (%s), not %s", ChartEstimateEpochs, lab.MetricIDs(estimatekind.ID), m.ID)
	}
	ylabel := estimateAxis(m)
	c := chart.Line{
		Title:       opts.Title,
		Description: fmt.Sprintf("%s after each crawl epoch, mean over repeats with 95%% intervals. %s", m.Name, about),
		XLabel:      "Crawl epoch", YLabel: ylabel, Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if m.Max == 1 && !opts.Fit {
		c.YRange = &chart.Range{Min: 0, Max: 1}
	}
	if c.Title == "" {
		c.Title = m.Name + " per crawl epoch"
	}
	for _, p := range pols {
		per, name := p.Series[m.ID], p.Name
		if b := estimatekind.PolicyResultOf(p).Best; b != nil && m.ID == estimatekind.MetricMAD {
			per, name = b.MADSeries, fmt.Sprintf("%s, best initial interval %s", p.Name, estimatekind.DaysText(b.Initial))
		}
		s := chart.Series{Name: name, Key: p.Key(), Style: styles(p.Key())}
		for e, v := range per {
			s.X = append(s.X, float64(e+1))
			s.Y, s.Lo, s.Hi = append(s.Y, v.Mean), append(s.Lo, v.Lo), append(s.Hi, v.Hi)
		}
		c.Series = append(c.Series, s)
		if opts.Expected && m.ID == estimatekind.MetricRateEstimate && estimatekind.PolicyResultOf(p).Expected != nil {
			x := chart.Series{Name: p.Name + " (exact expectation)", Key: p.Key(), Style: expectation(s.Style)}
			for e, v := range estimatekind.PolicyResultOf(p).Expected {
				x.X, x.Y = append(x.X, float64(e+1)), append(x.Y, v)
			}
			c.Series = append(c.Series, x)
		}
	}
	if m.ID == estimatekind.MetricRateEstimate && len(refs) == 0 && estimatekind.PolicyResultOf(pols[0]).TrueRate > 0 {
		c.Refs = append(c.Refs, chart.Ref{Y: estimatekind.PolicyResultOf(pols[0]).TrueRate, Label: fmt.Sprintf("true rate %g per day", estimatekind.PolicyResultOf(pols[0]).TrueRate)})
	}
	return c, nil
}
