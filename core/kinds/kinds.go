// Package kinds links every experiment kind that registers itself with the
// lab (lab.Register) into a program: a binary, a test or the API imports
// it, for its side effect, wherever it makes a lab that runs them, and it
// fixes their order in the lab's catalog.
package kinds

import (
	"github.com/refreshlab/refreshlab/core/lab"

	// The estimate, schedule and monitor kinds.
	_ "github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	_ "github.com/refreshlab/refreshlab/core/monitor/monitorkind"
	_ "github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

// init lists the kinds in the order the catalog shows them: it sets each
// policy's style (lab.PolicyStyle), so it stays as lessons know it.
func init() { lab.Order("estimate", "schedule", "monitor") }
