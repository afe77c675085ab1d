package dataset

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestReadRates checks that rates written by AppendRateRow read back
// exactly, with their pages and sites, as a dataset of one cycle.
func TestReadRates(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	rows := []RateRow{
		{Page: "https://a.example/x", Site: "a.example", Rate: 0.1 / 3, Low: 0.01, High: 0.2, Observations: 30, Changes: 3, First: t0, Last: t0 + 30*86400e9},
		{Page: "https://a.example/y,z", Site: "a.example", Rate: 0, Low: 0, High: 0.06, Observations: 30, First: t0, Last: t0 + 30*86400e9},
		{Page: "b", Site: "b.example", Rate: 2, Low: 0.5, High: math.Inf(1), Observations: 2, Changes: 2, First: t0, Last: t0 + 86400e9},
	}
	b := []byte(RatesHeader())
	for _, r := range rows {
		b = AppendRateRow(b, r)
	}
	d, err := ReadRates(bytes.NewReader(b), RatesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != 3 || len(d.Sites) != 2 || d.Truth.Cycles() != 1 || d.Info.Name != "Uploaded rates" {
		t.Fatalf("%d pages, %d sites, %d cycles, %q", len(d.Pages), len(d.Sites), d.Truth.Cycles(), d.Info.Name)
	}
	for i, r := range rows {
		p := d.Pages[i]
		if p.URL != r.Page || d.Sites[p.Site] != r.Site || d.Truth.Rates[i] != r.Rate {
			t.Fatalf("page %d: %s on %s at %v, want %+v", i, p.URL, d.Sites[p.Site], d.Truth.Rates[i], r)
		}
	}
	// No site column: the URL's host.
	d, err = ReadRates(strings.NewReader("url,rate\nhttps://Example.com/a,1.5\n"), RatesOptions{Name: "r"})
	if err != nil || d.Sites[0] != "example.com" || d.Truth.Rates[0] != 1.5 || d.Info.Name != "r" {
		t.Fatalf("%v, %+v", err, d)
	}
}

// TestReadRatesErrors checks that each problem is reported where it is.
func TestReadRatesErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		line, col int
		expected  string
	}{
		{"no rate column", "page,site\na,s\n", 1, 0, "rate column"},
		{"no page column", "site,rate\ns,1\n", 1, 0, "page column"},
		{"negative", "page,site,rate\na,s,1\nb,s,-1\n", 3, 3, "a rate"},
		{"not a number", "page,site,rate\na,s,fast\n", 2, 3, "a rate"},
		{"infinite", "page,site,rate\na,s,inf\n", 2, 3, "a rate"},
		{"NaN", "page,site,rate\na,s,NaN\n", 2, 3, "a rate"},
		{"empty rate", "page,site,rate\na,s,\n", 2, 3, "a rate"},
		{"empty page", "page,site,rate\n,s,1\n", 2, 1, "a page id"},
		{"twice", "page,site,rate\na,s,1\na,s,2\n", 3, 1, "a page not listed before"},
		{"no host", "url,rate\nnot-a-url,1\n", 2, 1, "a URL with a host"},
		{"fields", "page,site,rate\na,s,1,2\n", 2, 0, "3 fields"},
		{"no rows", "page,site,rate\n", 1, 0, "at least one page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRates(strings.NewReader(tc.in), RatesOptions{})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(pe.Error(), tc.expected) {
				t.Fatalf("got %v (%+v), want line %d column %d: %s", err, pe, tc.line, tc.col, tc.expected)
			}
		})
	}
}

// FuzzReadRates checks that any input gives either a valid dataset with
// finite rates or a *ParseError with a line, and never a panic.
func FuzzReadRates(f *testing.F) {
	for _, s := range []string{RatesHeader() + "a,s,0.5,0.1,inf,3,3,2024-01-01T00:00:00Z,2024-01-04T00:00:00Z\n",
		"url,rate\nhttps://a.b/,1e-3\n", "page;rate\na;1\n", "page,rate\na,1\nb,x\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadRates(bytes.NewReader(data), RatesOptions{})
		if err != nil {
			wantParseError(t, err)
			return
		}
		if err := d.Validate(); err != nil || len(d.Truth.Rates) != len(d.Pages) {
			t.Fatalf("%v: %d rates for %d pages", err, len(d.Truth.Rates), len(d.Pages))
		}
	})
}
