package chart

import (
	"math"
	"strconv"
	"strings"
)

// Forest is a forest plot: one row per item, top to bottom in the given
// order (a ranking, say), each a point at its value and a line across its
// interval, beside the item's label; an optional vertical reference line
// (the best item's value, or zero for differences); and, on the right, an
// optional note per row (the value and interval in words).
//
// Labels are never cut: a label wider than its column wraps onto more
// lines (a word too long for it breaks), and its row grows to hold them.
// All text is at least 12 pixels high in the image's own units. Any input
// renders; a row whose value is not finite shows "n/a". Width is clamped
// as for Line; the height follows from the rows.
type Forest struct {
	Title       string
	Description string // one or two sentences for screen readers; goes into <desc>
	XLabel      string // what the values are, under the axis
	Rows        []ForestRow
	// Ref, when set, draws a dashed vertical line at Ref.X, labelled
	// above the plot.
	Ref    *ForestRef
	XRange *Range // fixed x range; nil = fit the values, intervals and Ref
	Width  int    // pixels; 0 = 720
	ID     string // prefix for element ids; "" = derived from a hash of the chart
}

// ForestRow is one row of a forest plot. Lo and Hi bound its interval;
// NaN (or Lo == Hi) draws the point alone. The point and the interval's
// line take Style's colour, marker and dash (a policy's, the same as in
// its other charts; nil for the sequence's by row), hollow when it is
// Open. Key is as for a Series. Bold sets the label in bold (the
// reference row). Note is drawn at the right edge, if there is room.
type ForestRow struct {
	Label  string
	Key    string
	Value  float64
	Lo, Hi float64
	Style  *Style
	Bold   bool
	Note   string
}

// ForestRef is the labelled vertical reference line of a forest plot.
type ForestRef struct {
	X     float64
	Label string
}

// Type sizes and spacing of forest plots, in pixels: every text is at
// least 12 pixels, the size the page's tables use.
const (
	forestText   = 12
	forestLine   = 16 // line height of a wrapped label
	forestRowPad = 10 // above and below a row's text
	forestGap    = 12 // between the label column, the plot and the notes
)

// widestWord returns the width of the widest word of s.
func widestWord(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, word := range strings.Fields(s) {
		w = math.Max(w, textWidth(word, size, bold))
	}
	return w
}

type forestRow struct {
	ForestRow
	style  Style
	lines  []string
	ok     bool    // the value is finite
	lo, hi float64 // NaN: no interval
	top, h float64 // the row's band
}

// SVG renders the chart as a standalone SVG document. It returns an error
// only if rendering fails despite the input guards; any input renders.
func (c Forest) SVG() (out []byte, err error) {
	defer recovered(&err)
	return c.render(), nil
}

func (c Forest) render() []byte {
	w, _ := size(c.Width, 0)
	title := cleanText(c.Title)
	xLabel := cleanText(c.XLabel)
	id := cleanID(c.ID)
	if id == "" {
		id = c.hash()
	}
	var xe extent
	rows := make([]forestRow, len(c.Rows))
	for i, r := range c.Rows {
		d := forestRow{ForestRow: r, style: styleOr(r.Style, i), lo: math.NaN(), hi: math.NaN()}
		d.Label, d.Note = cleanText(r.Label), cleanText(r.Note)
		d.ok = finite(r.Value)
		if d.ok {
			d.Value = clampMag(r.Value)
			xe.add(d.Value)
			if finite(r.Lo) && finite(r.Hi) && r.Lo != r.Hi {
				d.lo, d.hi = clampMag(math.Min(r.Lo, r.Hi)), clampMag(math.Max(r.Lo, r.Hi))
				xe.add(d.lo)
				xe.add(d.hi)
			}
		}
		rows[i] = d
	}
	var ref *ForestRef
	if c.Ref != nil && finite(c.Ref.X) {
		ref = &ForestRef{X: clampMag(c.Ref.X), Label: cleanText(c.Ref.Label)}
	}
	a11yTitle := title
	if a11yTitle == "" {
		a11yTitle = "Forest plot"
	}
	desc := joinDesc(c.Description, c.summary(rows, xLabel, ref))

	if !xe.ok {
		return emptyChart(w, 160, id, a11yTitle, desc, title)
	}
	r := newRenderer()
	if ref != nil {
		xe.add(ref.X)
	}

	// Columns: labels, plot, notes. The label column takes what its
	// labels need up to 40% of the width, and the widest word where it
	// fits in that (a longer one breaks across lines); the notes show
	// only where the plot keeps room.
	inner := float64(w - 2*margin)
	labelW, wordW, noteW := 0.0, 0.0, 0.0
	for _, d := range rows {
		labelW = math.Max(labelW, textWidth(d.Label, forestText, d.Bold))
		wordW = math.Max(wordW, widestWord(d.Label, forestText, d.Bold))
		noteW = math.Max(noteW, textWidth(d.Note, forestText, false))
	}
	labelW = math.Max(math.Min(labelW, 0.4*inner), math.Min(wordW, 0.4*inner)) // a longer word breaks (wrapLines)
	notes := noteW > 0 && inner-labelW-noteW-2*forestGap >= 160
	plotLeft := margin + labelW + forestGap
	plotRight := float64(w - margin)
	if notes {
		plotRight -= noteW + forestGap
	}
	if plotRight-plotLeft < minPlotW { // long words: grow the image
		w += int(math.Ceil(minPlotW - (plotRight - plotLeft)))
		plotRight = plotLeft + minPlotW
		if notes {
			plotRight = float64(w-margin) - noteW - forestGap
		}
	}

	// Rows top to bottom, below the title and the reference's label.
	titles := titleLines(w, title)
	y := float64(margin) + titleHeight(titles)
	var refLines []string
	if ref != nil && ref.Label != "" {
		refLines = wrapLines(ref.Label, forestText, float64(w-2*margin), false)
		y += float64(len(refLines))*forestLine + 4
	}
	plotTop := y + 4
	y = plotTop
	for i := range rows {
		rows[i].lines = wrapLines(rows[i].Label, forestText, labelW, rows[i].Bold)
		rows[i].top = y
		rows[i].h = math.Max(1, float64(len(rows[i].lines)))*forestLine + 2*forestRowPad - (forestLine - forestText)
		y += rows[i].h
	}
	plotBottom := y
	// The axis label wraps like the row labels, under the plot.
	xLines := wrapLines(xLabel, forestText, plotRight-plotLeft, false)
	h := int(math.Ceil(plotBottom + 8 + forestText + 4 + margin))
	if len(xLines) > 0 {
		h += len(xLines)*forestLine + 6
	}

	// The x axis.
	var lo, hi float64
	if flo, fhi, ok := fixedXRange(c.XRange); ok {
		lo, hi = flo, fhi
	} else {
		lo, hi = xe.lo, xe.hi
		if degenerate(lo, hi) {
			lo, hi = widen((lo+hi)/2, false)
		}
	}
	_, _, fixed := fixedXRange(c.XRange)
	target := int((plotRight - plotLeft) / 70)
	ax := ticksFor(lo, hi, target, !fixed, false, func(a axis) bool {
		// Tick labels at least 8 pixels apart.
		step := (plotRight - plotLeft) / math.Max(1, float64(len(a.ticks)-1))
		for _, l := range a.labels {
			if textWidth(l, forestText, false)+8 > step {
				return false
			}
		}
		return true
	})
	px := func(v float64) float64 {
		return plotLeft + (v-ax.min)/(ax.max-ax.min)*(plotRight-plotLeft)
	}
	inside := func(v float64) bool { return v >= ax.min-1e-12*math.Abs(ax.min) && v <= ax.max+1e-12*math.Abs(ax.max) }
	clampX := func(x float64) float64 { return math.Max(plotLeft, math.Min(plotRight, x)) }

	background(r, w, h)
	header(r, titles)
	// Zebra bands, then the grid, then the reference line, then the rows.
	for i, d := range rows {
		if i%2 == 1 {
			r.fillRect(margin, d.top, float64(w-2*margin), d.h, colBand)
		}
	}
	for _, v := range ax.ticks {
		x := px(v)
		r.line(x, plotTop, x, plotBottom, colGrid, 1, "")
	}
	r.line(plotLeft, plotBottom, plotRight, plotBottom, colAxis, 1, "")
	if ref != nil && inside(ref.X) {
		x := px(ref.X)
		r.line(x, plotTop-4, x, plotBottom, colRef, 1.5, "5 4")
	}
	r.openGroup("", "Rows")
	for _, d := range rows {
		cy := d.top + d.h/2
		for k, l := range d.lines {
			ly := d.top + forestRowPad + forestText*capHeight + float64(k)*forestLine
			if len(d.lines) == 1 {
				ly = cy + forestText*capHeight/2
			}
			r.text(margin, ly, l, textStyle{size: forestText, color: colText, bold: d.Bold})
		}
		if notes && d.Note != "" {
			r.text(float64(w-margin), cy+forestText*capHeight/2, d.Note, textStyle{size: forestText, color: colMuted, anchor: "end"})
		}
		if !d.ok {
			r.text(plotLeft+4, cy+forestText*capHeight/2, "n/a", textStyle{size: forestText, color: colMuted})
			continue
		}
		if d.Key != "" {
			r.raw(`<g data-policy="`)
			r.b = appendEscaped(r.b, d.Key)
			r.raw(`">`)
		}
		c := d.style.color()
		if !math.IsNaN(d.lo) {
			r.line(clampX(px(d.lo)), cy, clampX(px(d.hi)), cy, c, 2.25, d.style.dash())
		}
		if inside(d.Value) {
			r.drawMarker(px(d.Value), cy, d.style, 5, d.title())
		}
		if d.Key != "" {
			r.raw(`</g>`)
		}
		// The interval's end caps, solid whatever the policy's dash: marks
		// of the interval, not lines of the policy (outside its group).
		if !math.IsNaN(d.lo) {
			for _, v := range []float64{d.lo, d.hi} {
				if inside(v) {
					r.line(clampX(px(v)), cy-5, clampX(px(v)), cy+5, c, 2, "")
				}
			}
		}
	}
	r.raw(`</g>`)
	// Tick labels, the axis label and the reference's label.
	for i, v := range ax.ticks {
		r.text(px(v), plotBottom+8+forestText*capHeight, ax.labels[i], textStyle{size: forestText, color: colMuted, anchor: "middle"})
	}
	for k, l := range xLines {
		r.text((plotLeft+plotRight)/2, plotBottom+8+forestText+6+forestText*capHeight+float64(k)*forestLine, l, textStyle{size: forestText, color: colText, anchor: "middle"})
	}
	for k, l := range refLines {
		ly := plotTop - 4 - float64(len(refLines)-k)*forestLine + forestText*capHeight
		r.text(margin, ly, l, textStyle{size: forestText, color: colMuted})
	}
	return document(w, h, id, a11yTitle, desc, "", r.b)
}

// title is what a row's point says for people: its label, value and
// interval.
func (d forestRow) title() string {
	t := d.Label + ": " + fmtNum(d.Value)
	if !math.IsNaN(d.lo) {
		t += " (interval " + fmtNum(d.lo) + " to " + fmtNum(d.hi) + ")"
	}
	return t
}

// fixedXRange is fixedYRange for a forest plot's x axis.
func fixedXRange(r *Range) (lo, hi float64, ok bool) { return fixedYRange(r) }

func (c Forest) hash() string {
	h := newHasher("forest")
	h.str(c.Title)
	h.str(c.Description)
	h.str(c.XLabel)
	h.int(len(c.Rows))
	for _, r := range c.Rows {
		h.str(r.Label)
		h.f64(r.Value)
		h.f64(r.Lo)
		h.f64(r.Hi)
		h.str(r.Key)
		h.style(r.Style)
		h.int(b2i(r.Bold))
		h.str(r.Note)
	}
	if c.Ref != nil {
		h.int(1)
		h.f64(c.Ref.X)
		h.str(c.Ref.Label)
	} else {
		h.int(0)
	}
	h.rng(c.XRange)
	h.int(c.Width)
	return h.id()
}

func (c Forest) summary(rows []forestRow, xLabel string, ref *ForestRef) string {
	var s summary
	if len(rows) == 1 {
		s.add("Forest plot with 1 row.")
	} else {
		s.add("Forest plot with %d rows, top to bottom.", len(rows))
	}
	if xLabel != "" {
		s.add("Horizontal axis: %s.", xLabel)
	}
	if ref != nil {
		s.add("Dashed vertical line at %s: %s.", fmtNum(ref.X), ref.Label)
	}
	for i, d := range rows {
		if i == summaryLimit {
			s.add("And %d more rows.", len(rows)-summaryLimit)
			break
		}
		label := d.Label
		if label == "" {
			label = "Row " + strconv.Itoa(i+1)
		}
		switch {
		case !d.ok:
			s.add("%s: no value.", label)
		case math.IsNaN(d.lo):
			s.add("%s: %s.", label, fmtNum(d.Value))
		default:
			s.add("%s: %s, interval %s to %s.", label, fmtNum(d.Value), fmtNum(d.lo), fmtNum(d.hi))
		}
	}
	return s.String()
}

// Table returns one row per item: its label, and its value with the
// interval's half-width.
func (c Forest) Table() Table {
	t := Table{Caption: c.Description, Head: []string{"", c.XLabel}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, []string{r.Label, cell(r.Value, r.Lo, r.Hi)})
	}
	return t
}
