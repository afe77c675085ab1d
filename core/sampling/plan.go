package sampling

import (
	"math"
	"slices"
)

// Plan shares the downloads left after sampling among groups of pages
// (sites here; categories in core/category) from their estimated change
// fractions, greedily or proportionally. Site and category sampling both
// allocate through it, so on disjoint groups they allocate identically.
//
// The caller fills Order, Est and Left and calls Share; Quota holds the
// answer. A Plan allocates only in NewPlan.
type Plan struct {
	// Order lists the groups, normally in a random order drawn each cycle:
	// ties break in this order. Share with Greedy sorts it by Est, so the
	// caller can then serve the groups in Order.
	Order []int
	// Est is each group's estimated change fraction, negative for a group
	// that was not sampled (it ranks below every sampled one).
	Est []float64
	// Left is how many pages each group can still give.
	Left []int
	// Quota is, after Share, how many pages to download from each group.
	Quota []int

	add  []int
	rems []remainder
	// After Share: the groups whose order in Order decided the quotas
	// (see decided); tied says a proportional split met a tie, ranked
	// which groups entered one.
	decides []int
	tied    bool
	ranked  []bool
	wt      []float64 // each group's weight in the split at hand
}

// NewPlan returns a Plan for n groups, Order 0, 1, …, n−1.
func NewPlan(n int) *Plan {
	p := &Plan{Order: make([]int, n), Est: make([]float64, n), Left: make([]int, n), Quota: make([]int, n), add: make([]int, n), ranked: make([]bool, n), wt: make([]float64, n)}
	for w := range p.Order {
		p.Order[w] = w
	}
	return p
}

// Share sets Quota for a budget of d downloads:
//
//   - Greedy: groups in decreasing order of Est (ties in Order's order;
//     Order is sorted so), each given all it has left before the next, until
//     d is spent (Al-Qaaideh §2.5.3; Taleghani §2.1).
//   - Proportional: group w gets Est_w·d / Σ Est (Al-Qaaideh §2.5.2),
//     rounded by largest remainder so the quotas sum to d (ties in Order's
//     order), each capped at what the group has left and the excess shared
//     among the others by the same rule; when every group with a positive
//     estimate is exhausted, what is left is shared in proportion to the
//     pages the groups have left.
func (p *Plan) Share(alloc Allocation, d int) {
	clear(p.Quota)
	p.decides, p.tied = p.decides[:0], false
	if alloc == Greedy {
		// Order is random, so a stable sort breaks ties at random.
		p.sortOrder()
		for i, w := range p.Order {
			if d > 0 && (i == 0 || p.Est[w] != p.Est[p.Order[i-1]]) {
				p.markTie(i, d)
			}
			p.Quota[w] = min(max(p.Left[w], 0), d)
			d -= p.Quota[w]
		}
		return
	}
	if len(p.ranked) < len(p.Quota) {
		p.ranked = make([]bool, len(p.Quota))
		p.wt = make([]float64, len(p.Quota))
	}
	clear(p.ranked)
	for d > 0 {
		given := p.share(d, false)
		if given == 0 {
			// Every group with a positive estimate is exhausted: share the
			// rest by the pages left.
			if given = p.share(d, true); given == 0 {
				break
			}
		}
		d -= given
	}
	if p.tied {
		// The groups that entered a split are the same whatever Order
		// (those with a positive estimate and pages left, and, when they
		// cannot take every download, those with pages left); Order only
		// ranks them among themselves.
		for w, in := range p.ranked {
			if in {
				p.decides = append(p.decides, w)
			}
		}
	}
}

// markTie records, for Greedy, the block of equal estimates starting at
// position i of the sorted Order if it straddles the end of the d
// downloads left: then the order within the block decides which of its
// groups are served, the only place Order decides anything.
func (p *Plan) markTie(i, d int) {
	j, left, open := i, 0, 0
	for ; j < len(p.Order) && p.Est[p.Order[j]] == p.Est[p.Order[i]]; j++ {
		if l := p.Left[p.Order[j]]; l > 0 {
			left += l
			open++
		}
	}
	if open > 1 && left > d {
		p.decides = append(p.decides, p.Order[i:j]...)
	}
}

// share adds to Quota d pages split in proportion to each group's weight
// (its estimate, or with byPages the pages it has left) among the groups
// that still have pages to give, by largest remainder (ties in Order's
// order), each capped at what the group has left. It returns how many
// pages it gave: 0 when no group with pages left has a positive weight.
func (p *Plan) share(d int, byPages bool) int {
	// Summed in the groups' own order, not Order's, so that the shares do
	// not depend on Order to the last bit.
	var total float64
	for w := range p.Left {
		room := p.Left[w] - p.Quota[w]
		x := 0.0
		if room > 0 {
			if byPages {
				x = float64(room)
			} else if e := p.Est[w]; e > 0 || e != e {
				x = e // max(e, 0), spelled out: the builtin is a call in wasm
			}
		}
		p.wt[w] = x
		total += x
	}
	if total <= 0 {
		return 0
	}
	if len(p.add) < len(p.Quota) {
		p.add = make([]int, len(p.Quota))
	}
	rems := p.rems[:0]
	floor := 0
	for _, w := range p.Order {
		if p.wt[w] <= 0 {
			continue
		}
		q := p.wt[w] * float64(d) / total
		fl := math.Floor(q)
		p.add[w] = int(fl)
		floor += int(fl)
		rems = append(rems, remainder{w, q - fl})
	}
	sortRems(rems)
	for _, r := range rems {
		p.ranked[r.w] = true
	}
	if extra := d - floor; extra > 0 && extra < len(rems) && rems[extra-1].frac == rems[extra].frac {
		// Order broke a tie for the last extra unit. It matters unless
		// every tied group is full without the unit.
		f := rems[extra].frac
		for _, r := range rems {
			if r.frac == f && p.add[r.w] < p.Left[r.w]-p.Quota[r.w] {
				p.tied = true
				break
			}
		}
	}
	for i := 0; floor < d && i < len(rems); i++ {
		p.add[rems[i].w]++
		floor++
	}
	given := 0
	for _, r := range rems {
		w := r.w
		n := min(p.add[w], p.Left[w]-p.Quota[w])
		p.Quota[w] += n
		given += n
		p.add[w] = 0
	}
	p.rems = rems
	return given
}

// decided returns the groups whose relative order in Order decided the
// quotas of the last Share, none when Order decided nothing: with Greedy,
// a block of equal estimates straddling the end of the budget; with
// Proportional, when a tie for the last unit of a largest-remainder split
// was broken by Order, every group that entered a split. Any order of the
// others gives the same quotas, so ExpectGroups averages over the orders
// of these alone.
func (p *Plan) decided() []int { return p.decides }

// smallSort is the length up to which Share sorts by insertion: the
// exact expectations call it for every outcome of at most six groups,
// where a closure-driven library sort costs more than the sorting.
const smallSort = 16

// sortOrder sorts Order by decreasing Est, stably.
func (p *Plan) sortOrder() {
	o, est := p.Order, p.Est
	if len(o) > smallSort {
		slices.SortStableFunc(o, func(a, b int) int { return descending(est[a], est[b]) })
		return
	}
	for i := 1; i < len(o); i++ {
		w := o[i]
		j := i
		for ; j > 0 && est[o[j-1]] < est[w]; j-- {
			o[j] = o[j-1]
		}
		o[j] = w
	}
}

// descending orders a before b when it is larger.
func descending(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// sortRems sorts rems by decreasing frac, stably.
func sortRems(rems []remainder) {
	if len(rems) > smallSort {
		slices.SortStableFunc(rems, func(a, b remainder) int { return descending(a.frac, b.frac) })
		return
	}
	for i := 1; i < len(rems); i++ {
		r := rems[i]
		j := i
		for ; j > 0 && rems[j-1].frac < r.frac; j-- {
			rems[j] = rems[j-1]
		}
		rems[j] = r
	}
}

// remainder is a group's fractional share in a largest-remainder split.
type remainder struct {
	w    int
	frac float64
}
