package lab_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
)

var update = flag.Bool("update", false, "rewrite the golden results in testdata/golden (run natively)")

// goldenSpecs are the runs whose results are pinned: every policy of the
// catalog on every bundled dataset, with a few repeats and fixed seeds.
// The two one-cycle examples use the papers' budget of 100 downloads; the
// Jordan sample the default (a tenth of its pages) over all 21 days, and
// once more with a tight budget over part of the run. The monitor kind's
// pandey-cam run has every policy, a tracking phase, re-allocation and
// the α-point scheduler, whose α is random.
func goldenSpecs() map[string]lab.Spec {
	var all []lab.PolicySpec
	for _, d := range lab.Policies() {
		if d.Kind == lab.KindRefresh {
			all = append(all, lab.PolicySpec{ID: d.ID})
		}
	}
	var monitorAll []lab.PolicySpec
	for _, d := range lab.Policies() {
		if d.Kind == monitorkind.ID {
			monitorAll = append(monitorAll, lab.PolicySpec{ID: d.ID})
		}
	}
	return map[string]lab.Spec{
		"taleghani-example":      {Dataset: lab.DatasetRef{ID: "taleghani-example"}, Budget: 100, Repeats: 5, Seed: 1, Policies: all},
		"alqaaideh-example":      {Dataset: lab.DatasetRef{ID: "alqaaideh-example"}, Budget: 100, Repeats: 5, Seed: 2, Policies: all},
		"alqaaideh-jordan":       {Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 5, Seed: 3, Policies: all},
		"alqaaideh-jordan-tight": {Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Budget: 25, Cycles: 10, Repeats: 5, Seed: 4, Policies: all},
		"monitor-pandey-cam": {Kind: monitorkind.ID, Dataset: lab.DatasetRef{ID: "pandey-cam"}, Budget: 2000, Repeats: 3, Seed: 5, Policies: monitorAll,
			Sections: lab.Sections{monitorkind.ID: &monitorkind.Spec{Tracking: 1, Epochs: 2, Reallocate: 1, Scheduler: "alpha-point", Monitors: 4, Capacity: 1500}}},
	}
}

// TestGoldenResults pins the Result of each golden spec against
// testdata/golden/<name>.json, written natively on amd64 with -update. Run
// under GOOS=js GOARCH=wasm against the same files it checks that the
// browser computes the native numbers.
//
// On amd64 the JSON must match byte for byte. Elsewhere it cannot: math.Exp
// is assembly on amd64 and pure Go on wasm, and the two differ in the last
// bit for about one input in six (math.Pow, built on Exp, too; math.Log
// and Log1p agree). Under wasm this shows in one place, found by comparing
// every field: age (headline and per-cycle mean, sd, lo, hi) on
// alqaaideh-jordan, the one bundled dataset with first-change times. synth
// draws each page's change probability from gonum's Beta (Gamma variates,
// via Exp and Pow), so the times, and the ages built on them, differ by a
// few ulps (relative ≤ 1e-14); which pages change in which cycle, and so
// every ChangeRatio, freshness and download count, is identical. The
// t quantile of every interval avoids Exp and Log (stat.TQuantile), so
// the bounds of the other fields agree too.
//
// So off amd64 the test compares numbers with a relative tolerance of
// 1e-12, scaled for the fields of a summary by the summary's largest
// |mean|, |lo| or |hi| (a standard deviation of identical values can be 0
// natively and 5e-19 under wasm: rounding noise on the mean's scale), and
// discrete fields (ids, names, counts, seeds, sizes, nulls) exactly; it
// logs the fields that differ at all. arm64 also needs the tolerance (Go
// fuses multiply-adds there).
func TestGoldenResults(t *testing.T) {
	l := lab.New()
	for name, spec := range goldenSpecs() {
		t.Run(name, func(t *testing.T) {
			res, err := l.Run(spec)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if runtime.GOARCH != "amd64" {
					t.Fatal("-update must run natively on amd64: the golden files are its numbers")
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./core/lab -run TestGoldenResults -update natively)", err)
			}
			if runtime.GOARCH == "amd64" {
				if !bytes.Equal(got, want) {
					t.Errorf("%s: result differs from %s (if the change is intended, rerun with -update):\n%s", name, path, firstDiff(got, want))
				}
				return
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			var c jsonCompare
			c.walk(name, "", g, w, 0)
			for _, e := range c.errs {
				t.Error(e)
			}
			if len(c.inexact) > 0 {
				t.Logf("%s/%s: %d numbers differ from amd64 within tolerance (largest relative difference %.2g), e.g. %s",
					runtime.GOOS, runtime.GOARCH, len(c.inexact), c.worst, c.inexact[0])
			}
			if len(c.errs) == 0 && !bytes.Equal(got, want) && len(c.inexact) == 0 {
				t.Errorf("%s: bytes differ but no value does: formatting changed?\n%s", name, firstDiff(got, want))
			}
		})
	}
}

// discrete names the JSON fields compared exactly: counts, sizes, seeds.
var discrete = map[string]bool{
	"n": true, "budget": true, "cycles": true, "repeats": true, "seed": true,
	"pages": true, "sites": true, "labels": true, "cycleLength": true, "sampleSize": true,
}

// jsonCompare walks two decoded JSON values.
type jsonCompare struct {
	errs    []string
	inexact []string
	worst   float64
}

// walk compares got and want at path; key is the field name and scale the
// magnitude of the enclosing summary, if any.
func (c *jsonCompare) walk(path, key string, got, want any, scale float64) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			c.errs = append(c.errs, fmt.Sprintf("%s: got %v, want %v", path, got, want))
			return
		}
		// A summary: its fields' rounding errors are on the scale of its
		// largest value.
		s := 0.0
		if _, ok := w["mean"]; ok {
			for _, k := range []string{"mean", "lo", "hi"} {
				if f, ok := w[k].(float64); ok {
					s = max(s, math.Abs(f))
				}
			}
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				c.errs = append(c.errs, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			c.walk(path+"."+k, k, gv, wv, s)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			c.errs = append(c.errs, fmt.Sprintf("%s: got %v, want %v", path, got, want))
			return
		}
		for i := range w {
			c.walk(fmt.Sprintf("%s[%d]", path, i), key, g[i], w[i], scale)
		}
	case float64:
		g, ok := got.(float64)
		switch {
		case !ok:
			c.errs = append(c.errs, fmt.Sprintf("%s: got %v, want %v", path, got, w))
		case g == w:
		case discrete[key]:
			c.errs = append(c.errs, fmt.Sprintf("%s: got %v, want exactly %v", path, g, w))
		default:
			s := max(scale, math.Abs(w))
			d := math.Abs(g - w)
			if d > 1e-12*s {
				c.errs = append(c.errs, fmt.Sprintf("%s: got %v, want %v (relative difference %.2g > 1e-12)", path, g, w, d/s))
				return
			}
			c.inexact = append(c.inexact, fmt.Sprintf("%s: %v vs %v", path, g, w))
			c.worst = max(c.worst, d/s)
		}
	default: // strings, bools, null
		if got != want {
			c.errs = append(c.errs, fmt.Sprintf("%s: got %v, want %v", path, got, want))
		}
	}
}

// firstDiff describes the first differing line of two texts.
func firstDiff(got, want []byte) string {
	g := bytes.Split(got, []byte("\n"))
	w := bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var a, b []byte
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if !bytes.Equal(a, b) {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, a, b)
		}
	}
	return "(no line differs)"
}
