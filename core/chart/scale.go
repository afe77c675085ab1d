package chart

import (
	"math"
	"strconv"
	"strings"
)

// maxMagnitude bounds every value we lay out. Beyond it, differences such
// as max-min can overflow to +Inf, which go-chart turns into NaN pixel
// positions. Larger values are drawn (and described) at the bound.
const maxMagnitude = 1e306

// minSpan is the smallest axis span we accept; below it tick steps become
// subnormal numbers (under 2.2e-308) and lose precision.
const minSpan = 1e-305

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// clampMag limits a finite v to ±maxMagnitude.
func clampMag(v float64) float64 {
	if v > maxMagnitude {
		return maxMagnitude
	}
	if v < -maxMagnitude {
		return -maxMagnitude
	}
	return v
}

// extent accumulates the minimum and maximum of finite values.
type extent struct {
	lo, hi float64
	ok     bool
}

func (e *extent) add(v float64) {
	if !finite(v) {
		return
	}
	v = clampMag(v)
	if !e.ok {
		e.lo, e.hi, e.ok = v, v, true
		return
	}
	if v < e.lo {
		e.lo = v
	}
	if v > e.hi {
		e.hi = v
	}
}

// degenerate reports whether [lo, hi] is too narrow to divide into ticks:
// empty, or narrower than floating point can resolve around its values.
func degenerate(lo, hi float64) bool {
	span := hi - lo
	scale := math.Max(math.Abs(lo), math.Abs(hi))
	return !(span > minSpan) || !(span > scale*1e-9)
}

// widen turns a degenerate range around v into a usable one. For a value
// axis that should show zero (y, bars) a positive v gets [0, 2v]; for x it
// gets v±10%. Zero (or a value too small to divide) gets [0, 1] or [-1, 1].
func widen(v float64, fromZero bool) (lo, hi float64) {
	if math.Abs(v) < minSpan*10 {
		if fromZero {
			return 0, 1
		}
		return -1, 1
	}
	if fromZero {
		if v > 0 {
			return 0, 2 * v
		}
		return 2 * v, 0
	}
	d := math.Abs(v) * 0.1
	return v - d, v + d
}

// niceStep returns a step of 1, 2 or 5 times a power of ten close to
// span/target.
func niceStep(span float64, target int) float64 {
	if target < 1 {
		target = 1
	}
	raw := span / float64(target)
	exp := math.Floor(math.Log10(raw))
	mag := math.Pow(10, exp)
	var m float64
	switch norm := raw / mag; {
	case norm < 1.5:
		m = 1
	case norm < 3:
		m = 2
	case norm < 7:
		m = 5
	default:
		m = 10
	}
	return m * mag
}

// axis is one laid-out axis: its value range, tick values and tick labels.
type axis struct {
	min, max float64
	ticks    []float64
	labels   []string
}

// maxTicks bounds the tick loop whatever the input.
const maxTicks = 40

// makeAxis chooses ticks for [lo, hi] (lo < hi, both finite and not
// degenerate). With nice set, the range grows outward to whole steps.
// With intStep set the step is never below 1 (for counts such as cycles).
func makeAxis(lo, hi float64, target int, nice, intStep bool) axis {
	step := niceStep(hi-lo, target)
	if intStep && step < 1 {
		step = 1
	}
	if nice {
		nlo, nhi := math.Floor(lo/step)*step, math.Ceil(hi/step)*step
		if finite(nlo) && finite(nhi) && nlo < nhi {
			lo, hi = nlo, nhi
		}
	}
	a := axis{min: lo, max: hi}
	first, last := math.Ceil(lo/step-1e-9), math.Floor(hi/step+1e-9)
	if !(last-first < maxTicks) || !finite(first) || !finite(last) {
		// Cannot happen with a finite, non-degenerate range; keep the ends.
		a.ticks = []float64{lo, hi}
	} else {
		for k := first; k <= last; k++ {
			v := k * step
			if math.Abs(v) < step*1e-9 {
				v = 0
			}
			a.ticks = append(a.ticks, v)
		}
	}
	a.labels = tickLabels(a.ticks, step)
	return a
}

// tickLabels formats ticks with as many decimals as the step needs (0,
// 0.2, 0.4 … 1), switching to scientific notation for very large or small
// values. Negative numbers use a real minus sign.
func tickLabels(ticks []float64, step float64) []string {
	maxAbs := 0.0
	for _, t := range ticks {
		maxAbs = math.Max(maxAbs, math.Abs(t))
	}
	stepExp := int(math.Floor(math.Log10(step) + 1e-9))
	labels := make([]string, len(ticks))
	sci := maxAbs >= 1e6 || stepExp < -4
	for i, t := range ticks {
		var s string
		if sci {
			digits := 0
			if maxAbs > 0 {
				digits = int(math.Floor(math.Log10(maxAbs))) - stepExp
			}
			digits = max(0, min(digits, 15))
			s = sciLabel(t, digits)
		} else {
			s = trimZeros(strconv.FormatFloat(t, 'f', max(0, -stepExp), 64))
		}
		labels[i] = minusSign(s)
	}
	return labels
}

// sciLabel formats v as 1.5e6 rather than Go's 1.5e+06.
func sciLabel(v float64, digits int) string {
	if v == 0 {
		return "0"
	}
	s := strconv.FormatFloat(v, 'e', digits, 64)
	mant, exp, _ := strings.Cut(s, "e")
	mant = trimZeros(mant)
	exp = strings.TrimPrefix(exp, "+")
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
	if exp == "" {
		return mant
	}
	if neg {
		exp = "-" + exp
	}
	return mant + "e" + exp
}

// trimZeros drops trailing zeros after a decimal point, and the point.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// minusSign replaces a leading hyphen with U+2212 and drops the sign of
// negative zero.
func minusSign(s string) string {
	if !strings.HasPrefix(s, "-") {
		return s
	}
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return "−" + s[1:]
}

// fmtNum formats a value for the text description: four significant
// digits, exact enough to read out and short enough to listen to.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "not a number"
	case math.IsInf(v, 1):
		return "infinity"
	case math.IsInf(v, -1):
		return "minus infinity"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// fixedRange is a go-chart Range whose bounds we choose. go-chart's own
// ContinuousRange is overwritten from the data and from tick values inside
// Chart.Render; ours ignores SetMin/SetMax, so the axis keeps the nice
// bounds, and Translate never sees a zero span or converts a huge float to
// int (which is platform-dependent in Go and traps on wasm).
type fixedRange struct {
	min, max float64
	domain   int
}

func (r *fixedRange) String() string       { return "fixedRange" }
func (r *fixedRange) IsZero() bool         { return false }
func (r *fixedRange) GetMin() float64      { return r.min }
func (r *fixedRange) SetMin(float64)       {}
func (r *fixedRange) GetMax() float64      { return r.max }
func (r *fixedRange) SetMax(float64)       {}
func (r *fixedRange) GetDelta() float64    { return r.max - r.min }
func (r *fixedRange) GetDomain() int       { return r.domain }
func (r *fixedRange) SetDomain(domain int) { r.domain = domain }
func (r *fixedRange) IsDescending() bool   { return false }

// Translate maps v to a pixel offset in [0, domain]. Values far outside
// the range are pulled in to a few domains away; they are clipped anyway.
func (r *fixedRange) Translate(v float64) int {
	ratio := (v - r.min) / (r.max - r.min)
	if math.IsNaN(ratio) {
		return 0
	}
	ratio = math.Max(-4, math.Min(5, ratio))
	return int(math.Round(ratio * float64(r.domain)))
}
