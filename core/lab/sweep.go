package lab

import (
	"fmt"
	"math"

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

// SweepSeries is one policy's metrics along a sweep: each metric's
// headline at each value (Metrics), and each fact at each value, null
// where the run at that value has none (Facts).
type SweepSeries struct {
	ID      string                 `json:"id"`
	Label   string                 `json:"label,omitempty"` // as PolicyResult's
	Name    string                 `json:"name"`
	Oracle  bool                   `json:"oracle"`
	Params  []param.Values         `json:"params"` // as resolved at each value
	Metrics map[string]stat.Series `json:"metrics"`
	Facts   map[string][]*float64  `json:"facts,omitempty"`
}

// Key is how the policy is addressed: its label if it has one, else its id.
func (p SweepSeries) Key() string { return PolicySpec{ID: p.ID, Label: p.Label}.Key() }

// With returns a copy of spec with the numeric field (see Field) set to v,
// and no sweep. The copy shares nothing with spec.
func (l *Lab) With(spec Spec, field string, v float64) (Spec, error) {
	spec.Sweep = nil
	f, err := l.Field(spec, field)
	if err != nil {
		return spec, err
	}
	if f.Type != param.Int && f.Type != param.Float {
		return spec, fmt.Errorf("field %q is not a number", field)
	}
	if f.Type == param.Int && (v != math.Trunc(v) || math.Abs(v) > 1<<53) {
		return spec, fmt.Errorf("%s takes whole numbers, got %v", field, v)
	}
	return f.Set(spec, v)
}

// runSweep runs spec at every value of its sweep.
func (l *Lab) runSweep(spec Spec, w *watch) (*SweepResult, error) {
	sw := spec.Sweep
	sr := &SweepResult{Field: sw.Field, Values: sw.Values}
	defer func(was bool) { w.inSweep = was }(w.inSweep)
	w.inSweep = true
	n := len(sw.Values)
	for k, v := range sw.Values {
		s, err := l.With(spec, sw.Field, v)
		if err != nil {
			return nil, specErr("sweep.field", "%v", err)
		}
		r, err := l.run(s, w)
		if err != nil {
			if se, ok := err.(*SpecError); ok {
				return nil, specErr("sweep.values", "at %s = %v: %v", sw.Field, v, se)
			}
			return nil, err
		}
		for i, p := range r.Policies {
			if len(sr.Policies) <= i {
				sr.Policies = append(sr.Policies, SweepSeries{ID: p.ID, Label: p.Label, Name: p.Name, Oracle: p.Oracle, Metrics: map[string]stat.Series{}})
			}
			ss := &sr.Policies[i]
			ss.Params = append(ss.Params, p.Params)
			for id, m := range p.Metrics {
				if ss.Metrics[id] == nil {
					ss.Metrics[id] = make(stat.Series, n)
					for j := range n {
						ss.Metrics[id][j] = stat.Summarize(nil)
					}
				}
				ss.Metrics[id][k] = m
			}
			for id, x := range p.Facts {
				if ss.Facts == nil {
					ss.Facts = map[string][]*float64{}
				}
				if ss.Facts[id] == nil {
					ss.Facts[id] = make([]*float64, n)
				}
				ss.Facts[id][k] = &x
			}
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
