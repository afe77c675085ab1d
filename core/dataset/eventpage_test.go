package dataset

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// scannedEvents is what ScanEventLog gives of a log, each page's history
// computed by EventWindow.History from the log's earliest and latest row.
type scannedEvents struct {
	scan  *Scan
	obs   map[string]Observation
	site  map[string]string
	sum   EventLogSummary // Changes, Merged, Outside, ChangedCycles
	bad   []*ParseError
	order []string
}

func scanEvents(t testing.TB, data []byte, opt EventLogOptions) (*scannedEvents, error) {
	t.Helper()
	s := &scannedEvents{obs: map[string]Observation{}, site: map[string]string{}}
	pages := map[string][]Capture{}
	var tmin, tmax int64
	sc, err := ScanEventLog(bytes.NewReader(data), opt,
		func(c Capture) error {
			if _, ok := pages[c.Page]; !ok {
				s.order = append(s.order, c.Page)
				s.site[c.Page] = c.Site
			}
			if len(pages) == 0 || c.Time < tmin {
				tmin = c.Time
			}
			if len(pages) == 0 || c.Time > tmax {
				tmax = c.Time
			}
			pages[c.Page] = append(pages[c.Page], c)
			return nil
		},
		func(pe *ParseError) { s.bad = append(s.bad, pe) })
	if err != nil {
		return nil, err
	}
	s.scan = sc
	if len(pages) == 0 {
		return s, nil
	}
	w, err := NewEventWindow(opt, tmin, tmax)
	if err != nil {
		return nil, err
	}
	for _, p := range s.order {
		o, _ := w.History(pages[p], &s.sum)
		s.obs[p] = o
	}
	return s, nil
}

// checkScanEvents checks that a scan of data gives, page by page, what
// ReadEventLog and Observe(d, 1) give.
func checkScanEvents(t *testing.T, data []byte, opt EventLogOptions) {
	t.Helper()
	d, sum, err := ReadEventLog(bytes.NewReader(data), opt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Observe(d, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scanEvents(t, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.bad) > 0 || s.scan.Malformed > 0 {
		t.Fatalf("%d malformed rows, first %v; ReadEventLog read them all", s.scan.Malformed, s.bad[0])
	}
	if s.scan.Rows != sum.Rows || len(s.order) != sum.Pages || !maps.Equal(s.scan.Dropped, sum.Dropped) && len(sum.Dropped) > 0 {
		t.Fatalf("scan: %d rows, %d pages, dropped %v; ReadEventLog: %d rows, %d pages, dropped %v",
			s.scan.Rows, len(s.order), s.scan.Dropped, sum.Rows, sum.Pages, sum.Dropped)
	}
	if got := [4]int{s.sum.Changes, s.sum.Merged, s.sum.Outside, s.sum.ChangedCycles}; got != [4]int{sum.Changes, sum.Merged, sum.Outside, sum.ChangedCycles} {
		t.Errorf("changes, merged, outside, changed cycles = %v; ReadEventLog: %v", got, [4]int{sum.Changes, sum.Merged, sum.Outside, sum.ChangedCycles})
	}
	for i, p := range s.order {
		if d.Pages[i].URL != p || d.Sites[d.Pages[i].Site] != s.site[p] {
			t.Fatalf("page %d: %q on %q; ReadEventLog: %q on %q", i, p, s.site[p], d.Pages[i].URL, d.Sites[d.Pages[i].Site])
		}
		got, w := s.obs[p], want[i]
		got.Page = w.Page
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("page %q:\n got %+v\nwant %+v", p, got, w)
		}
	}
}

func TestScanEventLog(t *testing.T) {
	excerpt, err := os.ReadFile(filepath.Join("..", "..", "datasets", "ota-pga-excerpt-events.csv"))
	if err != nil {
		t.Fatal(err)
	}
	opts := []EventLogOptions{{}, {CycleLength: 3600, Merge: -1}, {CycleLength: 43200, Merge: 7200}, {CycleLength: 7 * 86400}}
	for name, data := range map[string][]byte{"goodEvents": []byte(goodEvents), "otaSample": []byte(otaSample), "excerpt": excerpt} {
		for _, opt := range opts {
			t.Run(name, func(t *testing.T) { checkScanEvents(t, data, opt) })
		}
	}
}

func TestScanEventLogOTA(t *testing.T) {
	dir := sharedData(t)
	for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
		data, err := os.ReadFile(filepath.Join(dir, name, "events.csv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []EventLogOptions{{}, {CycleLength: 43200}} {
			t.Run(name, func(t *testing.T) { checkScanEvents(t, data, opt) })
		}
	}
}

// TestScanEventLogMalformed: a row ReadEventLog refuses is reported with
// its line and skipped, and the others read as if it were not there.
func TestScanEventLogMalformed(t *testing.T) {
	lines := strings.SplitAfter(goodEvents, "\n")
	bad := map[int]string{ // line (1-based, in the log with them) → row
		3: "a,s1,yesterday,change\n",
		6: "c,s2,2024-01-02T06:00:00Z,\n",
		9: ",s1,2024-01-02T00:00:00Z,change\n",
	}
	var with []string
	for i := 0; len(lines) > 0; i++ {
		if row, ok := bad[i+1]; ok {
			with = append(with, row)
			continue
		}
		with, lines = append(with, lines[0]), lines[1:]
	}
	s, err := scanEvents(t, []byte(strings.Join(with, "")), EventLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var gotLines []int
	for _, pe := range s.bad {
		gotLines = append(gotLines, pe.Line)
	}
	wantLines := slices.Sorted(maps.Keys(bad))
	if s.scan.Malformed != len(bad) || !slices.Equal(gotLines, wantLines) {
		t.Fatalf("malformed %d at lines %v; want %d at %v", s.scan.Malformed, gotLines, len(bad), wantLines)
	}
	clean, err := scanEvents(t, []byte(goodEvents), EventLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.obs, clean.obs) {
		t.Errorf("with malformed rows: %+v\nwithout: %+v", s.obs, clean.obs)
	}
}

func FuzzScanEventLog(f *testing.F) {
	for _, s := range []string{goodEvents, otaSample,
		"page,site,time,event\na,s,2024-01-01,start\n\"a\"\"\",s,2024-01-02 00:00,change\n# c\n",
		"page,site,time,event\na,s,2024-01-01,start\na\"b,s,2024-01-02,change\nb,s,x,change\n",
		"service,document_type,ts_utc,event\nX,T,2024-01-01T00:00:00Z,start\nX,,2024-01-01T00:00:01Z,change\n",
		"page,site,time,event\n", "",
	} {
		f.Add([]byte(s), 0.0)
		f.Add([]byte(s), 3600.0)
	}
	f.Fuzz(func(t *testing.T, data []byte, cycle float64) {
		if !(cycle >= minEventCycle && cycle <= maxEventCycle) {
			cycle = 0
		}
		opt := EventLogOptions{CycleLength: cycle}
		s, err := scanEvents(t, data, opt)
		if err != nil {
			return // a fault of the whole file, or a window ReadEventLog refuses too
		}
		for _, pe := range s.bad {
			if pe.Line < 1 {
				t.Fatalf("malformed row without a line: %v", pe)
			}
		}
		d, sum, err := ReadEventLog(bytes.NewReader(data), opt)
		if len(s.bad) > 0 {
			if err == nil {
				t.Fatalf("the scan found %d malformed rows (first %v); ReadEventLog none", len(s.bad), s.bad[0])
			}
			return
		}
		if err != nil || len(s.order) == 0 {
			return // an empty log, or a page naming two sites
		}
		obs, err := Observe(d, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(obs) != len(s.order) || s.scan.Rows != sum.Rows {
			t.Fatalf("%d pages, %d rows; ReadEventLog: %d, %d", len(s.order), s.scan.Rows, len(obs), sum.Rows)
		}
		for i, p := range s.order {
			got := s.obs[p]
			got.Page = obs[i].Page
			if !reflect.DeepEqual(got, obs[i]) {
				t.Fatalf("page %q:\n got %+v\nwant %+v", p, got, obs[i])
			}
		}
	})
}
