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

// SVG renders the chart as a standalone SVG document. It returns an error
// only if go-chart fails despite the input guards; any input renders.
func (c Bars) SVG() (out []byte, err error) {
	defer recovered(&err)
	return c.render(), nil
}

func (c Bars) render() []byte {
	w, h := size(c.Width, c.Height)
	title := cleanText(c.Title)
	bars := make([]barData, len(c.Bars))
	var ye extent
	hasData := false
	for i, b := range c.Bars {
		d := barData{label: cleanText(b.Label), value: b.Value, lo: b.Lo, hi: b.Hi, dashed: b.Dashed,
			color: seriesColor(i), palette: i % len(palette), ok: finite(b.Value)}
		if d.ok {
			d.value = clampMag(d.value)
			ye.add(d.value)
			hasData = true
		}
		if !finite(d.lo) || !finite(d.hi) || d.lo == d.hi || !d.ok {
			d.lo, d.hi = math.NaN(), math.NaN()
		} else {
			d.lo, d.hi = clampMag(math.Min(b.Lo, b.Hi)), clampMag(math.Max(b.Lo, b.Hi))
			ye.add(d.lo)
			ye.add(d.hi)
		}
		bars[i] = d
	}
	ylo, yhi, yFixed := fixedYRange(c.YRange)
	if hasData && !yFixed {
		ye.add(0) // bars start at zero
		for _, rf := range c.Refs {
			ye.add(rf.Y)
		}
	}

	id := cleanID(c.ID)
	if id == "" {
		id = c.hash()
	}
	a11yTitle := title
	if a11yTitle == "" {
		a11yTitle = "Bar chart"
	}
	desc := joinDesc(c.Description, c.summary(bars, hasData))

	r := newRenderer()
	if !hasData {
		background(r, w, h)
		top := header(r, w, title)
		noData(r, w, h, top+8)
		return document(w, h, id, a11yTitle, desc, "", r.b)
	}

	yLabel := cleanText(c.YLabel)
	top := float64(margin)
	if title != "" {
		top += sizeTitle + 8
	}
	plotTop := top + 10
	if yLabel != "" {
		plotTop = top + sizeLabel + 14
	}

	// The y axis does not depend on the bottom labels, except through the
	// plot height; lay it out for the tallest plot, then fit the labels.
	if !yFixed {
		ylo, yhi = ye.lo, ye.hi
		if degenerate(ylo, yhi) {
			ylo, yhi = widen((ylo+yhi)/2, true)
		}
	}
	ya := ticksFor(ylo, yhi, int((float64(h-margin)-40-plotTop)/45), !yFixed, false, nil)
	yTickW := 0.0
	for _, l := range ya.labels {
		yTickW = math.Max(yTickW, textWidth(l, sizeTick, false))
	}
	plotLeft := math.Ceil(margin + yTickW + 8)
	if float64(w-margin)-plotLeft < minPlotW { // wide tick labels: grow the image
		w = int(plotLeft) + margin + minPlotW
	}
	plotRight := float64(w - margin)
	n := len(bars)
	slot := (plotRight - plotLeft) / float64(n)

	// Category labels: level if they fit under their bars (or the bars are
	// wide enough to show most of a long label), slanted otherwise; with
	// very many bars only every k-th label is shown.
	const maxSlanted = 150.0
	level := true
	widest := 0.0
	for _, b := range bars {
		widest = math.Max(widest, textWidth(b.label, sizeTick, false))
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
	labels := make([]string, n)
	labelH := sizeTick * capHeight
	for i, b := range bars {
		if i%every != 0 {
			continue
		}
		if level {
			labels[i] = truncate(b.label, sizeTick, math.Max(slot-4, 0), false)
			continue
		}
		// A slanted label hangs down and to the left of its bar; keep it
		// inside the image.
		center := plotLeft + slot*(float64(i)+0.5)
		room := math.Min(maxSlanted, (center+4-margin/2)/cos)
		labels[i] = truncate(b.label, sizeTick, room, false)
		labelH = math.Max(labelH, textWidth(labels[i], sizeTick, false)*sin+sizeTick*capHeight*cos)
	}
	plotBottom := float64(h-margin) - labelH - 10
	if plotBottom-plotTop < minPlotH {
		h += int(math.Ceil(minPlotH - (plotBottom - plotTop)))
		plotBottom = float64(h-margin) - labelH - 10
	}

	xr := &fixedRange{min: 0, max: float64(n)}
	yr := &fixedRange{min: ya.min, max: ya.max}
	var defs strings.Builder
	hatched := make([]bool, len(palette))
	for _, b := range bars {
		if b.dashed && b.ok && !hatched[b.palette] {
			hatched[b.palette] = true
			if defs.Len() == 0 {
				defs.WriteString("<defs>")
			}
			col := string(appendHex(nil, b.color))
			defs.WriteString(`<pattern id="` + id + "-hatch-" + strconv.Itoa(b.palette) +
				`" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
				`<rect width="6" height="6" fill="` + col + `" fill-opacity="0.16"/>` +
				`<path d="M1.5 0V6" stroke="` + col + `" stroke-width="2.5"/></pattern>`)
		}
	}
	if defs.Len() > 0 {
		defs.WriteString("</defs>")
	}

	// baseline is where bars start: zero, or the range's edge nearest it.
	baseline := math.Max(ya.min, math.Min(ya.max, 0))
	var list []gochart.Series
	list = append(list, clipBegin(id+"-clip", clipPad))
	list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, _, yr gochart.Range) {
		for _, rf := range c.Refs {
			if inRange(rf.Y, ya.min, ya.max) {
				refLine(r, box, yr, rf.Y)
			}
		}
	}})
	list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range) {
		sw := float64(box.Width()) / float64(n)
		bw := math.Min(sw*0.64, 88)
		y0 := pxY(box, yr, baseline)
		for i, b := range bars {
			cx := pxX(box, xr, float64(i)+0.5)
			if !b.ok {
				r.text(cx, y0-6, "n/a", textStyle{size: sizeNote, color: colMuted, anchor: "middle"})
				continue
			}
			// Cut bars at the plot's edges here rather than by clipping,
			// which leaves room for whisker caps on the edge.
			y1 := pxY(box, yr, b.value)
			top := math.Max(math.Min(y0, y1), float64(box.Top))
			height := math.Min(math.Max(y0, y1), float64(box.Bottom)) - top
			if b.dashed {
				fill := "url(#" + id + "-hatch-" + strconv.Itoa(b.palette) + ")"
				r.rect(cx-bw/2, top, bw, height, fill, 0, b.color, 1.5, "4 3")
			} else {
				r.fillRect(cx-bw/2, top, bw, height, b.color)
			}
		}
		r.line(float64(box.Left), y0, float64(box.Right), y0, colAxis, 1, "")
		for i, b := range bars {
			if b.ok && !math.IsNaN(b.lo) {
				cx := pxX(box, xr, float64(i)+0.5)
				whisker(r, cx, pxY(box, yr, b.lo), pxY(box, yr, b.hi), colText, math.Min(8, bw/4))
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
		if yLabel != "" {
			t := truncate(yLabel, sizeLabel, float64(w-2*margin), false)
			r.text(margin, float64(box.Top)-12, t, textStyle{size: sizeLabel, color: colText})
		}
		if title != "" {
			header(r, w, title)
		}
		var obs obstacles
		sw := float64(box.Width()) / float64(n)
		bw := math.Min(sw*0.64, 88)
		y0 := pxY(box, yr, baseline)
		for i, b := range bars {
			if n > maxObstacles {
				break // too many bars to check each one
			}
			cx := pxX(box, xr, float64(i)+0.5)
			if !b.ok {
				obs.boxes = append(obs.boxes, area{cx - 12, y0 - 16, cx + 12, y0})
				continue
			}
			y1 := pxY(box, yr, b.value)
			if !math.IsNaN(b.lo) {
				y1 = math.Min(y1, pxY(box, yr, b.hi))
			}
			obs.boxes = append(obs.boxes, area{cx - bw/2, math.Min(y0, y1), cx + bw/2, math.Max(y0, y1)})
		}
		for _, rf := range c.Refs {
			if inRange(rf.Y, ya.min, ya.max) {
				py := pxY(box, yr, rf.Y)
				obs.segs = append(obs.segs, [4]float64{float64(box.Left), py, float64(box.Right), py})
			}
		}
		for _, rf := range c.Refs {
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
	return document(w, h, id, a11yTitle, desc, defs.String(), r.b)
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
