package lab_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// TestCaughtRIR checks how a refresh run reports RIR (MetricCaughtRIR) on
// an upload with page weights: each repeat's value is refresh.RunRIR of its
// cycles (weighted), the headline their mean across repeats, and the
// series each cycle's refresh.Cycle.RIR summarised across repeats. The
// expectation is recomputed here by simulating each repeat with the
// policy built on the repeat's stream (lab.Stream), as a run does.
func TestCaughtRIR(t *testing.T) {
	const n, cycles, repeats, budget = 40, 6, 5, 7
	rng := rand.New(rand.NewPCG(5, 6))
	d := &dataset.Dataset{Info: dataset.Info{ID: "weighted-upload", Source: "upload"}}
	d.Sites = []string{"a.example", "b.example"}
	w := make([]float64, n)
	for i := range n {
		d.Pages = append(d.Pages, dataset.Page{Site: int32(i % 2)})
		w[i] = float64(1 + rng.IntN(9))
	}
	d.Features = map[string][]float64{dataset.FeatureWeight: w}
	d.Truth.Changed = make([][]int32, cycles)
	for c := range cycles {
		for p := range int32(n) {
			if rng.IntN(3) == 0 {
				d.Truth.Changed[c] = append(d.Truth.Changed[c], p)
			}
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	l := lab.New()
	l.AddUpload(d)
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: d.Info.ID}, Budget: budget, Repeats: repeats, Seed: 3, Policies: ids("random")}
	res, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	pr := res.Policies[0]

	var desc refresh.Descriptor
	for _, x := range l.Policies() {
		if x.ID == "random" {
			desc = x
		}
	}
	sim := refresh.NewSim(d)
	var sum float64
	perCycle := make([]float64, cycles)
	for r := range repeats {
		sim.Reset()
		p, err := desc.New(refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, Rand: lab.Stream(3, "random", r)})
		if err != nil {
			t.Fatal(err)
		}
		out := sim.Run(p, budget, cycles, nil)
		sum += refresh.RunRIR(out)
		var unweighted float64
		for c, cy := range out {
			perCycle[c] += cy.RIR() / repeats
			unweighted += float64(len(d.Truth.Changed[c]))
		}
		var total float64
		for c := range out {
			total += out[c].Changes
		}
		if total == unweighted {
			t.Fatalf("repeat %d: the changes weigh %v, as many as they are: the weights were not used", r, total)
		}
	}
	if got, want := pr.Metric(lab.MetricCaughtRIR).Mean, sum/repeats; math.Abs(got-want) > 1e-12 {
		t.Errorf("headline RIR %v, want the mean of the repeats' %v", got, want)
	}
	s := pr.Series[lab.MetricCaughtRIR]
	if len(s) != cycles {
		t.Fatalf("RIR series of %d cycles, want %d", len(s), cycles)
	}
	for c := range cycles {
		if math.Abs(s[c].Mean-perCycle[c]) > 1e-12 {
			t.Errorf("cycle %d: RIR %v, want %v", c, s[c].Mean, perCycle[c])
		}
	}
	if pr.Metric(lab.MetricCaughtRIR).N != repeats {
		t.Errorf("headline over %d repeats, want %d", pr.Metric(lab.MetricCaughtRIR).N, repeats)
	}
}
