package chart

import (
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

// marker draws a data point: filled for solid series, hollow for dashed.
func marker(r *svgRenderer, x, y float64, c drawing.Color, hollow bool) {
	r.raw(`<circle cx="`)
	r.b = appendFloat(r.b, x)
	r.raw(`" cy="`)
	r.b = appendFloat(r.b, y)
	r.raw(`" r="3.5"`)
	if hollow {
		r.b = appendColorAttr(r.b, "fill", colWhite)
		r.b = appendColorAttr(r.b, "stroke", c)
		r.raw(` stroke-width="2"/>`)
		return
	}
	r.b = appendColorAttr(r.b, "fill", c)
	r.raw(` stroke="#fff" stroke-width="1.5"/>`)
}

// refLine draws a horizontal reference line across the plot; its label is
// placed later, above the data, by place.
func refLine(r *svgRenderer, box gochart.Box, yr gochart.Range, y float64) {
	py := pxY(box, yr, y)
	r.line(float64(box.Left), py, float64(box.Right), py, colRef, 1.25, "5 4")
}

// refCandidates lists where a reference line's label may go: above or
// below the line, at its right end, its left end or its middle.
func refCandidates(box gochart.Box, py, w float64) []label {
	var c []label
	above, below := py-6, py+sizeNote*capHeight+6
	left, right := float64(box.Left)+8, float64(box.Right)-8
	mid := float64(box.Left+box.Right)/2 + w/2
	for _, y := range []float64{above, below} {
		if y-sizeNote < float64(box.Top) || y > float64(box.Bottom) {
			continue
		}
		c = append(c, label{right, y, "end"}, label{left, y, ""}, label{mid, y, "end"})
	}
	if len(c) == 0 {
		c = append(c, label{right, below, "end"})
	}
	return c
}

// markCandidates lists where a vertical mark's label may go: right of the
// line, or left of it, near the top of the plot, stepping down.
func markCandidates(box gochart.Box, px, w float64) []label {
	var c []label
	for k := 0; k < 4; k++ {
		y := float64(box.Top) + 6 + sizeNote*capHeight + float64(k)*(sizeNote+6)
		if px+6+w <= float64(box.Right) {
			c = append(c, label{px + 6, y, ""})
		}
		if px-6-w >= float64(box.Left) {
			c = append(c, label{px - 6, y, "end"})
		}
	}
	if len(c) == 0 {
		c = append(c, label{px + 6, float64(box.Top) + 6 + sizeNote*capHeight, ""})
	}
	return c
}

// inRange reports whether v lies within the axis range.
func inRange(v, lo, hi float64) bool { return finite(v) && v >= lo && v <= hi }
