package lab

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/stat"
)

// SweepResult holds one series per policy: its headline metrics at each
// value of the swept field.
type SweepResult struct {
	Field    string        `json:"field"`
	Values   []float64     `json:"values"`
	Policies []SweepSeries `json:"policies"`
}

// SweepSeries is one policy's metrics along a sweep.
type SweepSeries struct {
	ID          string         `json:"id"`
	Label       string         `json:"label,omitempty"` // as PolicyResult's
	Name        string         `json:"name"`
	Oracle      bool           `json:"oracle"`
	Params      []param.Values `json:"params"` // as resolved at each value
	ChangeRatio stat.Series    `json:"changeRatio"`
	Freshness   stat.Series    `json:"freshness"`
	Age         stat.Series    `json:"age"`
	// SiteAccuracy is the mean site accuracy at each value, for policies
	// that estimate sites (refresh.SiteEstimator).
	SiteAccuracy stat.Series `json:"siteAccuracy,omitempty"`
	// ExpectedChangeRatio holds the exact expectation at each value where
	// the policy computes one (one-cycle runs), else null.
	ExpectedChangeRatio []*float64 `json:"expectedChangeRatio,omitempty"`
	// Estimate kind: the headline MAD and edge share at each value, and the
	// MAD per epoch at each value (a sweep's runs simulate only the pooled
	// epochs; EstimatePolicyResult.Best reruns the best value in full).
	MAD         stat.Series   `json:"mad,omitempty"`
	EdgeShare   stat.Series   `json:"edgeShare,omitempty"`
	MADPerEpoch []stat.Series `json:"madPerEpoch,omitempty"`
}

// Key is how the policy is addressed: its label if it has one, else its id.
func (p SweepSeries) Key() string { return PolicySpec{ID: p.ID, Label: p.Label}.Key() }

// With returns a copy of spec with field set to v (see Sweep for the
// fields). The copy shares nothing with spec.
func (l *Lab) With(spec Spec, field string, v float64) (Spec, error) {
	out := spec
	out.Sweep = nil
	out.Policies = make([]PolicySpec, len(spec.Policies))
	for i, p := range spec.Policies {
		out.Policies[i] = PolicySpec{ID: p.ID, Label: p.Label, Params: make(param.Values, len(p.Params))}
		for k, x := range p.Params {
			out.Policies[i].Params[k] = x
		}
	}
	whole := func() (int, error) {
		if v != math.Trunc(v) || math.Abs(v) > 1e15 {
			return 0, fmt.Errorf("%s takes whole numbers, got %v", field, v)
		}
		return int(v), nil
	}
	var err error
	if name, ok := strings.CutPrefix(field, "estimate."); ok {
		return out, withEstimate(&out, spec.Estimate, name, v)
	}
	switch field {
	case "budget":
		out.Budget, err = whole()
	case "cycles":
		out.Cycles, err = whole()
	case "repeats":
		out.Repeats, err = whole()
	case "seed":
		var n int
		if n, err = whole(); err == nil {
			if n < 0 {
				return out, fmt.Errorf("seed must not be negative")
			}
			out.Seed = uint64(n)
		}
	default:
		name, ok := strings.CutPrefix(field, "params.")
		only := ""
		if !ok {
			rest, ok2 := strings.CutPrefix(field, "policies.")
			if only, name, ok2 = strings.Cut(rest, "."); !ok2 {
				return out, fmt.Errorf("unknown field %q (expected budget, cycles, repeats, seed, params.NAME or policies.ID.NAME)", field)
			}
		}
		set := 0
		for i, p := range out.Policies {
			if only != "" && p.Key() != only {
				continue
			}
			desc, ok := l.policy(p.ID)
			if ok && slices.ContainsFunc(desc.Params, func(q param.Param) bool { return q.Name == name }) {
				out.Policies[i].Params[name] = v
				set++
			}
		}
		if set == 0 {
			return out, fmt.Errorf("no policy in the spec has a parameter %q", field)
		}
	}
	return out, err
}

// runSweep runs spec at every value of its sweep.
func (l *Lab) runSweep(spec Spec) (*SweepResult, error) {
	sw := spec.Sweep
	sr := &SweepResult{Field: sw.Field, Values: sw.Values}
	for _, v := range sw.Values {
		s, err := l.With(spec, sw.Field, v)
		if err != nil {
			return nil, specErr("sweep.field", "%v", err)
		}
		r, err := l.Run(s)
		if err != nil {
			if se, ok := err.(*SpecError); ok {
				return nil, specErr("sweep.values", "at %s = %v: %v", sw.Field, v, se)
			}
			return nil, err
		}
		for i, p := range r.Policies {
			if len(sr.Policies) <= i {
				sr.Policies = append(sr.Policies, SweepSeries{ID: p.ID, Label: p.Label, Name: p.Name, Oracle: p.Oracle})
			}
			ss := &sr.Policies[i]
			ss.Params = append(ss.Params, p.Params)
			ss.ChangeRatio = append(ss.ChangeRatio, p.ChangeRatio)
			ss.Freshness = append(ss.Freshness, p.Freshness)
			ss.Age = append(ss.Age, p.Age)
			if p.Sites != nil {
				ss.SiteAccuracy = append(ss.SiteAccuracy, p.Sites.MeanAccuracy)
			} else {
				ss.SiteAccuracy = append(ss.SiteAccuracy, stat.Summarize(nil))
			}
			ss.ExpectedChangeRatio = append(ss.ExpectedChangeRatio, p.ExpectedChangeRatio)
			if p.Estimate != nil {
				ss.MAD = append(ss.MAD, p.MAD)
				ss.EdgeShare = append(ss.EdgeShare, p.Estimate.EdgeShare)
				ss.MADPerEpoch = append(ss.MADPerEpoch, p.Estimate.MAD)
			}
		}
	}
	for i := range sr.Policies {
		ss := &sr.Policies[i]
		if !slices.ContainsFunc(ss.ExpectedChangeRatio, func(e *float64) bool { return e != nil }) {
			ss.ExpectedChangeRatio = nil
		}
		if !slices.ContainsFunc(ss.SiteAccuracy, func(s stat.Summary) bool { return s.N > 0 }) {
			ss.SiteAccuracy = nil
		}
	}
	return sr, nil
}

// checkSweep checks a sweep's shape; each value is checked when it runs.
func checkSweep(sw *Sweep) error {
	if sw.Field == "" {
		return specErr("sweep.field", "missing: name the field to vary, such as params.sampleSize")
	}
	if len(sw.Values) == 0 || len(sw.Values) > MaxSweep {
		return specErr("sweep.values", "expected 1 to %d values, got %d", MaxSweep, len(sw.Values))
	}
	for i, v := range sw.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return specErr(fmt.Sprintf("sweep.values[%d]", i), "expected a finite number")
		}
	}
	return nil
}
