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
		s := chart.Series{Name: name, Dashed: name == "Oracle"}
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
