package chart

import (
	"bytes"
	"math"
	"slices"
	"strconv"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// point is one cleaned data point. y, lo and hi are NaN where missing.
type point struct{ x, y, lo, hi float64 }

// lineData is one series after cleaning.
type lineData struct {
	name    string // full text, for the legend (truncated) and the description
	color   drawing.Color
	dashed  bool
	pts     []point // sorted by x; every x is finite
	valid   int     // points with a finite y
	banded  bool    // at least one point has an interval
	dropped int     // values that were not finite numbers
	ye      extent  // of y
}

// markerLimit is the largest number of points for which every point of a
// line gets a marker; longer lines only mark isolated points.
const markerLimit = 15

// cleanSeries applies the input rules: the shorter of X and Y sets the
// length, points with a non-finite x are dropped, a non-finite y leaves a
// gap, an interval needs both bounds finite (and is put in order), values
// are clamped to ±maxMagnitude, and points are sorted by x.
func cleanSeries(i, color int, s Series) lineData {
	d := lineData{name: cleanText(s.Name), color: seriesColor(color), dashed: s.Dashed}
	if d.name == "" {
		d.name = "Series " + strconv.Itoa(i+1)
	}
	n := min(len(s.X), len(s.Y))
	d.pts = make([]point, 0, n)
	for j := 0; j < n; j++ {
		x, y := s.X[j], s.Y[j]
		lo, hi := math.NaN(), math.NaN()
		if j < len(s.Lo) && j < len(s.Hi) {
			lo, hi = s.Lo[j], s.Hi[j]
			if !finite(lo) || !finite(hi) {
				lo, hi = math.NaN(), math.NaN()
			} else if lo > hi {
				lo, hi = hi, lo
			}
		}
		if !finite(x) {
			d.dropped++
			continue
		}
		if !finite(y) {
			d.dropped++
			y = math.NaN()
		} else {
			d.valid++
			d.ye.add(y)
		}
		if !math.IsNaN(lo) {
			d.banded = true
			lo, hi = clampMag(lo), clampMag(hi)
		}
		d.pts = append(d.pts, point{clampMag(x), clampMag(y), lo, hi})
	}
	if !slices.IsSortedFunc(d.pts, cmpX) {
		slices.SortStableFunc(d.pts, cmpX)
	}
	return d
}

func cmpX(a, b point) int {
	switch {
	case a.x < b.x:
		return -1
	case a.x > b.x:
		return 1
	}
	return 0
}

// runs calls f for each maximal run of consecutive points where ok holds.
func runs(pts []point, ok func(point) bool, f func([]point)) {
	start := -1
	for i, p := range pts {
		if ok(p) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f(pts[start:i])
			start = -1
		}
	}
	if start >= 0 {
		f(pts[start:])
	}
}

func hasY(p point) bool    { return !math.IsNaN(p.y) }
func hasBand(p point) bool { return !math.IsNaN(p.lo) }

// SVG renders the chart as a standalone SVG document. It returns an error
// only if go-chart fails despite the input guards; any input renders.
func (c Line) SVG() (out []byte, err error) {
	defer recovered(&err)
	return c.render(), nil
}

func (c Line) render() []byte {
	w, h := size(c.Width, c.Height)
	title := cleanText(c.Title)
	series := make([]lineData, len(c.Series))
	var xe, ye extent
	color := -1
	for i, s := range c.Series {
		if !s.Paired || i == 0 {
			color++
		}
		d := cleanSeries(i, color, s)
		for _, p := range d.pts {
			if hasY(p) || hasBand(p) {
				xe.add(p.x)
				ye.add(p.y)
				ye.add(p.lo)
				ye.add(p.hi)
			}
		}
		series[i] = d
	}
	hasData := xe.ok
	if hasData {
		for _, m := range c.Marks {
			xe.add(m.X)
		}
	}
	ylo, yhi, yFixed := fixedYRange(c.YRange)
	if hasData && !yFixed {
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
		a11yTitle = "Line chart"
	}
	desc := joinDesc(c.Description, c.summary(series, hasData))

	r := newRenderer()
	if !hasData {
		background(r, w, h)
		top := header(r, w, title)
		noData(r, w, h, top+8)
		return document(w, h, id, a11yTitle, desc, "", r.b)
	}

	// Vertical layout, top to bottom: title, legend, y-axis label, plot,
	// x tick labels, x-axis label.
	items := make([]legendItem, len(series))
	for i, d := range series {
		items[i] = legendItem{text: d.name, color: d.color, dashed: d.dashed, band: d.banded, dot: d.valid > 0 && d.valid <= markerLimit}
	}
	xLabel, yLabel := cleanText(c.XLabel), cleanText(c.YLabel)
	var leg legendLayout
	top := float64(margin)
	if title != "" {
		top += sizeTitle + 8
	}
	if len(series) > 1 || (len(series) == 1 && cleanText(c.Series[0].Name) != "") {
		leg = layoutLegend(items, margin, top+4, float64(w-2*margin))
		top = leg.bottom + 6
	}
	plotTop := top + 10
	if yLabel != "" {
		plotTop = top + sizeLabel + 14
	}
	bottomSpace := 24.0
	if xLabel != "" {
		bottomSpace += sizeLabel + 10
	}
	plotBottom := float64(h-margin) - bottomSpace
	if plotBottom-plotTop < minPlotH { // keep a usable plot: grow the image
		h += int(math.Ceil(minPlotH - (plotBottom - plotTop)))
		plotBottom = float64(h-margin) - bottomSpace
	}

	// Y axis: fixed, or fitted to the data and rounded out to whole steps.
	if !yFixed {
		ylo, yhi = ye.lo, ye.hi
		if degenerate(ylo, yhi) {
			ylo, yhi = widen((ylo+yhi)/2, true)
		}
	}
	ya := ticksFor(ylo, yhi, int((plotBottom-plotTop)/45), !yFixed, false, nil)
	yTickW := 0.0
	for _, l := range ya.labels {
		yTickW = math.Max(yTickW, textWidth(l, sizeTick, false))
	}
	plotLeft := math.Ceil(margin + yTickW + 8)
	if float64(w-margin)-plotLeft < minPlotW { // wide tick labels: grow the image
		w = int(plotLeft) + margin + minPlotW
	}

	// X axis: the data's extent, with ticks inside it.
	xlo, xhi := xe.lo, xe.hi
	intX := allIntegers(series)
	if degenerate(xlo, xhi) {
		v := (xlo + xhi) / 2
		if intX && math.Abs(v) < 1e15 {
			xlo, xhi = v-1, v+1 // a single cycle: show its neighbours
		} else {
			xlo, xhi = widen(v, false)
		}
	}
	intX = intX && xhi-xlo >= 2
	plotW := float64(w-margin) - plotLeft
	xa := ticksFor(xlo, xhi, int(plotW/90), false, intX, func(a axis) bool {
		maxW := 0.0
		for _, l := range a.labels {
			maxW = math.Max(maxW, textWidth(l, sizeTick, false))
		}
		return (maxW+12)*float64(len(a.labels)) <= plotW
	})
	lastW := 0.0
	if n := len(xa.labels); n > 0 {
		lastW = textWidth(xa.labels[n-1], sizeTick, false)
	}
	plotRight := math.Floor(float64(w-margin) - math.Max(4, lastW/2))
	if plotRight-plotLeft < minPlotW/2 {
		w += int(math.Ceil(minPlotW/2 - (plotRight - plotLeft)))
		plotRight = math.Floor(float64(w-margin) - math.Max(4, lastW/2))
	}

	xr := &fixedRange{min: xa.min, max: xa.max}
	yr := &fixedRange{min: ya.min, max: ya.max}

	var list []gochart.Series
	// Bands first, so lines stay on top of every band. They are clipped
	// exactly to the plot; lines and markers may reach a little beyond.
	list = append(list, clipBegin(id+"-clip-band", 0))
	for _, d := range series {
		fill := d.color
		fill.A = 40
		runs(d.pts, hasBand, func(run []point) {
			if len(run) < 2 {
				return
			}
			list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range) {
				r.ResetStyle()
				r.SetFillColor(fill)
				for _, p := range run {
					r.LineTo(int(pxX(box, xr, p.x)), int(pxY(box, yr, p.hi)))
				}
				for i := len(run) - 1; i >= 0; i-- {
					r.LineTo(int(pxX(box, xr, run[i].x)), int(pxY(box, yr, run[i].lo)))
				}
				r.Close()
				r.Fill()
			}})
		})
	}
	list = append(list, clipEnd(), clipBegin(id+"-clip", clipPad))
	list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range) {
		for _, m := range c.Marks {
			if inRange(m.X, xa.min, xa.max) {
				px := pxX(box, xr, m.X)
				r.line(px, float64(box.Top), px, float64(box.Bottom), colRef, 1.25, "5 4")
			}
		}
		for _, rf := range c.Refs {
			if inRange(rf.Y, ya.min, ya.max) {
				refLine(r, box, yr, rf.Y)
			}
		}
	}})
	for _, d := range series {
		style := gochart.Style{StrokeColor: d.color, StrokeWidth: 2}
		if d.dashed {
			style.StrokeDashArray = []float64{6, 4}
		}
		runs(d.pts, hasY, func(run []point) {
			if len(run) < 2 {
				return
			}
			cs := gochart.ContinuousSeries{Name: d.name, Style: style, XValues: make([]float64, len(run)), YValues: make([]float64, len(run))}
			for i, p := range run {
				cs.XValues[i], cs.YValues[i] = p.x, p.y
			}
			list = append(list, cs)
		})
	}
	// Markers and whiskers on top of all lines.
	for _, d := range series {
		list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range) {
			runs(d.pts, hasBand, func(run []point) {
				if len(run) == 1 {
					p := run[0]
					whisker(r, pxX(box, xr, p.x), pxY(box, yr, p.lo), pxY(box, yr, p.hi), d.color, 4)
				}
			})
			all := d.valid <= markerLimit
			runs(d.pts, hasY, func(run []point) {
				if all || len(run) == 1 {
					for _, p := range run {
						marker(r, pxX(box, xr, p.x), pxY(box, yr, p.y), d.color, d.dashed)
					}
				}
			})
		}})
	}
	list = append(list, clipEnd())

	var ticksX, ticksY []gochart.Tick
	for _, v := range xa.ticks {
		ticksX = append(ticksX, gochart.Tick{Value: v})
	}
	var grid []gochart.GridLine
	for _, v := range ya.ticks {
		ticksY = append(ticksY, gochart.Tick{Value: v})
		// No grid line on the x axis, nor under the zero line.
		if v != ya.min && (v != 0 || ya.min >= 0) {
			grid = append(grid, gochart.GridLine{Value: v})
		}
	}
	zero := gochart.GridLine{Style: gochart.Style{Hidden: true}}
	if ya.min < 0 && ya.max > 0 {
		zero = gochart.GridLine{Value: 0, Style: gochart.Style{StrokeColor: colZero, StrokeWidth: 1}}
	}

	labels := element(func(r *svgRenderer, box gochart.Box) {
		for i, v := range ya.ticks {
			py := pxY(box, yr, v)
			r.text(float64(box.Left)-8, py+math.Round(sizeTick*capHeight/2), ya.labels[i], textStyle{size: sizeTick, color: colMuted, anchor: "end"})
		}
		for i, v := range xa.ticks {
			r.text(pxX(box, xr, v), float64(box.Bottom)+8+sizeTick, xa.labels[i], textStyle{size: sizeTick, color: colMuted, anchor: "middle"})
		}
		if xLabel != "" {
			t := truncate(xLabel, sizeLabel, float64(box.Width()), false)
			r.text(float64(box.Left+box.Right)/2, float64(box.Bottom)+8+sizeTick+10+sizeLabel, t, textStyle{size: sizeLabel, color: colText, anchor: "middle"})
		}
		if yLabel != "" {
			t := truncate(yLabel, sizeLabel, float64(w-2*margin), false)
			r.text(margin, float64(box.Top)-12, t, textStyle{size: sizeLabel, color: colText})
		}
		if title != "" {
			header(r, w, title)
		}
		leg.draw(r)
		// Reference labels last, placed off the data where possible.
		// Long lines are followed every stride points: placement only
		// needs their rough course, and must stay fast for any input.
		var obs obstacles
		total := 0
		for _, d := range series {
			total += len(d.pts)
		}
		stride := max(1, total/maxObstacles)
		for _, d := range series {
			runs(d.pts, hasY, func(run []point) {
				x0, y0 := pxX(box, xr, run[0].x), pxY(box, yr, run[0].y)
				obs.boxes = append(obs.boxes, box4(x0, y0, 4))
				for i := stride; i < len(run)+stride-1; i += stride {
					p := run[min(i, len(run)-1)]
					x1, y1 := pxX(box, xr, p.x), pxY(box, yr, p.y)
					obs.segs = append(obs.segs, [4]float64{x0, y0, x1, y1})
					x0, y0 = x1, y1
				}
				obs.boxes = append(obs.boxes, box4(x0, y0, 4))
			})
		}
		for _, m := range c.Marks {
			if inRange(m.X, xa.min, xa.max) {
				px := pxX(box, xr, m.X)
				obs.segs = append(obs.segs, [4]float64{px, float64(box.Top), px, float64(box.Bottom)})
			}
		}
		for _, rf := range c.Refs {
			if inRange(rf.Y, ya.min, ya.max) {
				py := pxY(box, yr, rf.Y)
				obs.segs = append(obs.segs, [4]float64{float64(box.Left), py, float64(box.Right), py})
			}
		}
		maxW := 0.45 * float64(box.Width())
		for _, rf := range c.Refs {
			if t := truncate(cleanText(rf.Label), sizeNote, maxW, false); t != "" && inRange(rf.Y, ya.min, ya.max) {
				place(r, &obs, t, sizeNote, refCandidates(box, pxY(box, yr, rf.Y), textWidth(t, sizeNote, false)))
			}
		}
		for _, m := range c.Marks {
			if t := truncate(cleanText(m.Label), sizeNote, maxW, false); t != "" && inRange(m.X, xa.min, xa.max) {
				place(r, &obs, t, sizeNote, markCandidates(box, pxX(box, xr, m.X), textWidth(t, sizeNote, false)))
			}
		}
	})

	gc := gochart.Chart{
		Width:  w,
		Height: h,
		Font:   noFont,
		Background: gochart.Style{
			FillColor: colWhite,
			// go-chart moves the plot 10px in from the left and bottom
			// padding to make room for (our empty) tick labels.
			Padding: gochart.Box{
				Top:    int(plotTop),
				Left:   int(plotLeft) - gochart.DefaultYAxisMargin,
				Right:  w - int(plotRight),
				Bottom: h - int(plotBottom) - gochart.DefaultXAxisMargin,
			},
		},
		Canvas: gochart.Style{FillColor: colWhite},
		XAxis: gochart.XAxis{
			Style:          gochart.Style{StrokeColor: colAxis, StrokeWidth: 1},
			Range:          xr,
			Ticks:          ticksX,
			GridMajorStyle: gochart.Style{Hidden: true},
			GridMinorStyle: gochart.Style{Hidden: true},
		},
		YAxis: gochart.YAxis{
			AxisType:       gochart.YAxisSecondary, // draws on the left
			Style:          gochart.Style{StrokeColor: colHidden, StrokeWidth: 1},
			Range:          yr,
			Ticks:          ticksY,
			GridLines:      grid,
			GridMajorStyle: gochart.Style{StrokeColor: colGrid, StrokeWidth: 1},
			GridMinorStyle: gochart.Style{StrokeColor: colGrid, StrokeWidth: 1},
			Zero:           zero,
		},
		// go-chart draws the secondary axis unless hidden, with ticks
		// from a zero range: at NaN positions.
		YAxisSecondary: gochart.YAxis{Style: gochart.Style{Hidden: true}},
		Series:         list,
		Elements:       []gochart.Renderable{labels},
	}
	if err := gc.Render(func(int, int) (gochart.Renderer, error) { return r, nil }, &bytes.Buffer{}); err != nil {
		panic(err) // turned into an error by SVG
	}
	return document(w, h, id, a11yTitle, desc, "", r.b)
}

// ticksFor lays out an axis over [lo, hi] aiming at target ticks. It asks
// for more ticks when a range would otherwise show fewer than two, and for
// fewer while fits (if given) says the labels do not fit. It always
// returns at least two ticks: given none, go-chart would make its own,
// unformatted and unbounded.
func ticksFor(lo, hi float64, target int, nice, intStep bool, fits func(axis) bool) axis {
	target = max(2, min(target, 12))
	a := makeAxis(lo, hi, target, nice, intStep)
	for t := target; len(a.ticks) < 2 && t < 4*target; {
		t *= 2
		a = makeAxis(lo, hi, t, nice, intStep)
	}
	for t := target - 1; fits != nil && t >= 1 && !fits(a); t-- {
		b := makeAxis(lo, hi, t, nice, intStep)
		if len(b.ticks) < 2 {
			break
		}
		a = b
	}
	if len(a.ticks) < 2 {
		a = axis{min: lo, max: hi, ticks: []float64{lo, hi}}
		a.labels = tickLabels(a.ticks, hi-lo)
	}
	return a
}

// allIntegers reports whether every drawn x is a whole number, so that
// the x axis (e.g. cycles) should not get fractional ticks.
func allIntegers(series []lineData) bool {
	for _, d := range series {
		for _, p := range d.pts {
			if p.x != math.Trunc(p.x) {
				return false
			}
		}
	}
	return true
}

func (c Line) hash() string {
	h := newHasher("line")
	h.str(c.Title)
	h.str(c.Description)
	h.str(c.XLabel)
	h.str(c.YLabel)
	h.int(len(c.Series))
	for _, s := range c.Series {
		h.str(s.Name)
		h.f64s(s.X)
		h.f64s(s.Y)
		h.f64s(s.Lo)
		h.f64s(s.Hi)
		h.int(b2i(s.Dashed))
	}
	h.rng(c.YRange)
	h.int(len(c.Marks))
	for _, m := range c.Marks {
		h.f64(m.X)
		h.str(m.Label)
	}
	h.int(len(c.Refs))
	for _, rf := range c.Refs {
		h.f64(rf.Y)
		h.str(rf.Label)
	}
	h.int(c.Width)
	h.int(c.Height)
	return h.id()
}

// summaryLimit is how many series or bars the description lists one by one.
const summaryLimit = 20

func (c Line) summary(series []lineData, hasData bool) string {
	var s summary
	switch len(series) {
	case 0:
		s.add("Line chart with no series.")
	case 1:
		s.add("Line chart with 1 series.")
	default:
		s.add("Line chart with %d series.", len(series))
	}
	if !hasData {
		s.add("There is no data to show.")
		return s.String()
	}
	if l := cleanText(c.XLabel); l != "" {
		s.add("Horizontal axis: %s.", l)
	}
	if l := cleanText(c.YLabel); l != "" {
		s.add("Vertical axis: %s.", l)
	}
	if lo, hi, ok := fixedYRange(c.YRange); ok {
		s.add("The vertical axis runs from %s to %s.", fmtNum(lo), fmtNum(hi))
	}
	for i, d := range series {
		if i == summaryLimit {
			s.add("And %d more series.", len(series)-summaryLimit)
			break
		}
		var first, last point
		n := 0
		for _, p := range d.pts {
			if hasY(p) {
				if n == 0 {
					first = p
				}
				last = p
				n++
			}
		}
		kind := ""
		if d.dashed {
			kind = " (dashed)"
		}
		switch n {
		case 0:
			s.add("%s%s: no data.", d.name, kind)
		case 1:
			s.add("%s%s: 1 point, %s at x = %s.", d.name, kind, fmtNum(first.y), fmtNum(first.x))
		default:
			s.add("%s%s: %d points from x = %s to %s; values from %s to %s, first %s, last %s.",
				d.name, kind, n, fmtNum(first.x), fmtNum(last.x),
				fmtNum(d.ye.lo), fmtNum(d.ye.hi), fmtNum(first.y), fmtNum(last.y))
		}
		if d.dropped > 0 {
			s.add("%d values that are not numbers are not drawn.", d.dropped)
		}
	}
	for _, m := range c.Marks {
		if finite(m.X) {
			s.add("Vertical line at x = %s: %s.", fmtNum(m.X), cleanText(m.Label))
		}
	}
	for _, rf := range c.Refs {
		if finite(rf.Y) {
			s.add("Horizontal line at y = %s: %s.", fmtNum(rf.Y), cleanText(rf.Label))
		}
	}
	return s.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
