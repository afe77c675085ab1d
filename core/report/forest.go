package report

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/lab"
)

// Forest returns the report's forest plot: a row per policy in rank order,
// its mean as a point and its 95% interval as a line in the policy's own
// style (oracles hollow), the reference in bold with a dashed vertical line at its
// mean, and each row's numbers on the right. title "" gives the default;
// width 0 the chart package's.
func (r *Report) Forest(title string, width int) chart.Forest {
	dec := r.decimals()
	n := 0
	for _, row := range r.Rows {
		n = max(n, row.Value.N)
	}
	c := chart.Forest{
		Title:       cmpOr(title, r.Metric.Name+" by policy, ranked"),
		Description: r.caption(),
		XLabel:      fmt.Sprintf("%s, mean over %s with 95%% intervals (%s is better)", r.headline(), count(n, "repeat", "repeats"), r.Metric.Better),
		Width:       width,
	}
	specs := make([]lab.PolicySpec, len(r.Rows))
	for i, row := range r.Rows {
		specs[i] = lab.PolicySpec{ID: row.ID}
		if row.Key != row.ID {
			specs[i].Label = row.Key
		}
	}
	styles := lab.SeriesStyles(specs)
	for _, row := range r.Rows {
		st := styles[row.Key]
		note := number(row.Value.Mean, dec, "−")
		if iv := interval(row.Value.Lo, row.Value.Hi, dec, "−"); iv != "–" {
			note += " " + iv
		}
		c.Rows = append(c.Rows, chart.ForestRow{
			Label: row.Name, Key: row.Key, Value: row.Value.Mean, Lo: row.Value.Lo, Hi: row.Value.Hi,
			Style: &st, Bold: row.Key == r.Reference, Note: note,
		})
		if row.Key == r.Reference {
			c.Ref = &chart.ForestRef{X: row.Value.Mean, Label: fmt.Sprintf("Dashed line: %s, the reference (%s)", row.Name, number(row.Value.Mean, dec, "−"))}
		}
	}
	return c
}
