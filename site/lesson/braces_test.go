package lesson

import (
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestNoBracesLeftInNarrative renders every lesson and checks that no
// {{…}} is left in its narrative as text: a live number whose metric or
// fact id the live syntax does not read (one with a digit, say) would
// otherwise show its source on the page.
func TestNoBracesLeftInNarrative(t *testing.T) {
	for _, ls := range bundled(t, lab.New()) {
		if i := strings.Index(string(ls.HTML), "{{"); i >= 0 {
			t.Errorf("%s: braces left in the narrative: %.60s", ls.ID, ls.HTML[i:])
		}
	}
}
