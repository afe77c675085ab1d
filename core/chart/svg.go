package chart

import (
	"io"
	"math"
	"strconv"

	"github.com/golang/freetype/truetype"
	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// fontFamily is set once on the root element; every text inherits it.
const fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

// svgRenderer is our implementation of go-chart's Renderer. go-chart's own
// SVG renderer writes text without escaping it, drops the difference
// between Fill and Stroke, emits empty paths, and measures text with a
// bundled Roboto font; this one escapes everything, writes presentation
// attributes instead of CSS (so the file works standalone and under a
// strict Content-Security-Policy), and measures with fixed width tables.
//
// It writes only the chart body; document wraps it in the root element.
type svgRenderer struct {
	b []byte

	dpi         float64
	stroke      drawing.Color
	fill        drawing.Color
	fontColor   drawing.Color
	strokeWidth float64
	dash        []float64
	fontSize    float64
	rotate      float64 // radians; 0 = none
	path        []byte
}

var _ gochart.Renderer = (*svgRenderer)(nil)

func newRenderer() *svgRenderer {
	return &svgRenderer{dpi: gochart.DefaultDPI, b: make([]byte, 0, 16<<10)}
}

// ResetStyle implements gochart.Renderer.
func (r *svgRenderer) ResetStyle() {
	r.stroke, r.fill, r.fontColor = drawing.Color{}, drawing.Color{}, drawing.Color{}
	r.strokeWidth, r.fontSize, r.rotate = 0, 0, 0
	r.dash = nil
}

// GetDPI implements gochart.Renderer.
func (r *svgRenderer) GetDPI() float64 { return r.dpi }

// SetDPI implements gochart.Renderer. Sizes are in pixels; DPI is unused.
func (r *svgRenderer) SetDPI(dpi float64) { r.dpi = dpi }

// SetClassName implements gochart.Renderer; classes are not used.
func (r *svgRenderer) SetClassName(string) {}

// SetStrokeColor implements gochart.Renderer.
func (r *svgRenderer) SetStrokeColor(c drawing.Color) { r.stroke = c }

// SetFillColor implements gochart.Renderer.
func (r *svgRenderer) SetFillColor(c drawing.Color) { r.fill = c }

// SetStrokeWidth implements gochart.Renderer.
func (r *svgRenderer) SetStrokeWidth(w float64) { r.strokeWidth = w }

// SetStrokeDashArray implements gochart.Renderer.
func (r *svgRenderer) SetStrokeDashArray(d []float64) { r.dash = d }

// MoveTo implements gochart.Renderer.
func (r *svgRenderer) MoveTo(x, y int) {
	r.path = append(r.path, 'M')
	r.path = appendXY(r.path, x, y)
}

// LineTo implements gochart.Renderer.
func (r *svgRenderer) LineTo(x, y int) {
	if len(r.path) == 0 {
		r.MoveTo(x, y)
		return
	}
	r.path = append(r.path, 'L')
	r.path = appendXY(r.path, x, y)
}

// QuadCurveTo implements gochart.Renderer.
func (r *svgRenderer) QuadCurveTo(cx, cy, x, y int) {
	r.path = append(r.path, 'Q')
	r.path = appendXY(r.path, cx, cy)
	r.path = append(r.path, ' ')
	r.path = appendXY(r.path, x, y)
}

// ArcTo implements gochart.Renderer (go-chart uses it for pie charts only).
func (r *svgRenderer) ArcTo(cx, cy int, rx, ry, startAngle, delta float64) {
	if !finite(rx) || !finite(ry) || !finite(startAngle) || !finite(delta) {
		return
	}
	start := startAngle + math.Pi/2
	end := start + delta
	sx, sy := float64(cx)+rx*math.Sin(start), float64(cy)-ry*math.Cos(start)
	ex, ey := float64(cx)+rx*math.Sin(end), float64(cy)-ry*math.Cos(end)
	if len(r.path) == 0 {
		r.path = append(r.path, 'M')
	} else {
		r.path = append(r.path, 'L')
	}
	r.path = appendFloat(r.path, sx)
	r.path = append(r.path, ' ')
	r.path = appendFloat(r.path, sy)
	large := "0"
	if delta > math.Pi {
		large = "1"
	}
	r.path = append(r.path, 'A')
	r.path = appendFloat(r.path, rx)
	r.path = append(r.path, ' ')
	r.path = appendFloat(r.path, ry)
	r.path = append(r.path, " 0 "+large+" 1 "...)
	r.path = appendFloat(r.path, ex)
	r.path = append(r.path, ' ')
	r.path = appendFloat(r.path, ey)
}

// Close implements gochart.Renderer.
func (r *svgRenderer) Close() {
	if len(r.path) > 0 {
		r.path = append(r.path, 'Z')
	}
}

// Stroke implements gochart.Renderer.
func (r *svgRenderer) Stroke() { r.drawPath(false, true) }

// Fill implements gochart.Renderer.
func (r *svgRenderer) Fill() { r.drawPath(true, false) }

// FillStroke implements gochart.Renderer.
func (r *svgRenderer) FillStroke() { r.drawPath(true, true) }

func (r *svgRenderer) drawPath(fill, stroke bool) {
	defer func() { r.path = r.path[:0] }()
	fill = fill && r.fill.A > 0
	stroke = stroke && r.stroke.A > 0 && r.strokeWidth > 0
	if len(r.path) == 0 || (!fill && !stroke) {
		return
	}
	r.b = append(r.b, `<path d="`...)
	r.b = append(r.b, r.path...)
	r.b = append(r.b, '"')
	r.paint(fill, stroke)
	r.b = append(r.b, "/>"...)
}

// paint writes fill and stroke attributes for the current style.
func (r *svgRenderer) paint(fill, stroke bool) {
	if fill {
		r.b = appendColorAttr(r.b, "fill", r.fill)
	} else {
		r.b = append(r.b, ` fill="none"`...)
	}
	if stroke {
		r.b = appendColorAttr(r.b, "stroke", r.stroke)
		r.b = append(r.b, ` stroke-width="`...)
		r.b = appendFloat(r.b, r.strokeWidth)
		r.b = append(r.b, '"')
		if len(r.dash) > 0 {
			r.b = append(r.b, ` stroke-dasharray="`...)
			for i, d := range r.dash {
				if i > 0 {
					r.b = append(r.b, ' ')
				}
				r.b = appendFloat(r.b, d)
			}
			r.b = append(r.b, '"')
		}
		r.b = append(r.b, ` stroke-linejoin="round" stroke-linecap="round"`...)
	}
}

// Circle implements gochart.Renderer.
func (r *svgRenderer) Circle(radius float64, x, y int) {
	fill, stroke := r.fill.A > 0, r.stroke.A > 0 && r.strokeWidth > 0
	if !(radius > 0) || !finite(radius) || (!fill && !stroke) {
		return
	}
	r.b = append(r.b, `<circle cx="`...)
	r.b = strconv.AppendInt(r.b, int64(x), 10)
	r.b = append(r.b, `" cy="`...)
	r.b = strconv.AppendInt(r.b, int64(y), 10)
	r.b = append(r.b, `" r="`...)
	r.b = appendFloat(r.b, radius)
	r.b = append(r.b, '"')
	r.paint(fill, stroke)
	r.b = append(r.b, "/>"...)
}

// SetFont implements gochart.Renderer; the font comes from the root element.
func (r *svgRenderer) SetFont(*truetype.Font) {}

// SetFontColor implements gochart.Renderer.
func (r *svgRenderer) SetFontColor(c drawing.Color) { r.fontColor = c }

// SetFontSize implements gochart.Renderer. Sizes are pixels.
func (r *svgRenderer) SetFontSize(size float64) { r.fontSize = size }

// Text implements gochart.Renderer. x, y is the start of the baseline.
func (r *svgRenderer) Text(body string, x, y int) {
	size := r.fontSize
	if size <= 0 {
		size = 12
	}
	color := r.fontColor
	if color.IsZero() {
		color = colText
	}
	t := textStyle{size: size, color: color, rotate: r.rotate * 180 / math.Pi}
	r.text(float64(x), float64(y), cleanText(body), t)
}

// MeasureText implements gochart.Renderer.
func (r *svgRenderer) MeasureText(body string) gochart.Box {
	if body == "" {
		return gochart.Box{}
	}
	size := r.fontSize
	if size <= 0 {
		size = 12
	}
	box := gochart.Box{
		Right:  int(math.Ceil(textWidth(cleanText(body), size, false))),
		Bottom: int(math.Ceil(size * capHeight)),
	}
	if r.rotate != 0 {
		box = box.Corners().Rotate(r.rotate * 180 / math.Pi).Box()
	}
	return box
}

// SetTextRotation implements gochart.Renderer.
func (r *svgRenderer) SetTextRotation(radians float64) {
	if finite(radians) {
		r.rotate = radians
	}
}

// ClearTextRotation implements gochart.Renderer.
func (r *svgRenderer) ClearTextRotation() { r.rotate = 0 }

// Save implements gochart.Renderer. The body stays in r.b; document
// writes the finished file.
func (r *svgRenderer) Save(io.Writer) error { return nil }

// capHeight is the height of digits and capitals, as a fraction of the
// font size. go-chart centres labels using the measured height, so using
// the cap height rather than the full line height centres them visually.
const capHeight = 0.73

// textStyle describes one text element written by us rather than go-chart.
type textStyle struct {
	size   float64
	color  drawing.Color
	anchor string  // "", "middle" or "end"
	bold   bool    // semibold, for the title
	rotate float64 // degrees, about (x, y)
}

// text writes s (already clean) with its baseline starting, centred or
// ending at (x, y), depending on t.anchor.
func (r *svgRenderer) text(x, y float64, s string, t textStyle) {
	if s == "" || !finite(x) || !finite(y) {
		return
	}
	r.b = append(r.b, `<text x="`...)
	r.b = appendFloat(r.b, x)
	r.b = append(r.b, `" y="`...)
	r.b = appendFloat(r.b, y)
	r.b = append(r.b, `" font-size="`...)
	r.b = appendFloat(r.b, t.size)
	r.b = append(r.b, '"')
	if t.bold {
		r.b = append(r.b, ` font-weight="600"`...)
	}
	if t.anchor != "" {
		r.b = append(r.b, ` text-anchor="`...)
		r.b = append(r.b, t.anchor...)
		r.b = append(r.b, '"')
	}
	r.b = appendColorAttr(r.b, "fill", t.color)
	if t.rotate != 0 && finite(t.rotate) {
		r.b = append(r.b, ` transform="rotate(`...)
		r.b = appendFloat(r.b, t.rotate)
		r.b = append(r.b, ' ')
		r.b = appendFloat(r.b, x)
		r.b = append(r.b, ' ')
		r.b = appendFloat(r.b, y)
		r.b = append(r.b, `)"`...)
	}
	r.b = append(r.b, '>')
	r.b = appendEscaped(r.b, s)
	r.b = append(r.b, "</text>"...)
}

// line writes a straight line segment.
func (r *svgRenderer) line(x1, y1, x2, y2 float64, color drawing.Color, width float64, dash string) {
	r.b = append(r.b, `<path d="M`...)
	r.b = appendFloat(r.b, x1)
	r.b = append(r.b, ' ')
	r.b = appendFloat(r.b, y1)
	r.b = append(r.b, 'L')
	r.b = appendFloat(r.b, x2)
	r.b = append(r.b, ' ')
	r.b = appendFloat(r.b, y2)
	r.b = append(r.b, `" fill="none"`...)
	r.b = appendColorAttr(r.b, "stroke", color)
	r.b = append(r.b, ` stroke-width="`...)
	r.b = appendFloat(r.b, width)
	r.b = append(r.b, '"')
	if dash != "" {
		r.b = append(r.b, ` stroke-dasharray="`...)
		r.b = append(r.b, dash...)
		r.b = append(r.b, `" stroke-linecap="round"`...)
	}
	r.b = append(r.b, "/>"...)
}

// rect writes a rectangle; fill is a colour or a url(#...) reference.
func (r *svgRenderer) rect(x, y, w, h float64, fill string, fillOpacity float64, stroke drawing.Color, strokeWidth float64, dash string) {
	if !(w > 0) || !(h > 0) {
		return
	}
	r.b = append(r.b, `<rect x="`...)
	r.b = appendFloat(r.b, x)
	r.b = append(r.b, `" y="`...)
	r.b = appendFloat(r.b, y)
	r.b = append(r.b, `" width="`...)
	r.b = appendFloat(r.b, w)
	r.b = append(r.b, `" height="`...)
	r.b = appendFloat(r.b, h)
	r.b = append(r.b, `" fill="`...)
	r.b = append(r.b, fill...)
	r.b = append(r.b, '"')
	if fillOpacity > 0 && fillOpacity < 1 {
		r.b = append(r.b, ` fill-opacity="`...)
		r.b = appendFloat(r.b, fillOpacity)
		r.b = append(r.b, '"')
	}
	if stroke.A > 0 && strokeWidth > 0 {
		r.b = appendColorAttr(r.b, "stroke", stroke)
		r.b = append(r.b, ` stroke-width="`...)
		r.b = appendFloat(r.b, strokeWidth)
		r.b = append(r.b, '"')
		if dash != "" {
			r.b = append(r.b, ` stroke-dasharray="`...)
			r.b = append(r.b, dash...)
			r.b = append(r.b, '"')
		}
	}
	r.b = append(r.b, "/>"...)
}

// fillRect writes a rectangle filled with c and no outline.
func (r *svgRenderer) fillRect(x, y, w, h float64, c drawing.Color) {
	if !(w > 0) || !(h > 0) || c.A == 0 {
		return
	}
	r.b = append(r.b, `<rect x="`...)
	r.b = appendFloat(r.b, x)
	r.b = append(r.b, `" y="`...)
	r.b = appendFloat(r.b, y)
	r.b = append(r.b, `" width="`...)
	r.b = appendFloat(r.b, w)
	r.b = append(r.b, `" height="`...)
	r.b = appendFloat(r.b, h)
	r.b = append(r.b, '"')
	r.b = appendColorAttr(r.b, "fill", c)
	r.b = append(r.b, "/>"...)
}

// raw appends markup that the caller built from trusted constants.
func (r *svgRenderer) raw(s string) { r.b = append(r.b, s...) }

func appendXY(b []byte, x, y int) []byte {
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(y), 10)
}

// appendFloat writes v with at most two decimals and no exponent, which is
// all the precision a pixel coordinate needs.
func appendFloat(b []byte, v float64) []byte {
	if !finite(v) {
		return append(b, '0')
	}
	v = math.Round(v*100) / 100
	if v == 0 {
		return append(b, '0') // also for -0
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func appendColorAttr(b []byte, name string, c drawing.Color) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = appendHex(b, c)
	b = append(b, '"')
	if c.A < 255 {
		b = append(b, ' ')
		b = append(b, name...)
		b = append(b, `-opacity="`...)
		b = appendFloat(b, float64(c.A)/255)
		b = append(b, '"')
	}
	return b
}

func appendHex(b []byte, c drawing.Color) []byte {
	const hexdig = "0123456789abcdef"
	return append(b, '#',
		hexdig[c.R>>4], hexdig[c.R&15],
		hexdig[c.G>>4], hexdig[c.G&15],
		hexdig[c.B>>4], hexdig[c.B&15])
}
