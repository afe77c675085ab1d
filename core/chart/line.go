package chart

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	gochart "github.com/wcharczuk/go-chart/v2"
)

// point is one cleaned data point. y, lo and hi are NaN where missing.
type point struct{ x, y, lo, hi float64 }

// lineData is one series after cleaning.
type lineData struct {
	name    string // full text, for the legend and the description
	key     string // data-policy, or ""
	style   Style
	pts     []point // sorted by x; every x is finite
	valid   int     // points with a finite y
	banded  bool    // at least one point has an interval
	dropped int     // values that were not finite numbers
	ye      extent  // of y
}

// markerLimit is the largest number of points for which every point of a
// line gets a marker; longer lines get one every markerGap pixels or so,
// enough to show their shape of marker without hiding the line.
const (
	markerLimit = 15
	markerGap   = 56.0
)

// tipLimit is about the most points of a chart that carry their values
// for the page's tooltips (hit targets with a <title>); a chart with more
// gives them to every k-th point of each line, and the data table has
// them all.
const tipLimit = 800

// cleanSeries applies the input rules: the shorter of X and Y sets the
// length, points with a non-finite x are dropped, a non-finite y leaves a
// gap, an interval needs both bounds finite (and is put in order), values
// are clamped to ±maxMagnitude, and points are sorted by x.
func cleanSeries(i int, s Series) lineData {
	d := lineData{name: cleanText(s.Name), key: cleanText(s.Key), style: styleOr(s.Style, i)}
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

func cmpX(a, b point) int { return cmp.Compare(a.x, b.x) }

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

// pointTitle is what a point of a series says for people: the series, x
// and y, and the interval where it has one.
func pointTitle(name, xLabel string, p point) string {
	x := fmtNum(p.x)
	if xLabel != "" {
		x = xLabel + " " + x
	} else {
		x = "x = " + x
	}
	t := name + ", " + x + ": " + fmtNum(p.y)
	if hasBand(p) {
		t += " (interval " + fmtNum(p.lo) + " to " + fmtNum(p.hi) + ")"
	}
	return t
}

// SVG renders the chart as a standalone SVG document. It returns an error
// only if go-chart fails despite the input guards; any input renders.
func (c Line) SVG() (out []byte, err error) {
	defer recovered(&err)
	return c.render(), nil
}

// lineInput is a Line after cleaning, shared by its layouts.
type lineInput struct {
	w, h           int // requested; h = 0 to choose
	id, title      string
	a11yTitle      string
	desc           string
	xLabel, yLabel string
	series         []lineData
	xe, ye         extent
	legend         bool
}

func (c Line) render() []byte {
	w, h := size(c.Width, c.Height)
	in := lineInput{w: w, h: h, title: cleanText(c.Title), xLabel: cleanText(c.XLabel), yLabel: cleanText(c.YLabel)}
	in.series = make([]lineData, len(c.Series))
	for i, s := range c.Series {
		d := cleanSeries(i, s)
		for _, p := range d.pts {
			if hasY(p) || hasBand(p) {
				in.xe.add(p.x)
				in.ye.add(p.y)
				in.ye.add(p.lo)
				in.ye.add(p.hi)
			}
		}
		in.series[i] = d
	}
	in.legend = len(c.Series) > 1 || (len(c.Series) == 1 && cleanText(c.Series[0].Name) != "")
	in.id = cleanID(c.ID)
	if in.id == "" {
		in.id = c.hash()
	}
	in.a11yTitle = in.title
	if in.a11yTitle == "" {
		in.a11yTitle = "Line chart"
	}
	in.desc = joinDesc(c.Description, c.summary(in.series, in.xe.ok))
	if !in.xe.ok {
		return emptyChart(w, h, in.id, in.a11yTitle, in.desc, in.title)
	}
	return laidOut(w, func(sp spill) ([]byte, outside) { return c.layout(&in, sp) })
}

// plotBottomFor returns the bottom of a plot plotW wide from plotTop down,
// with bottomSpace under it for the x axis, in a chart h high (0: as the
// plot's width suits, plotHeight), and the chart's height: grown where h
// would leave the plot less than minPlotH, or less than the labels stacked
// beside it need (sp.tall).
func plotBottomFor(h int, plotTop, plotW, bottomSpace float64, sp spill) (float64, int) {
	if h == 0 {
		bottom := plotTop + math.Max(plotHeight(plotW), sp.tall)
		return bottom, int(math.Ceil(bottom + bottomSpace + margin))
	}
	bottom := float64(h-margin) - bottomSpace
	if least := math.Max(minPlotH, sp.tall); bottom-plotTop < least {
		h += int(math.Ceil(least - (bottom - plotTop)))
		bottom = float64(h-margin) - bottomSpace
	}
	return bottom, h
}

// laidOut lays a chart out with layout until every reference label has a
// place: inside the plot, or in room kept outside it for those that found
// none (which changes the plot, so the labels are placed again).
func laidOut(w int, layout func(spill) ([]byte, outside)) []byte {
	var sp spill
	for pass := 0; ; pass++ {
		out, left := layout(sp)
		need := left.room(float64(w))
		if sp.holds(need) || pass == 3 {
			return out
		}
		sp = sp.grow(need)
	}
}

// layout lays the chart out and draws it, keeping sp free outside the
// plot for reference labels, and returns the document and the labels
// that found no room inside the plot (drawn in sp when it has room).
func (c Line) layout(in *lineInput, sp spill) ([]byte, outside) {
	w, h := in.w, in.h
	id, title, series := in.id, in.title, in.series
	xe, ye := in.xe, in.ye
	for _, m := range c.Marks {
		xe.add(m.X)
	}
	ylo, yhi, yFixed := fixedYRange(c.YRange)
	if !yFixed {
		for _, rf := range c.Refs {
			ye.add(rf.Y)
		}
	}

	// Vertical layout, top to bottom: title, legend, y-axis label, the
	// labels of marks that found no room in the plot, plot, x tick
	// labels, x-axis label.
	titles := titleLines(w, title)
	top := float64(margin) + titleHeight(titles)
	items := make([]legendItem, len(series))
	for i, d := range series {
		items[i] = legendItem{text: d.name, key: d.key, style: d.style, band: d.banded}
	}
	var leg legendLayout
	if in.legend {
		leg = layoutLegend(items, margin, top+4, float64(w-2*margin))
		top = leg.bottom + 6
	}
	yLines := wrapLines(in.yLabel, sizeLabel, float64(w-2*margin), false)
	plotTop := top + 10
	if len(yLines) > 0 {
		plotTop = top + float64(len(yLines)-1)*lineHeight(sizeLabel) + sizeLabel + 14
	}
	yLabelAt := plotTop - 12 - float64(len(yLines)-1)*lineHeight(sizeLabel)
	plotTop += sp.top

	// Y axis labels first: their width sets the plot's left edge, and so
	// the width the x label wraps to and the height that suits it.
	if !yFixed {
		ylo, yhi = ye.lo, ye.hi
		if degenerate(ylo, yhi) {
			ylo, yhi = widen((ylo+yhi)/2, true)
		}
	}
	// The number of y ticks depends on the plot's height, which depends
	// on the bottom labels: lay the ticks out for a first guess of the
	// height, which only the widest tick label's width feeds back.
	guessH := float64(h) - margin - 36 - plotTop
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
	plotW := float64(w-margin) - sp.right - plotLeft
	xa := ticksFor(xlo, xhi, int(plotW/90), false, intX, func(a axis) bool {
		maxW := 0.0
		for _, l := range a.labels {
			maxW = math.Max(maxW, textWidth(l, sizeTick, false))
		}
		// The last label's overhang narrows the plot (plotRight below).
		return (maxW+12)*float64(len(a.labels)) <= plotW-maxW/2
	})
	lastW := 0.0
	if n := len(xa.labels); n > 0 {
		lastW = textWidth(xa.labels[n-1], sizeTick, false)
	}
	plotRight := math.Floor(float64(w-margin) - math.Max(4, lastW/2-sp.right) - sp.right)
	if plotRight-plotLeft < minPlotW/2 {
		w += int(math.Ceil(minPlotW/2 - (plotRight - plotLeft)))
		plotRight = math.Floor(float64(w-margin) - math.Max(4, lastW/2-sp.right) - sp.right)
	}
	xLines := wrapLines(in.xLabel, sizeLabel, plotRight-plotLeft, false)
	bottomSpace := 8 + sizeTick + 4.0
	if len(xLines) > 0 {
		bottomSpace += 10 + float64(len(xLines)-1)*lineHeight(sizeLabel) + sizeLabel
	}
	plotBottom, h := plotBottomFor(h, plotTop, plotRight-plotLeft, bottomSpace, sp)
	if int((plotBottom-plotTop)/45) != int(guessH/45) && !yFixed || yFixed {
		ya = ticksFor(ylo, yhi, int((plotBottom-plotTop)/45), !yFixed, false, func(a axis) bool {
			wide := 0.0
			for _, l := range a.labels {
				wide = math.Max(wide, textWidth(l, sizeTick, false))
			}
			return wide <= yTickW
		})
	}

	xr := &fixedRange{min: xa.min, max: xa.max}
	yr := &fixedRange{min: ya.min, max: ya.max}

	var list []gochart.Series
	// Bands first, so lines stay on top of every band. They are clipped
	// exactly to the plot; lines and markers may reach a little beyond.
	list = append(list, clipBegin(id+"-clip-band", 0))
	for _, d := range series {
		fill := d.style.color()
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
				if m.Current {
					r.line(px, float64(box.Top), px, float64(box.Bottom), colText, 1.5, "")
				} else {
					r.line(px, float64(box.Top), px, float64(box.Bottom), colRef, 1.25, "5 4")
				}
			}
		}
		for _, rf := range c.Refs {
			if inRange(rf.Y, ya.min, ya.max) {
				refLine(r, box, yr, rf.Y)
			}
		}
	}})
	total := 0
	for _, d := range series {
		total += d.valid
	}
	tipEvery := max(1, (total+tipLimit-1)/tipLimit)
	for i, d := range series {
		list = append(list, drawSeries{func(r *svgRenderer, _ gochart.Box, _, _ gochart.Range) { r.openGroup(d.key, d.name) }})
		style := gochart.Style{StrokeColor: d.style.color(), StrokeWidth: d.style.lineWidth()}
		if dash := d.style.dash(); dash != "" {
			for _, f := range strings.Fields(dash) {
				v, _ := strconv.ParseFloat(f, 64)
				style.StrokeDashArray = append(style.StrokeDashArray, v)
			}
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
		// Markers and whiskers on the line: every point of a short line,
		// else one every markerGap pixels, staggered from series to series
		// so that lines on top of each other still show theirs; a point
		// alone between gaps always.
		list = append(list, drawSeries{func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range) {
			all := d.valid <= markerLimit
			next := float64(box.Left) + markerGap*float64(i+1)/float64(len(series)+1)
			runs(d.pts, hasY, func(run []point) {
				for _, p := range run {
					x := pxX(box, xr, p.x)
					if all || len(run) == 1 || x >= next {
						r.drawMarker(x, pxY(box, yr, p.y), d.style, markerSize, "")
						next = math.Max(next+markerGap, x+markerGap/2)
					}
				}
			})
			k := 0
			runs(d.pts, hasY, func(run []point) {
				for _, p := range run {
					if k%tipEvery == 0 {
						r.hitTarget(pxX(box, xr, p.x), pxY(box, yr, p.y), pointTitle(d.name, in.xLabel, p))
					}
					k++
				}
			})
			r.raw("</g>")
			// The interval of a point alone: solid whatever the series'
			// dash, a mark of the interval rather than a line of the
			// policy, so drawn outside its group.
			runs(d.pts, hasBand, func(run []point) {
				if len(run) == 1 {
					p := run[0]
					whisker(r, pxX(box, xr, p.x), pxY(box, yr, p.lo), pxY(box, yr, p.hi), d.style.color(), 4)
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

	var left outside
	labels := element(func(r *svgRenderer, box gochart.Box) {
		for i, v := range ya.ticks {
			py := pxY(box, yr, v)
			r.text(float64(box.Left)-8, py+math.Round(sizeTick*capHeight/2), ya.labels[i], textStyle{size: sizeTick, color: colMuted, anchor: "end"})
		}
		for i, v := range xa.ticks {
			r.text(pxX(box, xr, v), float64(box.Bottom)+8+sizeTick, xa.labels[i], textStyle{size: sizeTick, color: colMuted, anchor: "middle"})
		}
		textLines(r, float64(box.Left+box.Right)/2, float64(box.Bottom)+8+sizeTick+10+sizeLabel, xLines, textStyle{size: sizeLabel, color: colText, anchor: "middle"})
		textLines(r, margin, yLabelAt, yLines, textStyle{size: sizeLabel, color: colText})
		header(r, titles)
		leg.draw(r, nil)
		// Reference labels last, placed off the data. Long lines are
		// followed every stride points: placement only needs their rough
		// course, and must stay fast for any input.
		var obs obstacles
		total := 0
		for _, d := range series {
			total += len(d.pts)
		}
		stride := max(1, total/maxObstacles)
		for _, d := range series {
			runs(d.pts, hasY, func(run []point) {
				x0, y0 := pxX(box, xr, run[0].x), pxY(box, yr, run[0].y)
				obs.boxes = append(obs.boxes, box4(x0, y0, markerSize+2))
				for i := stride; i < len(run)+stride-1; i += stride {
					p := run[min(i, len(run)-1)]
					x1, y1 := pxX(box, xr, p.x), pxY(box, yr, p.y)
					obs.segs = append(obs.segs, [4]float64{x0, y0, x1, y1})
					if d.valid <= markerLimit {
						obs.boxes = append(obs.boxes, box4(x1, y1, markerSize+2))
					}
					x0, y0 = x1, y1
				}
				obs.boxes = append(obs.boxes, box4(x0, y0, markerSize+2))
			})
			runs(d.pts, hasBand, func(run []point) {
				if len(run) == 1 {
					x := pxX(box, xr, run[0].x)
					obs.segs = append(obs.segs, [4]float64{x, pxY(box, yr, run[0].lo), x, pxY(box, yr, run[0].hi)})
				}
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
		maxW := math.Max(0.45*float64(box.Width()), 80)
		for _, rf := range c.Refs {
			if t := cleanText(rf.Label); t != "" && inRange(rf.Y, ya.min, ya.max) {
				n := newNote(t, maxW)
				py := pxY(box, yr, rf.Y)
				if !place(r, &obs, n, refCandidates(box, py, n)) {
					left.right = append(left.right, pending{t, py})
				}
			}
		}
		for _, m := range c.Marks {
			if t := cleanText(m.Label); t != "" && inRange(m.X, xa.min, xa.max) {
				n := newNote(t, maxW)
				px := pxX(box, xr, m.X)
				if !place(r, &obs, n, markCandidates(box, px, n)) {
					left.top = append(left.top, pending{t, px})
				}
			}
		}
		if sp.right > 0 {
			drawRight(r, left.right, float64(box.Right), sp.right, float64(box.Top), float64(box.Bottom))
		}
		if sp.top > 0 {
			drawTop(r, left.top, float64(box.Top)-sp.top-4, float64(w))
		}
	})

	r := newRenderer()
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
	return document(w, h, id, in.a11yTitle, in.desc, "", r.b), left
}

// ticksFor lays out an axis over [lo, hi] aiming at target ticks. It asks
// for more ticks when a range would otherwise show fewer than two, and for
// fewer while fits (if given) says the labels do not fit. It always
// returns at least two ticks: given none, go-chart would make its own,
// unformatted and unbounded. When no nice step fits, the two ends alone.
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
	// No nice step fits (long labels of huge numbers): the two ends alone.
	if len(a.ticks) < 2 || fits != nil && !fits(a) && len(a.ticks) > 2 {
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
		h.str(s.Key)
		h.style(s.Style)
	}
	h.rng(c.YRange)
	h.int(len(c.Marks))
	for _, m := range c.Marks {
		h.f64(m.X)
		h.str(m.Label)
		h.int(b2i(m.Current))
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
