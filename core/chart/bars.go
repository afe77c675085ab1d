package chart

import (
	"bytes"
	"math"
	"strconv"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// barData is one bar after cleaning.
type barData struct {
	label  string // the category's, or the series' name in a group
	key    string // data-policy, or ""
	value  float64
	lo, hi float64 // NaN: no whisker
	style  Style
	ok     bool
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
		series: []string{"Bars"},
	}
	bars := make([]barData, len(c.Bars))
	for i, b := range c.Bars {
		d := barData{label: cleanText(b.Label), key: cleanText(b.Key), style: styleOr(b.Style, i)}
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

// barPlot is what Bars and Grouped share: categories side by side, each
// with the same number of bars that start from zero (or the edge of the
// value range nearest it), optional whiskers, reference lines, and an
// optional legend between the title and the plot. The bars stand on the
// x axis (columns) when every category's label fits under its slot in at
// most three lines without breaking a word; otherwise they lie along the
// y axis (rows), each category's label wrapped beside it.
type barPlot struct {
	id             string
	title          string // cleaned, as are the labels
	xLabel, yLabel string
	cats           []string     // category labels, full text
	bars           [][]barData  // the bars of each category, left to right (top to bottom)
	per            int          // bars per category: the longest of bars[i]
	series         []string     // the name of each of the per bars, for the page's tooltips
	legend         []legendItem // nil: no legend
	yRange         *Range
	refs           []Ref
	ye             extent // of the values and bounds drawn
}

// barTitle is what a bar says for people: its category (and, in a group,
// its series), its value and its interval where it has one.
func (p *barPlot) barTitle(i, k int, b barData) string {
	t := p.cats[i]
	if p.per > 1 || t == "" {
		if t == "" {
			t = "Group " + strconv.Itoa(i+1)
		}
		t += ", " + p.series[k]
	}
	if !b.ok {
		return t + ": no value"
	}
	t += ": " + fmtNum(b.value)
	if !math.IsNaN(b.lo) {
		t += " (interval " + fmtNum(b.lo) + " to " + fmtNum(b.hi) + ")"
	}
	return t
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

// maxLabelLines is how many lines a category's label may take under a
// column before the bars turn on their side.
const maxLabelLines = 3

// svg lays out and draws the plot for a w×h request, with the given
// accessible title and description, and returns the document.
func (p *barPlot) svg(width, height int, a11yTitle, desc string) []byte {
	w, h := size(width, height)
	if !p.ye.ok {
		return emptyChart(w, h, p.id, a11yTitle, desc, p.title)
	}
	// The labels' room depends on the room kept right of the plot for
	// reference labels, so columns or rows are chosen in each pass.
	return laidOut(w, func(sp spill) ([]byte, outside) {
		labels, ok := p.columnLabels(w, 1, sp)
		if !ok && p.rowsHeight() <= maxRowsHeight {
			// Rows draw their reference lines upright, labelled above:
			// they keep no room on the right.
			return p.rows(w, spill{top: sp.top}, a11yTitle, desc)
		}
		// Columns; with too many categories for rows even, every k-th
		// label alone, with the room of k slots.
		for every := 2; !ok; every++ {
			labels, ok = p.columnLabels(w, every, sp)
		}
		return p.columns(w, h, sp, labels, a11yTitle, desc)
	})
}

// maxRowsHeight is the tallest the rows of bars lying along the y axis may
// be; a chart with more categories draws columns with fewer labels.
const maxRowsHeight = 6000

// valueRange is the range of the value axis: fixed, or the data's with
// zero and the reference lines in it.
func (p *barPlot) valueRange() (lo, hi float64, fixed bool) {
	lo, hi, fixed = fixedYRange(p.yRange)
	if fixed {
		return lo, hi, true
	}
	ye := p.ye
	ye.add(0) // bars start at zero
	for _, rf := range p.refs {
		ye.add(rf.Y)
	}
	lo, hi = ye.lo, ye.hi
	if degenerate(lo, hi) {
		lo, hi = widen((lo+hi)/2, true)
	}
	return lo, hi, false
}

// top lays out the title, the legend and the value axis' label (above the
// plot in columns) and returns their lines and the y below them.
func (p *barPlot) header(w int, yLabelAbove bool) (titles []string, leg legendLayout, yLines []string, y float64) {
	titles = titleLines(w, p.title)
	y = float64(margin) + titleHeight(titles)
	if len(p.legend) > 0 {
		leg = layoutLegend(p.legend, margin, y+4, float64(w-2*margin))
		y = leg.bottom + 6
	}
	if yLabelAbove {
		yLines = wrapLines(p.yLabel, sizeLabel, float64(w-2*margin), false)
		if len(yLines) > 0 {
			y += float64(len(yLines)-1)*lineHeight(sizeLabel) + sizeLabel + 4
		}
	}
	return titles, leg, yLines, y
}

// columnLabels wraps the labels of every k-th category under columns for
// a chart w wide (the others get none), each in the room of k slots, and
// reports whether every one fits: at most maxLabelLines lines without
// breaking a word, or one line however it breaks when the room is that
// of every category's slot but one.
func (p *barPlot) columnLabels(w, every int, sp spill) ([][]string, bool) {
	// The slot is known only once the y tick labels are; estimate them
	// wide (a margin of 60 pixels for them is generous). The room kept
	// right of the plot for reference labels is no slot's.
	slot := (float64(w) - 2*margin - 60 - sp.right) / float64(len(p.cats))
	room := float64(every)*slot - 6
	last := every >= len(p.cats)
	out := make([][]string, len(p.cats))
	for i, l := range p.cats {
		if i%every != 0 {
			continue
		}
		if !last && widestWord(l, sizeTick, false) > room {
			return nil, false
		}
		out[i] = wrapLines(l, sizeTick, math.Max(room, 24), false)
		if !last && len(out[i]) > maxLabelLines {
			return nil, false
		}
	}
	return out, true
}

// columns draws the bars standing on the x axis, their labels under them.
func (p *barPlot) columns(w, h int, sp spill, labels [][]string, a11yTitle, desc string) ([]byte, outside) {
	id := p.id
	titles, leg, yLines, top := p.header(w, true)
	plotTop := top + 10 + sp.top
	xLines := wrapLines(p.xLabel, sizeLabel, float64(w-2*margin), false)
	labelLines := 1
	for _, l := range labels {
		labelLines = max(labelLines, len(l))
	}
	labelH := sizeTick*capHeight + float64(labelLines-1)*lineHeight(sizeTick)
	bottomSpace := labelH + 10 + 6.0
	if len(xLines) > 0 {
		bottomSpace += 10 + float64(len(xLines)-1)*lineHeight(sizeLabel) + sizeLabel
	}

	ylo, yhi, yFixed := p.valueRange()
	guessH := float64(h) - margin - bottomSpace - plotTop
	if h == 0 {
		guessH = plotHeight(float64(w) - 2*margin - 40 - sp.right)
	}
	ya := ticksFor(ylo, yhi, int(guessH/45), !yFixed, false, nil)
	yTickW := 0.0
	for _, l := range ya.labels {
		yTickW = math.Max(yTickW, textWidth(l, sizeTick, false))
	}
	plotLeft := math.Ceil(margin + yTickW + 8)
	if float64(w-margin)-sp.right-plotLeft < minPlotW { // wide tick labels: grow the image
		w = int(math.Ceil(plotLeft+sp.right)) + margin + minPlotW
	}
	plotRight := float64(w-margin) - sp.right
	plotBottom, h := plotBottomFor(h, plotTop, plotRight-plotLeft, bottomSpace, sp)
	n := len(p.cats)

	xr := &fixedRange{min: 0, max: float64(n)}
	yr := &fixedRange{min: ya.min, max: ya.max}
	pat := &patterns{prefix: id + "-hatch-"}

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
			}
		}
		for k := 0; k < p.per; k++ {
			r.openGroup("", p.series[k])
			for i, cat := range p.bars {
				if k >= len(cat) || !anyBar(cat) {
					continue
				}
				b := cat[k]
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
				r.bar(cx-dw/2, top, dw, height, b, pat, p.barTitle(i, k, b))
				if b.style.markerIndex() > 0 && dw >= 10 && height >= 16 {
					r.drawMarker(cx, top+8, Style{Color: b.style.Color, Marker: b.style.Marker}, 3.5, "")
				}
			}
			r.raw("</g>")
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
	var left outside
	text := element(func(r *svgRenderer, box gochart.Box) {
		for i, v := range ya.ticks {
			r.text(float64(box.Left)-8, pxY(box, yr, v)+math.Round(sizeTick*capHeight/2), ya.labels[i],
				textStyle{size: sizeTick, color: colMuted, anchor: "end"})
		}
		for i, l := range labels {
			cx := pxX(box, xr, float64(i)+0.5)
			textLines(r, cx, float64(box.Bottom)+8+sizeTick, l, textStyle{size: sizeTick, color: colText, anchor: "middle"})
		}
		textLines(r, float64(box.Left+box.Right)/2, float64(box.Bottom)+labelH+16+sizeLabel, xLines,
			textStyle{size: sizeLabel, color: colText, anchor: "middle"})
		textLines(r, margin, plotTop-sp.top-14-float64(len(yLines)-1)*lineHeight(sizeLabel)+sizeLabel*capHeight, yLines,
			textStyle{size: sizeLabel, color: colText})
		header(r, titles)
		leg.draw(r, pat)
		// Reference labels last, placed off the bars.
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
			t := cleanText(rf.Label)
			if t != "" && inRange(rf.Y, ya.min, ya.max) {
				note := newNote(t, math.Max(0.45*float64(box.Width()), 80))
				py := pxY(box, yr, rf.Y)
				if !place(r, &obs, note, refCandidates(box, py, note)) {
					left.right = append(left.right, pending{t, py})
				}
			}
		}
		if sp.right > 0 {
			drawRight(r, left.right, float64(box.Right), sp.right, float64(box.Top), float64(box.Bottom))
		}
	})

	r := newRenderer()
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
	return document(w, h, id, a11yTitle, desc, pat.defs(), r.b), left
}

// Row layout of bars lying along the y axis.
const (
	rowPad     = 7.0  // above and below a row's content
	rowGap     = 2.0  // between the bars of one group
	labelShare = 0.42 // the most of the width the labels' column takes
)

// rowBar returns the thickness of one bar in a row and the padding above
// and below a row's content: thinner bars and rows for more bars.
func (p *barPlot) rowBar() (bt, pad float64) {
	if len(p.cats)*p.per > 40 { // compact: a row about as tall as its label
		return math.Max(2, 14/float64(p.per)-rowGap), 2
	}
	switch {
	case p.per <= 1:
		return 18, rowPad
	case p.per <= 3:
		return 12, rowPad
	case p.per <= 6:
		return 9, rowPad
	}
	return 7, rowPad
}

// rowsHeight is about the height of the rows of bars lying along the y
// axis, their labels on one line each.
func (p *barPlot) rowsHeight() float64 {
	bt, pad := p.rowBar()
	content := float64(p.per)*bt + float64(p.per-1)*rowGap
	return float64(len(p.cats)) * (math.Max(content, sizeTick) + 2*pad)
}

// rows draws the bars lying along the y axis, a row per category with its
// label wrapped beside it, the value axis under them. Reference lines are
// vertical; their labels go beside them off the bars, or above the plot.
// The chart's height follows from its rows, whatever height was asked for.
func (p *barPlot) rows(w int, sp spill, a11yTitle, desc string) ([]byte, outside) {
	id := p.id
	titles, leg, _, top := p.header(w, false)
	inner := float64(w - 2*margin)
	// The labels' column: what its labels need up to labelShare of the
	// width, never less than its widest word where that fits.
	labelW, wordW := 0.0, 0.0
	for _, l := range p.cats {
		labelW = math.Max(labelW, textWidth(l, sizeTick, false))
		wordW = math.Max(wordW, widestWord(l, sizeTick, false))
	}
	xHead := wrapLines(p.xLabel, sizeLabel, math.Max(80, labelShare*inner), true)
	labelW = math.Min(math.Max(labelW, widest(xHead, sizeLabel, true)), labelShare*inner)
	labelW = math.Max(labelW, math.Min(wordW, labelShare*inner))
	ylo, yhi, yFixed := p.valueRange()
	plotLeft := math.Ceil(margin + labelW + 12)
	plotRight := float64(w-margin) - sp.right
	if plotRight-plotLeft < minPlotW {
		w += int(math.Ceil(minPlotW - (plotRight - plotLeft)))
		plotRight = float64(w-margin) - sp.right
	}
	va := ticksFor(ylo, yhi, int((plotRight-plotLeft)/80), !yFixed, false, func(a axis) bool {
		step := (plotRight - plotLeft) / math.Max(1, float64(len(a.ticks)-1))
		for _, l := range a.labels {
			if textWidth(l, sizeTick, false)+10 > step {
				return false
			}
		}
		return true
	})
	if n := len(va.labels); n > 0 {
		plotRight = math.Min(plotRight, float64(w-margin)-textWidth(va.labels[n-1], sizeTick, false)/2)
	}
	px := func(v float64) float64 {
		return plotLeft + (v-va.min)/(va.max-va.min)*(plotRight-plotLeft)
	}
	clampX := func(x float64) float64 { return math.Max(plotLeft, math.Min(plotRight, x)) }

	// Rows top to bottom, below the column heading.
	y := top + 4
	if len(xHead) > 0 {
		y += float64(len(xHead)-1)*lineHeight(sizeLabel) + sizeLabel + 6
	}
	plotTop := y + sp.top
	bt, pad := p.rowBar()
	content := float64(p.per)*bt + float64(p.per-1)*rowGap
	type row struct {
		lines  []string
		top, h float64
	}
	rows := make([]row, len(p.cats))
	y = plotTop
	for i, l := range p.cats {
		lines := wrapLines(l, sizeTick, labelW, false)
		labelH := float64(max(len(lines), 1)-1)*lineHeight(sizeTick) + sizeTick
		rows[i] = row{lines: lines, top: y, h: math.Max(content, labelH) + 2*pad}
		y += rows[i].h
	}
	plotBottom := y
	yLines := wrapLines(p.yLabel, sizeLabel, plotRight-plotLeft, false)
	h := int(math.Ceil(plotBottom + 8 + sizeTick + margin))
	if len(yLines) > 0 {
		h += int(math.Ceil(10 + float64(len(yLines)-1)*lineHeight(sizeLabel) + sizeLabel))
	}

	r := newRenderer()
	pat := &patterns{prefix: id + "-hatch-"}
	background(r, w, h)
	// Zebra bands, the grid, the reference lines, then the bars.
	for i, rw := range rows {
		if i%2 == 1 {
			r.fillRect(margin, rw.top, float64(w-2*margin), rw.h, colBand)
		}
	}
	for _, v := range va.ticks {
		x := px(v)
		r.line(x, plotTop, x, plotBottom, colGrid, 1, "")
	}
	baseline := math.Max(va.min, math.Min(va.max, 0))
	x0 := px(baseline)
	for _, rf := range p.refs {
		if inRange(rf.Y, va.min, va.max) {
			x := px(rf.Y)
			r.line(x, plotTop, x, plotBottom, colRef, 1.25, "5 4")
		}
	}
	barY := func(i, k int) float64 { // the top of bar k of row i
		rw := rows[i]
		return rw.top + (rw.h-content)/2 + float64(k)*(bt+rowGap)
	}
	var obs obstacles
	for i, rw := range rows {
		if !anyBar(p.bars[i]) {
			r.text(x0+4, rw.top+rw.h/2+sizeNote*capHeight/2, "n/a", textStyle{size: sizeNote, color: colMuted})
			obs.boxes = append(obs.boxes, area{x0, rw.top, x0 + naWidth + 8, rw.top + rw.h})
		}
	}
	for k := 0; k < p.per; k++ {
		r.openGroup("", p.series[k])
		for i, cat := range p.bars {
			if k >= len(cat) || !anyBar(cat) {
				continue
			}
			b := cat[k]
			by := barY(i, k)
			if !b.ok {
				if bt >= sizeNote {
					r.text(x0+4, by+bt/2+sizeNote*capHeight/2, "n/a", textStyle{size: sizeNote, color: colMuted})
					obs.boxes = append(obs.boxes, area{x0, by, x0 + naWidth + 8, by + bt})
				}
				continue
			}
			x1 := clampX(px(b.value))
			bx := math.Min(x0, x1)
			r.bar(bx, by, math.Abs(x1-x0), bt, b, pat, p.barTitle(i, k, b))
			end := math.Max(x0, x1)
			if b.style.markerIndex() > 0 && math.Abs(x1-x0) >= 16 && bt >= 9 {
				r.drawMarker(end-8, by+bt/2, Style{Color: b.style.Color, Marker: b.style.Marker}, math.Min(3.5, bt/2-1), "")
			}
			if !math.IsNaN(b.lo) {
				end = math.Max(end, clampX(px(b.hi)))
			}
			obs.boxes = append(obs.boxes, area{bx, by, end, by + bt})
		}
		r.raw("</g>")
	}
	r.line(x0, plotTop, x0, plotBottom, colAxis, 1, "")
	for i, cat := range p.bars {
		for k, b := range cat {
			if b.ok && !math.IsNaN(b.lo) && bt >= minWhiskerBar {
				hwhisker(r, barY(i, k)+bt/2, clampX(px(b.lo)), clampX(px(b.hi)), colText, math.Min(5, bt/2))
			}
		}
	}
	// Labels, ticks, the axis' label, the heading, the title and legend.
	for _, rw := range rows {
		first := rw.top + rw.h/2 - float64(len(rw.lines)-1)*lineHeight(sizeTick)/2 + sizeTick*capHeight/2
		textLines(r, margin, first, rw.lines, textStyle{size: sizeTick, color: colText})
	}
	for i, v := range va.ticks {
		r.text(px(v), plotBottom+8+sizeTick*capHeight, va.labels[i], textStyle{size: sizeTick, color: colMuted, anchor: "middle"})
	}
	textLines(r, (plotLeft+plotRight)/2, plotBottom+8+sizeTick+10+sizeLabel*capHeight, yLines, textStyle{size: sizeLabel, color: colText, anchor: "middle"})
	textLines(r, margin, top+4+sizeLabel*capHeight, xHead, textStyle{size: sizeLabel, color: colText, bold: true})
	header(r, titles)
	leg.draw(r, pat)
	// Reference labels beside their lines, off the bars, else above.
	box := gochart.Box{Left: int(math.Ceil(plotLeft)), Top: int(math.Ceil(plotTop)), Right: int(plotRight), Bottom: int(plotBottom)}
	for _, rf := range p.refs {
		if inRange(rf.Y, va.min, va.max) {
			x := px(rf.Y)
			obs.segs = append(obs.segs, [4]float64{x, plotTop, x, plotBottom})
		}
	}
	var left outside
	for _, rf := range p.refs {
		if t := cleanText(rf.Label); t != "" && inRange(rf.Y, va.min, va.max) {
			note := newNote(t, math.Max(0.45*(plotRight-plotLeft), 80))
			x := px(rf.Y)
			if !place(r, &obs, note, markCandidates(box, x, note)) {
				left.top = append(left.top, pending{t, x})
			}
		}
	}
	if sp.top > 0 {
		drawTop(r, left.top, plotTop-sp.top-4, float64(w))
	}
	return document(w, h, id, a11yTitle, desc, pat.defs(), r.b), left
}

// bar writes one bar: filled with its style's colour or hatch, outlined
// in its colour, with its value for people as a <title>.
func (r *svgRenderer) bar(x, y, w, h float64, b barData, pat *patterns, title string) {
	if !(w > 0) || !(h > 0) {
		return
	}
	r.raw(`<rect x="`)
	r.b = appendFloat(r.b, x)
	r.raw(`" y="`)
	r.b = appendFloat(r.b, y)
	r.raw(`" width="`)
	r.b = appendFloat(r.b, w)
	r.raw(`" height="`)
	r.b = appendFloat(r.b, h)
	r.raw(`" fill="`)
	r.raw(pat.fill(b.style))
	r.raw(`"`)
	r.b = appendColorAttr(r.b, "stroke", b.style.color())
	sw := 1.0
	if b.style.Open {
		sw = 1.5
	}
	r.raw(` stroke-width="`)
	r.b = appendFloat(r.b, math.Min(sw, w/4))
	r.raw(`"`)
	if b.key != "" {
		r.raw(` data-policy="`)
		r.b = appendEscaped(r.b, b.key)
		r.raw(`"`)
	}
	r.end("rect", title)
}

// colBand is the background of every other row.
var colBand = drawing.Color{R: 0xf6, G: 0xf8, B: 0xfa, A: 255}

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
		h.str(b.Key)
		h.style(b.Style)
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
