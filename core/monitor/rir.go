package monitor

import (
	"fmt"
	"math"
)

// TotalInformation returns Σ_i W_i λ_i, the expected information change of
// an epoch (§5.1): RIR's denominator.
func TotalInformation(in *Instance) float64 {
	var s float64
	for i, w := range in.Weight {
		s += w * in.Lambda(i)
	}
	return s
}

// RIR is the returned information ratio of §5.1, the paper's performance
// metric: the expected information an allocation returns over the
// expected information change,
//
//	RIR = Σ_i W_i Σ_j ρ_{i,j} y_{i,j} / Σ_i W_i λ_i,
//
// that is, the expected share of (weighted) changes that happen at an
// instant where the page is monitored. It is NaN when no change is
// expected. At most 1, reached by monitoring every instant with ρ > 0.
func RIR(in *Instance, a Allocation) float64 {
	return ratio(allocatedInformation(in, a), TotalInformation(in))
}

// allocatedInformation is RIR's numerator: Σ_i W_i Σ_j ρ_{i,j} y_{i,j}.
func allocatedInformation(in *Instance, a Allocation) float64 {
	var got float64
	for i, js := range a {
		var s float64
		for _, j := range js {
			s += in.Rho[i][j]
		}
		got += in.Weight[i] * s
	}
	return got
}

// ratio is a/b, NaN when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// Times returns, for each page, the times of its monitored instants: the
// monitoring times of an allocation whose tasks run at their instants.
func (a Allocation) Times(in *Instance) [][]float64 {
	out := make([][]float64, len(a))
	for i, js := range a {
		out[i] = make([]float64, len(js))
		for k, j := range js {
			out[i][k] = in.Times[j]
		}
	}
	return out
}

// CompleteLossRIR is the expected share of (weighted) changes that a
// monitor returns under the complete-loss assumption of §3.1 ("an update
// results in complete loss of information from previous updates"): a
// change at instant j is returned when the page is monitored at u_j or
// later before it changes again, and lost when it changes again first. A
// monitor at an instant's very time sees the change there (monitors
// follow updates, §2). monitors[i] lists page i's monitoring times within
// the epoch, ascending, in [0, T]; the epoch repeats (the same monitoring
// every epoch), so a change after the last monitor of an epoch may be
// returned by the first of the next. With ρ the truth and independent
// coins, a change at j is returned with probability Π (1 − ρ_{i,l}) over
// the instants l after u_j up to the next monitor.
//
// It is at least RIR for the same allocation (monitors at the allocated
// instants): RIR credits only the change at a monitored instant itself,
// and counts a change between two monitors as lost even when nothing
// overwrites it. CAM maximises RIR, not this.
func CompleteLossRIR(in *Instance, monitors [][]float64) (float64, error) {
	got, err := completeLossInformation(in, monitors)
	if err != nil {
		return 0, err
	}
	return ratio(got, TotalInformation(in)), nil
}

// completeLossInformation is CompleteLossRIR's numerator: the expected
// weighted changes the monitors return.
func completeLossInformation(in *Instance, monitors [][]float64) (float64, error) {
	if len(monitors) != in.Pages() {
		return 0, fmt.Errorf("monitor: %d pages of monitoring times for %d pages", len(monitors), in.Pages())
	}
	var got float64
	for i, ms := range monitors {
		for k, m := range ms {
			if !(m >= 0 && m <= in.T) || k > 0 && m < ms[k-1] {
				return 0, fmt.Errorf("monitor: page %d: monitoring time %v: expected times ascending within [0, %v]", i, m, in.T)
			}
		}
		got += in.Weight[i] * returned(in.Rho[i], in.Times, ms)
	}
	return got, nil
}

// returned is Σ_j ρ_j·P(the change at j is returned) for one page whose
// epoch repeats, monitored at the ascending times ms.
func returned(rho, times, ms []float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	p := len(times)
	// A change after the epoch's last monitor survives the rest of the
	// epoch and then the next epoch's instants up to its first monitor.
	wrap := 1.0
	for j := 0; j < p && times[j] <= ms[0]; j++ {
		wrap *= 1 - rho[j]
	}
	// Walk the instants backwards; surv is the probability that no change
	// falls after u_j up to the next monitor.
	var sum float64
	surv := wrap
	k := len(ms) - 1
	for j := p - 1; j >= 0; j-- {
		// A monitor in [u_j, u_{j+1}) comes next after a change at j.
		hi := math.Inf(1)
		if j+1 < p {
			hi = times[j+1]
		}
		for k >= 0 && ms[k] >= hi {
			k--
		}
		if k >= 0 && ms[k] >= times[j] {
			surv = 1
		}
		sum += rho[j] * surv
		surv *= 1 - rho[j]
	}
	return sum
}

// AppendixARatio is RIR(weighted proportional) / RIR(weighted uniform)
// when every page's update probability is the same at all its instants
// (Appendix A's assumption) and both allocations are exact (x_i = C·W_i/ΣW
// and C·W_i·λ_i/Σ W·λ, no rounding, no page given more tasks than it has
// instants):
//
//	Σ_i W_i² λ_i² · Σ_i W_i / (Σ_i W_i² λ_i · Σ_i W_i λ_i).
//
// Appendix A derives the information each gains per page, C·W_i²·λ_i·ρ_i
// / Σ W·λ and C·W_i²·ρ_i / Σ W, correctly; its ratio over all pages reads
// Σλ·ΣW / Σ(W·λ) in the text, which does not follow from them (it would
// need Σ W_i²λ_iρ_i / Σ W_i²ρ_i = Σ λ_i). With ρ_i = λ_i/p the two sums
// give the expression above, which is the ratio E_π[W·λ²] / (E_π[W·λ]·
// E_π[λ]) of means weighted by π_i ∝ W_i. It is at least 1 when W and λ
// are ordered alike (then W·λ and λ are, and their covariance under π is
// not negative), and always without weights (N·Σλ²/(Σλ)² ≥ 1 by Cauchy–
// Schwarz); but a heavy page that rarely changes can make it less than 1:
// the appendix's "no matter how page weights and change frequencies are
// distributed" holds for the unweighted policies, not for the weighted.
func AppendixARatio(w, lambda []float64) float64 {
	var w2l2, sw, w2l, wl float64
	for i := range w {
		a := w[i] * lambda[i]
		w2l2 += a * a
		sw += w[i]
		w2l += a * w[i]
		wl += a
	}
	return w2l2 * sw / (w2l * wl)
}

// MonitoringChangeRatio is §5.1's monitoring-to-change ratio: tasks over
// Σ_i λ_i, the number of changes expected in an epoch (NaN when none is).
func MonitoringChangeRatio(in *Instance, tasks int) float64 {
	var s float64
	for i := range in.Weight {
		s += in.Lambda(i)
	}
	return ratio(float64(tasks), s)
}
