package chart

import (
	"bytes"
	"crypto/sha256"
	"encoding/xml"
	"fmt"
	"io"
	"math"
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
			Marks: []Mark{{3, long}}, Refs: []Ref{{2, long}}}, false},
		{"bad text", Line{Title: "a\x00b\x1bc\xff\xfe\u2028d\ne", Series: []Series{series("\x01\x02", x5, x5)}}, false},
		{"fixed range", Line{YRange: &Range{0, 1}, Series: []Series{{Name: "a", X: x5, Y: []float64{0.1, 0.5, 1.5, -0.2, 0.9}, Lo: []float64{0, 0.4, 1.4, -0.3, 0.8}, Hi: []float64{0.2, 0.6, 1.6, 0, 1}}}}, false},
		{"narrow fixed range", Line{YRange: &Range{0.31, 0.32}, Series: []Series{series("a", x5, x5)}}, false},
		{"reversed range", Line{YRange: &Range{1, 0}, Series: []Series{series("a", x5, x5)}}, false},
		{"bad range", Line{YRange: &Range{nan, inf}, Series: []Series{series("a", x5, x5)}}, false},
		{"empty range", Line{YRange: &Range{1, 1}, Series: []Series{series("a", x5, x5)}}, false},
		{"marks and refs", Line{Series: []Series{series("a", x5, x5)},
			Marks: []Mark{{nan, "nan"}, {inf, "inf"}, {100, "far"}, {-3, "left"}, {5, "edge"}},
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
			if tc.c.Title != "" && !hasText(root, cleanText(tc.c.Title)) && !strings.Contains(strings.Join(texts(root), "\n"), "…") {
				t.Errorf("title not drawn")
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
		many.Bars = append(many.Bars, Bar{Label: fmt.Sprintf("bar %d %s", i, long[:i%50]), Value: float64(i%17) - 8, Lo: nan, Hi: nan, Dashed: i%7 == 0})
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
		{"long labels", Bars{Title: long, YLabel: long, Bars: []Bar{{Label: long, Value: 1}, {Label: long, Value: 2, Dashed: true}}, Refs: []Ref{{1.5, long}}}, false},
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

// TestEscaping checks that markup in any text comes out as text: the
// parsed title, legend, labels and description equal the input strings.
func TestEscaping(t *testing.T) {
	evil := []string{`<script>alert(1)</script>`, `A & B "q" 'r'`, `]]><x/>`, `&amp; &lt;`}
	for _, s := range evil {
		t.Run(s, func(t *testing.T) {
			x := []float64{1, 2, 3}
			line := Line{Title: s, Description: s, XLabel: s, YLabel: s + "y",
				Series: []Series{series(s+"1", x, x), series(s+"2", x, x)},
				Marks:  []Mark{{2, s + "m"}}, Refs: []Ref{{2, s + "r"}}}
			bars := Bars{Title: s, Description: s, YLabel: s + "y", Bars: []Bar{{Label: s + "b", Value: 1}}, Refs: []Ref{{0.5, s + "r"}}}
			for _, c := range []interface{ SVG() ([]byte, error) }{line, bars} {
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
		})
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
	goldenLine = "637977b4782c6d27ca8609d599c30bd217847b6686a704d9933e17a440694445"
	goldenBars = "d2e4b0155ad2486643f19c9829defbe85cb522a18e1573a509252d5302fa5cc0"
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

func TestTruncate(t *testing.T) {
	s := truncate(long, 12, 100, false)
	if !strings.HasSuffix(s, "…") || textWidth(s, 12, false) > 100 {
		t.Errorf("truncate = %q (%.1fpx)", s, textWidth(s, 12, false))
	}
	if got := truncate("short", 12, 100, false); got != "short" {
		t.Errorf("truncate(short) = %q", got)
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
