package estimate

import "math"

// Scheme is one of Tan et al.'s four settings of the history weights w_i
// (WebDB 2007, §4.2, eq. 5), for the n cycles i = 1 (oldest) … n (latest).
type Scheme uint8

const (
	// NAD, non-adaptive: w_i = 1/n, every change counts the same.
	NAD Scheme = iota
	// SAD, shortsighted-adaptive: w_n = 1 and the rest 0, only the latest
	// cycle counts.
	SAD
	// AAD, arithmetically-adaptive: w_i = i/Σi = 2i/(n(n+1)).
	AAD
	// GAD, geometrically-adaptive: w_i = 2^{i−1}/Σ2^{i−1} = 2^{i−1}/(2^n − 1).
	GAD
)

func (s Scheme) String() string {
	switch s {
	case NAD:
		return "nad"
	case SAD:
		return "sad"
	case AAD:
		return "aad"
	case GAD:
		return "gad"
	}
	return "unknown"
}

// Weights writes into w (resized to n) the weights of scheme s for n cycles,
// oldest first, and returns it. They sum to 1 (to rounding). GAD's are
// computed as 2^{i−1−n}/(1 − 2^{−n}), so long histories do not overflow:
// cycles more than about 1075 back get weight 0.
func (s Scheme) Weights(n int, w []float64) []float64 {
	w = w[:0]
	for i := 1; i <= n; i++ {
		w = append(w, s.weight(i, n))
	}
	return w
}

// weight returns scheme s's weight for cycle i of n without building the
// slice (the same numbers as Weights).
func (s Scheme) weight(i, n int) float64 {
	fn := float64(n)
	switch s {
	case NAD:
		return 1 / fn
	case SAD:
		if i == n {
			return 1
		}
		return 0
	case AAD:
		return 2 * float64(i) / (fn * (fn + 1))
	case GAD:
		return math.Ldexp(1, i-1-n) / (1 - math.Ldexp(1, -n))
	}
	return 0
}

// Weighted is Tan et al.'s history-weighted change rate (WebDB 2007, §4.2,
// eq. 5), each crawl interval taken as one download cycle:
//
//	λ_p = Σ_{i=1..n} w_i·I(change in cycle i) / n,   Σ w_i = 1.
//
// Our reading of eq. 5: as printed it divides by n after the weights are
// already normalised, which would make the non-adaptive rate X/n² per cycle,
// shrinking as the history grows however often the page changes, and would
// not give the change probability φ = 1 − e^{−λ_p} of eq. 4 its meaning. We
// read the /n as belonging to unnormalised weights (w_i = 1 for nad) and
// drop it: λ_p = Σ w_i z_i changes per cycle, so nad is the fraction of
// cycles that changed. AsPrinted keeps the /n, to show the difference
// (TestWeightedAsPrinted).
//
// Per day: a cycle of the paper is one fixed download period; our intervals
// may differ, so we divide by the weighted mean interval, λ̂ = Σ w_i z_i /
// Σ w_i t_i. With regular intervals of length I this is eq. 5's λ_p / I, and
// nad is then exactly the naive estimator X/T.
//
// Window, when positive, keeps only the latest Window intervals (the n of
// eq. 5 is the cycles in the window); 0 uses the whole history. Edge reports
// NoChange or AllChanged when every interval with a positive weight agrees
// (always, for SAD), since the estimate is then 0 or 1/t.
type Weighted struct {
	Scheme    Scheme
	Window    int
	AsPrinted bool
}

// Estimate implements Estimator.
func (w Weighted) Estimate(h *History) Result {
	n := h.Len()
	first := 0
	if w.Window > 0 && w.Window < n {
		first = n - w.Window
	}
	m := n - first
	if m == 0 {
		return Result{Edge: Empty}
	}
	var num, den float64
	changed, seen := 0, 0
	for i := 1; i <= m; i++ {
		wi := w.Scheme.weight(i, m)
		if wi == 0 {
			continue
		}
		t, z := h.At(first + i - 1)
		seen++
		den += wi * t
		if z {
			changed++
			num += wi
		}
	}
	r := Result{Rate: num / den}
	switch changed {
	case 0:
		r.Edge = NoChange
	case seen:
		r.Edge = AllChanged
	}
	if w.AsPrinted {
		r.Rate /= float64(m)
	}
	return r
}

// DOverV is Al-Qaaideh's page change average C(w) = D/V (MSc thesis 2009,
// §3.3.2.2): D changes recorded over the page's last V versions.
//
// Our reading: each version is compared with the one before it when it is
// downloaded, and "V is the number of page old versions used in history
// tracking"; V old versions and the current copy make V comparisons, so V
// counts intervals, and D/V is the fraction of the last V intervals that
// showed a change. With fewer than V intervals observed we divide by the
// number observed (the versions actually used). Per day, as for Weighted, we
// divide by the mean of those intervals: λ̂ = D / Σ_{last V} t. V ≤ 0 uses the
// whole history, which is then the naive estimator. It is the non-adaptive
// Weighted over a window, kept as its own type for its own citation.
type DOverV struct {
	V int
}

// Estimate implements Estimator.
func (d DOverV) Estimate(h *History) Result {
	return Weighted{Scheme: NAD, Window: d.V}.Estimate(h)
}
