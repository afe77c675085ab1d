package pipeline

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
)

const day = int64(86400e9)

// TestHistory checks the order, the changes and the merging of captures
// at one instant.
func TestHistory(t *testing.T) {
	c := func(t int64, changed bool, digest uint64, file uint64, line int) dataset.Capture {
		return dataset.Capture{Time: t, Changed: changed, Hashed: digest != 0, Digest: digest, File: file, Line: line}
	}
	for _, tc := range []struct {
		name string
		in   []dataset.Capture
		want []Observation
	}{
		{"flags, out of order", []dataset.Capture{c(2*day, true, 0, 0, 3), c(0, true, 0, 0, 1), c(day, false, 0, 0, 2)},
			[]Observation{{day, 1, false}, {2 * day, 1, true}}},
		{"digests", []dataset.Capture{c(0, false, 7, 0, 1), c(day, false, 7, 0, 2), c(3*day, false, 8, 0, 3), c(4*day, false, 7, 0, 4)},
			[]Observation{{day, 1, false}, {3 * day, 2, true}, {4 * day, 1, true}}},
		{"ties by file then line", []dataset.Capture{c(0, false, 1, 0, 1), c(day, false, 3, 2, 1), c(day, false, 2, 1, 9), c(2*day, false, 3, 0, 2)},
			[]Observation{{day, 1, true}, {2 * day, 1, false}}},
		{"one instant: a change joins the interval ending there", []dataset.Capture{c(0, false, 0, 0, 1), c(day, false, 0, 0, 2), c(day, true, 0, 0, 3)},
			[]Observation{{day, 1, true}}},
		{"a change at the first instant is lost", []dataset.Capture{c(0, false, 0, 0, 1), c(0, true, 0, 0, 2), c(day, false, 0, 0, 3)},
			[]Observation{{day, 1, false}}},
		{"one capture", []dataset.Capture{c(0, true, 0, 0, 1)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := History(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("%v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%v, want %v", got, tc.want)
				}
			}
		})
	}
}

// TestEstimate checks a page's row against the estimators run by hand.
func TestEstimate(t *testing.T) {
	cs := []dataset.Capture{{URL: "u", Site: "s", Time: 0}, {URL: "u", Site: "s", Time: day, Changed: true},
		{URL: "u", Site: "s", Time: 3 * day}, {URL: "u", Site: "s", Time: 4 * day, Changed: true}}
	var h estimate.History
	for _, o := range []struct {
		t float64
		c bool
	}{{1, true}, {2, false}, {1, true}} {
		_ = h.Add(o.t, o.c)
	}
	p, _ := Estimate("k", cs, estimate.MLE{})
	lo, hi := estimate.LikelihoodInterval(&h)
	want := PageRate{Page: "k", URL: "u", Site: "s", Rate: estimate.MLE{}.Estimate(&h).Rate, Low: lo, High: hi,
		Captures: 4, Observations: 3, Changes: 2, First: 0, Last: 4 * day}
	if p != want {
		t.Fatalf("%+v, want %+v", p, want)
	}
	prior := estimate.PseudoMLE{Changed: 1, Unchanged: 2}
	if p, _ := Estimate("k", cs, prior); p.Rate != prior.Estimate(&h).Rate || p.Edge != "" {
		t.Fatalf("with a prior: %+v", p)
	}
	if p, _ := Estimate("k", cs[:2], estimate.MLE{}); p.Edge != estimate.AllChanged.String() || !math.IsInf(p.High, 1) {
		t.Fatalf("every interval changed: %+v", p)
	}
}

// TestAllocate checks the shares of a stratified sample.
func TestAllocate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sizes map[string]int
		n     int
		want  map[string]int
	}{
		{"proportional", map[string]int{"a": 60, "b": 30, "c": 10}, 10, map[string]int{"a": 6, "b": 3, "c": 1}},
		{"largest remainder", map[string]int{"a": 5, "b": 3, "c": 2}, 4, map[string]int{"a": 2, "b": 1, "c": 1}},
		{"ties by name", map[string]int{"b": 1, "a": 1, "c": 1}, 2, map[string]int{"a": 1, "b": 1, "c": 0}},
		{"all", map[string]int{"a": 2, "b": 1}, 5, map[string]int{"a": 2, "b": 1}},
		{"none", map[string]int{"a": 2}, 0, map[string]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Allocate(tc.sizes, tc.n); !maps.Equal(got, tc.want) {
				t.Fatalf("%v, want %v", got, tc.want)
			}
		})
	}
}

// TestRateHist checks the bins and quantiles of the rate distribution.
func TestRateHist(t *testing.T) {
	var h, a, b RateHist
	for i, r := range []float64{0, 0.01, 0.1, 0.1, 1, 2, 1e5} {
		h.Add(r)
		if i%2 == 0 {
			a.Add(r)
		} else {
			b.Add(r)
		}
	}
	a.Merge(b)
	if !slices.Equal(a.Counts, h.Counts) {
		t.Fatalf("merged %v, want %v", a.Counts, h.Counts)
	}
	for _, tc := range []struct{ q, lo, hi float64 }{{0.1, 0, 0}, {0.5, 0.1, 0.1 * math.Pow(10, 0.1)}, {0.7, 1, math.Pow(10, 0.1)}, {1, MaxRate, MaxRate}} {
		got := h.Quantile(tc.q)
		if got < tc.lo || got > tc.hi {
			t.Errorf("quantile %v = %v, want in [%v, %v]", tc.q, got, tc.lo, tc.hi)
		}
	}
	total := int64(0)
	for _, bin := range h.Bins() {
		total += bin.Pages
	}
	if total != 7 {
		t.Errorf("bins hold %d pages, want 7", total)
	}
}
