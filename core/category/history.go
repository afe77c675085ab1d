package category

// history is a category's change history, §7.1.1's proposal to "combine
// our method with the frequency-based policy": "if we obtain the history
// of change for a category, we might be able to eliminate this problem by
// having an estimate on the change of a category".
//
// Our reading: each category keeps the downloads of its pages in earlier
// cycles (samples and refreshes alike), how many of them found a change,
// and their exposure, the cycles each downloaded page had been left since
// its previous download. Its past rate is changes per page-cycle of
// exposure (the naive estimator, at most one change seen per download),
// and its predicted change fraction now is that rate times the mean
// cycles since its pages were last downloaded, at most 1: what the
// frequency-based policy would predict for a page of the category, in
// plain arithmetic (an exponential would differ in its last bit between
// native code and WebAssembly). The prediction follows a category the
// crawler has left alone for a while, which a plain past change ratio
// would not.
type history struct {
	sets *Sets
	last []int32 // per page: the cycle of its last download, −1 before any
	// per category: Σ last over its pages; changes and exposure of
	// earlier cycles' downloads; the same for this cycle, folded in at
	// the next.
	sumLast        []int64
	chg, exp       []int64
	cycChg, cycExp []int64
}

func newHistory(sets *Sets) *history {
	nc := sets.Len()
	h := &history{sets: sets, last: make([]int32, sets.Pages), sumLast: make([]int64, nc),
		chg: make([]int64, nc), exp: make([]int64, nc), cycChg: make([]int64, nc), cycExp: make([]int64, nc)}
	h.reset()
	return h
}

// reset forgets every download.
func (h *history) reset() {
	for p := range h.last {
		h.last[p] = -1
	}
	for i := range h.sumLast {
		h.sumLast[i] = -int64(len(h.sets.Category(i)))
	}
	clear(h.chg)
	clear(h.exp)
	clear(h.cycChg)
	clear(h.cycExp)
}

// fold adds the last cycle's downloads to the history, at the start of a
// cycle.
func (h *history) fold() {
	for i := range h.chg {
		h.chg[i] += h.cycChg[i]
		h.exp[i] += h.cycExp[i]
	}
	clear(h.cycChg)
	clear(h.cycExp)
}

// record notes a download of page u in cycle c.
func (h *history) record(u int32, changed bool, c int) {
	d := int64(c) - int64(h.last[u])
	for _, j := range h.sets.Of(u) {
		h.cycExp[j] += d
		if changed {
			h.cycChg[j]++
		}
		h.sumLast[j] += d
	}
	h.last[u] = int32(c)
}

// predict returns category i's predicted change fraction in cycle c, and
// false when none of its pages was downloaded in an earlier cycle.
func (h *history) predict(i, c int) (float64, bool) {
	if h.exp[i] == 0 {
		return 0, false
	}
	n := float64(len(h.sets.Category(i)))
	age := float64(c) - float64(h.sumLast[i])/n
	return min(1, float64(h.chg[i])/float64(h.exp[i])*age), true
}
