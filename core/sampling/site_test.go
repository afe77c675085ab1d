package sampling

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"
)

// zTolerance is how many standard errors a simulated mean may stray from
// its exact expectation: a correct implementation fails a test this way
// with probability about 6e-5.
const zTolerance = 4

// newPlanned returns a Site over sites of the given sizes whose samples of
// size z found x[w] changed pages, with sites in the given order.
func newPlanned(alloc Allocation, sizes, z, x []int) *Site {
	ns := len(sizes)
	s := &Site{
		alloc: alloc, pages: make([][]int32, ns), order: make([]int, ns), sampled: make([]int, ns),
		changed: make([]int, ns), est: make([]float64, ns), quota: make([]int, ns), add: make([]int, ns),
	}
	for w := range ns {
		s.pages[w] = make([]int32, sizes[w])
		s.order[w] = w
		s.sampled[w] = z[w]
		s.est[w] = float64(x[w]) / float64(z[w])
	}
	return s
}

// TestPlanWorkedExamples checks the allocations of the papers' worked
// examples when the samples show the sites' true fractions.
func TestPlanWorkedExamples(t *testing.T) {
	tests := []struct {
		name      string
		alloc     Allocation
		x         []int // changed pages in each 10-page sample
		k         []int // changed pages in each 100-page site
		wantQuota []int
		wantFound float64 // changed pages among the quota downloads
	}{
		// Al-Qaaideh §2.5.4: greedy sends all 80 downloads to the first
		// site and finds 80·7/10 = 56 changed pages.
		{"alqaaideh greedy", Greedy, []int{7, 4}, []int{70, 40}, []int{80, 0}, 56},
		// Proportional: 80·7/11 → 51 and 80·4/11 → 29, finding
		// 51·63/90 + 29·36/90 = 47.3 (the text rounds each term: 36+12 = 48).
		{"alqaaideh proportional", Proportional, []int{7, 4}, []int{70, 40}, []int{51, 29}, 51.0*63/90 + 29.0*36/90},
		// Taleghani §2.3.1: all 80 to site A; (10 + 80·63/90)/100 = 0.66.
		{"taleghani greedy", Greedy, []int{7, 3}, []int{70, 30}, []int{80, 0}, 56},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newPlanned(tt.alloc, []int{100, 100}, []int{10, 10}, tt.x)
			s.plan(80)
			found := 0.0
			for w, q := range s.quota {
				if q != tt.wantQuota[w] {
					t.Errorf("quota[%d] = %d, want %d", w, q, tt.wantQuota[w])
				}
				found += float64(q) * float64(tt.k[w]-tt.x[w]) / 90
			}
			if math.Abs(found-tt.wantFound) > 1e-9 {
				t.Errorf("expected changed pages found = %v, want %v", found, tt.wantFound)
			}
		})
	}
}

func TestPlanProportionalCapsAndSpills(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
		x     []int
		d     int
		want  []int
	}{
		// The first site has only 15 unsampled pages; its excess goes to the
		// others in proportion to their estimates (2:1).
		{"cap", []int{20, 100, 100}, []int{5, 2, 1}, 60, []int{15, 30, 15}},
		// No sample found a change: share by unsampled pages.
		{"all zero", []int{30, 60}, []int{0, 0}, 30, []int{9, 21}},
		// The only site with changes runs out; the rest goes by pages.
		{"spill to zero sites", []int{10, 50, 50}, []int{5, 0, 0}, 40, []int{5, 18, 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z := make([]int, len(tt.sizes))
			for i := range z {
				z[i] = 5
			}
			s := newPlanned(Proportional, tt.sizes, z, tt.x)
			s.plan(tt.d)
			total := 0
			for w, q := range s.quota {
				total += q
				if q > tt.sizes[w]-z[w] {
					t.Errorf("quota[%d] = %d exceeds the %d unsampled pages", w, q, tt.sizes[w]-z[w])
				}
			}
			if total != tt.d {
				t.Errorf("quotas sum to %d, want the whole budget %d", total, tt.d)
			}
			for w := range tt.want {
				if s.quota[w] != tt.want[w] {
					t.Errorf("quota = %v, want %v", s.quota, tt.want)
					break
				}
			}
		})
	}
}

// twoSiteExpectation derives, independently of ExpectedChangeRatio, the
// expected changed pages a greedy or proportional policy finds among its
// non-sample downloads on two sites of 100 pages with k[0] and k[1] changed,
// sampling 10 pages of each and downloading d more: it sums over the
// hypergeometric outcomes of the two samples.
func twoSiteExpectation(alloc Allocation, k [2]int, d int) (beyond, sample float64) {
	pmf := func(k, x int) float64 { return hypergeometricPMF(100, k, 10, x) }
	for x0 := 0; x0 <= 10; x0++ {
		for x1 := 0; x1 <= 10; x1++ {
			p := pmf(k[0], x0) * pmf(k[1], x1)
			if p == 0 {
				continue
			}
			r0 := float64(k[0]-x0) / 90 // change fraction left unsampled
			r1 := float64(k[1]-x1) / 90
			var found float64
			switch {
			case alloc == Greedy && x0 > x1:
				found = float64(d) * r0
			case alloc == Greedy && x0 < x1:
				found = float64(d) * r1
			case alloc == Greedy: // a tie: either site first, at random
				found = float64(d) * (r0 + r1) / 2
			case x0+x1 == 0: // proportional, no change seen: share by pages
				found = float64(d/2)*r0 + float64(d-d/2)*r1
			default: // proportional: largest remainder of d·x/(x0+x1)
				q0 := float64(d) * float64(x0) / float64(x0+x1)
				n0 := math.Floor(q0)
				if q0-n0 > 0.5 {
					n0++
				}
				found = n0*r0 + (float64(d)-n0)*r1
			}
			beyond += p * found
			sample += p * float64(x0+x1)
		}
	}
	return beyond, sample
}

// simulate runs one cycle of site sampling on d repeats times and returns
// the changed pages found beyond the samples and the ChangeRatio, per repeat.
func simulate(t *testing.T, d *dataset.Dataset, alloc Allocation, budget, size, repeats int, seed uint64) (beyond, ratio []float64) {
	t.Helper()
	sim := refresh.NewSim(d)
	var cycles []refresh.Cycle
	for r := range repeats {
		sim.Reset()
		s := NewSite(refresh.Env{
			Repo: &d.Repository, Budget: budget, Cycles: 1,
			Rand: rand.New(rand.NewPCG(seed, uint64(r))), Params: param.Values{"sampleSize": float64(size)},
		}, alloc)
		cycles = sim.Run(s, budget, 1, cycles[:0])
		inSample := 0
		for _, c := range s.changed {
			inSample += c
		}
		beyond = append(beyond, float64(cycles[0].Changed-inSample))
		ratio = append(ratio, cycles[0].ChangeRatio())
	}
	return beyond, ratio
}

// hypergeometricPMF is the textbook C(k,x)·C(n−k,z−x)/C(n,z), computed
// through log-gamma: an independent check of hypergeometric.
func hypergeometricPMF(n, k, z, x int) float64 {
	if x < 0 || x > z || x > k || z-x > n-k {
		return 0
	}
	lchoose := func(n, k int) float64 {
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		c, _ := math.Lgamma(float64(n - k + 1))
		return a - b - c
	}
	return math.Exp(lchoose(k, x) + lchoose(n-k, z-x) - lchoose(n, z))
}

func TestHypergeometric(t *testing.T) {
	for _, c := range []struct{ n, k, z int }{{100, 70, 10}, {100, 30, 10}, {10, 10, 3}, {10, 0, 3}, {528, 17, 50}, {5000, 2500, 300}, {1, 1, 1}} {
		p := hypergeometric(c.n, c.k, c.z)
		lo := max(0, c.z-(c.n-c.k))
		sum := 0.0
		for i, v := range p {
			sum += v
			want := hypergeometricPMF(c.n, c.k, c.z, lo+i)
			if math.Abs(v-want) > 1e-12*math.Max(1, want) {
				t.Errorf("hypergeometric%v[x=%d] = %g, want %g", c, lo+i, v, want)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("hypergeometric%v sums to %v", c, sum)
		}
	}
}

func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// TestTaleghaniSiteGreedyGolden reproduces Taleghani §2.3.1: greedy site
// sampling with 10-page samples on the 2-site × 5-category example. The
// paper's 0.66 assumes the samples show the true fractions (0.7 and 0.3);
// real samples sometimes rank site B first, so the expectation is lower.
func TestTaleghaniSiteGreedyGolden(t *testing.T) {
	d := synth.TaleghaniExample(1)
	beyond, sample := twoSiteExpectation(Greedy, [2]int{70, 30}, 80)
	want := (beyond + sample) / 100
	got, err := ExpectedChangeRatio(d, 100, 10, Greedy)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("ExpectedChangeRatio = %.12f, independent derivation %.12f", got, want)
	}
	if want < 0.64 || want > 0.66 {
		t.Fatalf("derived expectation %.4f is not a little below the paper's 0.66", want)
	}
	t.Logf("exact expected ChangeRatio %.5f (paper, exact samples: 0.66)", want)

	_, ratio := simulate(t, d, Greedy, 100, 10, 20000, 7)
	mean, se := meanSE(ratio)
	if math.Abs(mean-want) > zTolerance*se {
		t.Errorf("simulated ChangeRatio %.5f ± %.5f (SE), want %.5f within %d SE", mean, se, want, zTolerance)
	}
}

// TestAlQaaidehGreedyVsProportionalGolden reproduces Al-Qaaideh §2.5.4:
// changed pages among the 80 downloads after sampling, greedy (56 when the
// samples show 7 and 4) against proportional (about 48).
func TestAlQaaidehGreedyVsProportionalGolden(t *testing.T) {
	d := synth.AlQaaidehExample(1)
	for _, tc := range []struct {
		alloc Allocation
		near  float64 // the paper's figure, for the log and a sanity bound
	}{{Greedy, 56}, {Proportional, 48}} {
		want, sample := twoSiteExpectation(tc.alloc, [2]int{70, 40}, 80)
		exact, err := ExpectedChangeRatio(d, 100, 10, tc.alloc)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(exact-(want+sample)/100) > 1e-12 {
			t.Fatalf("alloc %d: ExpectedChangeRatio = %.12f, independent derivation %.12f", tc.alloc, exact, (want+sample)/100)
		}
		// Samples that misrank the sites only lose changes, so the
		// expectation sits a little below the paper's figure.
		if want > tc.near || want < tc.near-3 {
			t.Fatalf("alloc %d: derived expectation %.3f is not a little below the paper's %v", tc.alloc, want, tc.near)
		}
		beyond, _ := simulate(t, d, tc.alloc, 100, 10, 20000, 11)
		mean, se := meanSE(beyond)
		t.Logf("alloc %d: exact %.4f changed pages beyond the samples, simulated %.4f ± %.4f (paper %v)", tc.alloc, want, mean, se, tc.near)
		if math.Abs(mean-want) > zTolerance*se {
			t.Errorf("alloc %d: simulated %.4f ± %.4f (SE), want %.4f within %d SE", tc.alloc, mean, se, want, zTolerance)
		}
	}
}

func TestDefaultSampleSize(t *testing.T) {
	tests := []struct{ pages, groups, budget, want int }{
		{200, 2, 100, 7},  // √(100·0.5) = 7.07
		{1140, 9, 114, 4}, // √(126.7·0.1) = 3.56
		{300000, 210, 30000, 12},
		{10, 10, 1, 1}, // never below one page
		{0, 0, 10, 1},
	}
	for _, tt := range tests {
		if got := DefaultSampleSize(tt.pages, tt.groups, tt.budget); got != tt.want {
			t.Errorf("DefaultSampleSize(%d, %d, %d) = %d, want %d", tt.pages, tt.groups, tt.budget, got, tt.want)
		}
	}
}
