// Package chart draws the lab's line, bar and forest charts as standalone,
// accessible SVG.
//
// It wraps github.com/wcharczuk/go-chart/v2, which is archived upstream, so
// that the rest of the code depends only on the small types here and the
// library can be swapped. go-chart lays out the plot area, axes, grid and
// lines; this package supplies its own go-chart Renderer (to escape text and
// add accessibility markup), chooses ranges and ticks itself, and guards
// every input so that go-chart never sees NaN, infinities or empty ranges.
//
// Output is deterministic: the same chart gives the same bytes on every
// platform, including GOOS=js GOARCH=wasm.
package chart

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"strings"

	"github.com/golang/freetype/truetype"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Range is a closed interval of values on an axis.
type Range struct{ Min, Max float64 }

// Line is a line chart: one line per series over x (for example refresh
// cycles, or a swept parameter), each with an optional interval band.
//
// Any input renders. Width and Height are clamped to 200×140..8000×8000;
// a Height of 0 gives the plot a height that suits its width (taller
// for its width on a narrow chart), and the image grows where titles,
// legend and labels would leave the plot less than 100×80 pixels. Marks
// widen the x range to include them; Refs widen a fitted y range, and are
// left out when they fall outside a fixed YRange.
type Line struct {
	Title       string
	Description string // one or two sentences for screen readers; goes into <desc>
	XLabel      string
	YLabel      string
	Series      []Series
	YRange      *Range // fixed y range (e.g. 0..1 for ratios); nil = fit the data
	Marks       []Mark // vertical reference lines, e.g. X=√(N·r) labelled "√(N·r) = 7"
	Refs        []Ref  // horizontal reference lines, e.g. Y=0.66 labelled "paper: 0.66"
	Width       int    // pixels; 0 = 720
	Height      int    // pixels; 0 = what suits the width
	ID          string // prefix for element ids; "" = derived from a hash of the chart
}

// Series is one line of a Line chart. Only the first min(len(X), len(Y))
// points are used, in order of X (which need not be sorted). A point with
// a non-finite X is dropped; a non-finite Y leaves a gap in the line.
// Values beyond ±1e306 are drawn at that bound.
type Series struct {
	Name string
	// Key names what the series shows (a policy, say) in the SVG, as the
	// data-policy attribute of its elements, so that a page can find it.
	Key  string
	X, Y []float64
	// Lo and Hi, when given, bound an interval around Y (typically 95%),
	// drawn as a translucent band, or as a whisker where a run of valid
	// bounds is a single point. Where either bound is missing or not
	// finite, the band has a gap.
	Lo, Hi []float64
	// Style is how the series looks; nil takes the next style of the
	// sequence (Nth) by the series' position.
	Style *Style
}

// Mark is a labelled vertical reference line at X. Current marks the
// value an experiment's own run used (the slider's), drawn solid.
type Mark struct {
	X       float64
	Label   string
	Current bool
}

// Ref is a labelled horizontal reference line at Y.
type Ref struct {
	Y     float64
	Label string
}

// Bars is a bar chart: one bar per item, with optional interval whiskers.
// Bars take their Style, or the sequence's by index, so a bar and a line
// for the same item match.
//
// Any input renders; sizes and Refs are treated as for Line. A bar whose
// Value is not finite is shown as "n/a". Bars stand on the x axis with
// their labels under them, wrapped onto more lines where needed; when the
// labels cannot stand under their bars even so (many bars, or a narrow
// chart), the bars lie along the y axis instead, a row each, their labels
// wrapped beside them. No label is ever cut.
type Bars struct {
	Title       string
	Description string // one or two sentences for screen readers; goes into <desc>
	YLabel      string
	Bars        []Bar
	YRange      *Range // fixed y range; nil = fit the data (always including 0)
	Refs        []Ref  // horizontal reference lines
	Width       int    // pixels; 0 = 720
	Height      int    // pixels; 0 = what suits the width
	ID          string // prefix for element ids; "" = derived from a hash of the chart
}

// Bar is one bar. Lo and Hi bound a whisker; NaN (or Lo == Hi) draws none.
// Key and Style are as for a Series.
type Bar struct {
	Label  string
	Key    string
	Value  float64
	Lo, Hi float64
	Style  *Style
}

// Grouped draws groups of bars side by side: one group per label, one bar
// per series in each group, a legend of the series, optional whiskers. It
// suits comparisons such as estimated against real change rate per site
// (groups are sites; bars are the truth and each policy's estimate) or a
// metric of several feature sets at a few budgets.
//
// Series take their Style, or the sequence's by index. With GroupStyles
// the bars take the style of their group instead (groups are then the
// things styled, policies say, and the series tell themselves apart by
// their own Style's Open alone). Any input renders; sizes, Refs and the
// turning of bars on their side are as for Bars. There is one group per
// entry of Groups; values beyond it are ignored, and a series with fewer
// values has no bar in the remaining groups.
type Grouped struct {
	Title       string
	Description string // one or two sentences for screen readers; goes into <desc>
	XLabel      string // what the groups are, e.g. "Site"
	YLabel      string
	Groups      []string      // group labels along the x axis
	GroupKeys   []string      // with GroupStyles: what each group shows (data-policy)
	GroupStyles []*Style      // optional: the style of each group's bars
	Series      []GroupSeries // one bar per series in each group
	YRange      *Range        // fixed y range; nil = fit the data (always including 0)
	Refs        []Ref         // horizontal reference lines
	Width       int           // pixels; 0 = 720
	Height      int           // pixels; 0 = what suits the width
	ID          string        // prefix for element ids; "" = derived from a hash of the chart
}

// GroupSeries is one bar in each group of a Grouped chart. Values, Lo and
// Hi have one entry per group; a missing or non-finite value draws no bar
// there, and a whisker needs the value and both bounds (Lo and Hi may be
// nil, for none). Key and Style are as for a Series; the truth beside
// estimates takes Reference.
type GroupSeries struct {
	Name           string
	Key            string
	Values, Lo, Hi []float64
	Style          *Style
}

// Reference is the style of what a chart sets its series against rather
// than a series of the experiment: the truth, a page's change rate.
var Reference = Style{Color: Neutral, Dash: Neutral, Marker: 0}

// Default and limit sizes, in pixels.
const (
	defaultWidth = 720
	minWidth     = 200
	minHeight    = 140
	maxSide      = 8000
	minPlotW     = 100 // the image grows to keep at least this plot area
	minPlotH     = 80
)

// Neutral colours.
var (
	colText   = drawing.Color{R: 0x1f, G: 0x23, B: 0x28, A: 255}
	colMuted  = drawing.Color{R: 0x57, G: 0x60, B: 0x6a, A: 255}
	colAxis   = drawing.Color{R: 0x8c, G: 0x95, B: 0x9f, A: 255}
	colGrid   = drawing.Color{R: 0xe4, G: 0xe7, B: 0xeb, A: 255}
	colZero   = drawing.Color{R: 0xaf, G: 0xb8, B: 0xc1, A: 255}
	colRef    = drawing.Color{R: 0x6e, G: 0x77, B: 0x81, A: 255}
	colWhite  = drawing.Color{R: 0xff, G: 0xff, B: 0xff, A: 255}
	colHidden = drawing.Color{R: 0xff, G: 0xff, B: 0xff, A: 0} // transparent, but not go-chart's "unset"
)

// Type sizes, in pixels: no text of a chart is smaller than 12 pixels,
// which the page keeps by drawing each chart at the width it is shown
// (never scaled down). lineHeight is the distance between the baselines
// of a wrapped text's lines, for a size.
const (
	sizeTitle  = 16
	sizeLegend = 12
	sizeLabel  = 12
	sizeTick   = 12
	sizeNote   = 12
	margin     = 16 // outer margin on every side
)

func lineHeight(size float64) float64 { return math.Round(size * 1.3) }

// noFont is handed to go-chart so that it does not parse its bundled Roboto
// font on every first render; our renderer never reads it.
var noFont = new(truetype.Font)

// size returns the chart size to use for the requested one; a height of
// 0 stays 0, for the chart to choose (plotHeight).
func size(w, h int) (int, int) {
	if w <= 0 {
		w = defaultWidth
	}
	if h > 0 {
		h = min(max(h, minHeight), maxSide)
	}
	return min(max(w, minWidth), maxSide), max(h, 0)
}

// plotHeight is the height of a plot plotW pixels wide whose chart was
// given no height: a little over half its width on a wide chart, up to
// two thirds on a phone's, within 150..440 pixels, so that a narrow chart
// is taller for its width and a wide one does not fill the screen.
func plotHeight(plotW float64) float64 {
	ratio := 0.45 + 0.22*math.Max(0, math.Min(1, (700-plotW)/450))
	return math.Round(math.Max(150, math.Min(440, plotW*ratio)))
}

// hasher derives element ids from the content of a chart, so that output
// is deterministic and two different charts on one page do not share ids.
// It is 64-bit FNV-1a (hash/fnv) of the chart's strings, lengths and
// numbers, each number as its 8 bytes, least significant first.
type hasher struct {
	h   hash.Hash64
	buf [64]byte // bytes on their way to h, which then need no allocation
}

func newHasher(kind string) *hasher {
	h := &hasher{h: fnv.New64a()}
	h.str(kind)
	return h
}

func (h *hasher) str(s string) {
	h.int(len(s))
	for len(s) > 0 {
		n := copy(h.buf[:], s)
		h.h.Write(h.buf[:n])
		s = s[n:]
	}
}

func (h *hasher) int(v int) { h.u64(uint64(v)) }

func (h *hasher) f64(v float64) { h.u64(math.Float64bits(v)) }

func (h *hasher) f64s(vs []float64) {
	h.int(len(vs))
	for _, v := range vs {
		h.f64(v)
	}
}

func (h *hasher) u64(v uint64) {
	binary.LittleEndian.PutUint64(h.buf[:], v)
	h.h.Write(h.buf[:8])
}

func (h *hasher) rng(r *Range) {
	if r == nil {
		h.int(0)
		return
	}
	h.int(1)
	h.f64(r.Min)
	h.f64(r.Max)
}

func (h *hasher) id() string { return fmt.Sprintf("chart-%012x", h.h.Sum64()>>16) }

// cleanID keeps the characters of id that are safe in an XML id and in
// url(#...), or returns "" if none are left.
func cleanID(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" {
		return ""
	}
	if c := s[0]; !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') {
		s = "c" + s
	}
	return s
}

// fixedYRange returns the usable part of a caller's fixed y range: bounds
// in order and finite, or ok=false to fit the data instead.
func fixedYRange(r *Range) (lo, hi float64, ok bool) {
	if r == nil || !finite(r.Min) || !finite(r.Max) {
		return 0, 0, false
	}
	lo, hi = clampMag(r.Min), clampMag(r.Max)
	if lo > hi {
		lo, hi = hi, lo
	}
	if degenerate(lo, hi) {
		return 0, 0, false
	}
	return lo, hi, true
}

// document wraps a rendered body in the root element with its title and
// description. The root has the size it was laid out for, in pixels, so
// that its text is shown at the size it was set (a page asks for a chart
// at the width it shows it), and a viewBox, so that it can still be
// scaled; it carries the font, so the file also opens on its own.
func document(w, h int, id, title, desc, defs string, body []byte) []byte {
	out := make([]byte, 0, len(body)+len(title)+len(desc)+len(defs)+512)
	out = fmt.Appendf(out, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d`, w, h, w, h)
	out = append(out, `" role="img" aria-labelledby="`...)
	out = append(out, id+"-title "+id+"-desc"...)
	out = append(out, `" font-family="`...)
	out = append(out, fontFamily...)
	out = append(out, `"><title id="`...)
	out = append(out, id+"-title"...)
	out = append(out, `">`...)
	out = appendEscaped(out, title)
	out = append(out, `</title><desc id="`...)
	out = append(out, id+"-desc"...)
	out = append(out, `">`...)
	out = appendEscaped(out, desc)
	out = append(out, `</desc>`...)
	out = append(out, defs...)
	out = append(out, body...)
	out = append(out, "</svg>\n"...)
	return out
}

// titleLines wraps a chart's title to its width.
func titleLines(w int, title string) []string {
	return wrapLines(title, sizeTitle, float64(w-2*margin), true)
}

// titleHeight is the height the title's lines take, with the space
// below them: 0 without a title.
func titleHeight(lines []string) float64 {
	if len(lines) == 0 {
		return 0
	}
	return float64(len(lines)-1)*lineHeight(sizeTitle) + sizeTitle + 8
}

// header draws the title's lines and returns the y just below them.
func header(r *svgRenderer, lines []string) float64 {
	y := float64(margin)
	for k, l := range lines {
		r.text(margin, y+sizeTitle*capHeight+2+float64(k)*lineHeight(sizeTitle), l, textStyle{size: sizeTitle, color: colText, bold: true})
	}
	return y + titleHeight(lines)
}

// textLines draws lines of text, the first baseline at y.
func textLines(r *svgRenderer, x, y float64, lines []string, t textStyle) {
	for k, l := range lines {
		r.text(x, y+float64(k)*lineHeight(t.size), l, t)
	}
}

// emptyChart is the whole document of a chart with no data: its title
// and the empty state.
func emptyChart(w, h int, id, a11yTitle, desc, title string) []byte {
	if h <= 0 {
		h = 160
	}
	r := newRenderer()
	lines := titleLines(w, title)
	h = max(h, int(math.Ceil(float64(margin)+titleHeight(lines)+8+40+margin)))
	background(r, w, h)
	top := header(r, lines)
	noData(r, w, h, top+8)
	return document(w, h, id, a11yTitle, desc, "", r.b)
}

// noData draws the empty state: a light frame with a centred message.
func noData(r *svgRenderer, w, h int, top float64) {
	bottom := float64(h - margin)
	if bottom-top < 40 {
		top = bottom - 40
	}
	r.rect(margin, top, float64(w-2*margin), bottom-top, "#f6f8fa", 0, colGrid, 1, "")
	r.text(float64(w)/2, (top+bottom)/2+5, "No data", textStyle{size: 14, color: colMuted, anchor: "middle"})
}

// background fills the whole image white, so that a downloaded file does
// not show through on a dark viewer.
func background(r *svgRenderer, w, h int) {
	r.rect(0, 0, float64(w), float64(h), "#fff", 0, drawing.Color{}, 0, "")
}

// recovered turns a panic inside rendering into an error. Inputs are
// guarded so that this should never trigger; it is the last line of
// defence against go-chart failures.
func recovered(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("chart: rendering failed: %v", p)
	}
}

// summary accumulates the automatic part of a chart description.
type summary struct{ b strings.Builder }

func (s *summary) add(format string, args ...any) {
	if s.b.Len() > 0 {
		s.b.WriteByte(' ')
	}
	fmt.Fprintf(&s.b, format, args...)
}

func (s *summary) String() string { return s.b.String() }

// joinDesc joins the caller's description and the automatic summary.
func joinDesc(desc, auto string) string {
	desc = cleanText(desc)
	if desc == "" {
		return auto
	}
	if !strings.HasSuffix(desc, ".") && !strings.HasSuffix(desc, "!") && !strings.HasSuffix(desc, "?") {
		desc += "."
	}
	return desc + " " + auto
}
