package chart

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// sampleLine is a realistic chart: six policies over 52 cycles with 95%
// bands, an oracle drawn dashed, a mark and a reference line. The values
// are made with integer arithmetic and one exact division each, so that
// they are bit-identical on every platform (math.Sin and friends are not:
// amd64 uses assembly where wasm uses Go).
func sampleLine() Line {
	names := []string{"Uniform", "Proportional", "Optimal (Cho & Garcia-Molina)", "Change-rate estimate", "Round robin", "Oracle"}
	c := Line{
		Title:       "Freshness per cycle",
		Description: "Mean freshness per cycle of 6 policies with 95% intervals across repeats.",
		XLabel:      "Cycle",
		YLabel:      "Freshness",
		YRange:      &Range{0, 1},
		Marks:       []Mark{{X: 7, Label: "√(N·r) = 7"}},
		Refs:        []Ref{{Y: 0.66, Label: "paper: 0.66"}},
	}
	for i, name := range names {
		s := Series{Name: name}
		if i == len(names)-1 {
			s.Style = &Style{Color: 5, Dash: 1, Open: true}
		}
		for k := 1; k <= 52; k++ {
			t := (k + 7*i) % 36
			wave := 500 - 1000*min(t, 36-t)/18 // triangle wave, -500..500
			m := (350 + 80*i + wave/5) * k / (k + 3)
			if i == len(names)-1 {
				m = 900 - 900/(k+1)/2
			}
			half := 25 + 4*(k%5)
			s.X = append(s.X, float64(k))
			s.Y = append(s.Y, float64(m)/1000)
			s.Lo = append(s.Lo, float64(m-half)/1000)
			s.Hi = append(s.Hi, float64(m+half)/1000)
		}
		c.Series = append(c.Series, s)
	}
	return c
}

func sampleBars() Bars {
	return Bars{
		Title:       "Freshness by policy",
		Description: "Mean freshness of 6 policies, averaged over cycles, with 95% intervals across repeats.",
		YLabel:      "Freshness",
		YRange:      &Range{0, 1},
		Refs:        []Ref{{Y: 0.66, Label: "paper: 0.66"}},
		Bars: []Bar{
			{Label: "Uniform", Value: 0.52, Lo: 0.49, Hi: 0.55},
			{Label: "Proportional", Value: 0.44, Lo: 0.41, Hi: 0.47},
			{Label: "Optimal (Cho & Garcia-Molina)", Value: 0.63, Lo: 0.6, Hi: 0.66},
			{Label: "Change-rate estimate", Value: 0.58, Lo: 0.55, Hi: 0.61},
			{Label: "Round robin", Value: 0.51, Lo: math.NaN(), Hi: math.NaN()},
			{Label: "Oracle", Value: 0.81, Lo: 0.79, Hi: 0.83, Style: &Style{Color: 3, Dash: 3, Open: true}},
		},
	}
}

// sampleGrouped compares estimated with real change rates per site: the
// truth (hatched) and two policies' estimates with 95% intervals. Values
// are exact decimal fractions, so that they are the same on every platform.
func sampleGrouped() Grouped {
	sites := []string{"news.example.org", "blog.example.com", "shop.example.net", "wiki.example.org",
		"forum.example.com", "docs.example.io", "mail.example.org", "static.example-cdn.com", "weather.example.gov"}
	truth := []int{420, 85, 230, 610, 150, 40, 300, 10, 930}
	c := Grouped{
		Title:       "Estimated vs real change rate per site",
		Description: "Change rate per site: the truth, and the estimates of two sampling policies with 95% intervals.",
		XLabel:      "Site",
		YLabel:      "Changes per day",
		Groups:      sites,
		Refs:        []Ref{{Y: 0.5, Label: "mean rate: 0.5"}},
	}
	real := GroupSeries{Name: "Truth", Style: &Reference}
	for _, v := range truth {
		real.Values = append(real.Values, float64(v)/1000)
	}
	c.Series = append(c.Series, real)
	for e, name := range []string{"Naive estimate (changes seen / visits)", "Poisson estimate (Cho & Garcia-Molina)"} {
		s := GroupSeries{Name: name}
		for i, v := range truth {
			est := v * (70 + 9*e + (i*37+e*11)%45) / 100
			if e == 0 {
				est = min(est, 500) // the naive estimate saturates at one change per visit
			}
			half := 20 + (i*13+e*7)%40 + est/8
			s.Values = append(s.Values, float64(est)/1000)
			s.Lo = append(s.Lo, float64(max(est-half, 0))/1000)
			s.Hi = append(s.Hi, float64(est+half)/1000)
		}
		c.Series = append(c.Series, s)
	}
	c.Series[2].Values[7] = math.NaN() // no estimate: the site never changed while sampled
	return c
}

// sampleGroupedBudgets is ChangeRatio of six feature sets at three budgets.
func sampleGroupedBudgets() Grouped {
	c := Grouped{
		Title:  "ChangeRatio by feature set and budget",
		XLabel: "Budget (downloads per cycle, % of sites)",
		YLabel: "ChangeRatio",
		Groups: []string{"5%", "10%", "20%"},
		YRange: &Range{0, 1},
		Refs:   []Ref{{Y: 0.66, Label: "paper: 0.66"}},
	}
	names := []string{"Static", "Static + dynamic", "Content", "Content + links", "All features", "Upper bound"}
	for k, name := range names {
		s := GroupSeries{Name: name}
		if k == len(names)-1 {
			s.Style = &Style{Color: 3, Dash: 3, Open: true}
		}
		for b := range c.Groups {
			v := 180 + 70*k + 110*b + (k*b*17)%40
			if k == len(names)-1 {
				v = 620 + 130*b
			}
			half := 30 - 4*b + k%3*5
			s.Values = append(s.Values, float64(v)/1000)
			s.Lo = append(s.Lo, float64(v-half)/1000)
			s.Hi = append(s.Hi, float64(v+half)/1000)
		}
		c.Series = append(c.Series, s)
	}
	c.Series[5].Lo, c.Series[5].Hi = nil, nil // the bound is exact
	return c
}

// TestPreview writes sample charts to $CHART_PREVIEW_DIR, to look at them
// in a browser. It does nothing when the variable is unset.
func TestPreview(t *testing.T) {
	dir := os.Getenv("CHART_PREVIEW_DIR")
	if dir == "" {
		t.Skip("set CHART_PREVIEW_DIR to write preview SVGs")
	}
	many := Bars{Title: "Many bars with long labels", YLabel: "Value"}
	for i := 0; i < 24; i++ {
		many.Bars = append(many.Bars, Bar{Label: "Policy number " + string(rune('A'+i)) + " with a long name", Value: float64(i%7) - 2.5, Lo: math.NaN(), Hi: math.NaN()})
	}
	sweep := Line{Title: "Freshness against budget", XLabel: "Downloads per cycle (budget)", YLabel: "Freshness", YRange: &Range{0, 1}}
	for i := 0; i < 3; i++ {
		s := Series{Name: []string{"Uniform", "Proportional", "Oracle"}[i]}
		for _, b := range []float64{5, 10, 20, 50, 100} {
			v := 1 - math.Exp(-b/(30+10*float64(i)))
			s.X, s.Y = append(s.X, b), append(s.Y, v)
			s.Lo, s.Hi = append(s.Lo, v-0.04), append(s.Hi, v+0.04)
		}
		sweep.Series = append(sweep.Series, s)
	}
	charts := map[string]interface{ SVG() ([]byte, error) }{
		"line":            sampleLine(),
		"bars":            sampleBars(),
		"empty":           Line{Title: "Freshness per cycle", XLabel: "Cycle", YLabel: "Freshness"},
		"single":          Line{Title: "A single point", XLabel: "Cycle", YLabel: "Freshness", Series: []Series{{Name: "Uniform", X: []float64{3}, Y: []float64{0.4}, Lo: []float64{0.3}, Hi: []float64{0.5}}}},
		"gaps":            Line{Title: "Gaps, negatives and a constant", XLabel: "x", YLabel: "y", Series: []Series{{Name: "with gaps", X: []float64{5, 1, 2, 3, 4, 6, 7, 8}, Y: []float64{2, -1, math.NaN(), 3, 1.5, math.Inf(1), 2, -0.5}}, {Name: "constant", X: []float64{1, 8}, Y: []float64{1, 1}}}},
		"many":            many,
		"sweep":           sweep,
		"grouped-sites":   sampleGrouped(),
		"grouped-budgets": sampleGroupedBudgets(),
		"escape":          Line{Title: `<script>alert(1)</script> & "quotes"`, YLabel: "a < b", Series: []Series{{Name: "A & B", X: []float64{0, 1}, Y: []float64{1e300, -1e300}}}},
	}
	for name, c := range charts {
		b, err := c.SVG()
		if err != nil {
			t.Fatal(name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "chart-"+name+".svg"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
