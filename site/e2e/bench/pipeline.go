package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/refreshlab/refreshlab/core/pipeline"
	"github.com/refreshlab/refreshlab/site/e2e"
)

// pipelineFigure is the Beam pipeline's run on a generated log.
type pipelineFigure struct {
	rows, pages int
	bytes       int64 // compressed, in all shards
	wall        time.Duration
	cpu         time.Duration // user and system time of this process (the Prism runner and its workers run in it)
	maxRSS      int64         // bytes: this process's largest resident memory by the run's end
	counters    pipeline.Counters
	err         error
}

// runPipeline writes a generated crawl log of about rows rows (20 sites,
// 50 daily crawls a page, as the browser's upload) in 4 gzip shards, each
// with the header and every fourth row, and times core/pipeline's whole
// run on them with the Prism runner in this process: reading, grouping by
// page, estimating, and writing every output. The log goes straight into
// the shards, never whole in memory; with -pipeline-dir the shards are
// written there and kept, for a run of the command on them.
func runPipeline(rows int) pipelineFigure {
	var f pipelineFigure
	dir := *pipeDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "refreshlab-pipeline-bench-")
		if err != nil {
			f.err = err
			return f
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if f.err = os.MkdirAll(dir, 0o755); f.err != nil {
		return f
	}
	const sites, crawls, shards = 20, 50, 4
	sw := &shardWriter{}
	for i := range shards {
		file, err := os.Create(filepath.Join(dir, fmt.Sprintf("log-%05d.csv.gz", i)))
		if err != nil {
			f.err = err
			return f
		}
		sw.files = append(sw.files, file)
		sw.zs = append(sw.zs, gzip.NewWriter(file))
	}
	shape, err := e2e.WriteCrawlLog(sw, sites, max(1, rows/crawls/sites), crawls)
	f.rows, f.pages = shape.Rows, shape.Pages
	f.bytes, f.err = sw.close()
	if f.err == nil {
		f.err = err
	}
	if f.err != nil {
		return f
	}
	out := filepath.Join(dir, "out")
	if f.err = os.MkdirAll(out, 0o755); f.err != nil {
		return f
	}
	beam.Init()
	start, cpu0 := time.Now(), cpuTime()
	f.counters, f.err = pipeline.Run(context.Background(), "prism", pipeline.Options{
		Inputs: []string{filepath.Join(dir, "log-*.csv.gz")}, Sample: 1000, Seed: 1, Output: out})
	f.wall, f.cpu = time.Since(start), cpuTime()-cpu0
	f.maxRSS = maxRSS()
	if f.err == nil && (f.counters[pipeline.CounterCaptures] != int64(f.rows) || f.counters[pipeline.CounterURLs] != int64(f.pages)) {
		f.err = fmt.Errorf("the pipeline counted %d captures of %d URLs, wrote %d rows of %d pages", f.counters[pipeline.CounterCaptures], f.counters[pipeline.CounterURLs], f.rows, f.pages)
	}
	return f
}

// shardWriter deals a CSV log's lines among gzip shards: the header to
// every shard, then each row to the next shard in turn.
type shardWriter struct {
	files  []*os.File
	zs     []*gzip.Writer
	header []byte // the header line, until it is complete
	headed bool
	line   []byte // the row written so far
	next   int
	err    error
}

func (w *shardWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && w.err == nil {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if w.headed {
				w.line = append(w.line, p...)
			} else {
				w.header = append(w.header, p...)
			}
			break
		}
		chunk := p[:i+1]
		p = p[i+1:]
		if !w.headed {
			w.header = append(w.header, chunk...)
			for _, z := range w.zs {
				if _, err := z.Write(w.header); err != nil {
					w.err = err
				}
			}
			w.headed = true
			continue
		}
		z := w.zs[w.next]
		w.next = (w.next + 1) % len(w.zs)
		if len(w.line) > 0 {
			w.line = append(w.line, chunk...)
			chunk, w.line = w.line, w.line[:0]
		}
		if _, err := z.Write(chunk); err != nil {
			w.err = err
		}
	}
	return n, w.err
}

// close ends the shards and returns their compressed size.
func (w *shardWriter) close() (int64, error) {
	var size int64
	err := w.err
	for i, z := range w.zs {
		if e := z.Close(); err == nil {
			err = e
		}
		if st, e := w.files[i].Stat(); e == nil {
			size += st.Size()
		}
		if e := w.files[i].Close(); err == nil {
			err = e
		}
	}
	return size, err
}

// pipelineRows reports the pipeline's throughput beside the browser
// reader's on its million-row upload.
func pipelineRows(t *table, br *browserFigures, brErr error) {
	t.section("pipeline: the Beam pipeline (core/pipeline, Prism runner in this process) on a generated crawl log in 4 gzip shards, every output written; beside it the browser's reader")
	f := runPipeline(*pipeRows)
	name := fmt.Sprintf("%s rows (%s pages, %.0f MB gzip) → rates, sites, sample, summary", thousands(f.rows), thousands(f.pages), float64(f.bytes)/1e6)
	if f.err != nil {
		t.fail(name, report, f.err)
	} else {
		t.add(name, fmt.Sprintf("%.1f s, %s rows/s (CPU %.1f s: %s rows per CPU-second; largest resident memory of the process %.2f GB)", f.wall.Seconds(), thousands(int(float64(f.rows)/f.wall.Seconds())),
			f.cpu.Seconds(), thousands(int(float64(f.rows)/f.cpu.Seconds())), float64(f.maxRSS)/1e9), report, "")
	}
	switch {
	case brErr != nil:
		t.fail("the browser's reader", report, brErr)
	case br.upload.err != nil:
		t.fail("the browser's reader", report, br.upload.err)
	default:
		u := br.upload
		t.add(fmt.Sprintf("the browser's reader: %s rows → summary (upload above)", thousands(u.rows)),
			fmt.Sprintf("%s rows/s", thousands(int(float64(u.rows)/(u.pageMs/1000)))), report, "")
	}
}

// maxRSS is the largest resident memory this process has had, in bytes
// (Linux counts it in KiB).
func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
