// Package stat holds the statistics the lab shares: the summary of a metric
// across an experiment's repeats (its mean and the 95% confidence interval
// of that mean); the normal and Student-t quantiles and Wilson's interval
// for a proportion, behind intervals and sampling decisions. All give the
// same bits natively and in WebAssembly.
package stat

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"
)

// Level is the confidence level of every interval the lab reports.
const Level = 0.95

// Summary is the mean of n observations with its confidence interval. Lo and
// Hi are NaN when fewer than two observations make an interval impossible;
// all three are NaN when there are none. NaN is written as JSON null.
type Summary struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	SD   float64 `json:"sd"` // sample standard deviation of the observations
	N    int     `json:"n"`
}

// Summarize returns the mean of xs, skipping NaN, and its Student-t 95%
// confidence interval mean ± t(0.975, n−1)·s/√n. Repeats are independent
// runs with their own random streams, so the interval is the textbook one.
func Summarize(xs []float64) Summary {
	var n int
	var sum float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			n++
			sum += x
		}
	}
	s := Summary{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), SD: math.NaN(), N: n}
	if n == 0 {
		return s
	}
	s.Mean = sum / float64(n)
	if n < 2 {
		return s
	}
	var ss float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			d := x - s.Mean
			ss += d * d
		}
	}
	s.SD = math.Sqrt(ss / float64(n-1))
	h := halfWidth(n-1) * s.SD / math.Sqrt(float64(n))
	s.Lo, s.Hi = s.Mean-h, s.Mean+h
	return s
}

// halfWidth returns t((1+Level)/2, df), the half-width factor of the
// interval with df degrees of freedom. Values are computed once per df and
// kept: a run summarises many series with the same number of repeats.
func halfWidth(df int) float64 {
	tMu.Lock()
	defer tMu.Unlock()
	if q, ok := tCache[df]; ok {
		return q
	}
	q := TQuantile((1+Level)/2, df)
	if len(tCache) < 1024 {
		tCache[df] = q
	}
	return q
}

var (
	tMu    sync.Mutex
	tCache = map[int]float64{}
)

// MarshalJSON writes NaN fields as null, since JSON has no NaN. Numbers are
// written as encoding/json writes float64s; a result holds thousands of
// summaries, so this avoids reflection.
func (s Summary) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 96)
	b = append(b, `{"mean":`...)
	b = appendFloat(b, s.Mean)
	b = append(b, `,"lo":`...)
	b = appendFloat(b, s.Lo)
	b = append(b, `,"hi":`...)
	b = appendFloat(b, s.Hi)
	b = append(b, `,"sd":`...)
	b = appendFloat(b, s.SD)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(s.N), 10)
	return append(b, '}'), nil
}

// appendFloat appends x as encoding/json formats a float64, or null.
func appendFloat(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	abs := math.Abs(x)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, x, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// UnmarshalJSON reads null fields as NaN.
func (s *Summary) UnmarshalJSON(b []byte) error {
	var v struct {
		Mean, Lo, Hi, SD *float64
		N                int
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s.Mean, s.Lo, s.Hi, s.SD, s.N = orNaN(v.Mean), orNaN(v.Lo), orNaN(v.Hi), orNaN(v.SD), v.N
	return nil
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// Series is a metric's summaries along the cycles of a run (or the values
// of a sweep). Its JSON is by column, {"mean": [...], "lo": [...],
// "hi": [...], "sd": [...], "n": [...]}, NaN as null: a third the size of a
// list of objects, and quick to write and to read.
type Series []Summary

// MarshalJSON writes s by column.
func (s Series) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 24+len(s)*90)
	col := func(name string, f func(Summary) float64) {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":[`...)
		for i, x := range s {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, f(x))
		}
		b = append(b, ']')
	}
	b = append(b, '{')
	col("mean", func(x Summary) float64 { return x.Mean })
	b = append(b, ',')
	col("lo", func(x Summary) float64 { return x.Lo })
	b = append(b, ',')
	col("hi", func(x Summary) float64 { return x.Hi })
	b = append(b, ',')
	col("sd", func(x Summary) float64 { return x.SD })
	b = append(b, `,"n":[`...)
	for i, x := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x.N), 10)
	}
	return append(b, "]}"...), nil
}

// UnmarshalJSON reads s by column; the columns must have equal lengths.
func (s *Series) UnmarshalJSON(b []byte) error {
	var v struct {
		Mean, Lo, Hi, SD []*float64
		N                []int
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n := len(v.Mean)
	if len(v.Lo) != n || len(v.Hi) != n || len(v.SD) != n || len(v.N) != n {
		return errors.New("stat: a series' columns have different lengths")
	}
	out := make(Series, n)
	for i := range out {
		out[i] = Summary{Mean: orNaN(v.Mean[i]), Lo: orNaN(v.Lo[i]), Hi: orNaN(v.Hi[i]), SD: orNaN(v.SD[i]), N: v.N[i]}
	}
	*s = out
	return nil
}
