package lesson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestNoBracesLeftInNarrative renders every lesson and checks that no
// {{…}} is left in its narrative as text: a live number whose metric or
// fact id the live syntax does not read (one with a digit, say) would
// otherwise show its source on the page.
func TestNoBracesLeftInNarrative(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "lessons", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons (%v)", err)
	}
	l := lab.New()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ls, err := Parse(f, src, l)
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.Index(string(ls.HTML), "{{"); i >= 0 {
			t.Errorf("%s: braces left in the narrative: %.60s", filepath.Base(f), ls.HTML[i:])
		}
	}
}
