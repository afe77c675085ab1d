package lab

import (
	"fmt"
	"strings"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/synth"
)

// driftFields are the options of the alqaaideh-jordan generator a spec
// may set (DatasetRef.Drift, DriftPeriod): site rates drifting over the
// three weeks, as the thesis' Fig. 4.1 plots them.
var driftFields = []SpecField{
	{Param: param.Param{Name: "dataset.drift", Label: "Drift of the site rates", Type: param.Float, Default: 0.0, Step: 0.05,
		Help: "alqaaideh-jordan only: each site's change intensity swings by this share around its mean, 1 + drift·sin(2πt/period + φ), φ random per site (Al-Qaaideh Fig. 4.1). 0 keeps rates constant: the bundled dataset."}.Range(0, 1), Kind: KindRefresh},
	{Param: param.Param{Name: "dataset.driftPeriod", Label: "Drift period (days)", Type: param.Float, Default: 0.0, Step: 1,
		Help: "alqaaideh-jordan only: the days of one swing of the drift; 0 means the whole run, 21 days."}.Range(0, 1000), Kind: KindRefresh},
}

// drifting reports whether ref asks for drifting site rates.
func (ref DatasetRef) drifting() bool { return ref.Drift != 0 }

// variant is what sets ref's dataset apart from the bundled one of its
// id, for keys: "" when nothing does.
func (ref DatasetRef) variant() string {
	if !ref.drifting() {
		return ""
	}
	return fmt.Sprintf("?drift=%v&driftPeriod=%v", ref.Drift, ref.DriftPeriod)
}

// MaxVariants bounds the drifting datasets the lab keeps built; past it,
// they are built again on demand.
const MaxVariants = 16

// withDrift returns the dataset ref names, d with its generator's options
// applied: d itself when ref sets none, otherwise alqaaideh-jordan with
// drifting rates, built once per setting (up to MaxVariants).
func (l *Lab) withDrift(ref DatasetRef, d *dataset.Dataset) (*dataset.Dataset, error) {
	c := synth.AlQaaidehDrift{Drift: ref.Drift, Period: ref.DriftPeriod}
	if err := c.Check(); err != nil {
		field, _, _ := strings.Cut(err.Error(), ":")
		return nil, specErr("dataset."+field, "%v", strings.TrimPrefix(err.Error(), field+": "))
	}
	if !ref.drifting() {
		return d, nil
	}
	if ref.ID != alqaaidehJordanID || !l.IsBundled(ref.ID) {
		return nil, specErr("dataset.drift", "only the %s generator drifts, not %s (expected 0)", alqaaidehJordanID, ref.ID)
	}
	key := ref.ID + ref.variant()
	l.mu.Lock()
	b, ok := l.built[key]
	if !ok {
		if len(l.built) >= len(l.bundled)+MaxVariants {
			for k := range l.built {
				if strings.Contains(k, "?") {
					delete(l.built, k)
				}
			}
		}
		b = &builtDataset{}
		l.built[key] = b
	}
	l.mu.Unlock()
	b.once.Do(func() { b.d, _ = synth.AlQaaidehJordanWith(BundledSeed, c) }) // c is checked
	return b.d, nil
}

// alqaaidehJordanID is the id of the one bundled dataset whose generator
// takes options.
const alqaaidehJordanID = "alqaaideh-jordan"
