// Package apportion splits a whole number of units among entries in
// proportion to their weights, each entry holding at most a limit: the
// largest-remainder (Hamilton) method with caps. Sampling policies split a
// sample among sites with it (Al-Qaaideh §3.3), and the monitoring
// baselines split monitoring tasks among pages (Pandey et al. §5.1).
package apportion

import (
	"math"
	"slices"
)

// Portion is one entry's share in a largest-remainder split; callers keep
// a slice of them between calls as scratch.
type Portion struct {
	i    int
	frac float64
}

// Split adds to out[i] up to total units split in proportion to weight[i]
// among the entries with a positive weight and room left (out[i] <
// limit[i]). An entry whose share would exceed its room gets just its
// room, and the others share what is left from scratch, again in
// proportion to their weights, until no share exceeds its entry's room;
// then each entry gets the whole part of its share and the units left over
// go to the largest fractional parts, ties in the order given (callers pass
// a random order). It returns the units given: less than total only when
// every entry with a positive weight is full. Only arithmetic and Floor
// decide the split, so it is the same natively and in WebAssembly. scratch
// is reused between calls.
func Split(total int, order []int, weight []float64, limit, out []int, scratch *[]Portion) int {
	ps := (*scratch)[:0]
	for _, i := range order {
		if weight[i] > 0 && out[i] < limit[i] {
			ps = append(ps, Portion{i: i})
		}
	}
	given := 0
	for len(ps) > 0 && given < total {
		d := total - given
		var sum float64
		for _, p := range ps {
			sum += weight[p.i]
		}
		// Entries whose share reaches their room are filled and leave.
		full := false
		ps = slices.DeleteFunc(ps, func(p Portion) bool {
			room := limit[p.i] - out[p.i]
			if weight[p.i]*float64(d)/sum < float64(room) {
				return false
			}
			out[p.i] += room
			given += room
			full = true
			return true
		})
		if full {
			continue
		}
		floor := 0
		for k := range ps {
			q := weight[ps[k].i] * float64(d) / sum
			fl := math.Floor(q)
			out[ps[k].i] += int(fl)
			floor += int(fl)
			ps[k].frac = q - fl
		}
		slices.SortStableFunc(ps, func(a, b Portion) int {
			switch {
			case a.frac > b.frac:
				return -1
			case a.frac < b.frac:
				return 1
			}
			return 0
		})
		// Each share is below its room, so one more unit still fits.
		for k := 0; floor < d && k < len(ps); k++ {
			out[ps[k].i]++
			floor++
		}
		given += floor
		break
	}
	*scratch = ps
	return given
}
