package cluster_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/lab"
)

// goldenChanged is, for each feature set, the number of changed pages
// cluster sampling finds in each of the 12 cycles of tan-webarchive-small
// (1,000 downloads a cycle, seed 11, one repeat), written natively on
// amd64. Every decision of the policy (clustering, t-test, φ) avoids
// math.Exp and math.Log, whose amd64 assembly may round differently from
// WebAssembly's pure Go, so WebAssembly must find exactly these.
var goldenChanged = map[string]string{
	"url":         "[427 483 525 537 541 581 573 581 550 569 567 568]",
	"content":     "[625 691 717 719 758 734 772 760 742 763 752 747]",
	"url+content": "[533 629 727 764 738 773 771 758 776 775 772 778]",
	"static":      "[608 683 706 720 764 746 746 755 763 746 750 738]",
	"dynamic":     "[275 457 546 584 620 635 654 686 693 678 714 708]",
	"combined":    "[573 667 700 740 723 773 780 746 779 771 802 795]",
}

// TestSameNumbersEverywhere checks goldenChanged.
func TestSameNumbersEverywhere(t *testing.T) {
	l := lab.New()
	for _, set := range cluster.FeatureSets {
		res, err := l.Run(lab.Spec{Dataset: lab.DatasetRef{ID: "tan-webarchive-small"}, Repeats: 1, Seed: 11,
			Policies: []lab.PolicySpec{{ID: "cluster-sampling", Params: map[string]any{"featureSet": set}}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, c := range res.Policies[0].Series[lab.MetricChangeRatio] {
			got = append(got, int(c.Mean*float64(res.Spec.Budget)+0.5))
		}
		if s := fmt.Sprint(got); s != goldenChanged[set] {
			t.Errorf("%s/%s, %s: changed pages per cycle %s, golden %s", runtime.GOOS, runtime.GOARCH, set, s, goldenChanged[set])
		}
	}
}
