package dataset

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goodEvents has three pages on two sites over two days (window from the
// earliest row, 2024-01-01 00:00, to the latest, 2024-01-03 00:00): a
// changes in each day, b starts being tracked at noon on day 1 (its change
// before that is outside), c has two changes 30 minutes apart on day 2
// (merged) and a technical event that is dropped.
const goodEvents = `page,site,time,event
a,s1,2024-01-01T00:00:00Z,start
b,s1,2024-01-01T06:00:00Z,change
b,s1,2024-01-01T12:00:00Z,start
a,s1,2024-01-01T18:00:00Z,change
c,s2,2024-01-02T06:00:00Z,change
c,s2,2024-01-02T06:30:00Z,change
a,s1,2024-01-02T12:00:00Z,Change
c,s2,2024-01-02T20:00:00Z,technical
b,s1,2024-01-03T00:00:00Z,change
`

// goodEventsChanged and goodEventsFirst are goodEvents' truth at the
// default cycle of one day.
var (
	goodEventsChanged = [][]int32{{0}, {0, 1, 2}}
	goodEventsFirst   = [][]float64{{0.75}, {1.5, 2, 1.25}}
)

// otaSample is a few rows of the Open Terms Archive layout, as the
// archive's events.csv has them (ts_unix and ts_utc agree).
const otaSample = `ts_unix,ts_utc,service,document_type,event,git_status,commit
1704069000,2024-01-01T00:30:00Z,Facebook,Terms of Service,start,A,c53998c360
1704069005,2024-01-01T00:30:05Z,Facebook,Privacy Policy,start,A,6ff34eeee7
1704069010,2024-01-01T00:30:10Z,"Match, Inc.",Terms of Service,start,A,bccde2e418
1704155400,2024-01-02T00:30:00Z,Facebook,Terms of Service,change,M,a3689b3849
1704157200,2024-01-02T01:00:00Z,Facebook,Terms of Service,change,M,a3689b3850
1704198600,2024-01-02T12:30:00Z,Facebook,Privacy Policy,technical,M,a3689b3851
1704198605,2024-01-02T12:30:05Z,"Match, Inc.",Terms of Service,change,M,a3689b3852
1704241800,2024-01-03T00:30:00Z,Facebook,Privacy Policy,other,M,a3689b3853
1704241805,2024-01-03T00:30:05Z,Facebook,Terms of Service,change,M,a3689b3854
`

func TestReadEventLog(t *testing.T) {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		log     string
		opt     EventLogOptions
		changed [][]int32
		first   [][]float64 // nil: don't check
		tracked []float64   // nil: don't check
		urls    []string    // nil: don't check
		sites   []string    // nil: don't check
		check   func(t *testing.T, d *Dataset, s *EventLogSummary)
	}{
		{
			name: "events", log: goodEvents, changed: goodEventsChanged, first: goodEventsFirst,
			tracked: []float64{0, 0.5, 0}, urls: []string{"a", "b", "c"}, sites: []string{"s1", "s2"},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				want := EventLogSummary{Rows: 9, Pages: 3, Sites: 2, Layout: LayoutEvents, ReadAs: "read as change events",
					ChangeRows: 6, Changes: 4, Merged: 1, Outside: 1, Starts: 2, Dropped: map[string]int{"technical": 1},
					ChangedCycles: 4, Start: "2024-01-01T00:00:00Z", End: "2024-01-03T00:00:00Z", Cycles: 2,
					CycleLength: 86400, CycleDefault: true, Merge: 3600, TrackedDays: 5.5, ChangesPerDay: 4 / 5.5,
					Columns: []string{"page", "site", "time", "event"}, Ignored: []string{}}
				if fmt.Sprint(*s) != fmt.Sprint(want) {
					t.Errorf("summary\n got %+v\nwant %+v", *s, want)
				}
				if d.Info.Name != "Uploaded change events" || d.Info.Source != "upload" || d.Info.CycleUnit != "day" ||
					d.Info.Cycles != 2 || d.Info.CycleLength != 86400 || d.Info.ChangeRate != 4.0/6 {
					t.Errorf("info %+v", d.Info)
				}
				if !strings.HasPrefix(d.Info.ID, "events-") || len(d.Info.ID) != len("events-")+12 {
					t.Errorf("id %q", d.Info.ID)
				}
			},
		},
		{
			name: "no event column: every row a change; the earliest is the baseline",
			log:  "url,ts\nhttps://A.example/x,2024-01-01\nhttps://b.example/y,2024-01-01T10:00:00Z\nhttps://A.example/x,2024-01-02T00:00:00Z\nhttps://A.example/x,2024-01-03\n",
			// a's change at the window's start is outside every cycle.
			changed: [][]int32{{0, 1}, {0}}, first: [][]float64{{1, 10.0 / 24}, {2}},
			urls: []string{"https://A.example/x", "https://b.example/y"}, sites: []string{"a.example", "b.example"},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.ChangeRows != 4 || s.Outside != 1 || s.Changes != 3 || s.ReadAs != "read as change events; no event column, so every row is a change" ||
					!slices.Equal(s.Columns, []string{"url", "ts"}) {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "Open Terms Archive layout", log: otaSample, opt: EventLogOptions{CycleLength: 43200, Start: day},
			// Cycles of 12 hours from midnight: Facebook ToS changes at 00:30
			// (merged with 01:00) on day 2, cycle 2, and at 00:30 on day 3,
			// cycle 4; Match at 12:30 on day 2, cycle 3.
			changed: [][]int32{nil, nil, {0}, {2}, {0}},
			first:   [][]float64{nil, nil, {2 + 1.0/24}, {3 + 1.0/24 + 5.0/43200}, {4 + 1.0/24 + 5.0/43200}},
			tracked: []float64{1.0 / 24, 1.0/24 + 5.0/43200, 1.0/24 + 10.0/43200},
			urls:    []string{"Facebook / Terms of Service", "Facebook / Privacy Policy", "Match, Inc. / Terms of Service"},
			sites:   []string{"Facebook", "Match, Inc."},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.Layout != LayoutOTA || !strings.HasPrefix(s.ReadAs, "read as Open Terms Archive events") ||
					s.ReadAs != `read as Open Terms Archive events: page = service + " / " + document_type, site = service, time = ts_unix, event = event` ||
					!slices.Equal(s.Columns, []string{"ts_unix", "service", "document_type", "event"}) ||
					!slices.Equal(s.Ignored, []string{"ts_utc", "git_status", "commit"}) {
					t.Errorf("layout %q, %q; columns %q, ignored %q", s.Layout, s.ReadAs, s.Columns, s.Ignored)
				}
				if s.Rows != 9 || s.Starts != 3 || s.ChangeRows != 4 || s.Changes != 3 || s.Merged != 1 || s.Outside != 0 ||
					fmt.Sprint(s.Dropped) != "map[other:1 technical:1]" || s.Start != "2024-01-01T00:00:00Z" || s.End != "2024-01-03T00:30:05Z" {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "Open Terms Archive layout, ts_utc only, no event column",
			log:  "service,document_type,ts_utc\nX,Terms,2024-01-01T00:00:00Z\nX,Terms,2024-01-01T12:00:00Z\nX,Privacy,2024-01-02T00:00:00Z\n",
			opt:  EventLogOptions{CycleLength: 43200}, changed: [][]int32{{0}, {1}},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.Layout != LayoutOTA || !strings.HasSuffix(s.ReadAs, "time = ts_utc; no event column, so every row is a change") || s.CycleDefault {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			// service and document_type beside a page column are ignored.
			name:    "page column wins over the OTA layout",
			log:     "page,site,service,document_type,time\np,s,X,T,2024-01-01\np,s,X,T,2024-01-02\n",
			changed: [][]int32{{0}}, urls: []string{"p"},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.Layout != LayoutEvents || !slices.Equal(s.Ignored, []string{"service", "document_type"}) {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			// Changes at 0, 40 and 80 minutes after 01:00: the second is
			// merged into the first (under an hour after it); the third is
			// an hour and 20 minutes after the first, so it begins a new
			// group, although only 40 minutes after the second.
			name: "merging from the group's first change",
			log: "page,site,time\nz,s,2024-01-01T00:00:00Z\np,s,2024-01-01T01:00:00Z\np,s,2024-01-01T01:40:00Z\n" +
				"p,s,2024-01-01T02:20:00Z\np,s,2024-01-01T03:19:59Z\np,s,2024-01-01T03:20:00Z\nz,s,2024-01-01T04:00:00Z\n",
			opt:     EventLogOptions{CycleLength: 3600},
			changed: [][]int32{{1}, nil, {1}, {0, 1}}, first: [][]float64{{1}, nil, {2 + 20.0/60}, {4, 3 + 20.0/60}},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				// 01:00 kept; 01:40 merged; 02:20 kept; 03:19:59 merged; 03:20 kept.
				if s.Changes != 4 || s.Merged != 2 || s.Outside != 1 || s.ChangedCycles != 4 || s.Merge != 3600 {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "no merging",
			log:  "page,site,time\nz,s,2024-01-01T00:00:00Z\np,s,2024-01-01T01:00:00Z\np,s,2024-01-01T01:00:00Z\np,s,2024-01-01T01:40:00Z\nz,s,2024-01-01T04:00:00Z\n",
			opt:  EventLogOptions{CycleLength: 3600, Merge: -1}, changed: [][]int32{{1}, {1}, nil, {0}},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.Changes != 4 || s.Merged != 0 || s.ChangedCycles != 3 || s.Merge != 0 {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "a merge window of a day",
			log:  "page,site,time\nz,s,2024-01-01\np,s,2024-01-01T12:00:00Z\np,s,2024-01-02T11:00:00Z\np,s,2024-01-02T12:00:00Z\nz,s,2024-01-03\n",
			opt:  EventLogOptions{Merge: 86400}, changed: [][]int32{{1}, {0, 1}},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.Changes != 3 || s.Merged != 1 || s.Merge != 86400 {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			// Tracking from the earliest start event; a start before the
			// window tracks from the window's start; changes at or before
			// the tracking start are outside; a start after the window's end
			// tracks nothing.
			name: "start events and a window",
			log: "page,site,time,event\n" +
				"a,s,2024-01-01T00:00:00Z,start\n" +
				"b,s,2024-01-03T06:00:00Z,start\n" +
				"b,s,2024-01-03T06:00:00Z,change\n" +
				"b,s,2024-01-03T12:00:00Z,change\n" +
				"b,s,2024-01-03T03:00:00Z,start\n" +
				"a,s,2024-01-02T00:00:00Z,change\n" +
				"a,s,2024-01-02T23:00:00Z,change\n" +
				"a,s,2024-01-04T00:00:00Z,change\n" +
				"c,s,2024-01-09T00:00:00Z,start\n" +
				"c,s,2024-01-09T01:00:00Z,change\n",
			opt: EventLogOptions{Start: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)},
			// a: the change at the window's start is outside, 23:00 in cycle
			// 0, Jan 4 00:00 ends cycle 1. b: tracked from Jan 3 03:00, so
			// 06:00 and 12:00 count (6 hours apart). c: outside the window.
			changed: [][]int32{{0}, {0, 1}, nil},
			first:   [][]float64{{23.0 / 24}, {2, 1.25}, nil},
			tracked: []float64{0, 1.125, 3},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if s.Cycles != 3 || s.ChangeRows != 6 || s.Changes != 4 || s.Outside != 2 || s.Starts != 4 ||
					s.Start != "2024-01-02T00:00:00Z" || s.End != "2024-01-05T00:00:00Z" || s.TrackedDays != 3+1.875+0 {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "unsorted rows, name, 12-hour cycles",
			log:  "time,page,site,event\n2024-01-02T13:00:00Z,b,s,change\n2024-01-01T00:00:00Z,a,s,start\n2024-01-01T13:00:00Z,a,s,change\n2024-01-01T00:00:00Z,b,s,start\n2024-01-01T01:00:00Z,a,s,change\n",
			opt:  EventLogOptions{CycleLength: 43200, Name: "events.csv"}, changed: [][]int32{{1}, {1}, nil, {0}},
			urls: []string{"b", "a"},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if d.Info.Name != "events.csv" || d.Info.CycleUnit != "cycle" || s.CycleDefault {
					t.Errorf("info %+v", d.Info)
				}
			},
		},
		{
			name: "BOM, comments, blank lines, quotes, CRLF, spaces, case",
			log: "\ufeff# exported\r\n\r\n\"Page\", Site ,TIME,Event\r\n# a comment\r\n" +
				"\"a, with comma\",\"s \"\"q\"\"\",2024-01-01, START \r\n   \r\n" +
				"\"a, with comma\",\"s \"\"q\"\"\",2024-01-02 00:00, chAnge\r\n",
			changed: [][]int32{{0}}, urls: []string{"a, with comma"}, sites: []string{`s "q"`},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if !slices.Equal(s.Columns, []string{"Page", "Site", "TIME", "Event"}) || s.Starts != 1 {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "dropped kinds, capped",
			log: "page,site,time,event\na,s,2024-01-01,start\n" + func() string {
				var b strings.Builder
				for i := range 25 {
					fmt.Fprintf(&b, "a,s,2024-01-01T%02d:00:00Z,Kind%d\n", i%24, i)
				}
				return b.String()
			}() + "a,s,2024-01-01T01:00:00Z,KIND0\na,s,2024-01-02,change\n",
			changed: [][]int32{{0}},
			check: func(t *testing.T, d *Dataset, s *EventLogSummary) {
				if len(s.Dropped) != maxKinds+1 || s.Dropped["kind0"] != 2 || s.Dropped[otherKinds] != 5 || s.Rows != 28 {
					t.Errorf("dropped %v, rows %d", s.Dropped, s.Rows)
				}
			},
		},
		{
			// A page seen only in a dropped row is still a page, tracked and
			// unchanged.
			name:    "a page only in dropped rows",
			log:     "page,site,time,event\na,s,2024-01-01,change\nb,t,2024-01-01T12:00:00Z,technical\na,s,2024-01-02,change\n",
			changed: [][]int32{{0}}, urls: []string{"a", "b"}, sites: []string{"s", "t"}, tracked: []float64{0, 0},
		},
		{
			// The window's end falls inside a cycle: the last cycle is
			// partial, and a change at the end counts.
			name:    "a partial last cycle",
			log:     "page,site,time\nz,s,2024-01-01\na,s,2024-01-02T06:00:00Z\n",
			changed: [][]int32{nil, {1}}, first: [][]float64{nil, {1.25}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, s, err := ReadEventLog(strings.NewReader(tt.log), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			if !equalChanged(d.Truth.Changed, tt.changed) {
				t.Errorf("changed = %v, want %v", d.Truth.Changed, tt.changed)
			}
			if tt.first != nil && !equalFirst(d.Truth.First, tt.first, 1e-12) {
				t.Errorf("first = %v, want %v", d.Truth.First, tt.first)
			}
			if got := d.Features[FeatureTracked]; tt.tracked != nil && !equalFloats(got, tt.tracked, 1e-12) {
				t.Errorf("tracked = %v, want %v", got, tt.tracked)
			}
			if tt.urls != nil && !slices.Equal(pageURLs(d), tt.urls) {
				t.Errorf("pages = %q, want %q", pageURLs(d), tt.urls)
			}
			if tt.sites != nil && !slices.Equal(d.Sites, tt.sites) {
				t.Errorf("sites = %q, want %q", d.Sites, tt.sites)
			}
			checkEventSummary(t, d, s)
			if tt.check != nil {
				tt.check(t, d, s)
			}
		})
	}
}

// checkEventSummary checks what every summary must satisfy.
func checkEventSummary(t *testing.T, d *Dataset, s *EventLogSummary) {
	t.Helper()
	cells := 0
	for _, ch := range d.Truth.Changed {
		cells += len(ch)
	}
	dropped := 0
	for _, n := range s.Dropped {
		dropped += n
	}
	if s.ChangeRows != s.Changes+s.Merged+s.Outside || s.Rows != s.ChangeRows+s.Starts+dropped ||
		s.ChangedCycles != cells || s.ChangedCycles > s.Changes || s.Cycles != d.Truth.Cycles() || s.Cycles < 1 ||
		s.Pages != len(d.Pages) || s.Sites != len(d.Sites) || s.CycleLength != d.Info.CycleLength || !(s.CycleLength > 0) {
		t.Errorf("summary %+v does not add up (dataset: %d pages, %d cycles, %d changed page-cycles)", *s, len(d.Pages), d.Truth.Cycles(), cells)
	}
	if s.TrackedDays > 0 && math.Abs(s.ChangesPerDay-float64(s.Changes)/s.TrackedDays) > 1e-12*s.ChangesPerDay {
		t.Errorf("changes per day %v, want %d / %v", s.ChangesPerDay, s.Changes, s.TrackedDays)
	}
}

func equalFloats(a, b []float64, tol float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) <= tol*max(1, math.Abs(y)) })
}

func equalFirst(a, b [][]float64, tol float64) bool {
	return slices.EqualFunc(a, b, func(x, y []float64) bool { return equalFloats(x, y, tol) })
}

func TestReadEventLogErrors(t *testing.T) {
	const h = "page,site,time,event\n"
	const row = "a,s,2024-01-01,start\n"
	const ota = "ts_unix,ts_utc,service,document_type,event\n"
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name  string
		log   string
		opt   EventLogOptions
		limit *int // a limit to lower to 2 (rows) or 100 (line bytes)
		line  int
		col   int
		field string
		msg   string // the whole Error()
	}{
		{name: "empty file", log: "", line: 1, msg: "line 1: expected a header row, got end of file"},
		{name: "only comments", log: "# x\n\n", line: 1, msg: "line 1: expected a header row, got end of file"},
		{name: "no page", log: "site,time,event\n", line: 1,
			msg: `line 1: expected a page column (named page, url or service and document_type (Open Terms Archive)), got "site,time,event": to read a column named otherwise as the page column, give a column map, such as columns=page=NAME`},
		{name: "OTA without document_type", log: "ts_unix,service,event\n", line: 1,
			msg: `line 1: expected a page column (named page, url or service and document_type (Open Terms Archive)), got "ts_unix,service,event"`},
		{name: "no time", log: "# c\npage,when\n", line: 2,
			msg: `line 2: expected a time column (named time, crawl_time, timestamp, ts or crawled_at), got "page,when": to read columns named otherwise, give a column map, such as columns=time=when (guessed from their names)`},
		{name: "OTA without a time", log: "service,document_type,event,time\n", line: 1,
			msg: `line 1: expected a time column (named ts_unix or ts_utc), got "service,document_type,event,time"`},
		{name: "two event columns", log: "page,time,event,EVENT\n", line: 1, col: 4, field: "EVENT",
			msg: `line 1, column 4 (EVENT): expected one column of this kind (column 3, "event", is one), got a second one`},
		{name: "header only", log: h + "# x\n", line: 1, msg: "line 1: expected at least one event row, got end of file"},
		{name: "field count", log: h + row + "a,s,2024-01-02\n", line: 3, msg: "line 3: expected 4 fields, got 3"},
		{name: "bad time", log: h + row + "a,s,yesterday,change\n", line: 3, col: 3, field: "time",
			msg: `line 3, column 3 (time): expected a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds), got "yesterday"`},
		{name: "empty time", log: h + "a,s, ,change\n", line: 2, col: 3, field: "time",
			msg: "line 2, column 3 (time): expected a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds), got an empty field"},
		{name: "time out of range", log: ota + "-5,x,S,T,change\n", line: 2, col: 1, field: "ts_unix",
			msg: `line 2, column 1 (ts_unix): expected a time between 1970 and 2200, got "-5"`},
		{name: "bad OTA time", log: ota + "1704069000,x,S,T,start\n1704069000.x,x,S,T,change\n", line: 3, col: 1, field: "ts_unix",
			msg: `line 3, column 1 (ts_unix): expected a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds), got "1704069000.x"`},
		{name: "empty event", log: h + row + "\n\na,s,2024-01-02,\n", line: 5, col: 4, field: "event",
			msg: "line 5, column 4 (event): expected an event (change, start, or another kind, which is dropped), got an empty field"},
		{name: "empty page", log: h + row + " ,s,2024-01-02,change\n", line: 3, col: 1, field: "page",
			msg: "line 3, column 1 (page): expected a page id, got an empty field"},
		{name: "empty service", log: ota + "1704069000,x,,T,start\n", line: 2, col: 3, field: "service",
			msg: "line 2, column 3 (service): expected a service name, got an empty field"},
		{name: "empty document type", log: ota + "1704069000,x,S,\"\",start\n", line: 2, col: 4, field: "document_type",
			msg: "line 2, column 4 (document_type): expected a document type, got an empty field"},
		{name: "empty site", log: h + "a, ,2024-01-01,start\n", line: 2, col: 2, field: "site",
			msg: "line 2, column 2 (site): expected a site name, got an empty field"},
		{name: "site changes", log: h + row + "a,t,2024-01-02,change\n", line: 3, col: 2, field: "site",
			msg: `line 3, column 2 (site): expected site "s", as on the page's earlier rows, got "t"`},
		{name: "not a URL, no site column", log: "page,time\nhttps://x.org/a,2024-01-01\nx.org/b,2024-01-02\n", line: 3, col: 1, field: "page",
			msg: `line 3, column 1 (page): expected a URL with a host, since there is no site column, got "x.org/b"`},
		{name: "bare quote", log: h + row + `a"b,s,2024-01-02,change` + "\n", line: 3, col: 2,
			msg: `line 3, column 2: expected a " only in a quoted field (quote the field and double the "), got a bare " in an unquoted field`},
		{name: "unclosed quote", log: h + row + "\"a,s,2024-01-02,change\n", line: 3, col: 24,
			msg: `line 3, column 24: expected a closing " followed by a comma or the end of the line, got an extraneous or missing "`},
		{name: "long field", log: h + row + "a,s,2024-01-02," + long + "\n", line: 3, col: 4, field: "event",
			msg: "line 3, column 4 (event): expected a field of at most 4096 bytes, got 5000 bytes"},
		{name: "long header", log: "page,time," + long + "\n", line: 1, col: 3,
			msg: "line 1, column 3: expected a field of at most 4096 bytes, got 5000 bytes"},
		{name: "too many rows", log: h + row + row + "# c\n" + row, limit: &maxCrawlRows, line: 5,
			msg: "line 5: expected at most 2 event rows, got more"},
		{name: "long line", log: h + row + strings.Repeat("a", 200) + ",s,2024-01-02,change\n", limit: &maxLineBytes, line: 3,
			msg: "line 3: expected a line of at most 100 bytes, got a longer line"},
		{name: "all at one time", log: "# x\n" + h + row + "b,s,2024-01-01T00:00:00Z,change\n", line: 2,
			msg: "line 2: expected events at two or more different times (or a window set at upload), got all at 2024-01-01T00:00:00Z"},
		{name: "too many cycles", log: h + row + "a,s,2200-01-01,change\nb,s,2030-01-01,change\n", opt: EventLogOptions{CycleLength: 3600},
			line: 3, col: 3, field: "time",
			msg: "line 3, column 3 (time): expected an event at most 100000 cycles of 3600 s after the window's start (2024-01-01T00:00:00Z), got one 1542792 cycles after it"},
		{name: "truncated got", log: h + "a,s," + strings.Repeat("é", 30) + ",change\n", line: 2, col: 3, field: "time",
			msg: `line 2, column 3 (time): expected a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds), got "` + strings.Repeat("é", 20) + `..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.limit != nil {
				old := *tt.limit
				*tt.limit = 2
				if tt.limit == &maxLineBytes {
					*tt.limit = 100
				}
				defer func() { *tt.limit = old }()
			}
			d, s, err := ReadEventLog(strings.NewReader(tt.log), tt.opt)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want a *ParseError", err, err)
			}
			if d != nil || s != nil {
				t.Errorf("got a dataset with the error")
			}
			if pe.Line != tt.line || pe.Column != tt.col || tt.field != "" && pe.Field != tt.field {
				t.Errorf("at line %d, column %d, field %q; want %d, %d, %q (%v)", pe.Line, pe.Column, pe.Field, tt.line, tt.col, tt.field, err)
			}
			if err.Error() != tt.msg {
				t.Errorf("message\n %s\nwant\n %s", err, tt.msg)
			}
		})
	}
}

func TestReadEventLogBadOptions(t *testing.T) {
	at := func(y int) time.Time { return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC) }
	for _, opt := range []EventLogOptions{
		{CycleLength: -1}, {CycleLength: math.NaN()}, {CycleLength: math.Inf(1)}, {CycleLength: 1e-10}, {CycleLength: 5e9},
		{Merge: math.NaN()}, {Merge: math.Inf(-1)}, {Merge: 1e10},
		{Start: at(1960)}, {End: at(2300)}, {Start: at(2024), End: at(2024)}, {Start: at(2025), End: at(2024)},
		{Start: at(2030)},               // after every event: an empty window
		{End: at(2000)},                 // before every event
		{End: at(2199), CycleLength: 1}, // too many cycles
	} {
		_, _, err := ReadEventLog(strings.NewReader(goodEvents), opt)
		var pe *ParseError
		if err == nil || errors.As(err, &pe) {
			t.Errorf("options %+v: err = %v, want an option error", opt, err)
		}
	}
}

// TestReadEventLogID checks that an event log's id covers how it was read:
// the cycle, the merge window and the observation window as applied.
func TestReadEventLogID(t *testing.T) {
	for _, log := range []string{goodEvents, "\ufeff" + otaSample} {
		read := func(opt EventLogOptions) string {
			t.Helper()
			opt.Name = "x"
			d, _, err := ReadEventLog(strings.NewReader(log), opt)
			if err != nil {
				t.Fatal(err)
			}
			return d.Info.ID
		}
		base := read(EventLogOptions{})
		if again := read(EventLogOptions{CycleLength: 86400, Merge: 3600}); again != base {
			t.Errorf("the defaults given explicitly give %q, left out %q: want one id", again, base)
		}
		for name, opt := range map[string]EventLogOptions{
			"12-hour cycles": {CycleLength: 43200}, "no merging": {Merge: -1},
		} {
			if id := read(opt); id == base {
				t.Errorf("%s give the defaults' id %q: want another dataset", name, id)
			}
		}
		if !strings.HasPrefix(base, "events-") || len(base) != len("events-")+12 {
			t.Errorf("id %q: want events- and 12 hex digits", base)
		}
	}
}

func TestReadEventLogProgress(t *testing.T) {
	log := benchEvents(3000, 100)
	var calls []int64
	if _, _, err := ReadEventLog(bytes.NewReader(log), EventLogOptions{Progress: func(n int64) { calls = append(calls, n) }}); err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != int64(len(log)) || !slices.IsSorted(calls) {
		t.Errorf("progress calls %v for %d bytes", calls, len(log))
	}
}

func TestCyclesAfter(t *testing.T) {
	for _, Lns := range []int64{1, 3, 1e9, 43200e9, 86400e9, 4e18} {
		for _, c := range []int64{0, 1, 2, 999, 99_999} {
			if c*(Lns/1e6+1) > 7e12 { // past 2200
				continue
			}
			for _, r := range []int64{1, 2, Lns / 2, Lns - 1, Lns} {
				if r < 1 || r > Lns {
					continue
				}
				x := cyclesAfter(c*Lns+r, Lns)
				if !(x > float64(c) && x <= float64(c+1)) || r == Lns && x != float64(c+1) {
					t.Errorf("cyclesAfter(%d·%d + %d) = %v, want in (%d, %d]", c, Lns, r, x, c, c+1)
				}
				if n := NanosAt(x, Lns); n <= c*Lns || n > (c+1)*Lns {
					t.Errorf("NanosAt(%v, %d) = %d, want in (%d, %d]", x, Lns, n, c*Lns, (c+1)*Lns)
				}
			}
		}
	}
}

// roundTripEvents is a small hand-built dataset with continuous truth and
// tracking starts, with page ids that need quoting.
func roundTripEvents(cycleLength float64) *Dataset {
	d := &Dataset{
		Info: Info{ID: "rt", Name: "round trip", CycleLength: cycleLength},
		Repository: Repository{
			Pages: []Page{
				{URL: "https://a.example/1", Site: 0},
				{URL: "#not-a-comment", Site: 1},
				{URL: `page "with, quotes"`, Site: 1},
				{URL: "https://a.example/2", Site: 0},
			},
			Sites:    []string{"a.example", "b, inc."},
			Features: map[string][]float64{FeatureTracked: {0, 0.5, 2, 3.999}},
		},
		Truth: Truth{
			Changed: [][]int32{{0, 1}, nil, {0, 1, 2}, {3}, nil, {1}},
			First:   [][]float64{{0.25, 0.75}, nil, {2.5, 2.000001, 3}, {4}, nil, {5.999999999}},
		},
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	return d
}

func TestWriteEventLogRoundTrip(t *testing.T) {
	start := time.Date(2024, 3, 1, 0, 30, 0, 0, time.UTC)
	for _, cl := range []float64{86400, 3600, 43200, 0.5} {
		t.Run(fmt.Sprint(cl), func(t *testing.T) {
			d := roundTripEvents(cl)
			var buf bytes.Buffer
			if err := WriteEventLog(&buf, d, start); err != nil {
				t.Fatal(err)
			}
			end := start.Add(time.Duration(float64(d.Truth.Cycles()) * cl * 1e9))
			got, s, err := ReadEventLog(&buf, EventLogOptions{CycleLength: cl, Start: start, End: end, Merge: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !equalChanged(got.Truth.Changed, d.Truth.Changed) || !equalFirst(got.Truth.First, d.Truth.First, 1e-9/cl) {
				t.Errorf("changed %v first %v, want %v %v", got.Truth.Changed, got.Truth.First, d.Truth.Changed, d.Truth.First)
			}
			if !equalFloats(got.Features[FeatureTracked], d.Features[FeatureTracked], 1e-9/cl) {
				t.Errorf("tracked %v", got.Features[FeatureTracked])
			}
			if !slices.Equal(pageURLs(got), pageURLs(d)) || !slices.Equal(got.Sites, d.Sites) || s.Starts != 4 || s.Changes != 7 || s.Outside != 0 {
				t.Errorf("pages %q sites %q summary %+v", pageURLs(got), got.Sites, *s)
			}
		})
	}
	var buf bytes.Buffer
	WriteEventLog(&buf, roundTripEvents(86400), start)
	const want = `page,site,time,event
https://a.example/1,a.example,2024-03-01T00:30:00Z,start
"#not-a-comment","b, inc.",2024-03-01T12:30:00Z,start
"page ""with, quotes""","b, inc.",2024-03-03T00:30:00Z,start
https://a.example/2,a.example,2024-03-05T00:28:33.6Z,start
https://a.example/1,a.example,2024-03-01T06:30:00Z,change
"#not-a-comment","b, inc.",2024-03-01T18:30:00Z,change
https://a.example/1,a.example,2024-03-03T12:30:00Z,change
"#not-a-comment","b, inc.",2024-03-03T00:30:00.0864Z,change
"page ""with, quotes""","b, inc.",2024-03-04T00:30:00Z,change
https://a.example/2,a.example,2024-03-05T00:30:00Z,change
"#not-a-comment","b, inc.",2024-03-07T00:29:59.9999136Z,change
`
	if buf.String() != want {
		t.Errorf("log\n%s\nwant\n%s", buf.String(), want)
	}
	for _, urls := range [][]string{{"a", "a"}, {"a", ""}, {" a", "b"}, {"a\r\nb", "c"}} {
		d := &Dataset{Repository: Repository{Pages: []Page{{URL: urls[0]}, {URL: urls[1]}}, Sites: []string{"s"}},
			Truth: Truth{Changed: [][]int32{{0}}}}
		if err := WriteEventLog(&bytes.Buffer{}, d, start); err == nil {
			t.Errorf("pages %q: no error", urls)
		}
	}
}

// TestWriteEventLogMidCycle checks that a truth without first-change times
// is written at the middle of each cycle.
func TestWriteEventLogMidCycle(t *testing.T) {
	d := &Dataset{Repository: Repository{Pages: []Page{{URL: "p"}}, Sites: []string{"s"}}, Truth: Truth{Changed: [][]int32{nil, {0}}}}
	var buf bytes.Buffer
	if err := WriteEventLog(&buf, d, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if want := "page,site,time,event\np,s,2024-01-01T00:00:00Z,start\np,s,2024-01-02T12:00:00Z,change\n"; buf.String() != want {
		t.Errorf("log\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestObserveGrimesFord reproduces Figure 1 of Grimes & Ford §3.2 (the
// figure itself is missing from the text; its caption's numbers are
// there): a page that changes 7 times over T = 8C, observed by crawlers
// with intervals C and 2C, which see 6 and 4 changes. We place the
// changes (one pair inside one interval C, and intervals C-wise
// 0,0,1,2,4,5,7) so that the caption's counts hold, and read them as an
// event log with cycles of C/4, fine enough to tell every change apart.
func TestObserveGrimesFord(t *testing.T) {
	const C = 8 * 3600 // seconds
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	b.WriteString("page,site,time,event\np,s,2024-01-01T00:00:00Z,start\n")
	for _, at := range []float64{0.1, 0.6, 1.5, 2.5, 4.5, 5.5, 7.5} { // in units of C
		fmt.Fprintf(&b, "p,s,%d,change\n", t0.Unix()+int64(at*C))
	}
	d, s, err := ReadEventLog(strings.NewReader(b.String()),
		EventLogOptions{CycleLength: C / 4, End: t0.Add(8 * C * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Changes != 7 || s.Cycles != 32 {
		t.Fatalf("summary %+v", *s)
	}
	T := 8 * C / 86400.0 // days
	for _, tt := range []struct {
		every int // cycles of C/4
		seen  int
	}{{1, 7}, {4, 6}, {8, 4}, {32, 1}} {
		obs, err := Observe(d, tt.every)
		if err != nil {
			t.Fatal(err)
		}
		o := obs[0]
		seen := 0
		for _, z := range o.Changed {
			if z {
				seen++
			}
		}
		if seen != tt.seen || len(o.Intervals) != 32/tt.every || o.Changes != 7 || o.AfterLast != 0 || o.Span != T || o.Rate != 7/T {
			t.Errorf("every %d cycles: %d of %d intervals changed, want %d; %+v", tt.every, seen, len(o.Intervals), tt.seen, o)
		}
		if sum := sumFloats(o.Intervals); math.Abs(sum-T) > 1e-12 {
			t.Errorf("every %d cycles: intervals sum to %v days, want %v", tt.every, sum, T)
		}
		t.Logf("crawl every %v h: naive estimate %d/T, true 7/T", float64(tt.every)*C/4/3600, seen)
	}
}

func sumFloats(a []float64) float64 {
	s := 0.0
	for _, x := range a {
		s += x
	}
	return s
}

// TestObserveHand checks Observe on a hand-built dataset with partial
// first intervals (tracking starts inside a cycle) and an unobserved tail.
func TestObserveHand(t *testing.T) {
	d := &Dataset{
		Info: Info{CycleLength: 43200},
		Repository: Repository{
			Pages:    []Page{{URL: "a"}, {URL: "b"}, {URL: "c"}},
			Sites:    []string{"s"},
			Features: map[string][]float64{FeatureTracked: {0, 2.5, 7}},
		},
		// 7 cycles of 12 hours. a changes in cycles 0, 1, 3, 6; b in 2, 3,
		// 4; c never (tracked from the end).
		Truth: Truth{Changed: [][]int32{{0}, {0}, {1}, {0, 1}, {1}, nil, {0}}},
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	type want struct {
		intervals []float64 // days
		changed   []bool
		changes   int
		afterLast int
		span      float64
	}
	for _, tt := range []struct {
		k    int
		want []want
	}{
		{1, []want{
			{[]float64{.5, .5, .5, .5, .5, .5, .5}, []bool{true, true, false, true, false, false, true}, 4, 0, 3.5},
			{[]float64{.25, .5, .5, .5, .5}, []bool{true, true, true, false, false}, 3, 0, 2.25},
			{nil, nil, 0, 0, 0}}},
		{2, []want{
			// fetches at 2, 4, 6; a's change in cycle 6 is after the last.
			{[]float64{1, 1, 1}, []bool{true, true, false}, 4, 1, 3.5},
			// b from 2.5: fetches at 4, 6: (2.5, 4] holds 2 and 3, (4, 6] holds 4.
			{[]float64{.75, 1}, []bool{true, true}, 3, 0, 2.25},
			{nil, nil, 0, 0, 0}}},
		{3, []want{
			{[]float64{1.5, 1.5}, []bool{true, true}, 4, 1, 3.5},
			{[]float64{.25, 1.5}, []bool{true, true}, 3, 0, 2.25},
			{nil, nil, 0, 0, 0}}},
		{8, []want{
			{nil, nil, 4, 4, 3.5},
			{nil, nil, 3, 3, 2.25},
			{nil, nil, 0, 0, 0}}},
	} {
		obs, err := Observe(d, tt.k)
		if err != nil {
			t.Fatal(err)
		}
		for p, w := range tt.want {
			o := obs[p]
			rate := 0.0
			if w.span > 0 {
				rate = float64(w.changes) / w.span
			}
			if o.Page != int32(p) || !slices.Equal(o.Intervals, w.intervals) || !slices.Equal(o.Changed, w.changed) ||
				o.Changes != w.changes || o.AfterLast != w.afterLast || o.Span != w.span || o.Rate != rate {
				t.Errorf("every %d, page %d: %+v, want %+v", tt.k, p, o, w)
			}
		}
	}
	if _, err := Observe(d, 0); err == nil {
		t.Error("Observe every 0 cycles: no error")
	}
}

// TestObserveCensoring checks Observe on random datasets against the
// censoring accounting, computed here independently: every changed cycle
// c of a page tracked from s (floor(s) <= c) lies in the interval that
// ends at the first multiple of k after c, which is observed when that
// boundary is at most N; an interval is seen changed when it holds at
// least one changed cycle. So the changes lost at k are the changed cycles
// beyond the first in each interval plus those after the last fetch; and
// k = 1 sees every changed cycle.
func TestObserveCensoring(t *testing.T) {
	x := uint64(5)
	rnd := func(n int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	for iter := range 300 {
		N := 1 + rnd(40)
		n := 1 + rnd(10)
		d := &Dataset{Info: Info{CycleLength: []float64{86400, 43200, 3600, 0}[iter%4]}, Repository: Repository{Sites: []string{"s"}}}
		tracked := make([]float64, n)
		for p := range n {
			d.Pages = append(d.Pages, Page{URL: strconv.Itoa(p)})
			if rnd(2) == 0 {
				tracked[p] = float64(rnd(N*4)) / 4
			}
		}
		d.Features = map[string][]float64{FeatureTracked: tracked}
		d.Truth.Changed = make([][]int32, N)
		for c := range N {
			for p := range n {
				if c >= int(tracked[p]) && rnd(3) == 0 {
					d.Truth.Changed[c] = append(d.Truth.Changed[c], int32(p))
				}
			}
		}
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		unit := d.Info.CycleLength / 86400
		if unit == 0 {
			unit = 1
		}
		for _, k := range []int{1, 2, 3, 5, 50} {
			obs, err := Observe(d, k)
			if err != nil {
				t.Fatal(err)
			}
			for p, o := range obs {
				intervals := map[int]int{} // boundary -> changed cycles in it
				changes, after := 0, 0
				for c, ch := range d.Truth.Changed {
					if !slices.Contains(ch, int32(p)) {
						continue
					}
					changes++
					if b := (c/k + 1) * k; b <= N {
						intervals[b]++
					} else {
						after++
					}
				}
				seen, lost := 0, after
				for _, m := range intervals {
					seen++
					lost += m - 1
				}
				got := 0
				for _, z := range o.Changed {
					if z {
						got++
					}
				}
				s := tracked[p]
				wantLen := 0
				if b := (int(s)/k + 1) * k; b <= N {
					wantLen = (N-b)/k + 1
				}
				if got != seen || o.Changes != changes || o.AfterLast != after || changes-got != lost || len(o.Intervals) != wantLen ||
					math.Abs(sumFloats(o.Intervals)-spanObserved(s, k, N)*unit) > 1e-9 {
					t.Fatalf("dataset %d, k %d, page %d (tracked from %v of %d cycles): seen %d of %d intervals, changes %d, after %d; want seen %d of %d, changes %d, after %d; intervals %v",
						iter, k, p, s, N, got, len(o.Intervals), o.Changes, o.AfterLast, seen, wantLen, changes, after, o.Intervals)
				}
				if k == 1 && got != changes {
					t.Fatalf("dataset %d, page %d: every cycle observed sees %d of %d changes", iter, p, got, changes)
				}
			}
		}
	}
}

// spanObserved is the time from s to the last fetch, the multiple of k at
// most N, in cycles (0 without a fetch).
func spanObserved(s float64, k, N int) float64 {
	last := N / k * k
	if float64(last) <= s {
		return 0
	}
	return float64(last) - s
}

// otaEvents reads an Open Terms Archive events.csv with encoding/csv: an
// independent reference for the tests on the real logs.
type otaPage struct {
	start   int64 // first start event, unix seconds
	changes []int64
}

func readOTA(t *testing.T, path string) (rows [][]string, pages map[string]*otaPage, kinds map[string]int) {
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("skipped: the real change log %s is not here: %v", path, err)
	}
	defer f.Close()
	rows, err = csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	pages, kinds = map[string]*otaPage{}, map[string]int{}
	for _, r := range rows[1:] {
		ts, err := strconv.ParseInt(r[col["ts_unix"]], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		id := r[col["service"]] + " / " + r[col["document_type"]]
		p := pages[id]
		if p == nil {
			p = &otaPage{start: -1}
			pages[id] = p
		}
		kinds[r[col["event"]]]++
		switch r[col["event"]] {
		case "start":
			if p.start < 0 || ts < p.start {
				p.start = ts
			}
		case "change":
			p.changes = append(p.changes, ts)
		}
	}
	return rows, pages, kinds
}

// keptChanges applies the reader's rules to a page's changes independently:
// those in (from, end], merged when under an hour after the kept change
// that began their group.
func keptChanges(p *otaPage, from, end int64) []int64 {
	cs := slices.Sorted(slices.Values(p.changes))
	var kept []int64
	for _, c := range cs {
		if c <= from || c > end {
			continue
		}
		if len(kept) > 0 && c-kept[len(kept)-1] < 3600 {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// TestReadEventLogOTA reads the two real Open Terms Archive logs as they
// are: ota-pga-versions has 4,842 events of 133 pages (documents) of 26
// services, 4,412 of them changes; ota-dating-versions 1,029 events of 69
// pages of 26 services, 811 of them changes. Technical events
// (296 and 149) and pga's one "other" are dropped; every page has one start
// event, its earliest, and no change before it, so with the default window
// no change is outside; merging changes of a page under an hour apart (one
// crawl run's commits) removes 105 of pga's changes and 5 of dating's
// (computed here from the raw rows too), leaving 4,307 and 806.
func TestReadEventLogOTA(t *testing.T) {
	dir := sharedData(t)
	for _, tc := range []struct {
		name                          string
		rows, pages, sites, changeRow int
		dropped                       string
		merged                        int
	}{
		{"ota-pga-versions", 4842, 133, 26, 4412, "map[other:1 technical:296]", 105},
		{"ota-dating-versions", 1029, 69, 26, 811, "map[technical:149]", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name, "events.csv")
			_, ref, kinds := readOTA(t, path)
			f, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, s, err := ReadEventLog(bytes.NewReader(f), EventLogOptions{Name: tc.name})
			if err != nil {
				t.Fatal(err)
			}
			checkEventSummary(t, d, s)
			if s.Layout != LayoutOTA || s.Rows != tc.rows || s.Pages != tc.pages || s.Sites != tc.sites || s.ChangeRows != tc.changeRow ||
				s.Starts != tc.pages || fmt.Sprint(s.Dropped) != tc.dropped || s.Outside != 0 || s.Merged != tc.merged ||
				s.Changes != tc.changeRow-tc.merged || kinds["change"] != tc.changeRow {
				t.Errorf("summary %+v", *s)
			}
			// The reference: the same counts from the raw rows.
			t0, _ := time.Parse(time.RFC3339, s.Start)
			t1, _ := time.Parse(time.RFC3339, s.End)
			kept := 0
			for _, p := range ref {
				kept += len(keptChanges(p, max(p.start, t0.Unix()), t1.Unix()))
			}
			if kept != s.Changes {
				t.Errorf("%d changes kept, the reference keeps %d", s.Changes, kept)
			}
			t.Logf("%s: %d rows, %d pages, %d sites, %d change rows: %d kept, %d merged; %d cycles of a day from %s to %s; %.4f changes per page per day over %.0f page-days",
				tc.name, s.Rows, s.Pages, s.Sites, s.ChangeRows, s.Changes, s.Merged, s.Cycles, s.Start, s.End, s.ChangesPerDay, s.TrackedDays)
		})
	}
}

// TestObserveOTA puts the real logs on the 12-hour run grid since 2023
// (the archive's runs start at about 00:30 and 12:30 UTC, so cycle
// boundaries at 00:00 and 12:00 fall between runs) and checks, against a
// reference computed from the raw rows, that crawling every run (k = 1)
// sees every changed run exactly, and that keeping every 2nd or 4th run
// loses changes exactly as censoring predicts: a changed run is seen as a
// changed interval only if no earlier changed run shares its interval.
func TestObserveOTA(t *testing.T) {
	dir := sharedData(t)
	const run = 12 * 3600
	since := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name, "events.csv")
			_, ref, _ := readOTA(t, path)
			f, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, s, err := ReadEventLog(bytes.NewReader(f), EventLogOptions{Name: name, CycleLength: run, Start: since})
			if err != nil {
				t.Fatal(err)
			}
			N := s.Cycles
			last, _ := time.Parse(time.RFC3339, s.End)
			t0, end := since.Unix(), last.Unix()
			// Reference: each page's changed runs since 2023.
			runs := map[string][]int{}
			for id, p := range ref {
				for _, c := range keptChanges(p, max(p.start, t0), end) {
					r := int((c - t0 - 1) / run)
					if l := runs[id]; len(l) == 0 || l[len(l)-1] != r {
						runs[id] = append(runs[id], r)
					}
				}
			}
			var seen [5]int // by k
			total := 0
			for _, k := range []int{1, 2, 4} {
				obs, err := Observe(d, k)
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				for p, o := range obs {
					rs := runs[d.Pages[p].URL]
					boundaries := map[int]bool{}
					for _, r := range rs {
						if b := (r/k + 1) * k; b <= N {
							boundaries[b] = true
						}
					}
					got := 0
					for _, z := range o.Changed {
						if z {
							got++
						}
					}
					if o.Changes != len(rs) || got != len(boundaries) {
						t.Errorf("every %d runs, %s: %d changed runs, %d seen; the reference has %d and %d",
							k, d.Pages[p].URL, o.Changes, got, len(rs), len(boundaries))
					}
					if k == 1 {
						total += len(rs)
					}
					seen[k] += got
					want += len(boundaries)
				}
			}
			if seen[1] != total || !(seen[2] < seen[1] && seen[4] < seen[2]) {
				t.Errorf("changed intervals seen: every run %d (of %d changed runs), every 2nd %d, every 4th %d", seen[1], total, seen[2], seen[4])
			}
			t.Logf("%s since 2023: %d runs of 12 h, %d changed page-runs; seen every run %d, every 2nd run %d (%.1f%% lost), every 4th %d (%.1f%% lost)",
				name, N, total, seen[1], seen[2], 100*float64(total-seen[2])/float64(total), seen[4], 100*float64(total-seen[4])/float64(total))
		})
	}
}

// FuzzReadEventLog checks that any input gives either a valid dataset
// whose summary adds up, or a *ParseError with a line, and never a panic;
// and that what was read observes and writes out consistently.
func FuzzReadEventLog(f *testing.F) {
	for _, s := range []string{goodEvents, otaSample, "\ufeff" + otaSample,
		"url,ts\nhttps://a.b/x,1\nhttps://a.b/x,2\n",
		"page,site,time,event\na,s,2024-01-01,start\n\"a\"\"\",s,2024-01-02 00:00,change\n# c\n",
		"page,site,time,event\na,s,2024-01-01,start\na\"b,s,2024-01-02,change\n",
		"service,document_type,ts_utc,event\nX,T,2024-01-01T00:00:00Z,start\nX,T,2024-01-01T00:00:01Z,change\n",
		"page,site,time,event\n", "", "page,site,time\na,s,1969-01-01\n",
	} {
		f.Add([]byte(s), 0.0, 0.0)
		f.Add([]byte(s), 3600.0, -1.0)
	}
	f.Fuzz(func(t *testing.T, data []byte, cycle, merge float64) {
		if !(cycle >= minEventCycle && cycle <= maxEventCycle) {
			cycle = 0
		}
		if math.IsNaN(merge) || math.IsInf(merge, 0) || merge > maxEventCycle {
			merge = 0
		}
		d, s, err := ReadEventLog(bytes.NewReader(data), EventLogOptions{CycleLength: cycle, Merge: merge})
		if err != nil {
			wantParseError(t, err)
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		checkEventSummary(t, d, s)
		if d.Truth.Cycles() > 10_000 || len(d.Pages)*d.Truth.Cycles() > 100_000 {
			return
		}
		obs, err := Observe(d, 1)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, o := range obs {
			for _, z := range o.Changed {
				if z {
					seen++
				}
			}
		}
		if seen != s.ChangedCycles {
			t.Fatalf("observed every cycle: %d changed intervals, want %d", seen, s.ChangedCycles)
		}
		// Written out and read back over the same window, without merging,
		// the truth is the same, unless a change lies within float64
		// precision of its page's tracking start (the two then meet).
		tracked := d.Features[FeatureTracked]
		for c, ch := range d.Truth.Changed {
			for i, p := range ch {
				if d.Truth.First[c][i]-tracked[p] < 1e-9*float64(c+1) {
					return
				}
			}
		}
		var buf bytes.Buffer
		t0, _ := time.Parse(time.RFC3339Nano, s.Start)
		if err := WriteEventLog(&buf, d, t0); err != nil {
			return // page URLs that are not unique, say
		}
		end := t0.Add(time.Duration(NanosAt(float64(s.Cycles), int64(math.Round(s.CycleLength*1e9)))))
		if end.UnixNano() >= maxCrawlTime {
			return
		}
		d2, _, err := ReadEventLog(&buf, EventLogOptions{CycleLength: s.CycleLength, Start: t0, End: end, Merge: -1})
		if err != nil {
			t.Fatalf("reading the log written: %v\n%s", err, buf.String())
		}
		if !equalChanged(d2.Truth.Changed, d.Truth.Changed) {
			t.Fatalf("read back %v, want %v", d2.Truth.Changed, d.Truth.Changed)
		}
	})
}

// benchEvents generates an event log: pages on 1 site per 100 pages, a
// start row each, then changes, each page changing on about 1 day in 5 at
// a random time of day, over days days.
func benchEvents(pages, days int) []byte {
	var b bytes.Buffer
	b.WriteString("url,site,time,event\n")
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	x := uint64(1)
	var row []byte
	for p := range pages {
		row = fmt.Appendf(row[:0], "https://site%d.example.com/articles/%d.html,site%d.example.com,", p/100, p, p/100)
		row = t0.AppendFormat(row, time.RFC3339)
		row = append(row, ",start\n"...)
		b.Write(row)
	}
	for day := range days {
		for p := range pages {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			if x%5 != 0 {
				continue
			}
			t := t0.Add(time.Duration(day)*24*time.Hour + time.Duration(x%86400)*time.Second)
			row = fmt.Appendf(row[:0], "https://site%d.example.com/articles/%d.html,site%d.example.com,", p/100, p, p/100)
			row = t.AppendFormat(row, time.RFC3339)
			row = append(row, ",change\n"...)
			b.Write(row)
		}
	}
	return b.Bytes()
}

// BenchmarkReadEventLog reads a generated log of about 1,000,000 rows
// (50,000 pages changing on about one day in five over 100 days), and the
// real Open Terms Archive pga log when present, and reports ns per row.
func BenchmarkReadEventLog(b *testing.B) {
	logs := []struct {
		name string
		data []byte
		opt  EventLogOptions
	}{{"generated", benchEvents(50_000, 100), EventLogOptions{}}}
	if real, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "ota-pga-versions", "events.csv")); err == nil {
		logs = append(logs, struct {
			name string
			data []byte
			opt  EventLogOptions
		}{"ota-pga", real, EventLogOptions{CycleLength: 43200}})
	} else {
		b.Logf("ota-pga skipped: the real Open Terms Archive log is not beside the project (%v)", err)
	}
	for _, l := range logs {
		b.Run(l.name, func(b *testing.B) {
			rows := bytes.Count(l.data, []byte{'\n'}) - 1
			b.SetBytes(int64(len(l.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := ReadEventLog(bytes.NewReader(l.data), l.opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
		})
	}
}

// BenchmarkObserve observes the generated log's dataset every 4 days and
// reports ns per page-cycle.
func BenchmarkObserve(b *testing.B) {
	d, _, err := ReadEventLog(bytes.NewReader(benchEvents(50_000, 100)), EventLogOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Observe(d, 4); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)*d.Truth.Cycles()), "ns/page-cycle")
}

// TestReadmeEventExample reads the example in datasets/README.md's
// "Change-event logs" section, so that the documentation stays true.
func TestReadmeEventExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "datasets", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## Change-event logs")
	_, after, ok2 := strings.Cut(section, "```csv\n")
	log, _, ok3 := strings.Cut(after, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("no csv example in datasets/README.md's Change-event logs section")
	}
	d, s, err := ReadEventLog(strings.NewReader(log), EventLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// As the README says: 3 pages on 2 sites, 2 one-day cycles; the news
	// page changed in both, its two changes on day 2 merged; the feed,
	// tracked from noon on day 1, in the first; the technical row dropped.
	if !equalChanged(d.Truth.Changed, [][]int32{{1, 2}, {1}}) || s.Pages != 3 || s.Sites != 2 || s.Cycles != 2 ||
		s.Changes != 3 || s.Merged != 1 || s.Dropped["technical"] != 1 || d.Features[FeatureTracked][2] != 0.5 {
		t.Errorf("changed %v, summary %+v", d.Truth.Changed, *s)
	}
}

// ExampleReadEventLog reads an Open Terms Archive events.csv as the archive
// publishes it, in 12-hour cycles from midnight.
func ExampleReadEventLog() {
	const log = `ts_unix,ts_utc,service,document_type,event,git_status,commit
1704069000,2024-01-01T00:30:00Z,Facebook,Terms of Service,start,A,c53998c360
1704155400,2024-01-02T00:30:00Z,Facebook,Terms of Service,change,M,a3689b3849
1704157200,2024-01-02T01:00:00Z,Facebook,Terms of Service,change,M,a3689b3850
1704198600,2024-01-02T12:30:00Z,Facebook,Terms of Service,technical,M,a3689b3851
`
	d, s, err := ReadEventLog(strings.NewReader(log), EventLogOptions{
		CycleLength: 12 * 3600,
		Start:       time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.ReadAs)
	fmt.Printf("%d page, %d cycles; %d change rows: %d kept, %d merged; dropped %v\n",
		s.Pages, s.Cycles, s.ChangeRows, s.Changes, s.Merged, s.Dropped)
	fmt.Printf("changed: %v, first at %.4f cycles\n", d.Truth.Changed, d.Truth.First[2][0])
	// Output:
	// read as Open Terms Archive events: page = service + " / " + document_type, site = service, time = ts_unix, event = event
	// 1 page, 4 cycles; 2 change rows: 1 kept, 1 merged; dropped map[technical:1]
	// changed: [[] [] [0] []], first at 2.0417 cycles
}

// ExampleObserve shows what crawlers fetching a page every day and every
// two days see of a page that changed on days 1, 2 and 4.
func ExampleObserve() {
	const log = `page,site,time,event
p,s,2024-01-01T00:00:00Z,start
p,s,2024-01-01T10:00:00Z,change
p,s,2024-01-02T10:00:00Z,change
p,s,2024-01-04T10:00:00Z,change
p,s,2024-01-05T00:00:00Z,technical
`
	d, _, err := ReadEventLog(strings.NewReader(log), EventLogOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []int{1, 2} {
		obs, _ := Observe(d, k)
		o := obs[0]
		fmt.Printf("every %d day(s): intervals %v days, changed %v; truth %d changes in %v days\n",
			k, o.Intervals, o.Changed, o.Changes, o.Span)
	}
	// Output:
	// every 1 day(s): intervals [1 1 1 1] days, changed [true true false true]; truth 3 changes in 4 days
	// every 2 day(s): intervals [2 2] days, changed [true true]; truth 3 changes in 4 days
}
