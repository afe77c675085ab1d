package lab

import (
	"cmp"
	"slices"
)

// Order sets the order of the registered kinds (Register) in the catalog:
// Kinds, Policies, SpecFields, Metrics and Facts list the lab's own kind
// first, then the kinds ids names, in that order, then any other in the
// order it registered. A program that links several kinds (core/kinds)
// calls it from an init function, after they registered, so that what
// the catalog lists, and the style of each policy (PolicyStyle, by its
// place in the catalog), does not depend on the order in which Go
// initialises their packages.
func Order(ids ...string) {
	rank := func(id string) int {
		if id == KindRefresh {
			return -2
		}
		if i := slices.Index(ids, id); i >= 0 {
			return i
		}
		return len(ids) + slices.IndexFunc(registered, func(k Kind) bool { return k.ID() == id })
	}
	slices.SortStableFunc(registered, func(a, b Kind) int { return cmp.Compare(rank(a.ID()), rank(b.ID())) })
	forgetShapes() // their kinds' members follow this order
	owner := func(kinds []string) int {
		if len(kinds) == 0 {
			return -3
		}
		return rank(kinds[0])
	}
	slices.SortStableFunc(Metrics, func(a, b Metric) int { return cmp.Compare(owner(a.Kinds), owner(b.Kinds)) })
	slices.SortStableFunc(Facts, func(a, b Fact) int { return cmp.Compare(owner(a.Kinds), owner(b.Kinds)) })
}
