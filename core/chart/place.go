package chart

// Reference labels are placed where they cover no data if possible: each
// label has a few candidate positions, tried in order against the drawn
// lines and bars. A label that fits nowhere takes its first position; its
// white backing keeps it readable.

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

// obstacles is what labels should not cover.
type obstacles struct {
	segs   [][4]float64
	boxes  []area
	placed int // labels placed so far
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

// label is a candidate position: the text's anchor point and alignment.
type label struct {
	x, y   float64 // baseline anchor
	anchor string  // "" (start) or "end"
}

// bounds is the box a label of width w covers, padded by its backing.
func (l label) bounds(w, size float64) area {
	x0 := l.x
	if l.anchor == "end" {
		x0 -= w
	}
	return area{x0 - 3, l.y - size*capHeight - 3, x0 + w + 3, l.y + 3}
}

// maxObstacles bounds the work of placing labels: about this many line
// segments, and this many labels placed with care (the rest take their
// first position).
const maxObstacles = 20000

const maxPlaced = 50

// place draws text at the first candidate that is free of obstacles (and
// of labels placed before it, which are added as obstacles).
func place(r *svgRenderer, o *obstacles, text string, size float64, cands []label) {
	if text == "" || len(cands) == 0 {
		return
	}
	w := textWidth(text, size, false)
	at := cands[0]
	for _, c := range cands {
		if o.placed >= maxPlaced {
			break
		}
		if o.free(c.bounds(w, size)) {
			at = c
			break
		}
	}
	o.placed++
	b := at.bounds(w, size)
	o.boxes = append(o.boxes, b)
	r.b = append(r.b, `<rect x="`...)
	r.b = appendFloat(r.b, b.x0)
	r.b = append(r.b, `" y="`...)
	r.b = appendFloat(r.b, b.y0)
	r.b = append(r.b, `" width="`...)
	r.b = appendFloat(r.b, b.x1-b.x0)
	r.b = append(r.b, `" height="`...)
	r.b = appendFloat(r.b, b.y1-b.y0)
	r.b = append(r.b, `" rx="3" fill="#fff" fill-opacity="0.85"/>`...)
	r.text(at.x, at.y, text, textStyle{size: size, color: colMuted, anchor: at.anchor})
}

// box4 is the square of half-width d around (x, y).
func box4(x, y, d float64) area { return area{x - d, y - d, x + d, y + d} }
