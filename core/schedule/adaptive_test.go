package schedule

import (
	"fmt"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/param"
)

// TestRuleSteps follows each rule by hand through a few visits.
func TestRuleSteps(t *testing.T) {
	type visit struct {
		now     float64
		changed bool
		next    float64 // expected time of the next sync
		iv      float64 // expected interval after the visit
	}
	cases := []struct {
		name   string
		rule   Rule
		visits []visit
	}{
		{"nutch", NutchDefault, []visit{
			// changed at 30: I = 30·0.8 = 24, Modified = 30, next 54.
			{30, true, 54, 24},
			// unchanged at 54: I = 24·1.4 = 33.6; delta = 24 < I; next =
			// 54 − 0.3·24 + 33.6 = 80.4.
			{54, false, 80.4, 33.6},
			// unchanged at 80.4: I = 47.04; delta = 50.4 > I, so I = 50.4;
			// next = 80.4 − 15.12 + 50.4 = 115.68.
			{80.4, false, 115.68, 50.4},
		}},
		{"nutch without SYNC_DELTA", Nutch{IncRate: 0.4, DecRate: 0.2, Min: 60 * Second, Max: 365, Initial: 30, MaxFetch: 90}, []visit{
			{30, true, 54, 24}, {54, false, 87.6, 33.6}, {87.6, false, 134.64, 47.04},
		}},
		{"nutch at its maximum", Nutch{IncRate: 0.4, DecRate: 0.2, Min: 1, Max: 40, Initial: 30, MaxFetch: 90}, []visit{
			{30, false, 70, 40},
		}},
		{"heritrix", HeritrixDefault, []visit{
			{1, true, 1 + 1/1.5, 1 / 1.5}, {1 + 1/1.5, false, 2 + 1/1.5, 1},
		}},
		{"heritrix at its minimum", HeritrixDefault, []visit{
			{1, true, 1 + 1/1.5, 1 / 1.5}, {2, true, 2 + 1/2.25, 1 / 2.25}, {3, true, 3 + 1/3.375, 1 / 3.375},
			{4, true, 4 + 1/5.0625, 1 / 5.0625}, {5, true, 5 + 1/7.59375, 1 / 7.59375},
			{6, true, 6 + 1/11.390625, 1 / 11.390625}, {7, true, 7 + 1/17.0859375, 1 / 17.0859375},
			{8, true, 8 + 1/24.0, 1 / 24.0}, // 1/25.6 < 1 hour: clamped
		}},
		{"stormcrawler", StormCrawlerDefault, []visit{
			// changed: I = 0.5·1 + 0.5/24 days.
			{1, true, 1.5 + 1.0/48, 0.5 + 1.0/48},
			// unchanged: ×1.5.
			{2, false, 2 + 1.5*(0.5+1.0/48), 1.5 * (0.5 + 1.0/48)},
		}},
	}
	for _, c := range cases {
		s, _ := c.rule.Start()
		for _, v := range c.visits {
			next := c.rule.Next(&s, v.now, v.changed)
			if math.Abs(next-v.next) > 1e-12 || math.Abs(s.Interval-v.iv) > 1e-12 {
				t.Errorf("%s, visit at %v (changed %v): next %v, interval %v; want %v, %v", c.name, v.now, v.changed, next, s.Interval, v.next, v.iv)
			}
		}
	}
	// Nutch's forced re-fetch: an update that leaves the interval above
	// db.fetch.interval.max (90 days) cuts it to 81 days and clears the
	// signature, so the next visit, changed or not, adapts nothing.
	s := PageState{Interval: 80}
	// unchanged at 80: I = 112 > 90; delta = 80; next = 80 − 24 + 112 =
	// 168; forced: I = 81.
	if next := NutchDefault.Next(&s, 80, false); math.Abs(next-168) > 1e-12 || s != (PageState{Interval: 81, Forced: true}) {
		t.Errorf("nutch past 90 days: next %v, state %+v; want 168, interval 81, forced", next, s)
	}
	// changed at 168, but nothing to compare: I stays 81, Modified = 168,
	// next = 249.
	if next := NutchDefault.Next(&s, 168, true); math.Abs(next-249) > 1e-12 || s != (PageState{Interval: 81, Modified: 168}) {
		t.Errorf("nutch after a forced re-fetch: next %v, state %+v; want 249, interval 81, modified 168", next, s)
	}
	// The pull-back: a fetch list made at now lists a page due more than
	// 90 days after now at now, and any other at its due time.
	for _, c := range []struct{ due, now, want float64 }{{193.5, 100, 100}, {190, 100, 190}, {50, 100, 50}} {
		if got := NutchDefault.Listed(c.due, c.now); got != c.want {
			t.Errorf("nutch: a page due at %v listed at %v by a list made at %v, want %v", c.due, got, c.now, c.want)
		}
	}
	// StormCrawler's maximum.
	s = PageState{Interval: 13}
	if StormCrawlerDefault.Next(&s, 0, false); s.Interval != 14 {
		t.Errorf("StormCrawler grew 13 days to %v, want the 14-day maximum", s.Interval)
	}
}

// TestNutchQuietPage follows a page that never changes under Nutch's
// defaults, as the simulator plays it, and checks it settles at gaps of 81
// and 89.1 days in turn, and that a simulation of such a page (or of one
// changing once in ten years) at the default run length finishes, having
// synced it as often as that says.
//
// By hand (days; I the interval, delta the time since Modified):
//
//	0      first fetch, no signature to compare: I = 30, next 30
//	30     unchanged: I = 42; delta = 30; next = 30 − 0.3·30 + 42 = 63
//	63     unchanged: I = 58.8 < delta = 63, so I = 63; next = 63 − 18.9 + 63 = 107.1
//	107.1  unchanged: I = 88.2 < delta, so I = 107.1; next = 107.1 − 32.13 + 107.1
//	       = 182.07; I > 90 forces a re-fetch: I = 81, signature cleared
//	182.07 nothing to compare: I stays 81, Modified = 182.07; next 263.07 (gap 81)
//	263.07 unchanged: I = 81·1.4 = 113.4 > delta = 81; next = 263.07 − 0.3·81 +
//	       113.4 = 352.17 (gap 113.4 − 24.3 = 89.1); I > 90 forces a re-fetch: I = 81
//
// and from then on the last two steps repeat: gaps 81, 89.1, 81, 89.1, …
// No next visit is more than 90 days ahead when it is set (74.97, 81 and
// 89.1 days), so the fetch list's pull-back never moves one. Without the
// forced re-fetch the interval would climb to 365 days and the visits pile
// up towards 365/0.3 days after the first fetch, each gap 0.7 times the
// one before: the simulation would never reach its end.
func TestNutchQuietPage(t *testing.T) {
	want := []float64{30, 63, 107.1, 182.07}
	for len(want) < 40 {
		gap := 81.0
		if len(want)%2 == 1 {
			gap = 89.1
		}
		want = append(want, want[len(want)-1]+gap)
	}
	a := NewAdaptive(NutchDefault, 1)
	now := a.First(0, nil)
	for k, w := range want {
		if math.Abs(now-w) > 1e-9 {
			t.Fatalf("visit %d at %v, want %v", k+1, now, w)
		}
		now = a.Next(0, now, false, nil)
	}
	// The simulator plays the same visits: over [365, 1365) it counts the
	// ones the hand computation puts there. ExpectedEvents counts every
	// visit from day 0, and bounds the work before it starts.
	cfg := Config{Rates: []float64{0}, Days: DefaultDays, Warmup: DefaultWarmup, Repeats: DefaultRepeats, Seed: 5}
	var measured, all int
	for _, w := range want {
		if w < cfg.Warmup+cfg.Days {
			all++
			if w >= cfg.Warmup {
				measured++
			}
		}
	}
	if w := ExpectedEvents(cfg, NewAdaptive(NutchDefault, 1)); w != float64(all*cfg.Repeats) {
		t.Fatalf("expected events %v, want %d visits × %d repeats", w, all, cfg.Repeats)
	}
	res, err := Simulate(cfg, NewAdaptive(NutchDefault, 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Mean.SyncsPerDay; math.Abs(got.Mean-float64(measured)/cfg.Days) > 1e-12 || got.SD > 1e-12 {
		t.Errorf("a quiet page synced %v ± %v a day, want %d visits in %v days", got.Mean, got.SD, measured, cfg.Days)
	}
	// One change in ten years: every visit after it is a quiet page's
	// again, so the run is bounded the same way.
	cfg.Rates = []float64{1.0 / 3650}
	if w := ExpectedEvents(cfg, NewAdaptive(NutchDefault, 1)); w > 2*float64(all*cfg.Repeats) {
		t.Fatalf("expected events %v for a page changing once in ten years", w)
	}
	if _, err := Simulate(cfg, NewAdaptive(NutchDefault, 1)); err != nil {
		t.Fatal(err)
	}
}

// settlingPoint returns the share p of visits that find a change at which
// a multiplicative rule (interval ×(1+inc) when unchanged, ×(1−dec) when
// changed) holds its interval steady: p·ln(1−dec) + (1−p)·ln(1+inc) = 0,
// so p = ln(1+inc)/(ln(1+inc) − ln(1−dec)). The log interval moves by
// ln(1+inc) or ln(1−dec) at each visit and stays bounded, so over n visits
// the moves sum to O(1) and the share of changed visits tends to p, as long
// as the clamps are not reached (TestAdaptiveSettles checks it). Nutch's
// SyncDelta adds moves of its own, so the default Nutch rule settles
// elsewhere (TestNutchSyncDelta). With p = 1 − e^{−λI}, the typical
// interval is I ≈ −ln(1−p)/λ: such a rule visits a page at a rate
// proportional to its change rate, Cho & Garcia-Molina's proportional
// policy.
func settlingPoint(inc, dec float64) float64 {
	up := math.Log1p(inc)
	return up / (up - math.Log1p(-dec))
}

// TestSettlingPoint checks the formula's values for the crawlers' factors:
// Nutch's 0.4/0.2, Heritrix's ×1.5/÷1.5 (dec = 1/3) and StormCrawler's
// 0.5/0.5 (ignoring its pull towards the minimum).
func TestSettlingPoint(t *testing.T) {
	for _, c := range []struct {
		name     string
		inc, dec float64
		want     string
	}{
		{"nutch", 0.4, 0.2, "0.601"},
		{"heritrix", 0.5, 1 - 1/1.5, "0.500"},
		{"stormcrawler", 0.5, 0.5, "0.369"},
	} {
		if got := fmt.Sprintf("%.3f", settlingPoint(c.inc, c.dec)); got != c.want {
			t.Errorf("%s: settling point %s, want %s", c.name, got, c.want)
		}
	}
}

// adaptiveRun simulates one page per rate under rule, 40 repeats of 1,500
// days after a year of warm-up (so each repeat starts from the rule's
// stationary regime, and the share of changed visits is unbiased).
func adaptiveRun(t *testing.T, rule Rule, rates []float64, seed uint64) *Result {
	t.Helper()
	res, err := Simulate(Config{Rates: rates, Days: 1500, Warmup: 365, Repeats: 40, Seed: seed, PerPage: true}, NewAdaptive(rule, len(rates)))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAdaptiveSettles checks the share of visits that find a change
// settles at settlingPoint for the multiplicative rules, with clamps out of
// reach (pages changing once a day). Tolerance 4.5 SE across repeats
// (P(|t₃₉| > 4.5) ≈ 6e-5 per check). StormCrawler's pull towards its
// minimum is removed (Min = 0) to make it multiplicative.
func TestAdaptiveSettles(t *testing.T) {
	nutch := NutchDefault
	nutch.SyncDelta = false
	storm := StormCrawlerDefault
	storm.Min = 0
	for _, c := range []struct {
		name     string
		rule     Rule
		inc, dec float64
	}{
		{"nutch without SYNC_DELTA", nutch, nutch.IncRate, nutch.DecRate},
		{"heritrix", HeritrixDefault, HeritrixDefault.UnchangedFactor - 1, 1 - 1/HeritrixDefault.ChangedFactor},
		{"stormcrawler, Min = 0", storm, storm.IncRate, storm.DecRate},
	} {
		res := adaptiveRun(t, c.rule, []float64{1}, 31)
		nearSE(t, c.name+": share of visits finding a change", res.Pages[0].ChangeRatio, settlingPoint(c.inc, c.dec), 4.5)
	}
}

// TestNutchSyncDelta checks what SYNC_DELTA does to the settling point:
// after quiet visits it raises the stored interval to the time since the
// last change seen, a move up on top of ×1.4, so fewer quiet visits balance
// each changed one and the share of changed visits settles above 0.601;
// and it pulls each next visit earlier, so the page is visited more.
func TestNutchSyncDelta(t *testing.T) {
	plain := NutchDefault
	plain.SyncDelta = false
	on := adaptiveRun(t, NutchDefault, []float64{1}, 32).Pages[0]
	off := adaptiveRun(t, plain, []float64{1}, 32).Pages[0]
	p := settlingPoint(NutchDefault.IncRate, NutchDefault.DecRate)
	se := on.ChangeRatio.SD / math.Sqrt(float64(on.ChangeRatio.N))
	if on.ChangeRatio.Mean < p+4.5*se {
		t.Errorf("with SYNC_DELTA the share of changed visits %v ± %v is not above %v", on.ChangeRatio.Mean, se, p)
	}
	t.Logf("nutch-default settles at p = %.4f ± %.4f (SE) and visits at %.3f·λ; without SYNC_DELTA p = %.4f, %.3f·λ",
		on.ChangeRatio.Mean, se, on.SyncsPerDay.Mean, off.ChangeRatio.Mean, off.SyncsPerDay.Mean)
}

// heritrixChain returns the long-run constants of a rule that multiplies
// the interval by c when a visit finds no change and divides it by c when
// it finds one, for a page whose first interval holds x0 expected changes,
// with no clamp in reach: the expected changes per interval over visits,
// κ = E[λI], and the share of visits that find a change.
//
// Derivation: λI lives on the lattice x_k = x0·c^k and moves up a step with
// probability e^{−x_k} (no change in the interval), down with 1 − e^{−x_k}:
// a birth–death chain, whose stationary distribution satisfies detailed
// balance, π_{k+1}/π_k = e^{−x_k}/(1 − e^{−x_{k+1}}). The long-run visit
// rate is 1/E_π[I] = λ/κ, proportional to λ; κ turns out not to depend on
// x0 (to 5 digits).
func heritrixChain(c, x0 float64) (kappa, pChange, lo, hi float64) {
	kMin := int(math.Floor(math.Log(1e-9/x0) / math.Log(c)))
	kMax := int(math.Ceil(math.Log(80/x0) / math.Log(c)))
	x := func(k int) float64 { return x0 * math.Pow(c, float64(k)) }
	logPi := []float64{0}
	for k := kMin + 1; k <= kMax; k++ {
		logPi = append(logPi, logPi[len(logPi)-1]-x(k-1)-math.Log(-math.Expm1(-x(k))))
	}
	top := math.Inf(-1)
	for _, l := range logPi {
		top = math.Max(top, l)
	}
	var z, ex, pc float64
	for i, l := range logPi {
		p := math.Exp(l - top)
		xk := x(kMin + i)
		z += p
		ex += p * xk
		pc += p * -math.Expm1(-xk)
	}
	return ex / z, pc / z, x(kMin), x(kMax)
}

// heritrixMassBelow returns the stationary mass of states with λI below
// xMin, where the rule's minimum would clamp (1 minus the mass below the
// maximum's λI is the mass the maximum would clamp).
func heritrixMassBelow(c, x0, xMin float64) float64 {
	kMin := int(math.Floor(math.Log(1e-9/x0) / math.Log(c)))
	kMax := int(math.Ceil(math.Log(80/x0) / math.Log(c)))
	x := func(k int) float64 { return x0 * math.Pow(c, float64(k)) }
	var logPi []float64
	l := 0.0
	var top = math.Inf(-1)
	for k := kMin; k <= kMax; k++ {
		if k > kMin {
			l += -x(k-1) - math.Log(-math.Expm1(-x(k)))
		}
		logPi = append(logPi, l)
		top = math.Max(top, l)
	}
	var z, below float64
	for i, l := range logPi {
		p := math.Exp(l - top)
		z += p
		if x(kMin+i) < xMin {
			below += p
		}
	}
	return below / z
}

// TestHeritrixLongRunRate checks the simulator against the exact
// long-run behaviour of Heritrix's rule from its birth–death chain: the
// visit rate λ/κ, the share of changed visits 1/2 and the freshness. For
// any schedule whose intervals are set before they start, the expected
// fresh time of an interval I is (1 − e^{−λI})/λ, so freshness is (visits
// that find a change per day)/λ = (1/2)(λ/κ)/λ = 1/(2κ). Pages change 0.25
// to 1 times a day, where the chain puts less than 1e-5 of its mass beyond
// the 1-hour minimum or the 4-week maximum, so the clamps move nothing
// measurable. Tolerance 4.5 SE (P ≈ 6e-5 per check, 5e-4 for the 9).
func TestHeritrixLongRunRate(t *testing.T) {
	rates := []float64{0.25, 0.5, 1}
	res := adaptiveRun(t, HeritrixDefault, rates, 33)
	for i, lambda := range rates {
		x0 := lambda * HeritrixDefault.Initial
		kappa, pc, _, _ := heritrixChain(HeritrixDefault.ChangedFactor, x0)
		below := heritrixMassBelow(1.5, x0, lambda*HeritrixDefault.Min)
		above := 1 - heritrixMassBelow(1.5, x0, lambda*HeritrixDefault.Max)
		if below > 1e-5 || above > 1e-5 {
			t.Fatalf("λ=%v: %v of the chain's mass is below the minimum wait, %v above the maximum; the clamp-free chain does not apply", lambda, below, above)
		}
		if math.Abs(pc-0.5) > 1e-9 {
			t.Errorf("λ=%v: chain's share of changed visits %v, want 1/2", lambda, pc)
		}
		pg := res.Pages[i]
		name := fmt.Sprintf("heritrix λ=%v", lambda)
		nearSE(t, name+" visits per day", pg.SyncsPerDay, lambda/kappa, 4.5)
		nearSE(t, name+" changed share", pg.ChangeRatio, 0.5, 4.5)
		nearSE(t, name+" freshness", pg.Freshness, 1/(2*kappa), 4.5)
		if i == 0 {
			t.Logf("heritrix: κ = %.5f, visits %.4f·λ, freshness %.4f", kappa, 1/kappa, 1/(2*kappa))
		}
	}
	// κ does not depend on where the lattice starts.
	k0, _, _, _ := heritrixChain(1.5, 1)
	for _, x0 := range []float64{1.1, 1.23, 1.37, 1.49} {
		if k, _, _, _ := heritrixChain(1.5, x0); relDiff(k, k0) > 1e-5 {
			t.Errorf("κ(x0 = %v) = %v, κ(1) = %v", x0, k, k0)
		}
	}
}

// TestAdaptiveProportional checks each rule ends up visiting a page at a
// rate proportional to its change rate (Cho & Garcia-Molina's
// proportional policy) when its clamps are out of reach: the visits per
// change, rate/λ, are the same for pages changing 0.25 to 2 times a day,
// within 4.5 SE of the difference (P(|t| > 4.5) ≈ 2e-5 for ~78 degrees of
// freedom, per check). Heritrix's 1-hour minimum holds 5e-4 of its chain's
// mass at λ = 2, which moves its rate by far less than the SE.
// StormCrawler needs Min = 0: its pull towards the
// 1-hour minimum makes fast pages visited less than proportionally, which
// the last check shows.
func TestAdaptiveProportional(t *testing.T) {
	rates := []float64{0.25, 0.5, 1, 2}
	nutch := NutchDefault
	nutch.SyncDelta = false
	storm := StormCrawlerDefault
	storm.Min = 0
	for _, c := range []struct {
		name string
		rule Rule
	}{{"nutch-default", NutchDefault}, {"nutch without SYNC_DELTA", nutch}, {"heritrix", HeritrixDefault}, {"stormcrawler, Min = 0", storm}} {
		res := adaptiveRun(t, c.rule, rates, 34)
		per := func(i int) (float64, float64) {
			s := res.Pages[i].SyncsPerDay
			return s.Mean / rates[i], s.SD / math.Sqrt(float64(s.N)) / rates[i]
		}
		c0, se0 := per(0)
		for i := 1; i < len(rates); i++ {
			ci, sei := per(i)
			if d := math.Abs(ci - c0); d > 4.5*math.Hypot(se0, sei) {
				t.Errorf("%s: %.4f visits per change at λ=%v, %.4f at λ=%v (%.1f SE apart)", c.name, ci, rates[i], c0, rates[0], d/math.Hypot(se0, sei))
			}
		}
		t.Logf("%s: %.4f visits per change", c.name, c0)
	}
	// With its 1-hour minimum, StormCrawler visits a page changing 5 times
	// a day fewer times per change than one changing once a day.
	res := adaptiveRun(t, StormCrawlerDefault, []float64{1, 5}, 35)
	slow, fast := res.Pages[0].SyncsPerDay, res.Pages[1].SyncsPerDay
	se := math.Hypot(slow.SD/math.Sqrt(float64(slow.N)), fast.SD/5/math.Sqrt(float64(fast.N)))
	if d := slow.Mean - fast.Mean/5; d < 4.5*se {
		t.Errorf("stormcrawler-default: %.4f visits per change at λ=1, %.4f at λ=5: expected fewer at 5", slow.Mean, fast.Mean/5)
	}
}

// TestFreshnessIsFoundChangesOverRate checks an identity that holds for
// any schedule that fixes each interval before it starts: freshness equals
// the visits per day that find a change, divided by λ (each interval's
// expected fresh time is (1 − e^{−λI})/λ). Here for the adaptive rules, per
// repeat, so the check is tight: 4.5 SE of the per-repeat difference.
func TestFreshnessIsFoundChangesOverRate(t *testing.T) {
	for _, rule := range []Rule{NutchDefault, HeritrixDefault, StormCrawlerDefault} {
		const lambda = 1.7
		var diffs []float64
		for r := range 40 {
			res, err := Simulate(Config{Rates: []float64{lambda}, Days: 400, Warmup: 365, Repeats: 1, Seed: uint64(1000 + r)}, NewAdaptive(rule, 1))
			if err != nil {
				t.Fatal(err)
			}
			m := res.Mean
			diffs = append(diffs, m.Freshness.Mean-m.SyncsPerDay.Mean*m.ChangeRatio.Mean/lambda)
		}
		var mean, ss float64
		for _, d := range diffs {
			mean += d / float64(len(diffs))
		}
		for _, d := range diffs {
			ss += (d - mean) * (d - mean)
		}
		se := math.Sqrt(ss / float64(len(diffs)-1) / float64(len(diffs)))
		if math.Abs(mean) > 4.5*se {
			t.Errorf("%T: freshness − found changes/λ = %v ± %v", rule, mean, se)
		}
	}
}

// TestDescriptors checks the catalog: unique ids, parameters that
// param.Check accepts with their defaults, presets that pass the checks,
// defaults that build the crawlers' shipped rules, and each kind building
// what it says.
func TestDescriptors(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Descriptors() {
		if seen[d.ID] {
			t.Errorf("duplicate id %s", d.ID)
		}
		seen[d.ID] = true
		if d.Name == "" || d.Paper == "" || d.Summary == "" || d.Params == nil {
			t.Errorf("%s: incomplete descriptor", d.ID)
		}
		vals, err := param.Check(d.Params, nil)
		if err != nil {
			t.Fatalf("%s: defaults rejected: %v", d.ID, err)
		}
		switch d.Type {
		case TypeAllocation:
			p, err := d.NewPolicy(vals)
			if err != nil || p == nil || d.NewRule != nil {
				t.Errorf("%s: allocation descriptor builds %v, %v", d.ID, p, err)
			}
		case TypeAdaptive:
			r, err := d.NewRule(vals)
			if err != nil || r == nil || d.NewPolicy != nil {
				t.Fatalf("%s: adaptive descriptor builds %v, %v", d.ID, r, err)
			}
			want := map[string]Rule{"nutch-adaptive": NutchDefault, "heritrix-wait": HeritrixDefault, "stormcrawler-adaptive": StormCrawlerDefault}[d.ID]
			if r != want {
				t.Errorf("%s: defaults build %+v, want %+v", d.ID, r, want)
			}
			if len(d.Presets) == 0 {
				t.Errorf("%s: no presets", d.ID)
			}
			for _, p := range d.Presets {
				pv, err := param.Check(d.Params, p.Values)
				if err != nil {
					t.Errorf("%s preset %s: %v", d.ID, p.ID, err)
					continue
				}
				if _, err := d.NewRule(pv); err != nil {
					t.Errorf("%s preset %s: %v", d.ID, p.ID, err)
				}
			}
		default:
			t.Errorf("%s: type %q", d.ID, d.Type)
		}
	}
	// A bad value is refused by the rule's own check.
	for _, d := range Descriptors() {
		if d.ID == "nutch-adaptive" {
			if _, err := d.NewRule(param.Values{"minInterval": 10.0, "maxInterval": 1.0}); err == nil {
				t.Error("nutch: minimum above maximum accepted")
			}
		}
		if d.ID == "cgm-uniform" {
			p, err := d.NewPolicy(param.Values{"spacing": "poisson"})
			if err != nil || p.(Uniform).Spacing != Poisson {
				t.Errorf("uniform with poisson spacing: %v, %v", p, err)
			}
		}
	}
}
