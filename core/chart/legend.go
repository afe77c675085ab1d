package chart

import (
	"strconv"

	"github.com/wcharczuk/go-chart/v2/drawing"
)

// The legend sits between the title and the plot, in rows that wrap, so it
// never covers data (go-chart's own legends are drawn inside the plot).

// legendItem is one entry: a swatch in the series' style and its name.
type legendItem struct {
	text    string
	color   drawing.Color
	dashed  bool
	band    bool // the series has an interval band
	dot     bool // the series is drawn with markers
	bar     bool // the series is drawn as bars: a square swatch, hatched if dashed
	palette int  // index into palette, for the hatch pattern of a dashed bar
}

// legendPlaced is an entry with its position and display text.
type legendPlaced struct {
	legendItem
	x, y float64 // top left of the entry
}

type legendLayout struct {
	items  []legendPlaced
	bottom float64
	hatch  string // id prefix of the hatch patterns, for dashed bar swatches
}

const (
	legendSwatch  = 22.0 // swatch width
	legendBar     = 12.0 // width and height of a bar swatch
	legendGap     = 6.0  // between swatch and text
	legendSpacing = 18.0 // between entries
	legendRow     = 18.0 // row height
	legendMaxText = 220.0
	legendMax     = 40 // entries shown; the rest are counted in a last entry
)

// layoutLegend flows items into rows starting at (x0, y0), at most maxW
// wide, and truncates long names.
func layoutLegend(items []legendItem, x0, y0, maxW float64) legendLayout {
	var l legendLayout
	if len(items) > legendMax {
		more := legendItem{text: "+" + strconv.Itoa(len(items)-legendMax+1) + " more"}
		items = append(items[:legendMax-1:legendMax-1], more)
	}
	x, y := x0, y0
	textMax := min(legendMaxText, maxW-legendSwatch-legendGap)
	for _, it := range items {
		it.text = truncate(it.text, sizeLegend, textMax, false)
		w := textWidth(it.text, sizeLegend, false)
		if !it.color.IsZero() {
			w += it.swatchWidth() + legendGap
		}
		if x > x0 && x+w > x0+maxW {
			x, y = x0, y+legendRow
		}
		l.items = append(l.items, legendPlaced{legendItem: it, x: x, y: y})
		x += w + legendSpacing
	}
	l.bottom = y
	if len(l.items) > 0 {
		l.bottom = y + legendRow
	}
	return l
}

func (it legendItem) swatchWidth() float64 {
	if it.bar {
		return legendBar
	}
	return legendSwatch
}

// draw writes the legend.
func (l legendLayout) draw(r *svgRenderer) {
	for _, it := range l.items {
		mid := it.y + legendRow/2
		tx := it.x
		switch {
		case it.color.IsZero():
		case it.bar:
			s := legendBar
			if it.dashed && l.hatch != "" {
				// Inset by half the outline, to match the filled size.
				fill := "url(#" + l.hatch + strconv.Itoa(it.palette) + ")"
				r.rect(it.x+0.75, mid-s/2+0.75, s-1.5, s-1.5, fill, 0, it.color, 1.5, "3 1.5")
			} else {
				r.fillRect(it.x, mid-s/2, s, s, it.color)
			}
			tx += s + legendGap
		default:
			if it.band {
				band := it.color
				band.A = 40
				r.fillRect(it.x, mid-6, legendSwatch, 12, band)
			}
			dash := ""
			if it.dashed {
				dash = "5 3"
			}
			r.line(it.x+1, mid, it.x+legendSwatch-1, mid, it.color, 2.5, dash)
			if it.dot {
				marker(r, it.x+legendSwatch/2, mid, it.color, it.dashed)
			}
			tx += legendSwatch + legendGap
		}
		r.text(tx, mid+sizeLegend*capHeight/2, it.text, textStyle{size: sizeLegend, color: colText})
	}
}
