package synth

import (
	"bytes"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// TestWriteQuietCrawlLog checks the log of mostly quiet pages: it reads
// back as an upload with the pages, sites, rows and daily cycles it says,
// every site holding a page; one seed always writes the same bytes and
// another seed other bytes; bad shapes are refused.
func TestWriteQuietCrawlLog(t *testing.T) {
	write := func(pages, sites, days int, seed uint64) ([]byte, int, int) {
		t.Helper()
		var buf bytes.Buffer
		rows, used, err := WriteQuietCrawlLog(&buf, pages, sites, days, seed)
		if err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), rows, used
	}
	const pages, sites, days = 120, 40, 30
	log, rows, used := write(pages, sites, days, 3)
	if rows != pages*days || used != sites {
		t.Errorf("%d rows on %d sites, want %d on %d", rows, used, pages*days, sites)
	}
	d, sum, err := dataset.ReadCrawlLog(bytes.NewReader(log), dataset.CrawlLogOptions{Name: "quiet"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != pages || len(d.Sites) != sites || d.Truth.Cycles() != days-1 || d.Info.CycleLength != 86400 {
		t.Errorf("read back %d pages on %d sites over %d cycles of %v s, want %d on %d over %d daily", len(d.Pages), len(d.Sites),
			d.Truth.Cycles(), d.Info.CycleLength, pages, sites, days-1)
	}
	if sum.Rows != rows {
		t.Errorf("read back %d rows, wrote %d", sum.Rows, rows)
	}
	if again, _, _ := write(pages, sites, days, 3); !bytes.Equal(again, log) {
		t.Error("the same seed wrote another log")
	}
	if other, _, _ := write(pages, sites, days, 4); bytes.Equal(other, log) {
		t.Error("another seed wrote the same log")
	}
	for _, bad := range [][3]int{{0, 1, 2}, {1, 0, 2}, {1, 1, 1}} {
		if _, _, err := WriteQuietCrawlLog(&bytes.Buffer{}, bad[0], bad[1], bad[2], 1); err == nil {
			t.Errorf("pages, sites, days %v: no error", bad)
		}
	}
}

// TestQuietCrawlLogChangeShare checks the share of re-crawls that find a
// change against its expectation: with q = min(1, e^{m + sZ}), m = −6.08,
// s = 1.864, E[q] = e^{m + s²/2}·Φ(−m/s − s) + Φ(m/s), about 0.0125. Over
// 30 seeds of the quiet log's 877 pages for 60 days, the mean share must
// be within 4 standard errors (from the seeds' spread) of it.
func TestQuietCrawlLogChangeShare(t *testing.T) {
	const m, s = -6.08, 1.864
	phi := func(z float64) float64 { return math.Erfc(-z/math.Sqrt2) / 2 }
	want := math.Exp(m+s*s/2)*phi(-m/s-s) + phi(m/s)
	const seeds, days = 30, 60
	shares := make([]float64, seeds)
	for k := range shares {
		var buf bytes.Buffer
		if _, _, err := WriteQuietCrawlLog(&buf, QuietLog.Pages, QuietLog.Sites, days, uint64(k+1)); err != nil {
			t.Fatal(err)
		}
		d, _, err := dataset.ReadCrawlLog(&buf, dataset.CrawlLogOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var changes int
		for _, ch := range d.Truth.Changed {
			changes += len(ch)
		}
		shares[k] = float64(changes) / float64(QuietLog.Pages*(days-1))
	}
	var mean, ss float64
	for _, x := range shares {
		mean += x / seeds
	}
	for _, x := range shares {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss / (seeds - 1) / seeds)
	if math.Abs(mean-want) > 4*se {
		t.Errorf("share of re-crawls finding a change %.5f ± %.5f over %d seeds, want %.5f", mean, se, seeds, want)
	}
	t.Logf("share %.5f ± %.5f (want %.5f)", mean, se, want)
}
