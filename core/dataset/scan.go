package dataset

import (
	"cmp"
	"errors"
	"io"
	"slices"
	"strings"
)

// Capture is one crawl of a page as a row of a crawl log or capture index
// gives it, before the pages are gathered: what ScanCrawlLog hands on.
type Capture struct {
	Page string // the page's id (its URL, or the page column)
	URL  string // the page's URL; the id when the log gives none
	Site string // the site column, else the URL's host
	Time int64  // unix nanoseconds
	// Changed is the row's change flag in a log with a changed column; in a
	// log with a hash column it is false until MarkChanges compares digests.
	Changed bool
	// Start says the row of a change-event log records that tracking of
	// the page began (ScanEventLog); a change row has Changed instead.
	Start bool
	// Hashed says the log has a hash column: the change is a new Digest.
	Hashed bool
	// Digest is the FNV-1a 64-bit hash of the row's content hash, in a log
	// with a hash column; 0 otherwise.
	Digest uint64
	Line   int // the row's line in its file
	// File tells apart the files of an input read in several (a hash of
	// the file's name, say): ScanCrawlLog leaves it 0 for its caller to set.
	File uint64
}

// Scan describes what ScanCrawlLog read.
type Scan struct {
	Format    string         // the file's format
	Rows      int            // captures handed on
	Dropped   map[string]int // rows that are not captures of a page, by why (the capture formats)
	Malformed int            // rows ReadCrawlLog would refuse, skipped
	UseHash   bool           // changes come from a hash column (MarkChanges compares digests)
}

// ScanCrawlLog reads a crawl log or capture index as ReadCrawlLog does (the
// same formats, layouts, captures and time formats, gzip recognised by its
// first bytes) but row by row, without gathering pages or cycles, for
// inputs too large for one process: each capture goes to each, and each row
// that ReadCrawlLog would refuse goes to bad, as the same *ParseError, and
// the scan goes on. Rows beyond ReadCrawlLog's row limit are read too; a
// page's rows naming different sites are each handed on as they are.
// A fault of the file as a whole (its encoding, its header, a broken gzip
// stream, a line over the length limit) ends the scan with an error, as
// does an error each returns.
func ScanCrawlLog(r io.Reader, opt CrawlLogOptions, each func(Capture) error, bad func(*ParseError)) (*Scan, error) {
	lr, err := newCrawlRead(r, &opt)
	if err != nil {
		return nil, err
	}
	rec, err := lr.readHeader()
	if err != nil {
		return nil, err
	}
	if err := lr.parseHeader(rec, &CrawlLogSummary{}); err != nil {
		return nil, err
	}
	lr.src.strict()
	lr.dropped = make(map[string]int)
	sc := &Scan{Format: lr.format, UseHash: lr.useHash}
	err = lr.scanRows(sc, each, bad, func(rec []string) (Capture, bool, error) {
		c, why, err := lr.parseRow(rec)
		var u, site string
		if err == nil && why == "" {
			u, site, err = lr.pageSite(rec, c.id)
		}
		switch {
		case why != "":
			lr.drop(why)
			return Capture{}, false, nil
		case err != nil:
			return Capture{}, false, err
		}
		line, _ := lr.src.pos(lr.colTime)
		return Capture{Page: strings.Clone(c.id), URL: u, Site: site, Time: c.t, Changed: c.changed, Hashed: lr.useHash, Digest: c.h, Line: line}, true, nil
	})
	if err != nil {
		return nil, err
	}
	if len(lr.dropped) > 0 {
		sc.Dropped = lr.dropped
	}
	if opt.Progress != nil {
		opt.Progress(lr.in.consumed())
	}
	return sc, nil
}

// scanRows reads the rows after the header with row, which returns the
// row's capture and whether to hand it on to each. A row that row refuses
// with a *ParseError is counted as malformed, goes to bad and the scan goes
// on, as does a record the reader could not split, as long as the reader
// moves past it; any other error, or one each returns, ends the scan.
func (lr *logRead) scanRows(sc *Scan, each func(Capture) error, bad func(*ParseError), row func(rec []string) (Capture, bool, error)) error {
	lastBad := 0 // the line of the last record the reader could not split
	for {
		rec, err := lr.src.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line <= lastBad {
				return err
			}
			lastBad = pe.Line
			sc.Malformed++
			bad(pe)
			continue
		}
		c, ok, err := row(rec)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				return err
			}
			sc.Malformed++
			bad(pe)
			continue
		}
		if ok {
			if err := each(c); err != nil {
				return err
			}
			sc.Rows++
		}
	}
}

// SortCaptures puts one page's captures in time order, ties in the order
// of order (a position in the input, such as the file and line; ReadCrawlLog
// keeps ties in file order).
func SortCaptures(cs []Capture, order func(a, b *Capture) int) {
	slices.SortStableFunc(cs, func(a, b Capture) int {
		return cmp.Or(cmp.Compare(a.Time, b.Time), order(&a, &b))
	})
}

// MarkChanges sets, in one page's captures in time order from a log with a
// hash column, each capture's Changed: a change is a digest unlike the
// previous capture's, as ReadCrawlLog reads it. The first capture has no
// previous one and is left unchanged.
func MarkChanges(cs []Capture) {
	for j := range cs {
		cs[j].Changed = j > 0 && cs[j].Digest != cs[j-1].Digest
	}
}
