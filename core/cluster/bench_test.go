package cluster_test

import (
	"fmt"
	"testing"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/synth"
)

// BenchmarkClusterSampling measures a run of cluster sampling (one
// repeat, the default budget of a tenth of the pages, 12 cycles) on each
// feature set, after the memoised clusterings are built, and reports ns
// per page-cycle.
func BenchmarkClusterSampling(b *testing.B) {
	for _, id := range []string{"tan-webarchive-small", "tan-webarchive"} {
		l := lab.New()
		for _, set := range cluster.FeatureSets {
			spec := lab.Spec{Dataset: lab.DatasetRef{ID: id}, Repeats: 1, Seed: 1,
				Policies: []lab.PolicySpec{{ID: "cluster-sampling", Params: map[string]any{"featureSet": set}}}}
			if _, err := l.Run(spec); err != nil { // builds the dataset and the clusterings
				b.Fatal(err)
			}
			d, _ := l.Dataset(id)
			b.Run(fmt.Sprintf("%s/%s", id, set), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					spec.Seed = uint64(i)
					l.Run(spec)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)*d.Truth.Cycles()), "ns/page-cycle")
			})
		}
	}
}

// BenchmarkClustering measures the clusterings the policy computes once
// per dataset (the lab remembers them): each static feature set's, and
// for the combined set the word clusterings, static features and
// micro-clusters it starts from. It reports the time per clustering.
func BenchmarkClustering(b *testing.B) {
	for _, gen := range []struct {
		name string
		d    *dataset.Dataset
	}{{"tan-webarchive-small", synth.TanWebArchiveSmall(lab.BundledSeed)}, {"tan-webarchive", synth.TanWebArchive(lab.BundledSeed)}} {
		for _, set := range cluster.FeatureSets {
			if set == cluster.SetDynamic {
				continue // clustered during the run, on the crawler's own copies
			}
			b.Run(gen.name+"/"+set, func(b *testing.B) {
				for b.Loop() {
					if _, err := cluster.Prepare(&gen.d.Repository, set, cluster.DefaultK); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
