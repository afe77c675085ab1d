package api

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// memStore is a Store in memory, shared by routers that stand for the
// Worker's fresh instances, one per request.
type memStore struct {
	mu  sync.Mutex
	m   map[string][]byte
	max int64
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) Get(key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok, nil
}

func (s *memStore) Put(key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = bytes.Clone(value)
	return nil
}

func (s *memStore) Delete(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
	return nil
}

func (s *memStore) MaxValue() int64 { return s.max }

// fresh is a router with a lab of its own over store, as each request to
// the Worker gets.
func fresh(store Store) *Router {
	rt := New(lab.New())
	rt.KeepIn(store)
	return rt
}

// TestStoreKeepsUploadsAcrossInstances checks that an upload sent to one
// instance runs, draws and is listed on another that shares its store, for
// its sender alone, read as it was sent (every reading option kept).
func TestStoreKeepsUploadsAcrossInstances(t *testing.T) {
	store := newMemStore()
	for _, tc := range []struct {
		name  string
		query url.Values
		body  func(log string) []byte
	}{
		{"plain", url.Values{"name": {"log"}}, func(log string) []byte { return []byte(log) }},
		{"options", url.Values{"name": {"log"}, "cycle": {"12h"}, "sep": {";"}}, func(log string) []byte { return []byte(strings.ReplaceAll(log, ",", ";")) }},
		{"gzip", url.Values{"name": {"log"}}, func(log string) []byte {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write([]byte(log))
			zw.Close()
			return z.Bytes()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := fresh(store).Serve(Request{Method: "POST", Path: "/api/datasets", Query: tc.query, Body: tc.body(crawlLog("alice")), Client: "alice"})
			if up.Status != 201 {
				t.Fatalf("upload: %d %s", up.Status, up.Body)
			}
			var m map[string]any
			decodeJSON(t, up.Body, &m)
			id := datasetID(m)
			run := `{"dataset":{"id":"` + id + `"},"repeats":2,"policies":[{"id":"random"}]}`
			for _, c := range []struct {
				client   string
				run, drw int
				listed   bool
			}{{"alice", 200, 200, true}, {"bob", 400, 400, false}, {"", 400, 400, false}} {
				if r := fresh(store).Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(run), Client: c.client}); r.Status != c.run {
					t.Errorf("run as %q on a fresh instance: %d %.200s, want %d", c.client, r.Status, r.Body, c.run)
				} else if c.run == 200 && !strings.Contains(string(r.Body), id) {
					t.Errorf("run as %q: the result does not name %s: %.200s", c.client, id, r.Body)
				}
				if r := fresh(store).Serve(Request{Method: "POST", Path: "/api/chart", Body: []byte(`{"spec":` + run + `}`), Client: c.client}); r.Status != c.drw {
					t.Errorf("chart as %q on a fresh instance: %d %.200s, want %d", c.client, r.Status, r.Body, c.drw)
				}
				list := fresh(store).Serve(Request{Method: "GET", Path: "/api/datasets", Client: c.client})
				if strings.Contains(string(list.Body), id) != c.listed {
					t.Errorf("GET /api/datasets as %q on a fresh instance lists %s: %v, want %v", c.client, id, !c.listed, c.listed)
				}
				f := fresh(store).Serve(Request{Method: "POST", Path: "/api/fields", Body: []byte(`{"spec":{"dataset":{"id":"taleghani-example"},"policies":[{"id":"random"}]},"fields":["dataset.id"]}`), Client: c.client})
				if strings.Contains(string(f.Body), id) != c.listed {
					t.Errorf("the dataset menu as %q on a fresh instance offers %s: %v, want %v", c.client, id, !c.listed, c.listed)
				}
			}
		})
	}
	for k, v := range store.m {
		if strings.HasPrefix(k, "upload/") {
			if _, body, err := decodeKept(v); err != nil || !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
				t.Errorf("%s is not kept gzip-compressed (%v)", k, err)
			}
		}
	}
}

// TestStoreEvictsPerClient checks that the store keeps a client's newest
// MaxClientUploads uploads, says which went, and that one gone is gone
// from every instance.
func TestStoreEvictsPerClient(t *testing.T) {
	store := newMemStore()
	var first string
	for i := range MaxClientUploads + 1 {
		up := fresh(store).Serve(Request{Method: "POST", Path: "/api/datasets", Body: []byte(crawlLog(fmt.Sprint("alice", i))), Client: "alice"})
		if up.Status != 201 {
			t.Fatalf("upload %d: %d %s", i, up.Status, up.Body)
		}
		var m map[string]any
		decodeJSON(t, up.Body, &m)
		ev, _ := m["evicted"].([]any)
		switch {
		case i == 0:
			first = datasetID(m)
		case i < MaxClientUploads && ev != nil:
			t.Errorf("upload %d evicted %v", i, ev)
		case i == MaxClientUploads && (len(ev) != 1 || ev[0] != first):
			t.Errorf("upload %d evicted %v, want alice's first, %s", i, ev, first)
		}
	}
	if _, ok := store.m[uploadKey("alice", first)]; ok {
		t.Errorf("the store keeps alice's evicted upload still")
	}
	run := `{"dataset":{"id":"` + first + `"},"repeats":2,"policies":[{"id":"random"}]}`
	if r := fresh(store).Serve(Request{Method: "POST", Path: "/api/run", Body: []byte(run), Client: "alice"}); r.Status != 400 {
		t.Errorf("a run on an evicted upload: %d %.200s, want 400", r.Status, r.Body)
	}
}

// TestStoreRefusesWhatItCannotKeep checks that an upload too large for the
// store is refused with a 413 that says what to do, rather than reported
// read and then forgotten.
func TestStoreRefusesWhatItCannotKeep(t *testing.T) {
	store := newMemStore()
	store.max = 100
	up := fresh(store).Serve(Request{Method: "POST", Path: "/api/datasets", Body: []byte(crawlLog("alice")), Client: "alice"})
	if up.Status != 413 || !strings.Contains(string(up.Body), "browser") {
		t.Errorf("an upload past the store's limit: %d %s, want 413 naming the browser engine", up.Status, up.Body)
	}
	if len(store.m) != 0 {
		t.Errorf("the store keeps %d values after a refused upload", len(store.m))
	}
}

func decodeJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
}
