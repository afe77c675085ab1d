package cluster_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/synth"
	"github.com/refreshlab/refreshlab/site/lesson"
)

// BenchmarkClusterSampling measures a run of cluster sampling (one
// repeat, the default budget of a tenth of the pages, 12 cycles) on each
// feature set, after the memoised clusterings are built, and reports ns
// per page-cycle.
func BenchmarkClusterSampling(b *testing.B) {
	for _, id := range []string{"tan-webarchive-small", "tan-webarchive"} {
		l := lab.New(lab.WithoutMemory()) // every run computed, none answered from memory
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

// BenchmarkClusterSamplingEventLog measures a run of cluster sampling
// with its defaults (one repeat, a fifth of the pages a cycle) on each
// real Open Terms Archive change log kept beside the project in
// ../shared/data (skipped, saying so, where it is absent), read in
// 12-hour cycles: a long log of few pages, as a researcher uploads it. It
// reports ns per page-cycle.
func BenchmarkClusterSamplingEventLog(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
		f, err := os.ReadFile(filepath.Join(dir, name, "events.csv"))
		if err != nil {
			b.Skipf("skipped: the real Open Terms Archive change logs are not here (%v)", err)
		}
		d, _, err := dataset.ReadEventLog(bytes.NewReader(f), dataset.EventLogOptions{Name: name, CycleLength: 12 * 3600})
		if err != nil {
			b.Fatal(err)
		}
		l := lab.New(lab.WithoutMemory()) // every run computed, none answered from memory
		l.AddUpload(d)
		spec := lab.Spec{Dataset: lab.DatasetRef{ID: d.Info.ID}, Budget: len(d.Pages) / 5, Repeats: 1, Seed: 1,
			Policies: []lab.PolicySpec{{ID: "cluster-sampling"}}}
		if _, err := l.Run(spec); err != nil { // the clusterings
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				spec.Seed = uint64(i)
				if _, err := l.Run(spec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)*d.Truth.Cycles()), "ns/page-cycle")
		})
	}
}

// BenchmarkLessonPreview measures the preview of the lesson "Clustering
// pages" (lessons/clustering-pages.md): its spec with one repeat, every
// policy, after the clusterings are built, as the lesson's page computes
// it each time a control moves. It reports ms per preview.
func BenchmarkLessonPreview(b *testing.B) {
	file := filepath.Join("..", "..", "lessons", "clustering-pages.md")
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	l := lab.New(lab.WithoutMemory()) // every run computed, none answered from memory
	ls, err := lesson.Parse(file, src, l)
	if err != nil {
		b.Fatal(err)
	}
	spec := ls.Spec
	spec.Repeats = 1
	if _, err := l.Run(spec); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		spec.Seed = uint64(i + 2) // not a remembered result
		if _, err := l.Run(spec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(time.Millisecond), "ms/preview")
}
