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
	"url":         "[359 395 465 419 389 433 409 436 406 387 378 419]",
	"content":     "[563 667 725 755 724 758 751 732 707 741 727 704]",
	"url+content": "[650 622 646 691 680 692 686 688 679 694 668 654]",
	"static":      "[486 618 687 628 639 648 635 673 630 622 681 653]",
	"dynamic":     "[273 425 516 611 643 636 693 720 661 723 667 710]",
	"combined":    "[643 676 743 756 765 747 782 757 749 747 754 768]",
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
