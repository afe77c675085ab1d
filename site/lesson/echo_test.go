package lesson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// lessonByID parses the lesson of lessons/ named id.
func lessonByID(t *testing.T, id string) *Lesson {
	t.Helper()
	f := filepath.Join("..", "..", "lessons", id+".md")
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := Parse(f, src, lab.New())
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// TestLessonEchoesReproduce runs every lesson's default spec, then the
// spec its result echoes, after a JSON round trip as a shared link carries
// it, on a lab that has run nothing: the two results must be the same
// bytes, sweeps and computed parameters included.
func TestLessonEchoesReproduce(t *testing.T) {
	for _, ls := range bundled(t, lab.New()) {
		t.Run(ls.ID, func(t *testing.T) {
			res, err := lab.New().Run(ls.Spec)
			if err != nil {
				t.Fatal(err)
			}
			first, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			echo, err := json.Marshal(res.Spec)
			if err != nil {
				t.Fatal(err)
			}
			var again lab.Spec
			if err := json.Unmarshal(echo, &again); err != nil {
				t.Fatal(err)
			}
			res2, err := lab.New().Run(again)
			if err != nil {
				t.Fatalf("the echoed spec does not run: %v\n%s", err, echo)
			}
			second, err := json.Marshal(res2)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, second) {
				i := 0
				for i < len(first) && i < len(second) && first[i] == second[i] {
					i++
				}
				lo := max(0, i-200)
				t.Errorf("the echoed spec gives another result; first difference at byte %d:\n run:  …%s\n echo: …%s",
					i, first[lo:min(len(first), i+100)], second[lo:min(len(second), i+100)])
			}
		})
	}
}
