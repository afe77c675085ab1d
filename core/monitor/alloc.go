package monitor

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/internal/apportion"
)

// Allocation is the y of §2: Allocation[i] lists, ascending, the instants j
// at which page i is monitored (y_{i,j} = 1), so x_i = len(Allocation[i]).
type Allocation [][]int32

// Tasks returns Σ_i x_i, the monitoring tasks the allocation uses.
func (a Allocation) Tasks() int {
	n := 0
	for _, js := range a {
		n += len(js)
	}
	return n
}

// Policy decides an epoch's allocation from what it is told: the weights
// and the update probabilities of in (the truth in the paper's §5.2–5.4
// setting, a tracking phase's estimates otherwise) and a budget of C tasks.
// rng is for the policies that draw (the baselines' phases); the same rng
// state gives the same allocation.
type Policy interface {
	Allocate(in *Instance, budget int, rng *rand.Rand) (Allocation, error)
}

// checkPlan reports a plan the policies cannot allocate on.
func checkPlan(in *Instance, budget int) error {
	if err := in.Validate(); err != nil {
		return err
	}
	if in.Rho == nil {
		return fmt.Errorf("monitor: allocate: no update probabilities to plan with")
	}
	if budget < 0 {
		return fmt.Errorf("monitor: allocate: budget %d: expected a number of tasks ≥ 0", budget)
	}
	return nil
}

// CAM is the optimal resource allocation of §3.2: it maximises the expected
// returned information Σ_i W_i Σ_j ρ_{i,j} y_{i,j} under Σ y = C.
//
// The problem is discrete, separable and concave in each page's x_i (the
// paper minimises the convex lost information; the same thing): page i's
// best value with x tasks, F_i(x) = W_i × (the sum of its x largest ρ), has
// non-increasing increments. For such problems the greedy of marginal
// analysis (Fox 1966, the paper's reference [7]) is optimal: give each task
// in turn to the page whose next task gains most, W_i times its largest
// ρ not yet monitored; the instants so chosen are the y_{i,j}. Ties
// between pages go to the lower page. Ties between a page's instants (a
// flat stretch of its profile, or a uniform one) leave RIR the same
// whichever is taken, but not what is returned under complete loss: tasks
// bunched at the start of a flat stretch return little of its later
// changes. So among equal ρ a page's instants are taken in bit-reversed
// order of their index (0, p/2, p/4, 3p/4, … for p a power of two), whose
// every prefix is spread evenly over the epoch.
//
// The paper assumes the C tasks "are all used up". When C exceeds the
// instants worth monitoring (W·ρ > 0), the tasks left gain nothing by the
// plan's ρ, and any place for them is optimal; CAM spreads them as
// weighted uniform spreads its tasks, over the instants not yet monitored
// of the pages with W > 0: a largest-remainder split in proportion to W_i
// (ties to the lower page), each page's share evenly over its free
// instants in the middle of their runs (Spread with phase ½). When ρ is a
// tracking phase's estimate, its zeros are often only unobserved changes,
// and these tasks are what observes them again (§5.5). Only when every
// instant of every page with W > 0 is monitored does CAM use fewer than C.
type CAM struct{}

// Allocate implements Policy.
func (CAM) Allocate(in *Instance, budget int, _ *rand.Rand) (Allocation, error) {
	if err := checkPlan(in, budget); err != nil {
		return nil, err
	}
	n, p := in.Pages(), in.Instants()
	// Each page's instants worth monitoring in a max-heap, largest ρ first
	// (ties by bit-reversed index): built in linear time when the page
	// first gets a task, and popped only as far as the budget reaches, so
	// a page's instants are never all sorted, and most pages' never looked
	// at twice. Until then a page's next gain is W_i times its largest ρ.
	rev := make([]uint32, p)
	for j := range rev {
		rev[j] = bitReversed(int32(j), p)
	}
	first := func(row []float64) func(a, b int32) bool {
		return func(a, b int32) bool { return row[a] > row[b] || row[a] == row[b] && rev[a] < rev[b] }
	}
	cand := make([][]int32, n)
	built := make([]bool, n)
	top := make([]float64, n) // the largest ρ of a page not yet built
	build := func(i int32) {
		row := in.Rho[i]
		var js []int32
		for j, r := range row {
			if r > 0 {
				js = append(js, int32(j))
			}
		}
		f := first(row)
		for k := len(js)/2 - 1; k >= 0; k-- {
			siftDown(js, k, f)
		}
		cand[i], built[i] = js, true
	}
	// A max-heap of pages by the gain of their next task.
	gain := func(i int32) float64 {
		if !built[i] {
			return in.Weight[i] * top[i]
		}
		return in.Weight[i] * in.Rho[i][cand[i][0]]
	}
	before := func(a, b int32) bool {
		ga, gb := gain(a), gain(b)
		return ga > gb || ga == gb && a < b
	}
	h := make([]int32, 0, n)
	for i := range n {
		if in.Weight[i] == 0 {
			continue
		}
		top[i] = slices.Max(in.Rho[i])
		if top[i] > 0 {
			h = append(h, int32(i))
		}
	}
	for k := len(h)/2 - 1; k >= 0; k-- {
		siftDown(h, k, before)
	}
	a := make(Allocation, n)
	for t := 0; t < budget && len(h) > 0; t++ {
		i := h[0]
		if !built[i] {
			build(i)
		}
		js := cand[i]
		a[i] = append(a[i], js[0])
		js[0] = js[len(js)-1]
		js = js[:len(js)-1]
		siftDown(js, 0, first(in.Rho[i]))
		cand[i] = js
		if len(js) == 0 {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		siftDown(h, 0, before)
	}
	if left := budget - a.Tasks(); left > 0 {
		spendLeft(in, a, left)
	}
	for _, js := range a {
		slices.Sort(js)
	}
	return a, nil
}

// spendLeft adds left tasks to a on instants it does not monitor, as CAM
// documents.
func spendLeft(in *Instance, a Allocation, left int) {
	n, p := in.Pages(), in.Instants()
	free := make([][]int32, n)
	limit := make([]int, n)
	order := make([]int, n)
	used := make([]bool, p)
	for i := range n {
		order[i] = i
		if in.Weight[i] == 0 {
			continue
		}
		clear(used)
		for _, j := range a[i] {
			used[j] = true
		}
		for j := range p {
			if !used[j] {
				free[i] = append(free[i], int32(j))
			}
		}
		limit[i] = len(free[i])
	}
	x := make([]int, n)
	var scratch []apportion.Portion
	apportion.Split(left, order, in.Weight, limit, x, &scratch)
	for i, xi := range x {
		for _, k := range Spread(xi, len(free[i]), 0.5) {
			a[i] = append(a[i], free[i][k])
		}
	}
}

// bitReversed returns j's bits, as many as index p − 1 needs, in reverse
// order: distinct for distinct j < p, and ordering 0, …, p−1 so that any
// first 2^k of a power-of-two p are evenly spaced.
func bitReversed(j int32, p int) uint32 {
	k := bits.Len(uint(max(p-1, 1)))
	return bits.Reverse32(uint32(j)) >> (32 - k)
}

// siftDown restores the heap order below position k.
func siftDown(h []int32, k int, before func(a, b int32) bool) {
	for {
		c := 2*k + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && before(h[c+1], h[c]) {
			c++
		}
		if !before(h[c], h[k]) {
			return
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
}

// Share is one of the baselines of §5.1, after Cho & Garcia-Molina
// (SIGMOD 2000) and, weighted, Wolf et al. (WWW 2002): page i gets x_i
// tasks in proportion to W_i (Weighted), to λ_i (Proportional), to W_i·λ_i
// (both) or equally (neither).
//
// The x_i are whole numbers summing to C, each at most the number of
// instants: the largest-remainder split of C in those proportions, a page
// whose share exceeds its instants getting all of them and the others
// sharing the rest; ties for a last task go in a random order (drawn from
// rng). A page of share 0 gets no task.
//
// Where in the epoch the tasks go: the baselines know a page's rate, not
// when it tends to change ("the uniform and proportional policies do not
// take into account the granularity of update instants", §5.3), so each
// page's x tasks are spread evenly over the epoch's instants with a random
// phase φ drawn for the page, uniform in [0, 1): the instants
// ⌊(k + φ)·p/x⌋ for k = 0, …, x−1, p the number of instants — one in
// each of x equal runs of instants, the same place in each, as
// Cho & Garcia-Molina's evenly spaced syncs with a random phase.
type Share struct {
	Weighted, Proportional bool
}

// Allocate implements Policy.
func (s Share) Allocate(in *Instance, budget int, rng *rand.Rand) (Allocation, error) {
	if err := checkPlan(in, budget); err != nil {
		return nil, err
	}
	n, p := in.Pages(), in.Instants()
	weight := make([]float64, n)
	limit := make([]int, n)
	for i := range weight {
		w := 1.0
		if s.Weighted {
			w = in.Weight[i]
		}
		if s.Proportional {
			w *= in.Lambda(i)
		}
		weight[i] = w
		limit[i] = p
	}
	x := make([]int, n)
	var scratch []apportion.Portion
	apportion.Split(budget, rng.Perm(n), weight, limit, x, &scratch)
	a := make(Allocation, n)
	for i, xi := range x {
		a[i] = Spread(xi, p, rng.Float64())
	}
	return a, nil
}

// Spread returns x instants of p spread evenly with phase φ ∈ [0, 1):
// ⌊(k + φ)·p/x⌋ for k = 0, …, x−1, ascending and distinct when x ≤ p
// (consecutive ones are p/x ≥ 1 apart before rounding down). It is
// computed as ⌊(k·p + ⌊φ·p⌋)/x⌋, the same number in whole arithmetic, so
// rounding cannot merge two tasks.
func Spread(x, p int, phi float64) []int32 {
	if x <= 0 {
		return nil
	}
	f := min(int(phi*float64(p)), p-1)
	js := make([]int32, x)
	for k := range js {
		js[k] = int32((k*p + f) / x)
	}
	return js
}

// Descriptor names an allocation policy and documents it, for a catalog.
type Descriptor struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Paper   string `json:"paper"`
	Summary string `json:"summary"`
	// UsesWeights and UsesRates say what the policy plans from: the page
	// weights W_i, and the update probabilities (ρ, or only λ).
	UsesWeights bool   `json:"usesWeights"`
	UsesRates   bool   `json:"usesRates"`
	Policy      Policy `json:"-"`
}

const pandey = "Pandey, Ramamritham & Chakrabarti, Monitoring the Dynamic Web to respond to Continuous Queries (WWW 2003)"

// Descriptors lists the allocation policies: CAM, then the weighted and the
// unweighted baselines of §5.1.
func Descriptors() []Descriptor {
	return []Descriptor{
		{ID: "cam", Name: "CAM (optimal allocation)", Paper: pandey + ", §3.2", UsesWeights: true, UsesRates: true, Policy: CAM{},
			Summary: "Spends each task where it returns most expected information: the instants with the largest W_i·ρ_ij (the greedy of marginal analysis). It may leave most pages unmonitored."},
		{ID: "weighted-proportional", Name: "Weighted proportional", Paper: pandey + ", §5.1 (after Wolf et al. 2002)", UsesWeights: true, UsesRates: true, Policy: Share{Weighted: true, Proportional: true},
			Summary: "Gives page i tasks in proportion to W_i·λ_i, spread evenly over the epoch: it knows how often a page changes, not when."},
		{ID: "weighted-uniform", Name: "Weighted uniform", Paper: pandey + ", §5.1 (after Wolf et al. 2002)", UsesWeights: true, Policy: Share{Weighted: true},
			Summary: "Gives page i tasks in proportion to its weight W_i alone, spread evenly over the epoch."},
		{ID: "proportional", Name: "Proportional", Paper: pandey + ", §5.1 (after Cho & Garcia-Molina 2000)", UsesRates: true, Policy: Share{Proportional: true},
			Summary: "Gives page i tasks in proportion to its change frequency λ_i, spread evenly over the epoch; weights are ignored."},
		{ID: "uniform", Name: "Uniform", Paper: pandey + ", §5.1 (after Cho & Garcia-Molina 2000)", Policy: Share{},
			Summary: "Gives every page the same number of tasks, spread evenly over the epoch."},
	}
}
