package chart

import (
	"math"
	"reflect"
	"testing"
)

func TestTables(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		got  Table
		want Table
	}{
		{
			name: "line: a row per x, in order, across series with different xs",
			got: Line{Description: "d", XLabel: "cycle", Series: []Series{
				{Name: "a", X: []float64{2, 1}, Y: []float64{0.5, 0.25}, Lo: []float64{0.4, 0.25}, Hi: []float64{0.6, 0.25}},
				{Name: "b", X: []float64{1, 3}, Y: []float64{nan, 1}},
			}}.Table(),
			want: Table{Caption: "d", Head: []string{"cycle", "a", "b"}, Rows: [][]string{
				{"1", "0.25", "–"}, {"2", "0.5 ± 0.1", "–"}, {"3", "–", "1"},
			}},
		},
		{
			name: "bars: a row per bar; rounding noise is no interval",
			got: Bars{YLabel: "ChangeRatio", Bars: []Bar{
				{Label: "x", Value: 1.4, Lo: 1.4 - 2e-16, Hi: 1.4 + 2e-16},
				{Label: "y", Value: nan, Lo: nan, Hi: nan},
				{Label: "z", Value: 0.123456, Lo: 0.1, Hi: 0.15},
			}}.Table(),
			want: Table{Head: []string{"", "ChangeRatio"}, Rows: [][]string{{"x", "1.4"}, {"y", "–"}, {"z", "0.1235 ± 0.025"}}},
		},
		{
			name: "grouped: a row per group, missing values as dashes",
			got: Grouped{XLabel: "Site", Groups: []string{"s1", "s2"}, Series: []GroupSeries{
				{Name: "truth", Values: []float64{0.7, 0.3}},
				{Name: "greedy", Values: []float64{0.65}, Lo: []float64{0.6}, Hi: []float64{0.7}},
			}}.Table(),
			want: Table{Head: []string{"Site", "truth", "greedy"}, Rows: [][]string{{"s1", "0.7", "0.65 ± 0.05"}, {"s2", "0.3", "–"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got  %q\nwant %q", tt.got, tt.want)
			}
		})
	}
}
