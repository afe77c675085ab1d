package estimate

import (
	"math"

	"github.com/refreshlab/refreshlab/core/internal/detmath"
)

// expDet and lnDet are e^x and ln x, the same to the last bit natively and
// in WebAssembly (see detmath).
func expDet(x float64) float64 { return detmath.Exp(x) }
func lnDet(x float64) float64  { return detmath.Log(x) }

// pChange is the probability 1 − e^{−x} that a Poisson process with mean x
// has at least one event, accurate for tiny x.
func pChange(x float64) float64 { return -math.Expm1(-x) }
