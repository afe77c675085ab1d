package chart

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// readableWidths are the widths a page shows charts at, from a phone's to
// a wide desktop's.
var readableWidths = []int{300, 360, 420, 560, 720, 900, 1200}

// sized returns every sample and edge case of every chart type, drawn w
// pixels wide with the height left to the chart.
func sized(w int) map[string]interface{ SVG() ([]byte, error) } {
	out := map[string]interface{ SVG() ([]byte, error) }{}
	l := sampleLine()
	l.Width, l.Height = w, 0
	out["line"] = l
	b := sampleBars()
	b.Width, b.Height = w, 0
	out["bars"] = b
	g := sampleGrouped()
	g.Width, g.Height = w, 0
	out["grouped"] = g
	gb := sampleGroupedBudgets()
	gb.Width, gb.Height = w, 0
	out["grouped budgets"] = gb
	f := sampleForest()
	f.Width = w
	out["forest"] = f
	// Two bars whose reference labels find no room inside the plot and
	// take room beside it, which the bars' labels then do not have.
	out["bars refs beside"] = Bars{Width: w, YRange: &Range{0, 1},
		Bars: []Bar{{Label: "Site sampling, greedy", Value: 0.65, Lo: 0.64, Hi: 0.66}, {Label: "Site sampling, proportional", Value: 0.58, Lo: 0.575, Hi: 0.585}},
		Refs: []Ref{{0.67, "§2.5.4 greedy: (11 + 56)/100"}, {0.59, "§2.5.4 proportional: (11 + 48)/100"}}}
	for _, tc := range lineCases() {
		c := tc.c
		c.Width, c.Height = w, 0
		out["line "+tc.name] = c
	}
	for _, tc := range barCases() {
		c := tc.c
		c.Width, c.Height = w, 0
		out["bars "+tc.name] = c
	}
	for _, tc := range groupedCases() {
		c := tc.c
		c.Width, c.Height = w, 0
		out["grouped "+tc.name] = c
	}
	for _, tc := range forestCases() {
		c := tc.c
		c.Width = w
		out["forest "+tc.name] = c
	}
	return out
}

// textBox is the box a text element takes, from its anchor, baseline and
// size (rotated text, an axis title, as drawn before turning), a pixel in
// from each side so that neighbours that touch do not count.
func textBox(e *node) area {
	size := attrF(e, "font-size")
	wd := textWidth(e.text, size, e.attrs["font-weight"] != "")
	x, y := attrF(e, "x"), attrF(e, "y")
	switch e.attrs["text-anchor"] {
	case "middle":
		x -= wd / 2
	case "end":
		x -= wd
	}
	return area{x + 1, y - size*capHeight + 1, x + wd - 1, y - 1}
}

// TestTextReadableAtEveryWidth checks every chart type at widths from 300
// to 1,200 pixels: no text is set below 12 pixels; no two texts overlap; the image has the size
// of its viewBox in pixels (so the page shows it unscaled), and the width
// asked for unless the input needs more (a tick label of 300 digits); and
// no text is cut short with an ellipsis.
func TestTextReadableAtEveryWidth(t *testing.T) {
	for _, w := range readableWidths {
		for name, c := range sized(w) {
			b, err := c.SVG()
			if err != nil {
				t.Fatalf("%s at %d: %v", name, w, err)
			}
			root := check(t, b)
			vb := strings.Fields(root.attrs["viewBox"])
			if root.attrs["width"] != vb[2] || root.attrs["height"] != vb[3] {
				t.Errorf("%s at %d: width %q height %q, viewBox %q", name, w, root.attrs["width"], root.attrs["height"], root.attrs["viewBox"])
			}
			if !strings.Contains(name, "huge") && !strings.Contains(name, "tiny size") && !strings.Contains(name, "size") && root.attrs["width"] != strconv.Itoa(w) {
				t.Errorf("%s at %d: drawn %s wide", name, w, root.attrs["width"])
			}
			texts := root.all("text")
			for i, e := range texts {
				for _, o := range texts[i+1:] {
					if a, b := textBox(e), textBox(o); a.overlaps(b) {
						t.Errorf("%s at %d: %q at %v and %q at %v overlap", name, w, e.text, a, o.text, b)
					}
				}
				if size := attrF(e, "font-size"); size < 12 {
					t.Errorf("%s at %d: %q set at %v px", name, w, e.text, size)
				}
				if strings.Contains(e.text, "…") {
					t.Errorf("%s at %d: %q is cut", name, w, e.text)
				}
			}
		}
	}
}

// TestStyleStableAcrossCharts checks that a series with a style looks the
// same wherever it is drawn: at any position among other series, in a
// line, a bar, a grouped bar chart and a forest plot; its elements carry
// its key as data-policy.
func TestStyleStableAcrossCharts(t *testing.T) {
	st := Style{Color: 2, Dash: 3, Marker: 4}
	x := []float64{1, 2, 3}
	keyed := func(root *node) []*node {
		var out []*node
		var walk func(*node)
		walk = func(e *node) {
			if e.attrs["data-policy"] == "p" {
				out = append(out, e)
			}
			for _, c := range e.children {
				walk(c)
			}
		}
		walk(root)
		return out
	}
	// looks collects the colours and dash patterns drawn for key p.
	looks := func(t *testing.T, c interface{ SVG() ([]byte, error) }) (colors, dashes map[string]bool) {
		t.Helper()
		b, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		colors, dashes = map[string]bool{}, map[string]bool{}
		els := keyed(parse(t, b))
		if len(els) == 0 {
			t.Fatalf("nothing carries data-policy=\"p\" in %T", c)
		}
		for _, e := range els {
			for _, d := range append([]*node{e}, e.all("path")...) {
				if s := d.attrs["stroke"]; s != "" && s != "#fff" && s != "#ffffff" && (d.name == "rect" || d.attrs["fill"] == "none") {
					colors[s] = true
					if d.name == "path" && d.attrs["stroke-width"] != "2" { // not a whisker's cap
						dashes[d.attrs["stroke-dasharray"]] = true
					}
				}
			}
		}
		return colors, dashes
	}
	want := string(appendHex(nil, st.color()))
	for i, c := range []interface{ SVG() ([]byte, error) }{
		Line{Series: []Series{{Name: "p", Key: "p", X: x, Y: x, Style: &st}, {Name: "q", X: x, Y: x}}},
		Line{Series: []Series{{Name: "q", X: x, Y: x}, {Name: "r", X: x, Y: x}, {Name: "s", X: x, Y: x}, {Name: "p", Key: "p", X: x, Y: x, Style: &st}}},
		Bars{Bars: []Bar{{Label: "q", Value: 1}, {Label: "p", Key: "p", Value: 2, Style: &st}}},
		Grouped{Groups: []string{"a", "b"}, Series: []GroupSeries{{Name: "q", Values: x}, {Name: "r", Values: x}, {Name: "p", Key: "p", Values: x, Style: &st}}},
		Grouped{Groups: []string{"p", "q"}, GroupKeys: []string{"p", "q"}, GroupStyles: []*Style{&st, nil}, Series: []GroupSeries{{Name: "mean", Values: x}, {Name: "exact", Values: x, Style: &Style{Open: true}}}},
		Forest{Rows: []ForestRow{{Label: "q", Value: 1, Lo: 0, Hi: 2}, {Label: "p", Key: "p", Value: 2, Lo: 1, Hi: 3, Style: &st}}},
	} {
		t.Run(fmt.Sprintf("%d %T", i, c), func(t *testing.T) {
			colors, dashes := looks(t, c)
			if len(colors) != 1 || !colors[want] {
				t.Errorf("colours %v, want only %s", colors, want)
			}
			if len(dashes) > 1 || len(dashes) == 1 && !dashes[st.dash()] {
				t.Errorf("dash patterns %v, want only %q", dashes, st.dash())
			}
		})
	}
}

// TestNthTellsSeriesApartWithoutColour checks the style sequence: the
// first 36 styles are all different, and no two of them differ in
// colour alone (each pair differs in dash pattern or marker too).
func TestNthTellsSeriesApartWithoutColour(t *testing.T) {
	seen := map[[2]int]int{}
	for i := range 36 {
		s := Nth(i)
		k := [2]int{s.Dash % SeriesColors, s.Marker}
		if j, ok := seen[k]; ok {
			t.Errorf("styles %d and %d differ in colour alone: %+v, %+v", j, i, Nth(j), s)
		}
		seen[k] = i
		if s.Color == Neutral {
			t.Errorf("style %d takes the neutral colour", i)
		}
	}
}

// segment is a stretch of a drawn line, in pixels.
type segment [4]float64

// seriesSegments returns the segments of every line drawn for a series
// (the paths of data-series groups), and its markers' boxes.
func seriesSegments(root *node) (segs []segment, boxes []area) {
	for _, g := range root.all("g") {
		if g.attrs["data-series"] == "" {
			continue
		}
		for _, p := range g.all("path") {
			if p.attrs["fill"] != "none" {
				continue
			}
			var pts [][2]float64
			for _, part := range strings.FieldsFunc(p.attrs["d"], func(r rune) bool { return r == 'M' || r == 'L' }) {
				var x, y float64
				if _, err := fmt.Sscanf(part, "%g %g", &x, &y); err == nil {
					pts = append(pts, [2]float64{x, y})
				}
			}
			for i := 1; i < len(pts); i++ {
				segs = append(segs, segment{pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1]})
			}
		}
		for _, r := range g.all("rect") {
			boxes = append(boxes, area{attrF(r, "x"), attrF(r, "y"), attrF(r, "x") + attrF(r, "width"), attrF(r, "y") + attrF(r, "height")})
		}
	}
	return segs, boxes
}

// noteBoxes returns the boxes of the reference labels: their white
// backings.
func noteBoxes(root *node) []area {
	var out []area
	for _, r := range root.all("rect") {
		if r.attrs["rx"] == "3" && r.attrs["fill-opacity"] == "0.85" {
			out = append(out, area{attrF(r, "x"), attrF(r, "y"), attrF(r, "x") + attrF(r, "width"), attrF(r, "y") + attrF(r, "height")})
		}
	}
	return out
}

// TestRefLabelsNeverCoverData draws reference lines and marks through
// dense data, where the old placement gave up and covered it: a line
// zigzagging across the reference's height all along the plot, a wall of
// bars as tall as the reference, and marks over a plot full of lines. At
// every width, no label's box meets a segment of a line or a bar, and
// every label is drawn.
func TestRefLabelsNeverCoverData(t *testing.T) {
	var zig Series
	for i := range 120 {
		zig.X = append(zig.X, float64(i))
		zig.Y = append(zig.Y, 0.5+0.12*float64(1-2*(i%2)))
	}
	zig.Name = "zigzag"
	flat := Series{Name: "flat", X: []float64{0, 119}, Y: []float64{0.2, 0.2}}
	var steps []Series
	for k := range 6 {
		s := Series{Name: fmt.Sprintf("level %d", k)}
		for i := range 40 {
			s.X = append(s.X, float64(i))
			s.Y = append(s.Y, float64(k)/5+0.02*float64(i%3))
		}
		steps = append(steps, s)
	}
	wall := Bars{YRange: &Range{0, 1}, Refs: []Ref{{0.62, "paper §2.5.4: (11 + 56)/100 = 0.67"}, {0.3, "a second reference, lower down"}}}
	for i := range 8 {
		wall.Bars = append(wall.Bars, Bar{Label: fmt.Sprint(i), Value: 0.7 + 0.01*float64(i)})
	}
	cases := map[string]interface{ SVG() ([]byte, error) }{
		"zigzag": Line{YRange: &Range{0, 1}, Series: []Series{zig, flat}, Refs: []Ref{{0.5, "paper: 0.50, through the middle of the data"}, {0.2, "on the flat line"}}},
		"marks":  Line{Series: steps, Marks: []Mark{{10, "now: 10", true}, {20, "default √(N·r) = 20", false}, {30, "MLE minimum at 30", false}}},
		"wall":   wall,
	}
	for _, w := range readableWidths {
		for name, c := range cases {
			switch v := c.(type) {
			case Line:
				v.Width = w
				c = v
			case Bars:
				v.Width = w
				c = v
			}
			b, err := c.SVG()
			if err != nil {
				t.Fatal(err)
			}
			root := check(t, b)
			segs, boxes := seriesSegments(root)
			notes := noteBoxes(root)
			want := 0
			switch v := c.(type) {
			case Line:
				want = len(v.Refs) + len(v.Marks)
			case Bars:
				want = len(v.Refs)
			}
			if len(notes) != want {
				t.Errorf("%s at %d: %d labels drawn, want %d", name, w, len(notes), want)
			}
			for _, n := range notes {
				for _, s := range segs {
					if n.crosses(s[0], s[1], s[2], s[3]) {
						t.Errorf("%s at %d: label at %v covers the line from (%v,%v) to (%v,%v)", name, w, n, s[0], s[1], s[2], s[3])
						break
					}
				}
				for _, bx := range boxes {
					if n.overlaps(bx) {
						t.Errorf("%s at %d: label at %v covers the bar at %v", name, w, n, bx)
						break
					}
				}
			}
			for i, a := range notes {
				for _, o := range notes[i+1:] {
					if a.overlaps(o) {
						t.Errorf("%s at %d: labels at %v and %v overlap", name, w, a, o)
					}
				}
			}
		}
	}
}
