package chart

import (
	"math"
	"slices"
	"strconv"
)

// Table is a chart's data as rows and columns, for readers who want the
// numbers rather than the picture (the page shows it under "Data table").
// Each cell is a value with its 95% interval written as ± the half-width,
// or "–" where there is none.
type Table struct {
	Caption string     `json:"caption"`
	Head    []string   `json:"head"`
	Rows    [][]string `json:"rows"`
}

// cell writes y with the half-width of [lo, hi] when both are finite and
// the interval is wider than rounding noise (identical repeats summed in
// another order differ in the last bits).
func cell(y, lo, hi float64) string {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return "–"
	}
	s := num(y)
	if h := (hi - lo) / 2; !math.IsNaN(h) && !math.IsInf(h, 0) && h > 1e-9*max(1, math.Abs(y)) {
		s += " ± " + strconv.FormatFloat(h, 'g', 2, 64)
	}
	return s
}

// num writes x with four significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

func at(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}

// Table returns the lines' points: one row per x, one column per series.
func (c Line) Table() Table {
	t := Table{Caption: c.Description, Head: []string{c.XLabel}}
	var xs []float64
	for _, s := range c.Series {
		t.Head = append(t.Head, s.Name)
		for _, x := range s.X[:min(len(s.X), len(s.Y))] {
			if !math.IsNaN(x) && !math.IsInf(x, 0) && !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
	}
	slices.Sort(xs)
	for _, x := range xs {
		row := []string{num(x)}
		for _, s := range c.Series {
			v := "–"
			for i := range min(len(s.X), len(s.Y)) {
				if s.X[i] == x && !math.IsNaN(s.Y[i]) {
					v = cell(s.Y[i], at(s.Lo, i), at(s.Hi, i))
					break
				}
			}
			row = append(row, v)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Table returns one row per bar.
func (c Bars) Table() Table {
	t := Table{Caption: c.Description, Head: []string{"", c.YLabel}}
	for _, b := range c.Bars {
		t.Rows = append(t.Rows, []string{b.Label, cell(b.Value, b.Lo, b.Hi)})
	}
	return t
}

// Table returns one row per group, one column per series.
func (c Grouped) Table() Table {
	t := Table{Caption: c.Description, Head: []string{c.XLabel}}
	for _, s := range c.Series {
		t.Head = append(t.Head, s.Name)
	}
	for g, name := range c.Groups {
		row := []string{name}
		for _, s := range c.Series {
			row = append(row, cell(at(s.Values, g), at(s.Lo, g), at(s.Hi, g)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
