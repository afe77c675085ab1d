package api

import "github.com/refreshlab/refreshlab/core/lab"

// TraceRequest is the body of POST /api/trace: one repeat of one policy
// of a refresh spec, to play cycle by cycle (lab.Trace).
type TraceRequest struct {
	Spec lab.Spec `json:"spec"`
	// Policy is the policy's key in the spec: its label, or else its id.
	Policy string `json:"policy"`
	// Repeat is which of the run's repeats, from 0.
	Repeat int `json:"repeat"`
	// MaxPages bounds the pages shown; 0 means lab.DefaultTracePages.
	MaxPages int `json:"maxPages"`
}

// trace answers a TraceRequest with the lab's trace, or a 400 that names
// the field at fault: the spec's, as POST /api/run names them, or policy,
// repeat or maxPages. As a run, it plays only a dataset the client may
// see, and stops (a 503) once the request's context is done.
func (rt *Router) trace(req Request) Response {
	var tr TraceRequest
	if resp, ok := decode(req.Body, &tr); !ok {
		return resp
	}
	if resp, ok := rt.checkVisible(req, tr.Spec); !ok {
		return resp
	}
	t, err := rt.lab.TraceContext(req.context(), tr.Spec, tr.Policy, tr.Repeat, tr.MaxPages)
	if err != nil {
		return specErrorResponse(err)
	}
	return jsonResponse(200, t)
}
