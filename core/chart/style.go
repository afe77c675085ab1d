package chart

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Style is how one series looks, in every chart that draws it: a colour,
// a second channel that tells series apart without colour (a dash pattern
// on lines and the matching hatch on bars), and the shape of its points.
// A caller that draws the same thing in several charts (a policy, say)
// gives it the same Style in each; the chart never derives a series'
// looks from its position when it has a Style.
//
// The indexes pick from fixed lists (the palette, the dash patterns, the
// marker shapes) and wrap around, so any value is valid.
type Style struct {
	Color  int // index into the palette: Okabe–Ito without yellow, or Neutral
	Dash   int // index into the dash patterns of lines and hatches of bars
	Marker int // index into the marker shapes of points
	// Open draws hollow points and bars lightly filled inside their
	// outline: a series that reads the truth (an oracle), or an exact
	// expectation rather than a measurement.
	Open bool
	// Thin draws a thinner line, for a series drawn beside the one whose
	// Style it shares (a policy's exact expectation beside its mean).
	Thin bool
}

// Okabe–Ito colours, which stay distinguishable under the common forms of
// colour blindness. The yellow is left out (unreadable on white), and so
// is the black, which Neutral uses for what is not a series of the
// experiment (the truth, a page's change rate).
var palette = []drawing.Color{
	{R: 0x00, G: 0x72, B: 0xB2, A: 255}, // blue
	{R: 0xE6, G: 0x9F, B: 0x00, A: 255}, // orange
	{R: 0x00, G: 0x9E, B: 0x73, A: 255}, // bluish green
	{R: 0xD5, G: 0x5E, B: 0x00, A: 255}, // vermillion
	{R: 0xCC, G: 0x79, B: 0xA7, A: 255}, // reddish purple
	{R: 0x56, G: 0xB4, B: 0xE9, A: 255}, // sky blue
	{R: 0x3d, G: 0x43, B: 0x4a, A: 255}, // near black: Neutral
}

// Neutral is the colour and dash index of references drawn as series
// (the truth beside estimates): a near black, and a hatch of its own.
const Neutral = 6

// SeriesColors is how many colours Nth cycles through (Neutral apart).
const SeriesColors = 6

// dashes are the dash patterns of lines, for a line 2.25 pixels wide with
// round caps (which add half the width at each end of a dash): solid,
// dashed, dotted, dash-dot, long dashes, dash-dot-dot; the last is
// Neutral's.
var dashes = []string{"", "8 5", "0.5 4.5", "9 4.5 0.5 4.5", "16 6", "9 4.5 0.5 4.5 0.5 4.5", "3 3"}

// hatches name the fills of bars, one per dash pattern, for GET
// /api/policies and the legend's description.
var hatches = []string{"solid", "diagonal", "dots", "back-diagonal", "horizontal", "crosshatch", "vertical"}

// markers name the shapes of points.
var markers = []string{"circle", "square", "triangle", "diamond", "triangle-down", "cross"}

// Nth returns the i-th style of the sequence that series without one of
// their own take in order, and that a catalog gives its entries: six
// colours, and for each run of six a new marker shape, with the dash
// patterns turned by one, so that the first 36 styles differ in dash or
// marker (not only in colour) and no two of them are the same.
func Nth(i int) Style {
	if i < 0 {
		i = -i
	}
	m := (i / SeriesColors) % len(markers)
	return Style{Color: i % SeriesColors, Dash: (i + m) % SeriesColors, Marker: m}
}

func (s Style) color() drawing.Color { return palette[cyc(s.Color, len(palette))] }
func (s Style) dash() string         { return dashes[cyc(s.Dash, len(dashes))] }
func (s Style) hatchIndex() int      { return cyc(s.Dash, len(hatches)) }
func (s Style) markerIndex() int     { return cyc(s.Marker, len(markers)) }
func (s Style) colorIndex() int      { return cyc(s.Color, len(palette)) }

func (s Style) lineWidth() float64 {
	if s.Thin {
		return 1.25
	}
	return 2.25
}

// cyc maps any i to 0..n-1.
func cyc(i, n int) int { return ((i % n) + n) % n }

// styleOr returns *s, or the i-th of the sequence when s is nil.
func styleOr(s *Style, i int) Style {
	if s != nil {
		return *s
	}
	return Nth(i)
}

// MarshalJSON writes the style as a page can use it: the colour as
// #rrggbb, the dash pattern as SVG's stroke-dasharray ("" for solid), the
// hatch of its bars and the shape of its points by name.
func (s Style) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Color  string `json:"color"`
		Dash   string `json:"dash"`
		Hatch  string `json:"hatch"`
		Marker string `json:"marker"`
		Open   bool   `json:"open,omitempty"`
		Thin   bool   `json:"thin,omitempty"`
	}{string(appendHex(nil, s.color())), s.dash(), hatches[s.hatchIndex()], markers[s.markerIndex()], s.Open, s.Thin})
}

// hashStyle adds a series' style (or its absence) to h.
func (h *hasher) style(s *Style) {
	if s == nil {
		h.int(-1)
		return
	}
	h.int(s.Color)
	h.int(s.Dash)
	h.int(s.Marker)
	h.int(b2i(s.Open)*2 + b2i(s.Thin))
}

// markerSize is the radius of a point's marker, in pixels.
const markerSize = 4.0

// drawMarker writes the point of style s at (x, y): its shape in its
// colour, filled (with a white rim, to stand out on its line) or hollow
// when the style is Open. title, when not "", is the point's value for
// people (an SVG <title>, shown on hover); such a point is marked as one
// for the page's tooltips (class "pt").
func (r *svgRenderer) drawMarker(x, y float64, s Style, radius float64, title string) {
	c := s.color()
	m := s.markerIndex()
	if m == 0 {
		r.raw(`<circle cx="`)
		r.b = appendFloat(r.b, x)
		r.raw(`" cy="`)
		r.b = appendFloat(r.b, y)
		r.raw(`" r="`)
		r.b = appendFloat(r.b, radius)
		r.raw(`"`)
	} else {
		r.raw(`<path d="`)
		r.b = appendShape(r.b, m, x, y, radius)
		r.raw(`"`)
	}
	if s.Open {
		r.b = appendColorAttr(r.b, "fill", colWhite)
		r.b = appendColorAttr(r.b, "stroke", c)
		r.raw(` stroke-width="1.75"`)
	} else {
		r.b = appendColorAttr(r.b, "fill", c)
		r.raw(` stroke="#fff" stroke-width="1.25"`)
	}
	if m == 0 {
		r.end("circle", title)
	} else {
		r.end("path", title)
	}
}

// end closes an element named name whose attributes the caller wrote:
// with a <title> child (title, already clean) and the class the page's
// tooltips look for, or self-closed when title is "".
func (r *svgRenderer) end(name, title string) {
	if title == "" {
		r.raw("/>")
		return
	}
	r.raw(` class="pt"><title>`)
	r.b = appendEscaped(r.b, title)
	r.raw("</title></" + name + ">")
}

// appendShape writes the path of marker shape m centred on (x, y) with
// the given radius, each shape drawn to look about as large as a circle.
func appendShape(b []byte, m int, x, y, radius float64) []byte {
	pt := func(b []byte, cmd byte, dx, dy float64) []byte {
		b = append(b, cmd)
		b = appendFloat(b, x+dx)
		b = append(b, ' ')
		return appendFloat(b, y+dy)
	}
	poly := func(b []byte, pts [][2]float64) []byte {
		for i, p := range pts {
			cmd := byte('L')
			if i == 0 {
				cmd = 'M'
			}
			b = pt(b, cmd, p[0], p[1])
		}
		return append(b, 'Z')
	}
	r := radius
	switch m {
	case 1: // square
		a := r * 0.9
		return poly(b, [][2]float64{{-a, -a}, {a, -a}, {a, a}, {-a, a}})
	case 2: // triangle
		a := r * 1.25
		return poly(b, [][2]float64{{0, -a}, {a * 0.95, a * 0.65}, {-a * 0.95, a * 0.65}})
	case 3: // diamond
		a := r * 1.25
		return poly(b, [][2]float64{{0, -a}, {a, 0}, {0, a}, {-a, 0}})
	case 4: // triangle pointing down
		a := r * 1.25
		return poly(b, [][2]float64{{0, a}, {a * 0.95, -a * 0.65}, {-a * 0.95, -a * 0.65}})
	default: // cross: a plus of two bars, turned by 45°
		a, t := r*1.2, r*0.45
		plus := [][2]float64{{-t, -a}, {t, -a}, {t, -t}, {a, -t}, {a, t}, {t, t}, {t, a}, {-t, a}, {-t, t}, {-a, t}, {-a, -t}, {-t, -t}}
		for i, p := range plus {
			plus[i] = [2]float64{(p[0] - p[1]) / math.Sqrt2, (p[0] + p[1]) / math.Sqrt2}
		}
		return poly(b, plus)
	}
}

// hatchPattern writes the <pattern> that fills a bar of style s, with
// the given id: its colour lightly as ground, and the hatch of its dash
// index in full colour (a solid bar uses no pattern).
func hatchPattern(id string, s Style) string {
	col := string(appendHex(nil, s.color()))
	var b strings.Builder
	b.WriteString(`<pattern id="` + id + `" width="8" height="8" patternUnits="userSpaceOnUse"`)
	switch s.hatchIndex() {
	case 1:
		b.WriteString(` patternTransform="rotate(45)"`)
	case 3:
		b.WriteString(` patternTransform="rotate(-45)"`)
	}
	b.WriteString(` data-hatch="` + hatches[s.hatchIndex()] + `">`)
	ground := "0.28"
	if s.Open {
		ground = "0.1"
	}
	b.WriteString(`<rect width="8" height="8" fill="` + col + `" fill-opacity="` + ground + `"/>`)
	stroke := func(d string) { b.WriteString(`<path d="` + d + `" stroke="` + col + `" stroke-width="2.5"/>`) }
	switch s.hatchIndex() {
	case 1, 3:
		stroke("M2 0V8")
	case 2:
		b.WriteString(`<circle cx="2" cy="2" r="1.6" fill="` + col + `"/><circle cx="6" cy="6" r="1.6" fill="` + col + `"/>`)
	case 4:
		stroke("M0 2H8")
	case 5:
		b.WriteString(`<path d="M0 0L8 8M8 0L0 8" stroke="` + col + `" stroke-width="1.6"/>`)
	case 6:
		stroke("M2 0V8")
	}
	b.WriteString(`</pattern>`)
	return b.String()
}

// patterns collects the hatch patterns a chart's bars use, one per style,
// in order of first use, and names them.
type patterns struct {
	prefix string
	styles []Style
}

// fill returns the fill of a bar of style s: its colour, or a reference
// to its hatch pattern.
func (p *patterns) fill(s Style) string {
	if s.hatchIndex() == 0 && !s.Open {
		return string(appendHex(nil, s.color()))
	}
	k := -1
	for i, t := range p.styles {
		if t.colorIndex() == s.colorIndex() && t.hatchIndex() == s.hatchIndex() && t.Open == s.Open {
			k = i
			break
		}
	}
	if k < 0 {
		k = len(p.styles)
		p.styles = append(p.styles, s)
	}
	return "url(#" + p.prefix + strconv.Itoa(k) + ")"
}

// defs returns the <defs> of the patterns used, or "" if none.
func (p *patterns) defs() string {
	if len(p.styles) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<defs>")
	for i, s := range p.styles {
		b.WriteString(hatchPattern(p.prefix+strconv.Itoa(i), s))
	}
	b.WriteString("</defs>")
	return b.String()
}
