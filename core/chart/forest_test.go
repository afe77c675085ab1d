package chart

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sampleForest is a realistic forest plot: policies ranked by ChangeRatio,
// two oracles drawn hollow, the reference in bold with a line at its
// value, a label long enough to wrap, and notes.
func sampleForest() Forest {
	return Forest{
		Title:       "ChangeRatio by policy",
		Description: "ChangeRatio of 6 policies, mean over 10 repeats with 95% intervals, ranked.",
		XLabel:      "ChangeRatio (mean over 10 repeats, 95% interval)",
		Ref:         &ForestRef{X: 0.483, Label: "Dashed line: Site sampling, adaptive, the reference (0.483)"},
		Rows: []ForestRow{
			{Label: "Oracle (perfect foresight)", Value: 1, Lo: nan, Hi: nan, Style: &Style{Color: 3, Dash: 3, Open: true}, Note: "1.000"},
			{Label: "Schedule from rates (true rates)", Value: 0.586, Lo: 0.585, Hi: 0.587, Style: &Style{Color: 1, Dash: 2, Marker: 2, Open: true}, Note: "0.586 [0.585, 0.587]"},
			{Label: "Site sampling, adaptive", Value: 0.483, Lo: 0.473, Hi: 0.493, Bold: true, Note: "0.483 [0.473, 0.493]"},
			{Label: "Crawler re-visit rule", Value: 0.465, Lo: 0.458, Hi: 0.471, Note: "0.465 [0.458, 0.471]"},
			{Label: "Category sampling, proportional, on a very long list of feature sets", Value: 0.233, Lo: 0.229, Hi: 0.236, Note: "0.233 [0.229, 0.236]"},
			{Label: "Random", Value: 0.233, Lo: 0.226, Hi: 0.239, Note: "0.233 [0.226, 0.239]"},
		},
	}
}

// forestCases are inputs every forest plot must survive.
func forestCases() []struct {
	name   string
	c      Forest
	noData bool
} {
	var many Forest
	for i := range 60 {
		many.Rows = append(many.Rows, ForestRow{Label: fmt.Sprintf("policy %d %s", i, long[:i%50]), Value: float64(i%17) - 8, Lo: float64(i%17) - 9, Hi: float64(i%17) - 7})
	}
	return []struct {
		name   string
		c      Forest
		noData bool
	}{
		{"zero value", Forest{}, true},
		{"all NaN", Forest{Rows: []ForestRow{{Label: "a", Value: nan}, {Label: "b", Value: inf}}}, true},
		{"single", Forest{Rows: []ForestRow{{Label: "a", Value: 0.4, Lo: 0.3, Hi: 0.5}}}, false},
		{"constant", Forest{Rows: []ForestRow{{Label: "a", Value: 2, Lo: nan, Hi: nan}, {Label: "b", Value: 2, Lo: 2, Hi: 2}}}, false},
		{"some NaN", Forest{Rows: []ForestRow{{Label: "a", Value: nan}, {Label: "b", Value: 1, Lo: nan, Hi: 2}, {Label: "c", Value: 2, Lo: 3, Hi: 1}}, Ref: &ForestRef{X: nan, Label: "x"}}, false},
		{"huge", Forest{Rows: []ForestRow{{Label: "a", Value: math.MaxFloat64, Lo: -math.MaxFloat64, Hi: math.MaxFloat64}, {Label: "b", Value: -1e300}}}, false},
		{"tiny", Forest{Rows: []ForestRow{{Label: "a", Value: 1e-300}, {Label: "b", Value: 5e-324}}}, false},
		{"long words", Forest{Title: long, XLabel: long, Ref: &ForestRef{X: 1, Label: long}, Rows: []ForestRow{{Label: strings.Repeat("Unbreakable", 30), Value: 1, Note: long}, {Label: long, Value: 2}}}, false},
		{"many rows", many, false},
		{"fixed range", Forest{XRange: &Range{0, 1}, Rows: []ForestRow{{Label: "a", Value: 1.5, Lo: 1.2, Hi: 1.8}, {Label: "b", Value: -0.5, Lo: -1, Hi: 0.2}}, Ref: &ForestRef{X: 2, Label: "out"}}, false},
		{"tiny size", Forest{Width: 1, Rows: []ForestRow{{Label: "a", Value: 1}}}, false},
		{"sample", sampleForest(), false},
		{"sample narrow", func() Forest { c := sampleForest(); c.Width = 358; return c }(), false},
		{"escaping", Forest{Title: `<script>alert(1)</script> & "q"`, Rows: []ForestRow{{Label: "A & <B>", Value: 1, Note: "x < y"}}, Ref: &ForestRef{X: 1, Label: "'&'"}}, false},
	}
}

// TestForestEdgeCases checks what every chart must satisfy (check), that
// no text is under 12 pixels or anchored outside the image, that every
// word of every label is drawn whole (labels wrap, never get cut), and
// that the labels stay left of the plot.
func TestForestEdgeCases(t *testing.T) {
	for _, tc := range forestCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.c.SVG()
			if err != nil {
				t.Fatal(err)
			}
			root := check(t, b)
			if got := hasText(root, "No data"); got != tc.noData {
				t.Fatalf("shows No data: %v, want %v", got, tc.noData)
			}
			vb := strings.Fields(root.attrs["viewBox"])
			w, _ := strconv.ParseFloat(vb[2], 64)
			for _, e := range root.all("text") {
				if e.text == "No data" {
					continue
				}
				if size, _ := strconv.ParseFloat(e.attrs["font-size"], 64); size < 12 {
					t.Errorf("text %q at %v px, want at least 12", e.text, size)
				}
				x, _ := strconv.ParseFloat(e.attrs["x"], 64)
				if e.attrs["text-anchor"] == "" && x+textWidth(e.text, 12, e.attrs["font-weight"] != "") > w+0.5 && !strings.Contains(e.text, "Unbreakable") && e.text != cleanText(long) {
					t.Errorf("text %q starts at %v and runs past the image's %v", e.text, x, w)
				}
			}
			if tc.noData {
				return
			}
			// Every character of every label is drawn, in order (a word
			// too long for the column breaks across lines).
			drawn := strings.ReplaceAll(strings.Join(texts(root), ""), " ", "")
			for _, r := range tc.c.Rows {
				if l := strings.ReplaceAll(cleanText(r.Label), " ", ""); !strings.Contains(drawn, l) {
					t.Errorf("the label %q is not drawn whole", r.Label)
				}
			}
			for _, e := range root.all("text") {
				if strings.Contains(e.text, "…") {
					t.Errorf("text %q was cut", e.text)
				}
			}
		})
	}
}

// TestForestLayout checks the sample's geometry: a point per finite row,
// top to bottom in the given order; hollow points for dashed rows; the
// reference line at its value on the axis; label lines left of the plot.
func TestForestLayout(t *testing.T) {
	c := sampleForest()
	b, err := c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	root := check(t, b)
	var circles []*node // the points, each with its value as a title
	for _, e := range append(root.all("circle"), root.all("path")...) {
		if e.attrs["class"] == "pt" {
			circles = append(circles, e)
		}
	}
	slices.SortFunc(circles, func(a, b *node) int {
		_, ya := pointXY(a)
		_, yb := pointXY(b)
		return cmp.Compare(ya, yb)
	})
	if len(circles) != len(c.Rows) {
		t.Fatalf("%d points, want %d", len(circles), len(c.Rows))
	}
	prevY := -1.0
	for i, e := range circles {
		_, y := pointXY(e)
		if y <= prevY {
			t.Errorf("row %d drawn at y %v, above the row before it (%v)", i, y, prevY)
		}
		prevY = y
		if hollow, open := e.attrs["fill"] == "#ffffff", styleOr(c.Rows[i].Style, i).Open; hollow != open {
			t.Errorf("row %d hollow %v, want %v", i, hollow, open)
		}
	}
	// Values map linearly to x: the reference (0.483) lies between the
	// points of 0.465 and 0.586, in proportion.
	x := func(i int) float64 { px, _ := pointXY(circles[i]); return px }
	wantRef := x(3) + (0.483-0.465)/(0.586-0.465)*(x(1)-x(3))
	found := false
	for _, p := range root.all("path") {
		if p.attrs["stroke-dasharray"] == "5 4" {
			var x0, y0, x1, y1 float64
			fmt.Sscanf(p.attrs["d"], "M%g %gL%g %g", &x0, &y0, &x1, &y1)
			found = math.Abs(x0-wantRef) < 0.5 && x0 == x1
		}
	}
	if !found {
		t.Errorf("no vertical dashed reference line at x = %.1f", wantRef)
	}
	plotLeft := math.Inf(1)
	for _, e := range circles {
		px, _ := pointXY(e)
		plotLeft = math.Min(plotLeft, px-5)
	}
	for _, e := range root.all("text") {
		if strings.HasPrefix(c.Rows[4].Label, e.text) || strings.HasSuffix(c.Rows[4].Label, e.text) {
			if right := attrF(e, "x") + textWidth(e.text, 12, false); right > plotLeft {
				t.Errorf("label line %q ends at %v, inside the plot (from %v)", e.text, right, plotLeft)
			}
		}
	}
}

// TestForestGolden pins the sample's bytes, natively and (run under
// GOOS=js GOARCH=wasm) in WebAssembly; update after an intended change.
func TestForestGolden(t *testing.T) {
	b, err := sampleForest().SVG()
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != goldenForest {
		t.Errorf("sha256 = %s, want %s", got, goldenForest)
	}
}

const goldenForest = "cdc232704d4c4b59ae3eb0d0a6f43d794bd118cf53d165857dc8933c2340d4ed"

func TestForestTable(t *testing.T) {
	got := Forest{Description: "d", XLabel: "ChangeRatio", Rows: []ForestRow{
		{Label: "a", Value: 0.5, Lo: 0.4, Hi: 0.6}, {Label: "b", Value: nan, Lo: nan, Hi: nan}, {Label: "c", Value: 0.25, Lo: nan, Hi: nan},
	}}.Table()
	want := Table{Caption: "d", Head: []string{"", "ChangeRatio"}, Rows: [][]string{{"a", "0.5 ± 0.1"}, {"b", "–"}, {"c", "0.25"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// pointXY is the centre of a point: a circle's, or the middle of a
// marker path's extent.
func pointXY(e *node) (x, y float64) {
	if e.name == "circle" {
		return attrF(e, "cx"), attrF(e, "cy")
	}
	var lo, hi [2]float64
	lo[0], lo[1], hi[0], hi[1] = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, f := range strings.FieldsFunc(e.attrs["d"], func(r rune) bool { return r == 'M' || r == 'L' || r == 'Z' || r == ' ' }) {
		v, _ := strconv.ParseFloat(f, 64)
		lo[i%2], hi[i%2] = math.Min(lo[i%2], v), math.Max(hi[i%2], v)
	}
	return (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2
}
