package chart

import (
	"bytes"
	"crypto/sha256"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var (
	nan  = math.NaN()
	inf  = math.Inf(1)
	ninf = math.Inf(-1)
)

// node is a parsed XML element, enough to check our output.
type node struct {
	name     string
	attrs    map[string]string
	text     string // character data directly inside
	children []*node
}

func (e *node) all(name string) []*node {
	var out []*node
	var walk func(*node)
	walk = func(n *node) {
		if n.name == name {
			out = append(out, n)
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(e)
	return out
}

// parse reads b with encoding/xml in strict mode, failing the test if it
// is not well-formed, and returns the root element.
func parse(t testing.TB, b []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, clip(b))
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &node{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			} else if root != nil {
				t.Fatalf("more than one root element")
			} else {
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
	if root == nil {
		t.Fatalf("no root element")
	}
	return root
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

// check asserts what every chart must satisfy: well-formed XML, an <svg>
// root with a viewBox, role="img" and aria-labelledby naming a <title>
// and a <desc> that are its first children, unique ids, numeric attributes
// that are finite numbers, and text anchored inside the image.
func check(t testing.TB, b []byte) *node {
	t.Helper()
	root := parse(t, b)
	if root.name != "svg" {
		t.Fatalf("root is <%s>, want <svg>", root.name)
	}
	if root.attrs["role"] != "img" {
		t.Errorf("root role = %q, want img", root.attrs["role"])
	}
	if !strings.HasPrefix(string(b), `<svg xmlns="http://www.w3.org/2000/svg"`) {
		t.Errorf("root lacks the SVG namespace")
	}
	vb := strings.Fields(root.attrs["viewBox"])
	if len(vb) != 4 {
		t.Fatalf("viewBox = %q", root.attrs["viewBox"])
	}
	w, _ := strconv.ParseFloat(vb[2], 64)
	h, _ := strconv.ParseFloat(vb[3], 64)
	if !(w > 0 && h > 0) {
		t.Fatalf("viewBox = %q", root.attrs["viewBox"])
	}
	if len(root.children) < 2 || root.children[0].name != "title" || root.children[1].name != "desc" {
		t.Fatalf("first children are not <title>, <desc>")
	}
	title, desc := root.children[0], root.children[1]
	if strings.TrimSpace(title.text) == "" || strings.TrimSpace(desc.text) == "" {
		t.Errorf("empty <title> or <desc>")
	}
	if got, want := root.attrs["aria-labelledby"], title.attrs["id"]+" "+desc.attrs["id"]; got != want || title.attrs["id"] == "" {
		t.Errorf("aria-labelledby = %q, want %q", got, want)
	}
	ids := map[string]bool{}
	var walk func(*node)
	walk = func(e *node) {
		if id := e.attrs["id"]; id != "" {
			if ids[id] {
				t.Errorf("duplicate id %q", id)
			}
			ids[id] = true
		}
		for _, k := range []string{"x", "y", "cx", "cy", "r", "width", "height", "x1", "x2", "y1", "y2", "stroke-width", "font-size", "fill-opacity"} {
			if v, ok := e.attrs[k]; ok && e.name != "svg" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || !finite(f) {
					t.Errorf("<%s %s=%q>: not a finite number", e.name, k, v)
				}
			}
		}
		if d, ok := e.attrs["d"]; ok && (strings.Contains(d, "NaN") || strings.Contains(d, "Inf") || strings.Contains(d, "e+")) {
			t.Errorf("bad path data %q", d)
		}
		if e.name == "text" {
			x, _ := strconv.ParseFloat(e.attrs["x"], 64)
			y, _ := strconv.ParseFloat(e.attrs["y"], 64)
			if x < 0 || x > w || y < 0 || y > h {
				t.Errorf("text %q anchored at (%v, %v), outside %vx%v", e.text, x, y, w, h)
			}
		}
		for _, c := range e.children {
			walk(c)
		}
	}
	walk(root)
	if bytes.Contains(bytes.ToLower(b), []byte("<script")) {
		t.Errorf("raw <script in output")
	}
	return root
}

// texts returns the content of every <text> element.
func texts(root *node) []string {
	var out []string
	for _, e := range root.all("text") {
		out = append(out, e.text)
	}
	return out
}

func hasText(root *node, s string) bool {
	for _, t := range texts(root) {
		if t == s {
			return true
		}
	}
	return false
}

func series(name string, xs, ys []float64) Series { return Series{Name: name, X: xs, Y: ys} }

func seq(n int, f func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

var long = strings.Repeat("A very long label that goes on and on ", 30)

func lineCases() []struct {
	name   string
	c      Line
	noData bool
} {
	x5 := []float64{1, 2, 3, 4, 5}
	many := Line{Title: "Many series"}
	for i := 0; i < 40; i++ {
		many.Series = append(many.Series, series(fmt.Sprintf("s%d", i), x5, seq(5, func(k int) float64 { return float64(i * k) })))
	}
	return []struct {
		name   string
		c      Line
		noData bool
	}{
		{"zero value", Line{}, true},
		{"no series", Line{Title: "Empty", XLabel: "x", YLabel: "y"}, true},
		{"empty series", Line{Title: "Empty", Series: []Series{{Name: "a"}, {Name: "b"}}}, true},
		{"all NaN", Line{Title: "NaN", Series: []Series{series("a", x5, seq(5, func(int) float64 { return nan }))}}, true},
		{"all Inf", Line{Title: "Inf", Series: []Series{series("a", []float64{inf, ninf}, []float64{1, 2}), series("b", x5, []float64{inf, ninf, inf, ninf, nan})}}, true},
		{"NaN x", Line{Series: []Series{series("a", seq(5, func(int) float64 { return nan }), x5)}}, true},
		{"single point", Line{Title: "One", Series: []Series{series("a", []float64{3}, []float64{0.4})}}, false},
		{"single point with interval", Line{Series: []Series{{Name: "a", X: []float64{3}, Y: []float64{0.4}, Lo: []float64{0.3}, Hi: []float64{0.5}}}}, false},
		{"single point at zero", Line{Series: []Series{series("a", []float64{0}, []float64{0})}}, false},
		{"constant", Line{Series: []Series{series("a", x5, []float64{2, 2, 2, 2, 2})}}, false},
		{"constant zero", Line{Series: []Series{series("a", x5, []float64{0, 0, 0, 0, 0})}}, false},
		{"constant negative", Line{Series: []Series{series("a", x5, []float64{-3, -3, -3, -3, -3})}}, false},
		{"same x", Line{Series: []Series{series("a", []float64{2, 2, 2}, []float64{1, 2, 3})}}, false},
		{"unsorted x", Line{Series: []Series{series("a", []float64{5, 1, 4, 2, 3}, []float64{5, 1, 4, 2, 3})}}, false},
		{"mismatched lengths", Line{Series: []Series{{Name: "a", X: x5, Y: []float64{1, 2}, Lo: []float64{0}, Hi: []float64{3, 4, 5, 6, 7, 8}}}}, false},
		{"NaN gaps", Line{Series: []Series{series("a", x5, []float64{1, nan, 3, inf, 5})}}, false},
		{"NaN bounds", Line{Series: []Series{{Name: "a", X: x5, Y: x5, Lo: []float64{0, nan, 2, ninf, 4}, Hi: []float64{2, 3, nan, 5, 6}}}}, false},
		{"reversed bounds", Line{Series: []Series{{Name: "a", X: x5, Y: x5, Lo: []float64{2, 3, 4, 5, 6}, Hi: []float64{0, 1, 2, 3, 4}}}}, false},
		{"huge", Line{Series: []Series{series("a", []float64{-1e300, 1e300}, []float64{1e300, -1e300})}}, false},
		{"max float", Line{Series: []Series{series("a", []float64{-math.MaxFloat64, math.MaxFloat64}, []float64{math.MaxFloat64, -math.MaxFloat64})}}, false},
		{"tiny", Line{Series: []Series{series("a", []float64{1e-300, 2e-300}, []float64{1e-300, 3e-300})}}, false},
		{"subnormal", Line{Series: []Series{series("a", []float64{5e-324, 1e-323}, []float64{5e-324, 1e-322})}}, false},
		{"tiny span", Line{Series: []Series{series("a", []float64{1, 1 + 1e-15}, []float64{1e9, 1e9 + 1e-6})}}, false},
		{"negative", Line{Series: []Series{series("a", x5, []float64{-5, -1, -30, -2, -0.5})}}, false},
		{"many series", many, false},
		{"long labels", Line{Title: long, Description: long, XLabel: long, YLabel: long, Series: []Series{series(long, x5, x5), series(long+"2", x5, x5)},
			Marks: []Mark{{3, long, false}}, Refs: []Ref{{2, long}}}, false},
		{"bad text", Line{Title: "a\x00b\x1bc\xff\xfe\u2028d\ne", Series: []Series{series("\x01\x02", x5, x5)}}, false},
		{"fixed range", Line{YRange: &Range{0, 1}, Series: []Series{{Name: "a", X: x5, Y: []float64{0.1, 0.5, 1.5, -0.2, 0.9}, Lo: []float64{0, 0.4, 1.4, -0.3, 0.8}, Hi: []float64{0.2, 0.6, 1.6, 0, 1}}}}, false},
		{"narrow fixed range", Line{YRange: &Range{0.31, 0.32}, Series: []Series{series("a", x5, x5)}}, false},
		{"reversed range", Line{YRange: &Range{1, 0}, Series: []Series{series("a", x5, x5)}}, false},
		{"bad range", Line{YRange: &Range{nan, inf}, Series: []Series{series("a", x5, x5)}}, false},
		{"empty range", Line{YRange: &Range{1, 1}, Series: []Series{series("a", x5, x5)}}, false},
		{"marks and refs", Line{Series: []Series{series("a", x5, x5)},
			Marks: []Mark{{nan, "nan", false}, {inf, "inf", false}, {100, "far", true}, {-3, "left", false}, {5, "edge", false}},
			Refs:  []Ref{{nan, "nan"}, {ninf, "inf"}, {1e6, "far"}, {0, "zero"}, {5, "top"}}}, false},
		{"refs outside fixed range", Line{YRange: &Range{0, 1}, Series: []Series{series("a", x5, x5)}, Refs: []Ref{{2, "above"}, {-1, "below"}}}, false},
		{"tiny size", Line{Width: 1, Height: 1, Title: "Small", Series: []Series{series("a", x5, x5), series("b", x5, x5)}}, false},
		{"negative size", Line{Width: -5, Height: -10, Series: []Series{series("a", x5, x5)}}, false},
		{"huge size", Line{Width: 1 << 30, Height: 1 << 30, Series: []Series{series("a", x5, x5)}}, false},
		{"unnamed", Line{Series: []Series{series("", x5, x5), series("", x5, x5)}}, false},
		{"huge single point, narrow", Line{Width: 1, Height: 1, XLabel: "x", Series: []Series{series("a", []float64{-3.6e232}, []float64{1.4e-76}), series("b", []float64{nan}, nil)}}, false},
		{"wide tick labels, narrow", Line{Width: 1, Series: []Series{series("a", []float64{1e-300, 3e-300}, []float64{-1.234567e-300, 1e300})}}, false},
		{"ID given", Line{ID: "9 bad<id>&", Series: []Series{series("a", x5, x5)}}, false},
	}
}

func TestLineEdgeCases(t *testing.T) {
	for _, tc := range lineCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.c.SVG()
			if err != nil {
				t.Fatal(err)
			}
			root := check(t, b)
			if got := hasText(root, "No data"); got != tc.noData {
				t.Errorf("shows No data: %v, want %v", got, tc.noData)
			}
			if title := strings.Join(strings.Fields(cleanText(tc.c.Title)), " "); title != "" && !strings.Contains(strings.Join(texts(root), " "), title) {
				t.Errorf("title not drawn in full")
			}
		})
	}
}

func barCases() []struct {
	name   string
	c      Bars
	noData bool
} {
	var many Bars
	for i := 0; i < 300; i++ {
		many.Bars = append(many.Bars, Bar{Label: fmt.Sprintf("bar %d %s", i, long[:i%50]), Value: float64(i%17) - 8, Lo: nan, Hi: nan, Style: ifStyle(i%7 == 0)})
	}
	return []struct {
		name   string
		c      Bars
		noData bool
	}{
		{"zero value", Bars{}, true},
		{"no bars", Bars{Title: "Empty", YLabel: "y"}, true},
		{"all NaN", Bars{Bars: []Bar{{Label: "a", Value: nan}, {Label: "b", Value: inf}}}, true},
		{"single", Bars{Bars: []Bar{{Label: "a", Value: 0.4, Lo: 0.3, Hi: 0.5}}}, false},
		{"single zero", Bars{Bars: []Bar{{Label: "a", Value: 0}}}, false},
		{"constant", Bars{Bars: []Bar{{Label: "a", Value: 2}, {Label: "b", Value: 2}}}, false},
		{"negative", Bars{Bars: []Bar{{Label: "a", Value: -2, Lo: -3, Hi: -1}, {Label: "b", Value: 1}}}, false},
		{"some NaN", Bars{Bars: []Bar{{Label: "a", Value: nan}, {Label: "b", Value: 1, Lo: nan, Hi: 2}, {Label: "c", Value: 2, Lo: 3, Hi: 1}}}, false},
		{"huge", Bars{Bars: []Bar{{Label: "a", Value: math.MaxFloat64, Lo: -math.MaxFloat64, Hi: math.MaxFloat64}, {Label: "b", Value: -1e300}}}, false},
		{"tiny", Bars{Bars: []Bar{{Label: "a", Value: 1e-300}, {Label: "b", Value: 5e-324}}}, false},
		{"long labels", Bars{Title: long, YLabel: long, Bars: []Bar{{Label: long, Value: 1}, {Label: long, Value: 2, Style: &Style{Color: 3, Dash: 3, Open: true}}}, Refs: []Ref{{1.5, long}}}, false},
		{"many bars", many, false},
		{"fixed range", Bars{YRange: &Range{0, 1}, Bars: []Bar{{Label: "a", Value: 1.5, Lo: 1.2, Hi: 1.8}, {Label: "b", Value: -0.5}}, Refs: []Ref{{0.66, "paper: 0.66"}, {2, "out"}}}, false},
		{"range without zero", Bars{YRange: &Range{0.5, 1}, Bars: []Bar{{Label: "a", Value: 0.7}, {Label: "b", Value: 0.2}}}, false},
		{"tiny size", Bars{Width: 1, Height: 1, Bars: []Bar{{Label: "a", Value: 1}}}, false},
	}
}

func TestBarsEdgeCases(t *testing.T) {
	for _, tc := range barCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.c.SVG()
			if err != nil {
				t.Fatal(err)
			}
			root := check(t, b)
			if got := hasText(root, "No data"); got != tc.noData {
				t.Errorf("shows No data: %v, want %v", got, tc.noData)
			}
		})
	}
}

func gs(name string, vs ...float64) GroupSeries { return GroupSeries{Name: name, Values: vs} }

func groupedCases() []struct {
	name   string
	c      Grouped
	noData bool
} {
	abc := []string{"a", "b", "c"}
	var many Grouped
	for i := 0; i < 300; i++ {
		many.Groups = append(many.Groups, fmt.Sprintf("group %d %s", i, long[:i%50]))
	}
	for k := 0; k < 3; k++ {
		s := GroupSeries{Name: fmt.Sprintf("s%d", k), Style: ifStyle(k == 0)}
		for i := range many.Groups {
			v := float64((i*7+k*3)%11) - 3
			s.Values, s.Lo, s.Hi = append(s.Values, v), append(s.Lo, v-1), append(s.Hi, v+1)
		}
		many.Series = append(many.Series, s)
	}
	manySeries := Grouped{Groups: abc}
	for k := 0; k < 60; k++ {
		manySeries.Series = append(manySeries.Series, GroupSeries{Name: fmt.Sprintf("series %d", k), Values: []float64{float64(k), 1, nan}, Style: ifStyle(k%9 == 0)})
	}
	return []struct {
		name   string
		c      Grouped
		noData bool
	}{
		{"zero value", Grouped{}, true},
		{"no groups", Grouped{Title: "Empty", XLabel: "x", YLabel: "y", Series: []GroupSeries{gs("a", 1, 2)}}, true},
		{"no series", Grouped{Title: "Empty", Groups: abc}, true},
		{"empty series", Grouped{Groups: abc, Series: []GroupSeries{{Name: "a"}, {Name: "b", Style: &Reference}}}, true},
		{"all NaN", Grouped{Groups: abc, Series: []GroupSeries{gs("a", nan, inf, ninf), {Name: "b", Values: []float64{nan}, Lo: []float64{0}, Hi: []float64{1}}}}, true},
		{"single", Grouped{Groups: []string{"a"}, Series: []GroupSeries{{Name: "a", Values: []float64{0.4}, Lo: []float64{0.3}, Hi: []float64{0.5}}}}, false},
		{"single zero", Grouped{Groups: []string{"a"}, Series: []GroupSeries{gs("", 0)}}, false},
		{"single unnamed series", Grouped{Groups: abc, Series: []GroupSeries{gs("", 1, 2, 3)}}, false},
		{"constant", Grouped{Groups: abc, Series: []GroupSeries{gs("a", 2, 2, 2), gs("b", 2, 2, 2)}}, false},
		{"negative", Grouped{Groups: abc, Series: []GroupSeries{{Name: "a", Values: []float64{-2, 1, -3}, Lo: []float64{-3, 0, -4}, Hi: []float64{-1, 2, -2}}, gs("b", 1, -1, 0)}}, false},
		{"mismatched lengths", Grouped{Groups: abc, Series: []GroupSeries{
			{Name: "long", Values: []float64{1, 2, 3, 4, 5}, Lo: []float64{0}, Hi: []float64{2, 3, 4, 5, 6, 7}},
			{Name: "short", Values: []float64{1}, Lo: []float64{0, 1, 2, 3}, Hi: nil}}}, false},
		{"some NaN", Grouped{Groups: abc, Series: []GroupSeries{
			{Name: "a", Values: []float64{nan, 1, 2}, Lo: []float64{0, nan, 3}, Hi: []float64{1, 2, 1}},
			{Name: "b", Values: []float64{nan, inf, 1}}}}, false},
		{"empty group", Grouped{Groups: abc, Series: []GroupSeries{gs("a", 1, nan, 2), gs("b", 2, nan, 1)}}, false},
		{"huge", Grouped{Groups: abc, Series: []GroupSeries{{Name: "a", Values: []float64{math.MaxFloat64, -1e300, 1}, Lo: []float64{-math.MaxFloat64, 0, 0}, Hi: []float64{math.MaxFloat64, 0, 0}}}}, false},
		{"tiny", Grouped{Groups: abc, Series: []GroupSeries{gs("a", 1e-300, 5e-324, 0), gs("b", 3e-300, 0, 1e-300)}}, false},
		{"long labels", Grouped{Title: long, Description: long, XLabel: long, YLabel: long, Groups: []string{long, long + "2"},
			Series: []GroupSeries{gs(long, 1, 2), {Name: long + "b", Values: []float64{2, 1}, Style: &Reference}}, Refs: []Ref{{1.5, long}}}, false},
		{"bad text", Grouped{Title: "a\x00b\x1bc\xff\xfe\u2028d\ne", Groups: []string{"\x01", "\xff"}, Series: []GroupSeries{gs("\x01\x02", 1, 2)}}, false},
		{"unnamed groups", Grouped{Groups: []string{"", "", ""}, Series: []GroupSeries{gs("a", 1, 2, 3), gs("b", 3, 2, 1)}}, false},
		{"many groups", many, false},
		{"many series", manySeries, false},
		{"fixed range", Grouped{YRange: &Range{0, 1}, Groups: abc, Series: []GroupSeries{
			{Name: "a", Values: []float64{1.5, -0.5, 0.5}, Lo: []float64{1.2, -1, 0.4}, Hi: []float64{1.8, 0, 1.4}}, gs("b", 0.2, 0.4, 0.6)},
			Refs: []Ref{{0.66, "paper: 0.66"}, {2, "out"}, {nan, "nan"}}}, false},
		{"range without zero", Grouped{YRange: &Range{0.5, 1}, Groups: abc, Series: []GroupSeries{gs("a", 0.7, 0.2, 0.9), gs("b", 0.8, 0.6, 0.1)}}, false},
		{"bad range", Grouped{YRange: &Range{inf, nan}, Groups: abc, Series: []GroupSeries{gs("a", 1, 2, 3)}}, false},
		{"tiny size", Grouped{Width: 1, Height: 1, Title: "Small", XLabel: "x", YLabel: "y", Groups: abc, Series: []GroupSeries{gs("a", 1, 2, 3), gs("b", 3, 2, 1), gs("c", 2, 2, 2)}}, false},
		{"huge size", Grouped{Width: 1 << 30, Height: 1 << 30, Groups: abc, Series: []GroupSeries{gs("a", 1, 2, 3)}}, false},
		{"ID given", Grouped{ID: "9 bad<id>&", Groups: abc, Series: []GroupSeries{{Name: "a", Values: []float64{1, 2, 3}, Style: &Reference}}}, false},
	}
}

func TestGroupedEdgeCases(t *testing.T) {
	for _, tc := range groupedCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.c.SVG()
			if err != nil {
				t.Fatal(err)
			}
			root := check(t, b)
			if got := hasText(root, "No data"); got != tc.noData {
				t.Errorf("shows No data: %v, want %v", got, tc.noData)
			}
			if !tc.noData {
				checkGroupedLayout(t, tc.c, root)
			}
		})
	}
}

// plotBox returns the plot area of a bar chart: its clip path, less the
// padding that leaves room for whisker caps.
func plotBox(t testing.TB, root *node) area {
	t.Helper()
	cp := root.all("clipPath")
	if len(cp) == 0 || len(cp[0].children) == 0 {
		t.Fatal("no clip path")
	}
	r := cp[0].children[0]
	x, _ := strconv.ParseFloat(r.attrs["x"], 64)
	y, _ := strconv.ParseFloat(r.attrs["y"], 64)
	w, _ := strconv.ParseFloat(r.attrs["width"], 64)
	h, _ := strconv.ParseFloat(r.attrs["height"], 64)
	return area{x + clipPad, y + clipPad, x + w - clipPad, y + h - clipPad}
}

// barRects returns the bars drawn: the rectangles that carry their
// values (class "pt"), in drawing order: series by series, each from the
// first group to the last.
func barRects(root *node) []*node {
	var out []*node
	for _, r := range root.all("rect") {
		if r.attrs["class"] == "pt" {
			out = append(out, r)
		}
	}
	return out
}

func attrF(e *node, k string) float64 {
	v, _ := strconv.ParseFloat(e.attrs[k], 64)
	return v
}

// columns reports whether a bar chart stands its bars on the x axis (laid
// out by go-chart, in a clipped plot) rather than in rows.
func columns(root *node) bool { return len(root.all("clipPath")) > 0 }

// checkGroupedLayout asserts what holds for any Grouped chart with data:
// every bar is outlined in its series' colour and lies in its group's
// place (its slot of the plot for columns, below the bars of the groups
// and series before it for rows), inside the plot; the legend lies above
// the plot.
func checkGroupedLayout(t *testing.T, c Grouped, root *node) {
	t.Helper()
	n := len(c.Groups)
	// A bar is drawn if some of it lies inside the value range, and all
	// of them must be when each is at least 1/25 of the range high: at
	// least a pixel in a plot at least 80 pixels high, whose range is
	// rounded out by at most 2.4 times. Smaller bars may be left out.
	var ext extent
	ext.add(0)
	for _, s := range c.Series {
		for _, vs := range [][]float64{s.Values, s.Lo, s.Hi} {
			for _, v := range vs {
				ext.add(v)
			}
		}
	}
	for _, rf := range c.Refs {
		ext.add(rf.Y)
	}
	ylo, yhi, fixed := fixedYRange(c.YRange)
	if !fixed {
		ylo, yhi = ext.lo, ext.hi
		if degenerate(ylo, yhi) {
			ylo, yhi = widen((ylo+yhi)/2, true)
		}
	}
	base := max(ylo, min(yhi, 0))
	height := func(v float64) float64 {
		v = clampMag(v)
		return min(max(base, v), yhi) - max(min(base, v), ylo)
	}
	strict := true
	var want []string // stroke of each bar drawn, in order
	var slots []int
	for k, s := range c.Series {
		for i := 0; i < n; i++ {
			if i >= len(s.Values) || !finite(s.Values[i]) {
				continue
			}
			hv := height(s.Values[i])
			if hv < (yhi-ylo)/25 {
				strict = false
			}
			if hv > 0 {
				want = append(want, string(appendHex(nil, styleOr(s.Style, k).color())))
				slots = append(slots, i)
			}
		}
	}
	got := barRects(root)
	if n := len(got); n > len(want) || (n < len(want) && strict) {
		t.Fatalf("%d bars drawn, want %d", n, len(want))
	}
	cols := columns(root)
	var box area
	var slot float64
	if cols {
		box = plotBox(t, root)
		slot = (box.x1 - box.x0) / float64(n)
	}
	inSlot := func(x, w float64, i int) bool {
		const eps = 0.02
		return !cols || x >= box.x0+slot*float64(i)-eps && x+w <= box.x0+slot*float64(i+1)+eps
	}
	// Match each bar drawn to the next expected one of its colour (bars
	// too low to draw are skipped); a bar lies after (right of, or below)
	// the bar of the series before it in its group.
	j := 0
	last := map[int]float64{} // group → x (columns) or y (rows) of its last bar
	top := math.Inf(1)
	for _, r := range got {
		x, y, w, h := attrF(r, "x"), attrF(r, "y"), attrF(r, "width"), attrF(r, "height")
		for j < len(want) && !(r.attrs["stroke"] == want[j] && inSlot(x, w, slots[j])) && !strict {
			j++
		}
		if j == len(want) || r.attrs["stroke"] != want[j] || !inSlot(x, w, slots[j]) {
			t.Fatalf("bar at (%v,%v %vx%v), stroke %s: not where a bar of that colour is expected in order (plot %v, slot %.2f, want %q)",
				x, y, w, h, r.attrs["stroke"], box, slot, want)
		}
		at := x
		if !cols {
			at = y
		}
		if prev, ok := last[slots[j]]; ok && at <= prev {
			t.Errorf("bar %d at %v is not after the one before it (%v) in its group", j, at, prev)
		}
		last[slots[j]] = at
		if cols && (y < box.y0-0.02 || y+h > box.y1+0.02) {
			t.Errorf("bar %d (%v,%v %vx%v) outside the plot %v", j, x, y, w, h, box)
		}
		top = math.Min(top, y)
		j++
	}
	if !cols {
		// Rows: the groups in order, top to bottom.
		for i := 1; i < n; i++ {
			if a, b := last[i-1], last[i]; a != 0 && b != 0 && b <= a {
				t.Errorf("group %d (y %v) is not below group %d (y %v)", i, b, i-1, a)
			}
		}
	} else {
		top = box.y0 - clipPad
	}
	// The legend: swatches and names above the plot.
	for _, r := range root.all("rect") {
		if w := attrF(r, "width"); w == legendBar-1.5 && r.attrs["class"] != "pt" && attrF(r, "y")+attrF(r, "height") > top {
			t.Errorf("legend swatch at y=%v reaches into the plot (top %v)", attrF(r, "y"), top)
		}
	}
}

// whiskers counts the whiskers drawn: three dark strokes each.
func whiskers(root *node) int {
	n := 0
	for _, e := range root.all("path") {
		if e.attrs["stroke"] == string(appendHex(nil, colText)) && e.attrs["stroke-width"] == "1.5" {
			n++
		}
	}
	return n / 3
}

func TestGroupedSample(t *testing.T) {
	c := sampleGrouped()
	b, err := c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	root := check(t, b)
	checkGroupedLayout(t, c, root)
	if got := len(barRects(root)); got != 26 {
		t.Errorf("%d bars, want 26 (9 groups × 3, one missing)", got)
	}
	if got := whiskers(root); got != 17 {
		t.Errorf("%d whiskers, want 17", got)
	}
	n := 0
	for _, s := range texts(root) {
		if s == "n/a" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d n/a labels, want 1", n)
	}
	for _, want := range []string{"Truth", "Site", "Changes per day", "mean rate: 0.5", c.Title} {
		if !hasText(root, want) {
			t.Errorf("no <text> %q", want)
		}
	}
	// Long names are shortened in the picture, and given in full in the
	// description, with the automatic summary.
	desc := root.children[1].text
	for _, want := range []string{
		c.Description + " Grouped bar chart with 9 groups of 3 bars. Groups: Site. Vertical axis: Changes per day.",
		"Truth: values from 0.01 to 0.93 in 9 of 9 groups.",
		"Naive estimate (changes seen / visits): values from",
		"Poisson estimate (Cho & Garcia-Molina): values from", "in 8 of 9 groups.",
		"news.example.org: Truth 0.42; Naive estimate (changes seen / visits) 0.294, interval 0.238 to 0.35;",
		"static.example-cdn.com: ", "Poisson estimate (Cho & Garcia-Molina) no value.",
		"Horizontal line at y = 0.5: mean rate: 0.5.",
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("<desc> lacks %q:\n%s", want, desc)
		}
	}
	// Every label is drawn whole, however many lines it takes.
	drawn := strings.Join(texts(root), " ")
	for _, want := range append(append([]string{}, c.Groups...), c.Series[1].Name, c.Series[2].Name) {
		if !strings.Contains(drawn, want) && !strings.Contains(strings.ReplaceAll(drawn, ". ", "."), want) {
			t.Errorf("label %q is not drawn whole", want)
		}
	}
	if strings.Contains(drawn, "…") {
		t.Errorf("a label was cut: %q", drawn)
	}
}

func TestGroupedLengths(t *testing.T) {
	c := Grouped{Groups: []string{"a", "b", "c"}, Series: []GroupSeries{
		{Name: "long", Values: []float64{1, 2, 3, 4, 5}, Lo: []float64{0.5, 1.5, 2.5, 3.5, 4.5}, Hi: []float64{1.5, 2.5, 3.5, 4.5, 5.5}},
		{Name: "short", Values: []float64{2}, Lo: []float64{1}, Hi: nil},
		{Name: "bounds", Values: []float64{1, 2, 3}, Lo: []float64{0.5}, Hi: []float64{1.5, 2.5, 3.5}},
	}}
	b, err := c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	root := check(t, b)
	checkGroupedLayout(t, c, root)
	if got := len(barRects(root)); got != 3+1+3 {
		t.Errorf("%d bars, want 7", got)
	}
	if got := whiskers(root); got != 3+0+1 {
		t.Errorf("%d whiskers, want 4", got)
	}
	desc := root.children[1].text
	for _, want := range []string{"3 groups of 3 bars", "long: values from 1 to 3 in 3 of 3 groups", "short: 2 in 1 of 3 groups",
		"b: long 2, interval 1.5 to 2.5; short no value; bounds 2."} {
		if !strings.Contains(desc, want) {
			t.Errorf("<desc> lacks %q:\n%s", want, desc)
		}
	}
	if strings.Contains(desc, "5.5") {
		t.Errorf("<desc> describes values beyond the groups:\n%s", desc)
	}
}

// TestGroupedManyGroups checks that 300 groups lie in rows, each with its
// label, whiskers left out on bars too thin to carry them; and that with
// more groups than rows can hold, the bars stand in columns with a label
// under every k-th, none of them cut.
func TestGroupedManyGroups(t *testing.T) {
	var c Grouped
	for _, tc := range groupedCases() {
		if tc.name == "many groups" {
			c = tc.c
		}
	}
	labels := func(root *node) int {
		n := 0
		for _, s := range texts(root) {
			if strings.HasPrefix(s, "group") { // a label's first line
				n++
			}
		}
		return n
	}
	b, err := c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	root := check(t, b)
	if columns(root) {
		t.Error("300 groups stand in columns, not rows")
	}
	if n := labels(root); n != 300 {
		t.Errorf("%d of 300 group labels shown", n)
	}
	if got := whiskers(root); got != 0 {
		t.Errorf("%d whiskers on bars thinner than %v pixels", got, minWhiskerBar)
	}
	if !strings.Contains(root.children[1].text, "And 280 more groups.") {
		t.Errorf("<desc> does not stop after %d groups", summaryLimit)
	}
	for i := 300; i < 1500; i++ {
		c.Groups = append(c.Groups, fmt.Sprintf("group %d", i))
	}
	b, err = c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	root = check(t, b)
	if !columns(root) {
		t.Error("1,500 groups lie in rows, not columns")
	}
	if n := labels(root); n < 5 || n > 100 {
		t.Errorf("%d of 1,500 group labels shown", n)
	}
	if strings.Contains(strings.Join(texts(root), " "), "…") {
		t.Error("a label was cut")
	}
}

// TestStylesFollowTheSeries checks that bars and grouped series without
// a style take the sequence's by position, the same in Bars as in
// Grouped (and so as in a Line), that a given style wins over the
// position, and that the legend's swatches are outlined in the colours
// of their series' bars.
func TestStylesFollowTheSeries(t *testing.T) {
	var bars Bars
	g := Grouped{Groups: []string{"only"}}
	for k := 0; k < 9; k++ {
		bars.Bars = append(bars.Bars, Bar{Label: strconv.Itoa(k), Value: 1, Lo: nan, Hi: nan})
		g.Series = append(g.Series, gs(strconv.Itoa(k), 1))
	}
	own := Style{Color: 4, Dash: 2, Marker: 3}
	bars.Bars[2].Style, g.Series[2].Style = &own, &own
	bb, _ := bars.SVG()
	gb, _ := g.SVG()
	br, gr := barRects(parse(t, bb)), barRects(parse(t, gb))
	if len(br) != 9 || len(gr) != 9 {
		t.Fatalf("%d and %d bars, want 9", len(br), len(gr))
	}
	for k := range br {
		want := Nth(k)
		if k == 2 {
			want = own
		}
		c := string(appendHex(nil, want.color()))
		if br[k].attrs["stroke"] != c || gr[k].attrs["stroke"] != c {
			t.Errorf("series %d: strokes %s and %s, want %s", k, br[k].attrs["stroke"], gr[k].attrs["stroke"], c)
		}
		if (br[k].attrs["fill"] == c) != (want.hatchIndex() == 0) {
			t.Errorf("series %d: fill %s, want hatched %v", k, br[k].attrs["fill"], want.hatchIndex() != 0)
		}
	}
	var sw []string
	for _, r := range parse(t, gb).all("rect") {
		if attrF(r, "width") == legendBar-1.5 {
			sw = append(sw, r.attrs["stroke"])
		}
	}
	if len(sw) != 9 {
		t.Fatalf("%d legend swatches, want 9", len(sw))
	}
	for k := range sw {
		if sw[k] != gr[k].attrs["stroke"] {
			t.Errorf("legend swatch %d: %s, its bars %s", k, sw[k], gr[k].attrs["stroke"])
		}
	}
}

// TestEscaping checks that markup in any text comes out as text: the
// parsed title, legend, labels and description equal the input strings.
func TestEscaping(t *testing.T) {
	evil := []string{`<script>alert(1)</script>`, `A & B "q" 'r'`, `]]><x/>`, `&amp; &lt;`}
	for _, s := range evil {
		t.Run(s, func(t *testing.T) {
			x := []float64{1, 2, 3}
			line := Line{Title: s, Description: s, XLabel: s, YLabel: s + "y",
				Series: []Series{series(s+"1", x, x), series(s+"2", x, x)},
				Marks:  []Mark{{2, s + "m", false}}, Refs: []Ref{{2, s + "r"}}}
			bars := Bars{Title: s, Description: s, YLabel: s + "y", Bars: []Bar{{Label: s + "b", Value: 1}}, Refs: []Ref{{0.5, s + "r"}}}
			grouped := Grouped{Title: s, Description: s, XLabel: s + "x", YLabel: s + "y", Groups: []string{s + "g", s},
				Series: []GroupSeries{gs(s+"1", 1, 2), {Name: s + "2", Values: []float64{2, 1}, Style: &Reference}}, Refs: []Ref{{0.5, s + "r"}}}
			for _, c := range []interface{ SVG() ([]byte, error) }{line, bars, grouped} {
				b, err := c.SVG()
				if err != nil {
					t.Fatal(err)
				}
				root := check(t, b)
				if got := root.children[0].text; got != s {
					t.Errorf("<title> = %q, want %q", got, s)
				}
				if desc := root.children[1].text; !strings.HasPrefix(desc, s) {
					t.Errorf("<desc> = %q, want prefix %q", desc, s)
				}
				for _, want := range []string{s, s + "y", s + "r"} {
					if !hasText(root, want) {
						t.Errorf("no <text> %q in %q", want, texts(root))
					}
				}
			}
			b, _ := grouped.SVG()
			root := parse(t, b)
			for _, want := range []string{s + "x", s + "g", s + "1", s + "2"} {
				if !hasText(root, want) {
					t.Errorf("grouped: no <text> %q in %q", want, texts(root))
				}
			}
			if desc := root.children[1].text; !strings.Contains(desc, s+"g: "+s+"1 1; "+s+"2 2.") {
				t.Errorf("grouped: <desc> = %q", desc)
			}
		})
	}
}

func TestGroupedDeterministic(t *testing.T) {
	a, err := sampleGrouped().SVG()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		b, _ := sampleGrouped().SVG()
		if !bytes.Equal(a, b) {
			t.Fatal("same chart rendered to different bytes")
		}
	}
	other := sampleGrouped()
	other.Series[1].Values[3] += 1e-9
	c, _ := other.SVG()
	if parse(t, a).children[0].attrs["id"] == parse(t, c).children[0].attrs["id"] {
		t.Error("different charts share element ids")
	}
	// The same data as a Line or Bars chart gets other ids.
	bars := Bars{Title: other.Title, Description: other.Description, YLabel: other.YLabel}
	d, _ := bars.SVG()
	if parse(t, d).children[0].attrs["id"] == parse(t, a).children[0].attrs["id"] {
		t.Error("a Bars and a Grouped chart share element ids")
	}
}

func TestDeterministic(t *testing.T) {
	a, err := sampleLine().SVG()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		b, _ := sampleLine().SVG()
		if !bytes.Equal(a, b) {
			t.Fatal("same chart rendered to different bytes")
		}
	}
	other := sampleLine()
	other.Series[0].Y[3] += 1e-9
	c, _ := other.SVG()
	ra, rc := parse(t, a), parse(t, c)
	if ra.children[0].attrs["id"] == rc.children[0].attrs["id"] {
		t.Error("different charts share element ids")
	}
}

// TestConcurrent renders from several goroutines at once: charts share no
// mutable state (run with -race).
func TestConcurrent(t *testing.T) {
	want, _ := sampleLine().SVG()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := sampleLine().SVG()
			if err == nil && !bytes.Equal(got, want) {
				err = fmt.Errorf("concurrent render differs")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestGolden pins the exact bytes of the sample charts, so that a native
// run and a GOOS=js GOARCH=wasm run of this test prove that both
// platforms render identically. After an intended change to the drawing,
// update the digests from the failure message.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    interface{ SVG() ([]byte, error) }
		want string
	}{
		{"line", sampleLine(), goldenLine},
		{"bars", sampleBars(), goldenBars},
		{"grouped", sampleGrouped(), goldenGrouped},
		{"grouped budgets", sampleGroupedBudgets(), goldenGroupedBudgets},
	} {
		b, err := tc.c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != tc.want {
			t.Errorf("%s: sha256 = %s, want %s", tc.name, got, tc.want)
		}
	}
}

const (
	goldenLine = "dcae3b64d1187b55e8030e2150958b1574159a00e3e0157f867baddfec533c74"
	goldenBars = "e57273b58020e067e71189759165b524d0e7b88cb9c309ce9632abeea4c4b1b9"

	goldenGrouped        = "953312ef30246d0908f9ef34e000e9690fff9d27e5049be5799cab0658d7d615"
	goldenGroupedBudgets = "3d0e4040b7038aca8bda5c2a11afe31198eaa21914dd92994e31e962460f8f25"
)

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi  float64
		target  int
		nice    bool
		intStep bool
		want    string
	}{
		{0, 1, 5, false, false, "0 0.2 0.4 0.6 0.8 1"},
		{0.03, 0.97, 5, true, false, "0 0.2 0.4 0.6 0.8 1"},
		{1, 52, 8, false, true, "5 10 15 20 25 30 35 40 45 50"},
		{1, 3, 8, false, true, "1 2 3"},
		{-3, 3, 6, false, false, "−3 −2 −1 0 1 2 3"},
		{0, 2e6, 4, false, false, "0 5e5 1e6 1.5e6 2e6"},
		{1e-300, 3e-300, 4, false, false, "1e-300 1.5e-300 2e-300 2.5e-300 3e-300"},
		{-1e306, 1e306, 4, true, false, "−1e306 −5e305 0 5e305 1e306"},
	} {
		a := makeAxis(tc.lo, tc.hi, tc.target, tc.nice, tc.intStep)
		if got := strings.Join(a.labels, " "); got != tc.want {
			t.Errorf("makeAxis(%v, %v, %d) = %q, want %q", tc.lo, tc.hi, tc.target, got, tc.want)
		}
	}
}

// TestWrapLines checks that text wraps at spaces into lines no wider than
// asked, breaks a word too long for a line after punctuation or else
// anywhere, and keeps every character: nothing is ever cut.
func TestWrapLines(t *testing.T) {
	for _, tc := range []struct {
		s    string
		maxW float64
		want []string
	}{
		{"short", 100, []string{"short"}},
		{"", 100, nil},
		{"Site sampling, greedy", 90, []string{"Site sampling,", "greedy"}},
		{"Apache Nutch AdaptiveFetchSchedule", 90, []string{"Apache Nutch", "AdaptiveFetch", "Schedule"}},
		{"static.example-cdn.com", 70, []string{"static.", "example-", "cdn.com"}},
		{"WWWWWWWW", 30, []string{"WW", "WW", "WW", "WW"}},
		{"a  b\tc", 1000, []string{"a b c"}},
	} {
		got := wrapLines(cleanText(tc.s), 12, tc.maxW, false)
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("wrapLines(%q, %v) = %q, want %q", tc.s, tc.maxW, got, tc.want)
		}
		for _, l := range got {
			if w := textWidth(l, 12, false); w > tc.maxW && len([]rune(l)) > 1 {
				t.Errorf("wrapLines(%q): line %q is %.1f px, wider than %v", tc.s, l, w, tc.maxW)
			}
		}
	}
	for _, maxW := range []float64{1, 20, 55, 100, 400} {
		lines := wrapLines(long, 12, maxW, false)
		if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != strings.ReplaceAll(long, " ", "") {
			t.Errorf("wrapping to %v px lost characters", maxW)
		}
	}
	if got := cleanText(" a\n\tb\x00c\xff "); got != "a bc\uFFFD" {
		t.Errorf("cleanText = %q", got)
	}
}

func TestRecoverTurnsPanicIntoError(t *testing.T) {
	f := func() (err error) {
		defer recovered(&err)
		panic("boom")
	}
	if err := f(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("err = %v", err)
	}
}

func BenchmarkLineSVG(b *testing.B) {
	c := sampleLine()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.SVG(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBarsSVG(b *testing.B) {
	c := sampleBars()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.SVG(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGroupedSVG(b *testing.B) {
	c := sampleGrouped()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.SVG(); err != nil {
			b.Fatal(err)
		}
	}
}
