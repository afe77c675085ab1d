package dataset

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// RatesColumns is the header WriteRates writes, and RateRow's fields in its
// order: the page, its site, the estimated rate in changes per day with its
// 95% interval (high "inf" when unbounded), the observed intervals and how
// many saw a change, and the first and last capture (RFC 3339).
var RatesColumns = []string{"page", "site", "rate", "low", "high", "observations", "changes", "first", "last"}

// roleRate is the rates format's own column: changes per day.
var roleRate = role{"rate", []string{"rate"}, "required"}

// ratesRoles are the columns ReadRates reads; the others are ignored.
var ratesRoles = []role{rolePage, roleURL, roleSite, roleRate}

// RatesOptions controls ReadRates.
type RatesOptions struct {
	// Name is shown as the dataset's name; default "Uploaded rates".
	Name string
	// Layout gives the separator and maps roles (page, url, site, rate) to
	// columns named otherwise.
	Layout
}

// ReadRates reads a rates file (page, site, rate, and any other columns,
// which are ignored) into a dataset whose truth carries the pages' rates
// (Truth.Rates, changes per day) and no change history: one day-long cycle
// in which nothing is recorded as changed. The schedule kind plans and
// simulates with the rates; the refresh and estimate kinds, which need a
// history, have nothing to learn from such a dataset. A rate must be a
// finite number ≥ 0; a page without a site column takes its URL's host.
// Problems are *ParseError with the line and column.
func ReadRates(r io.Reader, opt RatesOptions) (*Dataset, error) {
	lr, err := newLogRead(r, FormatRates, opt.Layout, ratesRoles, nil)
	if err != nil {
		return nil, err
	}
	rec, err := lr.readHeader()
	if err != nil {
		return nil, err
	}
	c, err := lr.columns(rec, ratesRoles)
	if err != nil {
		return nil, err
	}
	page, url, site, rate := c[0], c[1], c[2], c[3]
	if page < 0 && url < 0 {
		return nil, lr.missing("page", append(rolePage.names, roleURL.names...), "page")
	}
	if rate < 0 {
		return nil, lr.missing("rate", roleRate.names, "rate")
	}
	lr.colPage, lr.colURL, lr.colSite = page, -1, site
	if page < 0 {
		lr.colPage = url
	} else if url >= 0 {
		lr.colURL = url
	}
	lr.use(usedColumn{"page", lr.colPage}, usedColumn{"url", lr.colURL}, usedColumn{"site", lr.colSite}, usedColumn{"rate", rate})
	lr.src.strict()
	lr.pageIndex = make(map[string]int32)
	lr.siteIndex = make(map[string]int32)
	var rates []float64
	for {
		rec, err := lr.src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := lr.checkRow(rec, "pages"); err != nil {
			return nil, err
		}
		id := trim(rec[lr.colPage])
		if id == "" {
			return nil, lr.emptyError(lr.colPage, "a page id")
		}
		if _, dup := lr.pageIndex[id]; dup {
			return nil, lr.fieldError(lr.colPage, "a page not listed before", id)
		}
		v := trim(rec[rate])
		x, perr := strconv.ParseFloat(v, 64)
		if perr != nil || !(x >= 0) || math.IsInf(x, 0) {
			if v == "" {
				return nil, lr.emptyError(rate, "a rate (changes per day, a finite number ≥ 0)")
			}
			return nil, lr.fieldError(rate, "a rate (changes per day, a finite number ≥ 0)", v)
		}
		if _, err := lr.newPage(rec, id); err != nil {
			return nil, err
		}
		rates = append(rates, x)
		lr.rows++
	}
	if lr.rows == 0 {
		return nil, &ParseError{Line: lr.headerLine, Expected: "at least one page", Got: gotEOF, described: true}
	}
	d := &Dataset{
		Info: Info{
			ID:          uploadID("rates-", lr.in.log.sum, FormatRates+lr.applied()),
			Name:        opt.Name,
			Source:      "upload",
			CycleLength: 86400,
			CycleUnit:   "day",
		},
		Repository: Repository{Pages: lr.pages, Sites: lr.sites, Labels: []string{}},
		Truth:      Truth{Changed: [][]int32{{}}, Rates: rates},
	}
	if d.Info.Name == "" {
		d.Info.Name = "Uploaded rates"
	}
	d.Info.Description = fmt.Sprintf("Change rates of %d pages on %d sites.", len(lr.pages), len(lr.sites))
	if err := d.Finish(); err != nil {
		return nil, fmt.Errorf("dataset: rates: %w", err) // a bug: the reader built an invalid dataset
	}
	return d, nil
}

// RateRow is one row of a rates file.
type RateRow struct {
	Page, Site      string
	Rate, Low, High float64 // changes per day; High may be +Inf
	Observations    int     // intervals between captures
	Changes         int     // of those, how many saw a change
	First, Last     int64   // unix nanoseconds
}

// AppendRateRow appends r as a CSV line of RatesColumns, ending in '\n'.
// Rates are written in the shortest form that reads back exactly.
func AppendRateRow(b []byte, r RateRow) []byte {
	num := func(b []byte, x float64) []byte {
		if math.IsInf(x, 1) {
			return append(b, "inf"...)
		}
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	b = appendCSVField(b, r.Page)
	b = append(b, ',')
	b = appendCSVField(b, r.Site)
	for _, x := range []float64{r.Rate, r.Low, r.High} {
		b = append(b, ',')
		b = num(b, x)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Observations), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Changes), 10)
	for _, t := range []int64{r.First, r.Last} {
		b = append(b, ',')
		b = append(b, formatNanos(t)...)
	}
	return append(b, '\n')
}

// RatesHeader is the header line of a rates file.
func RatesHeader() string { return strings.Join(RatesColumns, ",") + "\n" }
