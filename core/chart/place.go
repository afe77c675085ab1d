package chart

import (
	"cmp"
	"math"
	"slices"
)

// Reference labels never cover data. Each label has candidate positions
// inside the plot, beside its line, tried in order against the drawn
// lines, points and bars and the labels placed before it. A label free
// nowhere inside goes outside the plot: a horizontal line's to the right
// of the plot at the line's height, a vertical line's above the plot over
// the line. The chart is then laid out once more with room for them
// (spill), so nothing needs to be cut or moved onto the data.

// area is an axis-aligned rectangle in pixels.
type area struct{ x0, y0, x1, y1 float64 }

func (b area) overlaps(o area) bool {
	return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1
}

func (b area) contains(x, y float64) bool {
	return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1
}

// crosses reports whether the segment (x0,y0)-(x1,y1) passes through b
// (Liang–Barsky clipping).
func (b area) crosses(x0, y0, x1, y1 float64) bool {
	if b.contains(x0, y0) || b.contains(x1, y1) {
		return true
	}
	dx, dy := x1-x0, y1-y0
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, x0 - b.x0}, {dx, b.x1 - x0}, {-dy, y0 - b.y0}, {dy, b.y1 - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// obstacles is what labels must not cover.
type obstacles struct {
	segs   [][4]float64
	boxes  []area
	placed int // labels placed with care so far
}

func (o *obstacles) free(b area) bool {
	for _, s := range o.segs {
		if b.crosses(s[0], s[1], s[2], s[3]) {
			return false
		}
	}
	for _, ob := range o.boxes {
		if b.overlaps(ob) {
			return false
		}
	}
	return true
}

// label is a candidate position: the anchor of the first line's baseline
// and its alignment.
type label struct {
	x, y   float64 // baseline anchor of the first line
	anchor string  // "" (start), "middle" or "end"
}

// noteText is a reference label's text, wrapped.
type noteText struct {
	lines []string
	w     float64 // widest line
}

func newNote(s string, maxW float64) noteText {
	lines := wrapLines(cleanText(s), sizeNote, math.Max(maxW, 40), false)
	return noteText{lines: lines, w: widest(lines, sizeNote, false)}
}

// height is the height of the note's lines from the first's cap height
// to the last's descenders.
func (n noteText) height() float64 {
	return sizeNote*capHeight + float64(max(len(n.lines), 1)-1)*lineHeight(sizeNote) + sizeNote*0.25
}

// bounds is the box a note at l covers, padded by its backing.
func (l label) bounds(n noteText) area {
	x0 := l.x
	switch l.anchor {
	case "end":
		x0 -= n.w
	case "middle":
		x0 -= n.w / 2
	}
	top := l.y - sizeNote*capHeight
	return area{x0 - 3, top - 3, x0 + n.w + 3, top + n.height() + 3}
}

// maxObstacles bounds the work of placing labels: about this many line
// segments, and this many labels placed with care (the rest go outside
// the plot).
const maxObstacles = 20000

const maxPlaced = 50

// place draws n at the first candidate free of obstacles (and of labels
// placed before it, which become obstacles) and reports whether one was;
// if none was, it draws nothing.
func place(r *svgRenderer, o *obstacles, n noteText, cands []label) bool {
	if len(n.lines) == 0 {
		return true
	}
	if o.placed >= maxPlaced {
		return false
	}
	o.placed++
	for _, c := range cands {
		if b := c.bounds(n); o.free(b) {
			drawNote(r, o, n, c)
			return true
		}
	}
	return false
}

// drawNote draws n at l on a white backing and makes it an obstacle.
func drawNote(r *svgRenderer, o *obstacles, n noteText, l label) {
	b := l.bounds(n)
	o.boxes = append(o.boxes, b)
	r.raw(`<rect x="`)
	r.b = appendFloat(r.b, b.x0)
	r.raw(`" y="`)
	r.b = appendFloat(r.b, b.y0)
	r.raw(`" width="`)
	r.b = appendFloat(r.b, b.x1-b.x0)
	r.raw(`" height="`)
	r.b = appendFloat(r.b, b.y1-b.y0)
	r.raw(`" rx="3" fill="#fff" fill-opacity="0.85"/>`)
	textLines(r, l.x, l.y, n.lines, textStyle{size: sizeNote, color: colMuted, anchor: l.anchor})
}

// box4 is the square of half-width d around (x, y).
func box4(x, y, d float64) area { return area{x - d, y - d, x + d, y + d} }

// spill is the room a chart keeps outside its plot for reference labels
// that fit nowhere inside it.
type spill struct {
	right float64 // width to the right of the plot, for labels of horizontal lines
	top   float64 // height above the plot, for labels of vertical lines
	tall  float64 // the least height of the plot, for the labels on its right
}

// grow returns the spill that holds both s and o.
func (s spill) grow(o spill) spill {
	return spill{right: math.Max(s.right, o.right), top: math.Max(s.top, o.top), tall: math.Max(s.tall, o.tall)}
}

// holds reports whether s has the room o asks for.
func (s spill) holds(o spill) bool {
	return o.right <= s.right && o.top <= s.top && o.tall <= s.tall
}

// outside collects the labels that found no room inside the plot, to be
// drawn in the spill.
type outside struct {
	right []pending // labels of horizontal lines, at the line's height
	top   []pending // labels of vertical lines, at the line's x
}

type pending struct {
	text string
	at   float64 // the line's y (right) or x (top), in pixels
}

// room is the spill that the labels left outside need, to lay the chart
// out again with.
func (o outside) room(w float64) spill {
	var s spill
	for _, p := range o.right {
		n := newNote(p.text, spillWidth(w))
		s.right = math.Max(s.right, n.w+12)
	}
	// Stacked as drawRight stacks them, at the width it wraps them to.
	for _, p := range o.right {
		s.tall += newNote(p.text, s.right-12).height() + 4
	}
	if len(o.top) > 0 {
		s.top = topSpillHeight(o.top, w)
	}
	return s
}

// spillWidth is the widest a label to the right of the plot may be.
func spillWidth(w float64) float64 { return math.Max(60, math.Min(220, 0.3*w)) }

// topSpillHeight is the height the labels above the plot take when laid
// out in rows by drawTop.
func topSpillHeight(ps []pending, w float64) float64 {
	return drawTop(nil, ps, 0, w)
}

// drawRight draws the labels of horizontal lines to the right of the
// plot (x0 is the plot's right edge, the spill s.right wide), each at its
// line's height, moved down where it would overlap the one above and
// kept between top and bottom.
func drawRight(r *svgRenderer, ps []pending, x0, width, top, bottom float64) {
	slices.SortStableFunc(ps, func(a, b pending) int { return cmp.Compare(a.at, b.at) })
	y := top
	var o obstacles
	for _, p := range ps {
		n := newNote(p.text, width-12)
		first := math.Max(p.at+sizeNote*capHeight/2, y+sizeNote*capHeight+3)
		first = math.Min(first, bottom-n.height()+sizeNote*capHeight)
		l := label{x: x0 + 9, y: first}
		drawNote(r, &o, n, l)
		r.line(x0+1, p.at, x0+6, p.at, colRef, 1.25, "")
		y = l.bounds(n).y1 + 1
	}
}

// drawTop draws (r not nil) or measures the labels of vertical lines
// above the plot, the first row's top at y0: each centred over its line
// where the chart's width w allows, in rows, a label going to the first
// row where it overlaps no other. It returns the height the rows take.
func drawTop(r *svgRenderer, ps []pending, y0, w float64) float64 {
	type placed struct {
		n   noteText
		x   float64
		row int
	}
	var rows [][]area
	var heights []float64
	var all []placed
	for _, p := range ps {
		n := newNote(p.text, math.Min(0.45*w, 260))
		x := math.Max(margin+n.w/2+3, math.Min(w-margin-n.w/2-3, p.at))
		span := area{x - n.w/2 - 3, 0, x + n.w/2 + 3, 1}
		row := 0
		for row < len(rows) && slices.ContainsFunc(rows[row], span.overlaps) {
			row++
		}
		if row == len(rows) {
			rows, heights = append(rows, nil), append(heights, 0)
		}
		rows[row] = append(rows[row], span)
		heights[row] = math.Max(heights[row], n.height()+8)
		all = append(all, placed{n, x, row})
	}
	tops := make([]float64, len(rows)+1)
	for k, h := range heights {
		tops[k+1] = tops[k] + h
	}
	if r != nil {
		var o obstacles
		for _, p := range all {
			drawNote(r, &o, p.n, label{x: p.x, y: y0 + tops[p.row] + 3 + sizeNote*capHeight, anchor: "middle"})
		}
	}
	return tops[len(rows)]
}
