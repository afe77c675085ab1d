package cluster

import "github.com/refreshlab/refreshlab/core/stat"

// Sufficient reports whether a sample of m values with mean and sample
// variance (divisor m−1) var is "sufficient" in Tan et al.'s sense (§4.1):
// a standard t-test at confidence level conf puts the population mean
// within ±delta of the sample mean, i.e. the half-width of the t
// confidence interval, t_{(1+conf)/2, m−1} · s/√m, is at most delta.
// Fewer than two values are never sufficient (the t-test needs a variance).
// tq, when not nil, gives the critical value stat.TQuantile((1+conf)/2, ν)
// at index ν (a table the policy builds once); beyond its end it is
// computed. That quantile has the same bits natively and in WebAssembly,
// so the decision does not depend on the platform.
func Sufficient(m int, variance, conf, delta float64, tq []float64) bool {
	if m < 2 {
		return false
	}
	var t float64
	if m-1 < len(tq) {
		t = tq[m-1]
	} else {
		t = stat.TQuantile((1+conf)/2, m-1)
	}
	// t·s/√m ≤ δ  ⇔  t²·s² ≤ δ²·m, without a square root.
	return t*t*variance <= delta*delta*float64(m)
}
