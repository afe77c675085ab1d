package chart

import (
	"math"
	"slices"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// drawSeries adapts a drawing function to go-chart's Series interface, so
// that bands, markers, bars and reference lines are drawn by go-chart's
// render loop in the plot area it laid out, in the order they are listed.
type drawSeries struct {
	draw func(r *svgRenderer, box gochart.Box, xr, yr gochart.Range)
}

func (s drawSeries) GetName() string             { return "" }
func (s drawSeries) GetYAxis() gochart.YAxisType { return gochart.YAxisPrimary }
func (s drawSeries) GetStyle() gochart.Style     { return gochart.Style{} }
func (s drawSeries) Validate() error             { return nil }
func (s drawSeries) Render(r gochart.Renderer, box gochart.Box, xr, yr gochart.Range, _ gochart.Style) {
	if sr, ok := r.(*svgRenderer); ok {
		s.draw(sr, box, xr, yr)
	}
}

// element adapts a drawing function to go-chart's Renderable, for things
// drawn after the plot: labels, title and legend.
func element(draw func(r *svgRenderer, box gochart.Box)) gochart.Renderable {
	return func(r gochart.Renderer, box gochart.Box, _ gochart.Style) {
		if sr, ok := r.(*svgRenderer); ok {
			draw(sr, box)
		}
	}
}

// clipPad is how far beyond the plot area data may still be drawn, so that
// markers and line caps on the edge are not cut in half.
const clipPad = 6

// clipBegin opens a group clipped to the plot area grown by pad pixels;
// clipEnd closes it. Data outside a fixed range (e.g. an interval above 1
// on a 0..1 axis) is cut off at the edge instead of spilling over labels.
// name must be unique within the chart.
func clipBegin(name string, pad int) gochart.Series {
	return drawSeries{func(r *svgRenderer, box gochart.Box, _, _ gochart.Range) {
		r.raw(`<clipPath id="` + name + `">`)
		r.rect(float64(box.Left-pad), float64(box.Top-pad),
			float64(box.Width()+2*pad), float64(box.Height()+2*pad), "#fff", 0, drawing.Color{}, 0, "")
		r.raw(`</clipPath><g clip-path="url(#` + name + `)">`)
	}}
}

func clipEnd() gochart.Series {
	return drawSeries{func(r *svgRenderer, _ gochart.Box, _, _ gochart.Range) { r.raw("</g>") }}
}

// pxX and pxY map values to pixel positions in the plot area, the same way
// go-chart maps the points of its lines.
func pxX(box gochart.Box, xr gochart.Range, v float64) float64 {
	return float64(box.Left + xr.Translate(v))
}

func pxY(box gochart.Box, yr gochart.Range, v float64) float64 {
	return float64(box.Bottom - yr.Translate(v))
}

// whisker draws a vertical interval from lo to hi at x with short caps.
func whisker(r *svgRenderer, x, lo, hi float64, c drawing.Color, capW float64) {
	r.line(x, lo, x, hi, c, 1.5, "")
	r.line(x-capW, lo, x+capW, lo, c, 1.5, "")
	r.line(x-capW, hi, x+capW, hi, c, 1.5, "")
}

// refLine draws a horizontal reference line across the plot; its label is
// placed later, off the data, by place.
func refLine(r *svgRenderer, box gochart.Box, yr gochart.Range, y float64) {
	py := pxY(box, yr, y)
	r.line(float64(box.Left), py, float64(box.Right), py, colRef, 1.25, "5 4")
}

// inside reports whether b lies within the plot.
func inside(box gochart.Box, b area) bool {
	return b.x0 >= float64(box.Left) && b.x1 <= float64(box.Right) && b.y0 >= float64(box.Top) && b.y1 <= float64(box.Bottom)
}

// refCandidates lists where the label n of a horizontal line at py may
// go inside the plot: just above or below the line, at its right end, its
// left end, or a quarter, half or three quarters along.
func refCandidates(box gochart.Box, py float64, n noteText) []label {
	var c []label
	above := py - 5 - n.height() + sizeNote*capHeight
	below := py + 5 + sizeNote*capHeight
	left, right := float64(box.Left)+8, float64(box.Right)-8
	for _, y := range []float64{above, below} {
		c = append(c, label{right, y, "end"}, label{left, y, ""})
		for _, f := range []float64{0.5, 0.75, 0.25} {
			c = append(c, label{float64(box.Left) + f*float64(box.Width()), y, "middle"})
		}
	}
	return keepInside(box, c, n)
}

// markCandidates lists where the label n of a vertical line at px may go
// inside the plot: right of the line, or left of it, from the top of the
// plot down in eight steps.
func markCandidates(box gochart.Box, px float64, n noteText) []label {
	var c []label
	step := math.Max(sizeNote+6, (float64(box.Height())-n.height())/8)
	for y := float64(box.Top) + 6 + sizeNote*capHeight; y+n.height() <= float64(box.Bottom); y += step {
		c = append(c, label{px + 7, y, ""}, label{px - 7, y, "end"})
	}
	return keepInside(box, c, n)
}

// keepInside drops the candidates whose label would leave the plot.
func keepInside(box gochart.Box, c []label, n noteText) []label {
	return slices.DeleteFunc(c, func(l label) bool { return !inside(box, l.bounds(n)) })
}

// inRange reports whether v lies within the axis range.
func inRange(v, lo, hi float64) bool { return finite(v) && v >= lo && v <= hi }

// hwhisker draws a horizontal interval from lo to hi at y with short caps.
func hwhisker(r *svgRenderer, y, lo, hi float64, c drawing.Color, capH float64) {
	r.line(lo, y, hi, y, c, 1.5, "")
	r.line(lo, y-capH, lo, y+capH, c, 1.5, "")
	r.line(hi, y-capH, hi, y+capH, c, 1.5, "")
}

// openGroup starts the <g> that holds one series' elements: its key as
// data-policy (when it has one) and its name as data-series, by which the
// page's tooltips step through its points and tests find its looks.
func (r *svgRenderer) openGroup(key, name string) {
	r.raw(`<g`)
	if key != "" {
		r.raw(` data-policy="`)
		r.b = appendEscaped(r.b, key)
		r.raw(`"`)
	}
	r.raw(` data-series="`)
	r.b = appendEscaped(r.b, name)
	r.raw(`">`)
}

// hitTarget writes an invisible disc at a point that carries its value
// for people (title) and catches the pointer for the page's tooltip.
func (r *svgRenderer) hitTarget(x, y float64, title string) {
	r.raw(`<circle cx="`)
	r.b = appendFloat(r.b, x)
	r.raw(`" cy="`)
	r.b = appendFloat(r.b, y)
	r.raw(`" r="6" fill="#fff" fill-opacity="0"`)
	r.end("circle", title)
}
