package lab_test

import (
	"bytes"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/synth"
)

// BenchmarkQuietLog runs each refresh policy as the upload page first
// runs it (a tenth of the pages a cycle, 3 repeats, seed 1, default
// parameters, every cycle) on synth.WriteQuietCrawlLog's real-shaped log
// of mostly quiet pages (877 pages on 385 sites, daily for 1,328 days),
// read as an upload is. ns/op is one policy's run of 3 repeats; it also
// reports ns per cycle of one repeat.
func BenchmarkQuietLog(b *testing.B) {
	var buf bytes.Buffer
	if _, _, err := synth.WriteQuietCrawlLog(&buf, synth.QuietLog.Pages, synth.QuietLog.Sites, synth.QuietLog.Days, 1); err != nil {
		b.Fatal(err)
	}
	d, _, err := dataset.ReadCrawlLog(&buf, dataset.CrawlLogOptions{Name: "quiet"})
	if err != nil {
		b.Fatal(err)
	}
	l := lab.New(lab.WithoutMemory())
	l.AddUpload(d)
	const repeats = 3
	budget := max(1, (len(d.Pages)+5)/10) // upload.js: Math.round(pages / 10)
	for _, desc := range l.Policies() {
		if desc.Kind != lab.KindRefresh {
			continue
		}
		b.Run(desc.ID, func(b *testing.B) {
			spec := lab.Spec{Kind: lab.KindRefresh, Dataset: lab.DatasetRef{ID: d.Info.ID}, Budget: budget, Repeats: repeats, Seed: 1, Policies: ids(desc.ID)}
			for b.Loop() {
				if _, err := l.Run(spec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(repeats*d.Truth.Cycles()), "ns/cycle")
		})
	}
}
