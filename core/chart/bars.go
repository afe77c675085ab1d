package chart

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// labelAngle is the slant of category labels that do not fit side by side.
const labelAngle = 35.0

// barData is one bar after cleaning.
type barData struct {
	label   string // full text
	value   float64
	lo, hi  float64 // NaN: no whisker
	dashed  bool
	color   drawing.Color
	palette int // index into palette, for the hatch pattern
	ok      bool
}

// cleanBar applies the input rules for one bar: a value that is not
// finite draws no bar; a whisker needs the value and two finite, distinct
// bounds, which are put in order. Values are clamped to ±maxMagnitude, and
// what is drawn is added to ye.
func cleanBar(value, lo, hi float64, ye *extent) (v, l, h float64, ok bool) {
	v, ok = value, finite(value)
	if ok {
		v = clampMag(v)
		ye.add(v)
	}
	if !finite(lo) || !finite(hi) || lo == hi || !ok {
		return v, math.NaN(), math.NaN(), ok
	}
	l, h = clampMag(math.Min(lo, hi)), clampMag(math.Max(lo, hi))
	ye.add(l)
	ye.add(h)
	return v, l, h, ok
}

// SVG renders the chart as a standalone SVG document. It returns an error
// only if go-chart fails despite the input guards; any input renders.
func (c Bars) SVG() (out []byte, err error) {
	defer recovered(&err)
	return c.render(), nil
}

func (c Bars) render() []byte {
	p := barPlot{
		title:  cleanText(c.Title),
		yLabel: cleanText(c.YLabel),
		cats:   make([]string, len(c.Bars)),
		bars:   make([][]barData, len(c.Bars)),
		per:    1,
		yRange: c.YRange,
		refs:   c.Refs,
	}
	bars := make([]barData, len(c.Bars))
	for i, b := range c.Bars {
		d := barData{label: cleanText(b.Label), dashed: b.Dashed, color: seriesColor(i), palette: i % len(palette)}
		d.value, d.lo, d.hi, d.ok = cleanBar(b.Value, b.Lo, b.Hi, &p.ye)
		bars[i] = d
		p.cats[i] = d.label
		p.bars[i] = bars[i : i+1 : i+1]
	}
	p.id = cleanID(c.ID)
	if p.id == "" {
		p.id = c.hash()
	}
	a11yTitle := p.title
	if a11yTitle == "" {
		a11yTitle = "Bar chart"
	}
	desc := joinDesc(c.Description, c.summary(bars, p.ye.ok))
	return p.svg(c.Width, c.Height, a11yTitle, desc)
}

// barPlot is what Bars and Grouped share: categories side by side along
// x, each with the same number of bars that start from zero (or the edge
// of the y range nearest it), optional whiskers, reference lines, and an
// optional legend between the title and the plot.
type barPlot struct {
	id             string
	title          string // cleaned, as are the labels
	xLabel, yLabel string
	cats           []string     // category labels, full text
	bars           [][]barData  // the bars of each category, left to right
	per            int          // bars per category: the longest of bars[i]
	legend         []legendItem // nil: no legend
	yRange         *Range
	refs           []Ref
	ye             extent // of the values and bounds drawn
}

// barWidth returns the width given to each bar in a category slot sw
// pixels wide, and the gap left between neighbouring bars of a group.
func (p *barPlot) barWidth(sw float64) (bw, gap float64) {
	if p.per <= 1 {
		return math.Min(sw*0.64, 88), 0
	}
	bw = math.Min(sw*0.8/float64(p.per), 48)
	return bw, math.Min(2, bw*0.15)
}

// barX returns the centre of bar k of category i, for bars bw wide. A
// lone bar is centred where go-chart puts the category, on a whole pixel;
// a group is placed exactly, so that thin groups stay in their slots.
func (p *barPlot) barX(box gochart.Box, xr gochart.Range, i, k int, bw float64) float64 {
	if p.per <= 1 {
		return pxX(box, xr, float64(i)+0.5)
	}
	slot := float64(box.Width()) / float64(len(p.cats))
	return float64(box.Left) + slot*(float64(i)+0.5) + (float64(k)-float64(p.per-1)/2)*bw
}

func anyBar(bars []barData) bool {
	for _, b := range bars {
		if b.ok {
			return true
		}
	}
	return false
}

// minWhiskerBar is the narrowest bar, in pixels, that gets a whisker: a
// whisker is drawn 1.5 pixels wide, and would hide thinner bars.
const minWhiskerBar = 3.0

// naWidth is the width of the "n/a" shown where a bar has no value.
var naWidth = textWidth("n/a", sizeNote, false)

// svg lays out and draws the plot for a w×h request, with the given
// accessible title and description, and returns the document.
func (p *barPlot) svg(width, height int, a11yTitle, desc string) []byte {
	w, h := size(width, height)
	id, title := p.id, p.title
	hasData := p.ye.ok
	ye := p.ye
	ylo, yhi, yFixed := fixedYRange(p.yRange)
	if hasData && !yFixed {
		ye.add(0) // bars start at zero
		for _, rf := range p.refs {
			ye.add(rf.Y)
		}
	}

	r := newRenderer()
	if !hasData {
		background(r, w, h)
		top := header(r, w, title)
		noData(r, w, h, top+8)
		return document(w, h, id, a11yTitle, desc, "", r.b)
	}

	// Vertical layout, top to bottom: title, legend, y-axis label, plot,
	// category labels, x-axis label.
	top := float64(margin)
	if title != "" {
		top += sizeTitle + 8
	}
	var leg legendLayout
	if len(p.legend) > 0 {
		leg = layoutLegend(p.legend, margin, top+4, float64(w-2*margin))
		leg.hatch = id + "-hatch-"
		top = leg.bottom + 6
	}
	plotTop := top + 10
	if p.yLabel != "" {
		plotTop = top + sizeLabel + 14
	}
	bottomExtra := 0.0
	if p.xLabel != "" {
		bottomExtra = sizeLabel + 10
	}

	// The y axis does not depend on the bottom labels, except through the
	// plot height; lay it out for the tallest plot, then fit the labels.
	if !yFixed {
		ylo, yhi = ye.lo, ye.hi
		if degenerate(ylo, yhi) {
			ylo, yhi = widen((ylo+yhi)/2, true)
		}
	}
	ya := ticksFor(ylo, yhi, int((float64(h-margin)-40-bottomExtra-plotTop)/45), !yFixed, false, nil)
	yTickW := 0.0
	for _, l := range ya.labels {
		yTickW = math.Max(yTickW, textWidth(l, sizeTick, false))
	}
	plotLeft := math.Ceil(margin + yTickW + 8)
	if float64(w-margin)-plotLeft < minPlotW { // wide tick labels: grow the image
		w = int(plotLeft) + margin + minPlotW
	}
	plotRight := float64(w - margin)
	n := len(p.cats)
	labels, level, labelH := categoryLabels(p.cats, plotLeft, (plotRight-plotLeft)/float64(n))
	plotBottom := float64(h-margin) - labelH - 10 - bottomExtra
	if plotBottom-plotTop < minPlotH {
		h += int(math.Ceil(minPlotH - (plotBottom - plotTop)))
		plotBottom = float64(h-margin) - labelH - 10 - bottomExtra
	}

	xr := &fixedRange{min: 0, max: float64(n)}
	yr := &fixedRange{min: ya.min, max: ya.max}
	defs := hatchDefs(id, p.bars, p.legend)

	// baseline is where bars start: zero, or the range's edge nearest it.
	baseline := math.Max(ya.min, math.Min(ya.max, 0))
	var list []gochart.Series
	list = append(list, clipBegin(id+"-clip", clipPad))
	list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, _, yr gochart.Range) {
		for _, rf := range p.refs {
			if inRange(rf.Y, ya.min, ya.max) {
				refLine(r, box, yr, rf.Y)
			}
		}
	}})
	list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range) {
		bw, gap := p.barWidth(float64(box.Width()) / float64(n))
		y0 := pxY(box, yr, baseline)
		na := textStyle{size: sizeNote, color: colMuted, anchor: "middle"}
		for i, cat := range p.bars {
			if !anyBar(cat) {
				r.text(pxX(box, xr, float64(i)+0.5), y0-6, "n/a", na)
				continue
			}
			for k, b := range cat {
				cx := p.barX(box, xr, i, k, bw)
				if !b.ok {
					if naWidth <= bw {
						r.text(cx, y0-6, "n/a", na)
					}
					continue
				}
				// Cut bars at the plot's edges here rather than by
				// clipping, which leaves room for whisker caps on the edge.
				y1 := pxY(box, yr, b.value)
				top := math.Max(math.Min(y0, y1), float64(box.Top))
				height := math.Min(math.Max(y0, y1), float64(box.Bottom)) - top
				dw := bw - gap
				if b.dashed {
					fill := "url(#" + id + "-hatch-" + strconv.Itoa(b.palette) + ")"
					// The outline is 1.5 pixels, thinner on thin bars so as
					// not to outweigh the others.
					r.rect(cx-dw/2, top, dw, height, fill, 0, b.color, math.Min(1.5, dw/4), "4 3")
				} else {
					r.fillRect(cx-dw/2, top, dw, height, b.color)
				}
			}
		}
		r.line(float64(box.Left), y0, float64(box.Right), y0, colAxis, 1, "")
		if bw-gap < minWhiskerBar {
			return // whiskers would hide the bars; the description has them
		}
		for i, cat := range p.bars {
			for k, b := range cat {
				if b.ok && !math.IsNaN(b.lo) {
					cx := p.barX(box, xr, i, k, bw)
					whisker(r, cx, pxY(box, yr, b.lo), pxY(box, yr, b.hi), colText, math.Min(8, (bw-gap)/4))
				}
			}
		}
	}})
	list = append(list, clipEnd())

	var ticksY []gochart.Tick
	var grid []gochart.GridLine
	for _, v := range ya.ticks {
		ticksY = append(ticksY, gochart.Tick{Value: v})
		if v != baseline {
			grid = append(grid, gochart.GridLine{Value: v})
		}
	}
	text := element(func(r *svgRenderer, box gochart.Box) {
		for i, v := range ya.ticks {
			r.text(float64(box.Left)-8, pxY(box, yr, v)+math.Round(sizeTick*capHeight/2), ya.labels[i],
				textStyle{size: sizeTick, color: colMuted, anchor: "end"})
		}
		for i, l := range labels {
			cx := pxX(box, xr, float64(i)+0.5)
			if level {
				r.text(cx, float64(box.Bottom)+8+sizeTick, l, textStyle{size: sizeTick, color: colText, anchor: "middle"})
			} else {
				r.text(cx+3, float64(box.Bottom)+10, l, textStyle{size: sizeTick, color: colText, anchor: "end", rotate: -labelAngle})
			}
		}
		if p.xLabel != "" {
			t := truncate(p.xLabel, sizeLabel, float64(box.Width()), false)
			r.text(float64(box.Left+box.Right)/2, float64(box.Bottom)+labelH+10+bottomExtra, t,
				textStyle{size: sizeLabel, color: colText, anchor: "middle"})
		}
		if p.yLabel != "" {
			t := truncate(p.yLabel, sizeLabel, float64(w-2*margin), false)
			r.text(margin, float64(box.Top)-12, t, textStyle{size: sizeLabel, color: colText})
		}
		if title != "" {
			header(r, w, title)
		}
		leg.draw(r)
		// Reference labels last, placed off the bars where possible.
		var obs obstacles
		bw, gap := p.barWidth(float64(box.Width()) / float64(n))
		y0 := pxY(box, yr, baseline)
		for i, cat := range p.bars {
			if n*p.per > maxObstacles {
				break // too many bars to check each one
			}
			if !anyBar(cat) {
				cx := pxX(box, xr, float64(i)+0.5)
				obs.boxes = append(obs.boxes, area{cx - 12, y0 - 16, cx + 12, y0})
				continue
			}
			for k, b := range cat {
				cx := p.barX(box, xr, i, k, bw)
				if !b.ok {
					if naWidth <= bw {
						obs.boxes = append(obs.boxes, area{cx - 12, y0 - 16, cx + 12, y0})
					}
					continue
				}
				y1 := pxY(box, yr, b.value)
				if !math.IsNaN(b.lo) && bw-gap >= minWhiskerBar {
					y1 = math.Min(y1, pxY(box, yr, b.hi))
				}
				half := (bw - gap) / 2
				obs.boxes = append(obs.boxes, area{cx - half, math.Min(y0, y1), cx + half, math.Max(y0, y1)})
			}
		}
		for _, rf := range p.refs {
			if inRange(rf.Y, ya.min, ya.max) {
				py := pxY(box, yr, rf.Y)
				obs.segs = append(obs.segs, [4]float64{float64(box.Left), py, float64(box.Right), py})
			}
		}
		for _, rf := range p.refs {
			t := truncate(cleanText(rf.Label), sizeNote, 0.45*float64(box.Width()), false)
			if t != "" && inRange(rf.Y, ya.min, ya.max) {
				place(r, &obs, t, sizeNote, refCandidates(box, pxY(box, yr, rf.Y), textWidth(t, sizeNote, false)))
			}
		}
	})

	gc := gochart.Chart{
		Width:  w,
		Height: h,
		Font:   noFont,
		Background: gochart.Style{
			FillColor: colWhite,
			Padding: gochart.Box{
				Top:    int(plotTop),
				Left:   int(plotLeft) - gochart.DefaultYAxisMargin,
				Right:  w - int(plotRight),
				Bottom: h - int(plotBottom),
			},
		},
		Canvas: gochart.Style{FillColor: colWhite},
		XAxis:  gochart.XAxis{Style: gochart.Style{Hidden: true}, Range: xr},
		YAxis: gochart.YAxis{
			AxisType:       gochart.YAxisSecondary,
			Style:          gochart.Style{StrokeColor: colHidden, StrokeWidth: 1},
			Range:          yr,
			Ticks:          ticksY,
			GridLines:      grid,
			GridMajorStyle: gochart.Style{StrokeColor: colGrid, StrokeWidth: 1},
			GridMinorStyle: gochart.Style{StrokeColor: colGrid, StrokeWidth: 1},
			Zero:           gochart.GridLine{Style: gochart.Style{Hidden: true}},
		},
		// go-chart draws the secondary axis unless hidden, with ticks
		// from a zero range: at NaN positions.
		YAxisSecondary: gochart.YAxis{Style: gochart.Style{Hidden: true}},
		Series:         list,
		Elements:       []gochart.Renderable{text},
	}
	if err := gc.Render(func(int, int) (gochart.Renderer, error) { return r, nil }, &bytes.Buffer{}); err != nil {
		panic(err) // turned into an error by SVG
	}
	return document(w, h, id, a11yTitle, desc, defs, r.b)
}

// categoryLabels fits the labels of n categories, slot pixels apart with
// the first centred at plotLeft+slot/2, under the plot. They are level if
// they fit under their slots (or the slots are wide enough to show most
// of a long label), slanted otherwise; with very many categories only
// every k-th label is shown ("" for the others). Labels that do not fit
// are truncated with an ellipsis. labelH is the height they take up.
func categoryLabels(cats []string, plotLeft, slot float64) (labels []string, level bool, labelH float64) {
	const maxSlanted = 150.0
	level = true
	widest := 0.0
	for _, l := range cats {
		widest = math.Max(widest, textWidth(l, sizeTick, false))
	}
	if widest > slot-6 && slot < 90 {
		level = false
	}
	// Slanted labels a distance d apart are d·sin(angle) apart across
	// their baselines, which must exceed the type size.
	every := 1
	if !level {
		every = int(math.Ceil((sizeTick + 3) / math.Sin(labelAngle*math.Pi/180) / slot))
	}
	sin, cos := math.Sincos(labelAngle * math.Pi / 180)
	labels = make([]string, len(cats))
	labelH = sizeTick * capHeight
	for i, l := range cats {
		if i%every != 0 {
			continue
		}
		if level {
			labels[i] = truncate(l, sizeTick, math.Max(slot-4, 0), false)
			continue
		}
		// A slanted label hangs down and to the left of its slot; keep it
		// inside the image.
		center := plotLeft + slot*(float64(i)+0.5)
		room := math.Min(maxSlanted, (center+4-margin/2)/cos)
		labels[i] = truncate(l, sizeTick, room, false)
		labelH = math.Max(labelH, textWidth(labels[i], sizeTick, false)*sin+sizeTick*capHeight*cos)
	}
	return labels, level, labelH
}

// hatchDefs returns the <defs> with one hatch pattern per palette colour
// of a hatched bar (or bar swatch in the legend), in order of first use,
// or "" if there are none.
func hatchDefs(id string, bars [][]barData, legend []legendItem) string {
	var defs strings.Builder
	hatched := make([]bool, len(palette))
	add := func(pi int) {
		if hatched[pi] {
			return
		}
		hatched[pi] = true
		if defs.Len() == 0 {
			defs.WriteString("<defs>")
		}
		col := string(appendHex(nil, palette[pi]))
		defs.WriteString(`<pattern id="` + id + "-hatch-" + strconv.Itoa(pi) +
			`" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
			`<rect width="6" height="6" fill="` + col + `" fill-opacity="0.16"/>` +
			`<path d="M1.5 0V6" stroke="` + col + `" stroke-width="2.5"/></pattern>`)
	}
	for _, cat := range bars {
		for _, b := range cat {
			if b.dashed && b.ok {
				add(b.palette)
			}
		}
	}
	for _, it := range legend {
		if it.bar && it.dashed {
			add(it.palette)
		}
	}
	if defs.Len() > 0 {
		defs.WriteString("</defs>")
	}
	return defs.String()
}

func (c Bars) hash() string {
	h := newHasher("bars")
	h.str(c.Title)
	h.str(c.Description)
	h.str(c.YLabel)
	h.int(len(c.Bars))
	for _, b := range c.Bars {
		h.str(b.Label)
		h.f64(b.Value)
		h.f64(b.Lo)
		h.f64(b.Hi)
		h.int(b2i(b.Dashed))
	}
	h.rng(c.YRange)
	h.int(len(c.Refs))
	for _, rf := range c.Refs {
		h.f64(rf.Y)
		h.str(rf.Label)
	}
	h.int(c.Width)
	h.int(c.Height)
	return h.id()
}

func (c Bars) summary(bars []barData, hasData bool) string {
	var s summary
	if len(bars) == 1 {
		s.add("Bar chart with 1 bar.")
	} else {
		s.add("Bar chart with %d bars.", len(bars))
	}
	if !hasData {
		s.add("There is no data to show.")
		return s.String()
	}
	if l := cleanText(c.YLabel); l != "" {
		s.add("Vertical axis: %s.", l)
	}
	if lo, hi, ok := fixedYRange(c.YRange); ok {
		s.add("The vertical axis runs from %s to %s.", fmtNum(lo), fmtNum(hi))
	}
	for i, b := range bars {
		if i == summaryLimit {
			s.add("And %d more bars.", len(bars)-summaryLimit)
			break
		}
		label := b.label
		if label == "" {
			label = "Bar " + strconv.Itoa(i+1)
		}
		if b.dashed {
			label += " (hatched)"
		}
		switch {
		case !b.ok:
			s.add("%s: no value.", label)
		case math.IsNaN(b.lo):
			s.add("%s: %s.", label, fmtNum(b.value))
		default:
			s.add("%s: %s, interval %s to %s.", label, fmtNum(b.value), fmtNum(b.lo), fmtNum(b.hi))
		}
	}
	for _, rf := range c.Refs {
		if finite(rf.Y) {
			s.add("Horizontal line at y = %s: %s.", fmtNum(rf.Y), cleanText(rf.Label))
		}
	}
	return s.String()
}
