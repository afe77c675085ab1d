package monitor_test

import (
	"testing"

	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/synth"
)

// The run the monitor kind's first request makes: the bundled pandey-cam,
// 5,000 tasks, three policies, one monitored epoch, 20 repeats.
func BenchmarkRunPandeyCAM(b *testing.B) {
	m := pandeyCAM(b, synth.PandeyCAMDefault)
	x := monitor.Experiment{Policies: []string{"cam", "weighted-proportional", "weighted-uniform"}, Budget: 5000, Repeats: 20, Epochs: 1}
	for b.Loop() {
		if _, err := monitor.Run(monitor.Data{Instance: &m.Instance, Sizes: m.Size}, x, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// CAM's allocation alone on the bundled instance (500 pages × 480
// instants) with 5,000 tasks.
func BenchmarkCAMAllocate(b *testing.B) {
	m := pandeyCAM(b, synth.PandeyCAMDefault)
	for b.Loop() {
		if _, err := (monitor.CAM{}).Allocate(&m.Instance, 5000, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The bundled generator's draw.
func BenchmarkPandeyCAMWith(b *testing.B) {
	for b.Loop() {
		pandeyCAM(b, synth.PandeyCAMDefault)
	}
}

// The same run as a lab's later runs on the instance make it: the changes
// replayed from a Draws that earlier runs filled.
func BenchmarkRunPandeyCAMReplayed(b *testing.B) {
	m := pandeyCAM(b, synth.PandeyCAMDefault)
	x := monitor.Experiment{Policies: []string{"cam", "weighted-proportional", "weighted-uniform"}, Budget: 5000, Repeats: 20, Epochs: 1}
	d := monitor.Data{Instance: &m.Instance, Sizes: m.Size, Draws: monitor.NewDraws(m.Instance.Rho)}
	for b.Loop() {
		if _, err := monitor.Run(d, x, 1); err != nil {
			b.Fatal(err)
		}
	}
}
