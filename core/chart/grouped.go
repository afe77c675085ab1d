package chart

import (
	"math"
	"strconv"
	"strings"
)

// groupSeries is one series of a Grouped chart after cleaning, for the
// legend and the description.
type groupSeries struct {
	name  string // full text; "Series i" if none was given
	count int    // groups with a bar
	ye    extent // of its values
}

// SVG renders the chart as a standalone SVG document. It returns an error
// only if go-chart fails despite the input guards; any input renders.
func (c Grouped) SVG() (out []byte, err error) {
	defer recovered(&err)
	return c.render(), nil
}

func (c Grouped) render() []byte {
	n, per := len(c.Groups), len(c.Series)
	p := barPlot{
		title:  cleanText(c.Title),
		xLabel: cleanText(c.XLabel),
		yLabel: cleanText(c.YLabel),
		cats:   make([]string, n),
		bars:   make([][]barData, n),
		per:    per,
		series: make([]string, per),
		yRange: c.YRange,
		refs:   c.Refs,
	}
	for i, g := range c.Groups {
		p.cats[i] = cleanText(g)
	}
	byGroup := len(c.GroupStyles) > 0
	series := make([]groupSeries, per)
	all := make([]barData, n*per)
	for k, s := range c.Series {
		d := &series[k]
		d.name = cleanText(s.Name)
		if d.name == "" {
			d.name = "Series " + strconv.Itoa(k+1)
		}
		p.series[k] = d.name
		own := styleOr(s.Style, k)
		for i := 0; i < n; i++ {
			b := barData{value: math.NaN(), lo: math.NaN(), hi: math.NaN(), style: own, key: cleanText(s.Key)}
			if byGroup {
				b.style = styleOr(styleAt(c.GroupStyles, i), i)
				b.style.Open = own.Open
				b.key = cleanText(atStr(c.GroupKeys, i))
			}
			if i < len(s.Values) {
				lo, hi := math.NaN(), math.NaN()
				if i < len(s.Lo) && i < len(s.Hi) {
					lo, hi = s.Lo[i], s.Hi[i]
				}
				b.value, b.lo, b.hi, b.ok = cleanBar(s.Values[i], lo, hi, &p.ye)
			}
			if b.ok {
				d.count++
				d.ye.add(b.value)
			}
			all[i*per+k] = b
		}
	}
	for i := range p.bars {
		p.bars[i] = all[i*per : (i+1)*per : (i+1)*per]
	}
	if per > 1 || (per == 1 && cleanText(c.Series[0].Name) != "") {
		p.legend = make([]legendItem, per)
		for k, s := range c.Series {
			st := styleOr(s.Style, k)
			it := legendItem{text: series[k].name, key: cleanText(s.Key), style: st, bar: true, glyph: st.markerIndex() > 0}
			if byGroup { // the groups carry the colours; a series is told by its fill
				it = legendItem{text: series[k].name, style: Style{Color: Neutral, Open: st.Open}, bar: true}
			}
			p.legend[k] = it
		}
	}

	p.id = cleanID(c.ID)
	if p.id == "" {
		p.id = c.hash()
	}
	a11yTitle := p.title
	if a11yTitle == "" {
		a11yTitle = "Grouped bar chart"
	}
	desc := joinDesc(c.Description, c.summary(&p, series))
	return p.svg(c.Width, c.Height, a11yTitle, desc)
}

// styleAt returns xs[i], or nil past its end.
func styleAt(xs []*Style, i int) *Style {
	if i < len(xs) {
		return xs[i]
	}
	return nil
}

// atStr returns xs[i], or "" past its end.
func atStr(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return ""
}

func (c Grouped) hash() string {
	h := newHasher("grouped")
	h.str(c.Title)
	h.str(c.Description)
	h.str(c.XLabel)
	h.str(c.YLabel)
	h.int(len(c.Groups))
	for _, g := range c.Groups {
		h.str(g)
	}
	h.int(len(c.Series))
	for _, s := range c.Series {
		h.str(s.Name)
		h.f64s(s.Values)
		h.f64s(s.Lo)
		h.f64s(s.Hi)
		h.str(s.Key)
		h.style(s.Style)
	}
	h.int(len(c.GroupStyles))
	for i, st := range c.GroupStyles {
		h.str(atStr(c.GroupKeys, i))
		h.style(st)
	}
	h.rng(c.YRange)
	h.int(len(c.Refs))
	for _, rf := range c.Refs {
		h.f64(rf.Y)
		h.str(rf.Label)
	}
	h.int(c.Width)
	h.int(c.Height)
	return h.id()
}

// summary describes the chart: its groups and series, the range of each
// series, then the values group by group (the first summaryLimit groups
// and series), so that a screen reader gets the data the picture shows.
func (c Grouped) summary(p *barPlot, series []groupSeries) string {
	var s summary
	groups := plural(len(p.cats), "group", "groups")
	switch len(series) {
	case 0:
		s.add("Grouped bar chart with %s and no series.", groups)
	case 1:
		s.add("Grouped bar chart with %s of 1 bar.", groups)
	default:
		s.add("Grouped bar chart with %s of %d bars.", groups, len(series))
	}
	if !p.ye.ok {
		s.add("There is no data to show.")
		return s.String()
	}
	if p.xLabel != "" {
		s.add("Groups: %s.", p.xLabel)
	}
	if p.yLabel != "" {
		s.add("Vertical axis: %s.", p.yLabel)
	}
	if lo, hi, ok := fixedYRange(c.YRange); ok {
		s.add("The vertical axis runs from %s to %s.", fmtNum(lo), fmtNum(hi))
	}
	name := func(k int) string { return series[k].name }
	shown := min(len(series), summaryLimit)
	for k, d := range series[:shown] {
		switch {
		case d.count == 0:
			s.add("%s: no values.", name(k))
		case d.ye.lo == d.ye.hi:
			s.add("%s: %s in %d of %s.", name(k), fmtNum(d.ye.lo), d.count, groups)
		default:
			s.add("%s: values from %s to %s in %d of %s.", name(k), fmtNum(d.ye.lo), fmtNum(d.ye.hi), d.count, groups)
		}
	}
	if len(series) > shown {
		s.add("And %d more series.", len(series)-shown)
	}
	var b strings.Builder
	for i, cat := range p.bars {
		if i == summaryLimit {
			s.add("And %d more groups.", len(p.bars)-summaryLimit)
			break
		}
		label := p.cats[i]
		if label == "" {
			label = "Group " + strconv.Itoa(i+1)
		}
		b.Reset()
		b.WriteString(label)
		b.WriteString(": ")
		for k, v := range cat[:shown] {
			if k > 0 {
				b.WriteString("; ")
			}
			b.WriteString(name(k))
			b.WriteByte(' ')
			switch {
			case !v.ok:
				b.WriteString("no value")
			case math.IsNaN(v.lo):
				b.WriteString(fmtNum(v.value))
			default:
				b.WriteString(fmtNum(v.value) + ", interval " + fmtNum(v.lo) + " to " + fmtNum(v.hi))
			}
		}
		b.WriteByte('.')
		s.add("%s", b.String())
	}
	for _, rf := range c.Refs {
		if finite(rf.Y) {
			s.add("Horizontal line at y = %s: %s.", fmtNum(rf.Y), cleanText(rf.Label))
		}
	}
	return s.String()
}

// plural returns "1 group" or "n groups".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
