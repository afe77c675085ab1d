package lab

// SetFact records fact id of a registered kind's result when x is a number
// (NaN and ±Inf are none), as the lab's own kinds do.
func (p *PolicyResult) SetFact(id string, x float64) { p.setFact(id, x) }
