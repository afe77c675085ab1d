package chart

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// values decodes fuzz bytes into floats. Each value starts with a tag byte
// whose low three bits pick a special value, a small integer, or the raw
// float64 in the next eight bytes, so that the fuzzer reaches NaN, ±Inf,
// zero and huge values easily.
func values(data []byte) []float64 {
	var out []float64
	for len(data) > 0 {
		tag := data[0]
		data = data[1:]
		switch tag & 7 {
		case 0:
			out = append(out, math.NaN())
		case 1:
			out = append(out, math.Inf(1))
		case 2:
			out = append(out, math.Inf(-1))
		case 3:
			out = append(out, 0)
		case 4:
			out = append(out, []float64{1e300, -1e300, math.MaxFloat64, 5e-324, 1e-300, -math.MaxFloat64, 1e15, 0.5}[tag>>5])
		case 5:
			out = append(out, float64(int(tag>>3)-16))
		default:
			if len(data) < 8 {
				return out
			}
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
	}
	return out
}

// raw encodes floats for the seed corpus.
func raw(vs ...float64) []byte {
	var b []byte
	for _, v := range vs {
		b = append(b, 6)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func seeds(f *testing.F) {
	f.Add("Title", "Series", raw(), 0.0, 1.0, 0, 0, uint8(0))
	f.Add("", "", raw(math.NaN(), math.NaN()), math.NaN(), math.Inf(1), -1, -1, uint8(255))
	f.Add("<script>", "A & B", raw(1, 2, 3, 4, 5, 6, 7, 8), 0.0, 1.0, 720, 360, uint8(8))
	f.Add("Inf", "x", raw(math.Inf(1), math.Inf(-1), 1, math.NaN()), 1.0, 1.0, 1, 1, uint8(1))
	f.Add("huge", "h", raw(-math.MaxFloat64, math.MaxFloat64, 1e300, -1e300, 5e-324, 1e-300), -1e308, 1e308, 8000, 8000, uint8(2))
	f.Add("one", "p", raw(3, 0.4, 0.3, 0.5), 0.0, 0.0, 300, 200, uint8(12))
	f.Add("tags", "t", []byte{0, 1, 2, 3, 4, 5, 6, 7, 12, 36, 68, 100, 132, 164, 196, 228, 13, 21, 29}, 0.0, 1.0, 0, 0, uint8(3))
}

// FuzzLineSVG checks that any input renders without panicking to
// well-formed, accessible SVG.
func FuzzLineSVG(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, title, name string, data []byte, ymin, ymax float64, w, h int, flags uint8) {
		vs := values(data)
		n := 1 + int(flags%3)
		c := Line{Title: title, XLabel: name, YLabel: title, Width: w % 2000, Height: h % 2000, Series: make([]Series, n)}
		for i := range c.Series {
			c.Series[i].Name = name
			c.Series[i].Style = ifStyle(flags&(16<<i) != 0)
		}
		for i, v := range vs {
			s := &c.Series[i%n]
			switch (i / n) % 4 {
			case 0:
				s.X = append(s.X, v)
			case 1:
				s.Y = append(s.Y, v)
			case 2:
				s.Lo = append(s.Lo, v)
			default:
				s.Hi = append(s.Hi, v)
			}
		}
		if flags&8 != 0 {
			c.YRange = &Range{ymin, ymax}
		}
		if flags&4 != 0 && len(vs) > 0 {
			c.Marks = []Mark{{vs[0], name, flags&8 != 0}}
			c.Refs = []Ref{{vs[len(vs)-1], title}}
		}
		b, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		check(t, b)
	})
}

// FuzzBarsSVG checks that any input renders without panicking to
// well-formed, accessible SVG.
func FuzzBarsSVG(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, title, name string, data []byte, ymin, ymax float64, w, h int, flags uint8) {
		vs := values(data)
		c := Bars{Title: title, YLabel: name, Width: w % 2000, Height: h % 2000}
		for i := 0; i+2 < len(vs) || (i == 0 && len(vs) > 0); i += 3 {
			b := Bar{Label: name, Value: vs[i], Lo: math.NaN(), Hi: math.NaN(), Style: ifStyle(flags&(1<<(i%8)) != 0)}
			if i+2 < len(vs) {
				b.Lo, b.Hi = vs[i+1], vs[i+2]
			}
			c.Bars = append(c.Bars, b)
		}
		if flags&8 != 0 {
			c.YRange = &Range{ymin, ymax}
		}
		if flags&4 != 0 && len(vs) > 0 {
			c.Refs = []Ref{{vs[len(vs)-1], title}}
		}
		b, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		check(t, b)
	})
}

// FuzzGroupedSVG checks that any input renders without panicking to
// well-formed, accessible SVG with every bar inside its group's slot.
// The flags pick 1–4 series (bits 0–1), reference lines (4), a fixed y
// range (8), values only rather than value, low, high triples (16), a
// group more (32) or fewer (64) than the values fill, and hatching (128).
func FuzzGroupedSVG(f *testing.F) {
	seeds(f)
	f.Add("Estimated vs real change rate", "news.example.org",
		raw(0.42, 0.294, 0.378, 0.5, 0.238, 0.304, 0.9, 0.35, 0.452, 0.085, 0.09, 0.069, nan, 0.046, 0.021, 0.12, 0.134, 0.117),
		0.0, 1.0, 720, 360, uint8(2|4|128))
	f.Add("300 groups", "g", bytes.Repeat([]byte{13, 21, 29, 5, 45, 3}, 100), 0.0, 0.0, 0, 0, uint8(1|16))
	f.Add("mismatch", "<&>", raw(1, 2, 3, 4, 5, 6, 7), -1.0, 1.0, 300, 200, uint8(1|8|32|64))
	f.Fuzz(func(t *testing.T, title, name string, data []byte, ymin, ymax float64, w, h int, flags uint8) {
		vs := values(data)
		ns, fields := 1+int(flags&3), 3
		if flags&16 != 0 {
			fields = 1
		}
		c := Grouped{Title: title, XLabel: name, YLabel: title, Width: w % 2000, Height: h % 2000, Series: make([]GroupSeries, ns)}
		for k := range c.Series {
			c.Series[k].Name = name
			c.Series[k].Style = ifStyle(flags&128 != 0 && k%2 == 0)
		}
		for i, v := range vs {
			s := &c.Series[i%ns]
			switch (i / ns) % fields {
			case 0:
				s.Values = append(s.Values, v)
			case 1:
				s.Lo = append(s.Lo, v)
			default:
				s.Hi = append(s.Hi, v)
			}
		}
		ng := len(c.Series[0].Values)
		if flags&32 != 0 {
			ng++
		}
		if flags&64 != 0 && ng > 0 {
			ng--
		}
		for i := 0; i < ng; i++ {
			c.Groups = append(c.Groups, name+strconv.Itoa(i))
		}
		if flags&8 != 0 {
			c.YRange = &Range{ymin, ymax}
		}
		if flags&4 != 0 && len(vs) > 0 {
			c.Refs = []Ref{{vs[len(vs)-1], title}}
		}
		b, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		root := check(t, b)
		if !hasText(root, "No data") {
			checkGroupedLayout(t, c, root)
		}
	})
}

// FuzzForestSVG checks that any input renders without panicking to
// well-formed, accessible SVG.
func FuzzForestSVG(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, title, name string, data []byte, xmin, xmax float64, w, h int, flags uint8) {
		vs := values(data)
		c := Forest{Title: title, XLabel: name, Width: w % 2000}
		for i := 0; i+2 < len(vs) || (i == 0 && len(vs) > 0); i += 3 {
			r := ForestRow{Label: name, Value: vs[i], Lo: math.NaN(), Hi: math.NaN(), Style: ifStyle(flags&(1<<(i%8)) != 0), Bold: i == 0, Note: title}
			if i+2 < len(vs) {
				r.Lo, r.Hi = vs[i+1], vs[i+2]
			}
			c.Rows = append(c.Rows, r)
		}
		if flags&8 != 0 {
			c.XRange = &Range{xmin, xmax}
		}
		if flags&4 != 0 && len(vs) > 0 {
			c.Ref = &ForestRef{X: vs[len(vs)-1], Label: title}
		}
		b, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		check(t, b)
	})
}

// ifStyle returns an open (oracle) style when on, else nil: the
// sequence's by position.
func ifStyle(on bool) *Style {
	if on {
		return &Style{Color: 3, Dash: 3, Marker: 2, Open: true}
	}
	return nil
}
