// Package measure times the lab's core, natively or under WebAssembly: the
// same code runs in make bench's own process and in its js/wasm measuring
// program (site/e2e/bench/pagecycle), so the two throughputs compare like
// with like.
package measure

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/lab"
)

// Jordan is the lesson-size bundled dataset every run measures.
const Jordan = "alqaaideh-jordan"

// Tan is the whole-paper-scale dataset (300,000 pages × 12 cycles) that
// the 2 s budget is about (every refresh policy within 2 s in the
// browser), measured when the lab bundles it.
const Tan = "tan-webarchive"

// PageCycle is one policy's throughput on one dataset.
type PageCycle struct {
	Dataset string  `json:"dataset"`
	Pages   int     `json:"pages"`
	Cycles  int     `json:"cycles"`
	Policy  string  `json:"policy"`
	Repeats int     `json:"repeats"`
	Ms      float64 `json:"ms"`      // time of the timed run
	NsPerPC float64 `json:"nsPerPC"` // Ms / (pages × cycles × repeats), in ns
	Error   string  `json:"error,omitempty"`
	CalibMs float64 `json:"calibMs"` // time of the first, one-repeat run
}

// All is every refresh policy, one repeat each, on one dataset.
type All struct {
	Dataset  string   `json:"dataset"`
	Pages    int      `json:"pages"`
	Cycles   int      `json:"cycles"`
	Policies []string `json:"policies"`
	Ms       float64  `json:"ms"`
	Error    string   `json:"error,omitempty"`
}

// Clustering is the time cluster sampling spends clustering a dataset on
// one feature set (cluster.Prepare with the paper's k = 100): work the lab
// does once per dataset and remembers, so the page-cycle figures leave it
// out.
type Clustering struct {
	Dataset string  `json:"dataset"`
	Pages   int     `json:"pages"`
	Set     string  `json:"set"`
	Ms      float64 `json:"ms"`
	Error   string  `json:"error,omitempty"`
}

// Report is what the js/wasm measuring program prints as JSON.
type Report struct {
	PageCycles []PageCycle  `json:"pageCycles"`
	All        []All        `json:"all"`
	Clustering []Clustering `json:"clustering"`
	// MLEPerSec is the irregular-interval MLE's throughput in histories of
	// MLEIntervals intervals per second (estimate.BenchmarkMLE's figure).
	MLEPerSec float64 `json:"mlePerSec"`
}

// MLEIntervals is the history length of the MLE budget.
const MLEIntervals = 20

// MLEHistories times estimate.MLE over estimate.BenchHistories, the loop of
// core/estimate's BenchmarkMLE, and returns histories per second, the best
// of three runs (a loaded machine makes a run slower, never faster).
func MLEHistories() float64 {
	hs := estimate.BenchHistories(1024, MLEIntervals, 1)
	var sink float64
	best := math.NaN()
	for range 3 {
		r := testing.Benchmark(func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				sink += estimate.MLE{}.Estimate(&hs[i%len(hs)]).Rate
			}
		})
		if r.T > 0 && !(float64(r.N)/r.T.Seconds() <= best) {
			best = float64(r.N) / r.T.Seconds()
		}
	}
	_ = sink
	return best
}

// ClusterDatasets lists the bundled datasets cluster sampling was made
// for (Tan et al.'s archive at both sizes), those the lab has.
func ClusterDatasets(l *lab.Lab) []dataset.Info {
	var out []dataset.Info
	for _, d := range l.Datasets() {
		if d.ID == Tan || d.ID == TanSmall {
			out = append(out, d)
		}
	}
	return out
}

// TanSmall is the lesson-size version of Tan.
const TanSmall = "tan-webarchive-small"

// ClusterSets lists the feature sets whose clustering depends on the
// repository alone (the dynamic set clusters the crawler's own copies
// during the run, so its time is in the page-cycle figures).
func ClusterSets() []string {
	var out []string
	for _, s := range cluster.FeatureSets {
		if s != cluster.SetDynamic {
			out = append(out, s)
		}
	}
	return out
}

// Clusterings times cluster.Prepare on d for each of ClusterSets, the
// best of three.
func Clusterings(l *lab.Lab, d dataset.Info) []Clustering {
	var out []Clustering
	ds, ok := l.Dataset(d.ID)
	for _, set := range ClusterSets() {
		c := Clustering{Dataset: d.ID, Pages: d.Pages, Set: set}
		if !ok {
			c.Error = "no dataset " + d.ID
			out = append(out, c)
			continue
		}
		best := time.Duration(-1)
		for range 3 {
			// Each Prepare builds everything anew; collect the last one's
			// garbage first, or under WebAssembly (4 GB at most, never
			// returned) the heap outgrows the memory.
			runtime.GC()
			el, err := cluster.Prepare(&ds.Repository, set, cluster.DefaultK)
			if err != nil {
				c.Error = err.Error()
				break
			}
			if best < 0 || el < best {
				best = el
			}
		}
		c.Ms = ms(best)
		out = append(out, c)
	}
	return out
}

// Datasets returns the datasets to measure: Jordan, the largest bundled
// dataset by page-cycles, and last Tan when the lab has it, since the
// whole-paper run (every policy at once, on the last) has its 2 s budget.
func Datasets(l *lab.Lab) []dataset.Info {
	var jordan, tan, largest dataset.Info
	for _, d := range l.Datasets() {
		if d.Source == "upload" {
			continue
		}
		switch d.ID {
		case Jordan:
			jordan = d
		case Tan:
			tan = d
		}
		if d.Pages*d.Cycles > largest.Pages*largest.Cycles {
			largest = d
		}
	}
	var out []dataset.Info
	for _, d := range []dataset.Info{jordan, largest, tan} {
		if d.ID == "" {
			continue
		}
		out = slices.DeleteFunc(out, func(o dataset.Info) bool { return o.ID == d.ID })
		out = append(out, d)
	}
	return out
}

// RefreshPolicies lists the ids of the lab's refresh policies.
func RefreshPolicies(l *lab.Lab) []string {
	var ids []string
	for _, p := range l.Policies() {
		if p.Kind == lab.KindRefresh {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// seed numbers the specs spec makes: each gets its own seed, so that no
// timed run is answered from what the lab remembers of an earlier one
// (lab.Lab keeps recent policy results).
var seed atomic.Uint64

func spec(d dataset.Info, repeats int, policies ...string) lab.Spec {
	s := lab.Spec{Kind: lab.KindRefresh, Dataset: lab.DatasetRef{ID: d.ID}, Repeats: repeats, Seed: seed.Add(1)}
	for _, p := range policies {
		s.Policies = append(s.Policies, lab.PolicySpec{ID: p})
	}
	return s
}

func timeRun(l *lab.Lab, s lab.Spec) (time.Duration, error) {
	t0 := time.Now()
	_, err := l.Run(s)
	return time.Since(t0), err
}

// next returns how many repeats should make a run last at least minDur,
// given that r repeats took el: as testing.B does, aim 20% past it and
// grow at most 100-fold at a time.
func next(r int, el, minDur time.Duration) int {
	want := int(math.Ceil(1.2 * float64(r) * float64(minDur) / float64(max(el, time.Microsecond))))
	return max(r+1, min(want, 100*r))
}

// maxRepeats is the most repeats of policy on d the lab's limits allow.
func maxRepeats(l *lab.Lab, d dataset.Info, policy string) int {
	cost := 1.0
	for _, p := range l.Policies() {
		if p.ID == policy && p.Cost > 0 {
			cost = p.Cost
		}
	}
	return min(lab.MaxRepeats, int(float64(lab.MaxWork.Nanoseconds())/(cost*float64(max(1, d.Pages*d.Cycles)))))
}

// Throughput times lab.Run of a one-policy spec on d with enough repeats to
// last at least minDur: it starts at one repeat and grows the repeats until
// a run is long enough or the lab's limits stop it, then keeps the fastest
// of three runs of that length (growing on if even that is well short).
func Throughput(l *lab.Lab, d dataset.Info, policy string, minDur time.Duration) PageCycle {
	pc := PageCycle{Dataset: d.ID, Pages: d.Pages, Cycles: d.Cycles, Policy: policy}
	limit := maxRepeats(l, d, policy)
	for r := 1; ; {
		el, err := timeRun(l, spec(d, r, policy))
		if err != nil {
			pc.Error = err.Error()
			return pc
		}
		if r == 1 {
			pc.CalibMs = ms(el)
		}
		if el >= minDur || r >= limit {
			// The best of three. When it falls well short of minDur, the
			// first was slowed by the neighbours: grow on.
			if el, err = fastest(l, el, 2, func() lab.Spec { return spec(d, r, policy) }); err != nil {
				pc.Error = err.Error()
				return pc
			}
			if el >= minDur*4/5 || r >= limit {
				pc.Repeats = r
				pc.Ms = ms(el)
				pc.NsPerPC = float64(el.Nanoseconds()) / float64(d.Pages*d.Cycles*r)
				return pc
			}
		}
		r = min(next(r, el, minDur), limit)
	}
}

// Every times a run of every refresh policy, one repeat each, on d (the
// best of three): the whole-paper-scale figure.
func Every(l *lab.Lab, d dataset.Info) All {
	ids := RefreshPolicies(l)
	a := All{Dataset: d.ID, Pages: d.Pages, Cycles: d.Cycles, Policies: ids}
	if _, ok := l.Dataset(d.ID); !ok {
		a.Error = fmt.Sprintf("no dataset %s", d.ID)
		return a
	}
	el, err := timeRun(l, spec(d, 1, ids...))
	if err == nil {
		el, err = fastest(l, el, 2, func() lab.Spec { return spec(d, 1, ids...) })
	}
	if err != nil {
		a.Error = err.Error()
		return a
	}
	a.Ms = ms(el)
	return a
}

// fastest returns the fastest of el and more timed runs, each of a fresh
// spec from mk: on a shared machine the slow runs measure the neighbours.
func fastest(l *lab.Lab, el time.Duration, more int, mk func() lab.Spec) (time.Duration, error) {
	for range more {
		again, err := timeRun(l, mk())
		if err != nil {
			return 0, err
		}
		el = min(el, again)
	}
	return el, nil
}

// Run measures every refresh policy on every dataset of Datasets, every
// policy at once on the largest, and the clusterings of ClusterDatasets.
func Run(l *lab.Lab, minDur time.Duration) Report {
	var r Report
	ds := Datasets(l)
	for _, d := range ds {
		// Generate the dataset and warm every policy up before timing.
		l.Run(spec(d, 1, RefreshPolicies(l)...))
		for _, p := range RefreshPolicies(l) {
			r.PageCycles = append(r.PageCycles, Throughput(l, d, p, minDur))
		}
	}
	if len(ds) > 0 {
		r.All = append(r.All, Every(l, ds[len(ds)-1]))
	}
	for _, d := range ClusterDatasets(l) {
		r.Clustering = append(r.Clustering, Clusterings(l, d)...)
	}
	r.MLEPerSec = MLEHistories()
	return r
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// Quantile returns the q-quantile (0..1) of xs by the nearest-rank method.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
