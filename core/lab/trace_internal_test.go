package lab

import (
	"slices"
	"strings"
	"testing"
)

// groupsOf returns groups of the given sizes, their pages numbered on.
func groupsOf(sizes ...int) ([][]int32, []string) {
	var gs [][]int32
	var names []string
	p := int32(0)
	for i, n := range sizes {
		var g []int32
		for range n {
			g = append(g, p)
			p++
		}
		gs, names = append(gs, g), append(names, string(rune('a'+i)))
	}
	return gs, names
}

// TestChoosePages checks which pages a trace shows of a dataset too large
// to show whole.
func TestChoosePages(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
		max   int
		show  []int
		says  string
	}{
		{"all fit", []int{3, 4, 5}, 12, []int{3, 4, 5}, "All 12 pages, by site."},
		// k = ⌈12/6⌉ = 2: groups 0 and 2 first (only 0 fits), then 1 and 3 (only 1 fits).
		{"every k-th first", []int{3, 2, 5, 2}, 6, []int{3, 2, 0, 0}, "5 of 12 pages: 2 of the 4 sites, each whole"},
		{"spread over the list", []int{2, 2, 2, 2, 2, 2, 2, 2}, 8, []int{2, 0, 2, 0, 2, 0, 2, 0}, "8 of 16 pages: 4 of the 8 sites"},
		{"none fits whole", []int{10, 20}, 5, []int{5, 0}, "The first 5 of the 10 pages of site a (of 30 pages in all)"},
		{"one site", []int{100}, 40, []int{40}, "The first 40 of the 100 pages of site a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs, names := groupsOf(tt.sizes...)
			n := 0
			for _, s := range tt.sizes {
				n += s
			}
			show, says := choosePages(gs, names, n, tt.max, "site")
			if !slices.Equal(show, tt.show) || !strings.HasPrefix(says, tt.says) {
				t.Errorf("show %v, %q; want %v, %q…", show, says, tt.show, tt.says)
			}
		})
	}
}
