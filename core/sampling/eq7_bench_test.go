package sampling

import (
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"
)

// BenchmarkSiteGreedyEq7Jordan runs greedy site sampling with eq. 7's
// sample sizes over the Jordan sample's 21 days, a tenth of the pages per
// day, reusing the policy as the lab's runner does: ns per page-cycle,
// against the Cost site-greedy declares.
func BenchmarkSiteGreedyEq7Jordan(b *testing.B) {
	d := synth.AlQaaidehJordan(1)
	budget, cycles := len(d.Pages)/10, d.Truth.Cycles()
	env := refresh.Env{Repo: &d.Repository, Budget: budget, Rand: rand.New(rand.NewPCG(1, 1)), Params: param.Values{"sampleRule": RuleEq7}}
	s := NewSite(env, Greedy)
	sim := refresh.NewSim(d)
	var out []refresh.Cycle
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		i++
		sim.Reset()
		env.Rand = rand.New(rand.NewPCG(i, 1))
		s.Reuse(env)
		out = sim.Run(s, budget, cycles, out[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)*cycles), "ns/page-cycle")
}
