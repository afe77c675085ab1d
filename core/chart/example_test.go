package chart_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/refreshlab/refreshlab/core/chart"
)

// ExampleLine draws the freshness of two policies over ten cycles, with
// 95% intervals, a fixed 0..1 axis, and a reference value from a paper.
func ExampleLine() {
	c := chart.Line{
		Title:       "Freshness per cycle",
		Description: "Mean freshness per cycle of two policies with 95% intervals across repeats.",
		XLabel:      "Cycle",
		YLabel:      "Freshness",
		YRange:      &chart.Range{Min: 0, Max: 1},
		Refs:        []chart.Ref{{Y: 0.66, Label: "paper: 0.66"}},
	}
	for i, name := range []string{"Uniform", "Oracle"} {
		s := chart.Series{Name: name}
		if name == "Oracle" { // reads the truth: hollow points
			s.Style = &chart.Style{Color: 3, Dash: 1, Open: true}
		}
		for cycle := 1; cycle <= 10; cycle++ {
			y := (0.5 + 0.3*float64(i)) * (1 - math.Exp(-float64(cycle)/3))
			s.X = append(s.X, float64(cycle))
			s.Y = append(s.Y, y)
			s.Lo = append(s.Lo, y-0.05)
			s.Hi = append(s.Hi, y+0.05)
		}
		c.Series = append(c.Series, s)
	}
	svg, err := c.SVG()
	if err != nil {
		panic(err)
	}
	// svg is a standalone document: serve it as image/svg+xml, save it
	// as a file, or put it inline in HTML.
	fmt.Println(strings.HasPrefix(string(svg), "<svg "), strings.Contains(string(svg), `role="img"`))
	// Output: true true
}

// ExampleGrouped compares the real change rate of three sites with the
// estimates of two policies: one group per site, one bar per series. The
// truth takes the Reference style; a NaN leaves a site without a bar.
func ExampleGrouped() {
	c := chart.Grouped{
		Title:       "Estimated vs real change rate per site",
		Description: "Change rate per site: the truth and two policies' estimates with 95% intervals.",
		XLabel:      "Site",
		YLabel:      "Changes per day",
		ID:          "sites", // element ids start with this, for several charts on one page
		Groups:      []string{"news.example.org", "blog.example.com", "shop.example.net"},
		Series: []chart.GroupSeries{
			{Name: "Truth", Values: []float64{0.42, 0.09, 0.23}, Style: &chart.Reference},
			{Name: "Naive", Values: []float64{0.29, 0.09, 0.22}, Lo: []float64{0.24, 0.05, 0.15}, Hi: []float64{0.35, 0.13, 0.3}},
			{Name: "Poisson", Values: []float64{0.38, math.NaN(), 0.27}, Lo: []float64{0.3, math.NaN(), 0.19}, Hi: []float64{0.45, math.NaN(), 0.36}},
		},
	}
	svg, err := c.SVG()
	if err != nil {
		panic(err)
	}
	// The description starts with the caller's text and goes on with an
	// automatic summary of the groups and values, for screen readers.
	s := string(svg)
	fmt.Println(strings.HasPrefix(s, "<svg "), strings.Contains(s, `role="img"`))
	fmt.Println(s[strings.Index(s, "<desc"):strings.Index(s, " Grouped bar chart")])
	fmt.Println(s[strings.Index(s, "Grouped bar chart"):strings.Index(s, " Truth:")])
	// Output:
	// true true
	// <desc id="sites-desc">Change rate per site: the truth and two policies&#39; estimates with 95% intervals.
	// Grouped bar chart with 3 groups of 3 bars. Groups: Site. Vertical axis: Changes per day.
}
