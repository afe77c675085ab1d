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
}

// NewPlan returns a Plan for n groups, Order 0, 1, …, n−1.
func NewPlan(n int) *Plan {
	p := &Plan{Order: make([]int, n), Est: make([]float64, n), Left: make([]int, n), Quota: make([]int, n), add: make([]int, n)}
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
	if alloc == Greedy {
		// Order is random, so a stable sort breaks ties at random.
		slices.SortStableFunc(p.Order, func(a, b int) int {
			switch {
			case p.Est[a] > p.Est[b]:
				return -1
			case p.Est[a] < p.Est[b]:
				return 1
			}
			return 0
		})
		for _, w := range p.Order {
			p.Quota[w] = min(max(p.Left[w], 0), d)
			d -= p.Quota[w]
		}
		return
	}
	byEstimate := func(w int) float64 { return max(p.Est[w], 0) }
	byPages := func(w int) float64 { return float64(p.Left[w] - p.Quota[w]) }
	for d > 0 {
		given := p.share(d, byEstimate)
		if given == 0 {
			// Every group with a positive estimate is exhausted: share the
			// rest by the pages left.
			if given = p.share(d, byPages); given == 0 {
				return
			}
		}
		d -= given
	}
}

// share adds to Quota d pages split in proportion to weight among the
// groups that still have pages to give, by largest remainder (ties in
// Order's order), each capped at what the group has left. It returns how
// many pages it gave: 0 when no group with pages left has a positive
// weight.
func (p *Plan) share(d int, weight func(w int) float64) int {
	var total float64
	open := func(w int) bool { return p.Left[w] > p.Quota[w] && weight(w) > 0 }
	for _, w := range p.Order {
		if open(w) {
			total += weight(w)
		}
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
		if !open(w) {
			continue
		}
		q := weight(w) * float64(d) / total
		fl := math.Floor(q)
		p.add[w] = int(fl)
		floor += int(fl)
		rems = append(rems, remainder{w, q - fl})
	}
	slices.SortStableFunc(rems, func(a, b remainder) int {
		switch {
		case a.frac > b.frac:
			return -1
		case a.frac < b.frac:
			return 1
		}
		return 0
	})
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

// remainder is a group's fractional share in a largest-remainder split.
type remainder struct {
	w    int
	frac float64
}
