package api_test

import (
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
)

// TestChartLabelledCopies checks that a chart addresses labelled copies of
// one policy by their labels, and names them by label alone when it draws
// only copies, by their full names beside other policies.
func TestChartLabelledCopies(t *testing.T) {
	res, err := lab.New().Run(lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Repeats: 3,
		Policies: []lab.PolicySpec{{ID: "round-robin"}, {ID: "site-greedy", Label: "small", Params: map[string]any{"sampleSize": 2.0}},
			{ID: "site-greedy", Label: "big", Params: map[string]any{"sampleSize": 20.0}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		policies  []string
		want, not []string
	}{
		{[]string{"small", "big"}, []string{">small<", ">big<"}, []string{"(small)", "Round-robin"}},
		{[]string{"round-robin", "big"}, []string{"Round-robin", "(big)"}, []string{"small"}},
		{nil, []string{"Round-robin", "(small)", "(big)"}, nil},
	} {
		for _, typ := range []string{api.ChartBars, api.ChartCycles} {
			svg, err := api.Chart(res, api.ChartOptions{Type: typ, Policies: tt.policies})
			if err != nil {
				t.Fatal(err)
			}
			s := string(svg)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("%s of %v: no %q", typ, tt.policies, w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(s, w) {
					t.Errorf("%s of %v: unexpected %q", typ, tt.policies, w)
				}
			}
		}
	}
}
