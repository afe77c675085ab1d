package chart

import (
	"math"
	"strconv"
)

// The legend sits between the title and the plot, in rows that wrap, so it
// never covers data (go-chart's own legends are drawn inside the plot). A
// long name wraps onto more lines rather than being cut.

// legendItem is one entry: a swatch in the series' style and its name.
type legendItem struct {
	text  string
	key   string // data-policy of the entry, or ""
	style Style
	plain bool // no swatch (the "+n more" entry)
	band  bool // the series has an interval band
	bar   bool // the series is drawn as bars: a square swatch, hatched as its bars
	glyph bool // a bar swatch shows its style's marker (see barGlyph)
}

// legendPlaced is an entry with its position and wrapped text.
type legendPlaced struct {
	legendItem
	lines []string
	x, y  float64 // top left of the entry
}

type legendLayout struct {
	items  []legendPlaced
	bottom float64
}

const (
	legendSwatch  = 30.0 // width of a line swatch: a whole period of every dash pattern
	legendBar     = 14.0 // width and height of a bar swatch
	legendGap     = 6.0  // between swatch and text
	legendSpacing = 18.0 // between entries
	legendRow     = 18.0 // height of a one-line row
	legendMaxText = 240.0
	legendMax     = 40 // entries shown; the rest are counted in a last entry
)

// layoutLegend flows items into rows starting at (x0, y0), at most maxW
// wide; a name wider than its room wraps onto more lines.
func layoutLegend(items []legendItem, x0, y0, maxW float64) legendLayout {
	var l legendLayout
	if len(items) > legendMax {
		more := legendItem{text: "and " + strconv.Itoa(len(items)-legendMax+1) + " more", plain: true}
		items = append(items[:legendMax-1:legendMax-1], more)
	}
	x, y := x0, y0
	rowH := 0.0
	for _, it := range items {
		sw := 0.0
		if !it.plain {
			sw = it.swatchWidth() + legendGap
		}
		lines := wrapLines(it.text, sizeLegend, math.Max(40, math.Min(legendMaxText, maxW-sw)), false)
		w := sw + widest(lines, sizeLegend, false)
		h := legendRow + float64(max(len(lines), 1)-1)*lineHeight(sizeLegend)
		if x > x0 && x+w > x0+maxW {
			x, y = x0, y+rowH+2
			rowH = 0
		}
		l.items = append(l.items, legendPlaced{legendItem: it, lines: lines, x: x, y: y})
		x += w + legendSpacing
		rowH = math.Max(rowH, h)
	}
	l.bottom = y + rowH
	return l
}

func (it legendItem) swatchWidth() float64 {
	if it.bar {
		return legendBar
	}
	return legendSwatch
}

// draw writes the legend; bar swatches take their fills from pat.
func (l legendLayout) draw(r *svgRenderer, pat *patterns) {
	for _, it := range l.items {
		mid := it.y + legendRow/2 // of the first line
		tx := it.x
		if it.key != "" {
			r.raw(`<g data-policy="`)
			r.b = appendEscaped(r.b, it.key)
			r.raw(`">`)
		}
		c := it.style.color()
		switch {
		case it.plain:
		case it.bar:
			s := legendBar
			r.rect(it.x+0.75, mid-s/2+0.75, s-1.5, s-1.5, pat.fill(it.style), 0, c, 1.5, "")
			if it.glyph {
				r.drawMarker(it.x+s/2, mid, Style{Color: it.style.Color, Marker: it.style.Marker}, 3, "")
			}
			tx += s + legendGap
		default:
			if it.band {
				band := c
				band.A = 40
				r.fillRect(it.x, mid-6, legendSwatch, 12, band)
			}
			r.line(it.x+1, mid, it.x+legendSwatch-1, mid, c, it.style.lineWidth(), it.style.dash())
			r.drawMarker(it.x+legendSwatch/2, mid, it.style, markerSize, "")
			tx += legendSwatch + legendGap
		}
		textLines(r, tx, mid+sizeLegend*capHeight/2, it.lines, textStyle{size: sizeLegend, color: colText})
		if it.key != "" {
			r.raw(`</g>`)
		}
	}
}
