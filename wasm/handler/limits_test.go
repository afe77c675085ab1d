package handler

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
)

// browser is an HTTP client with its own cookies, as one visitor's
// browser.
func browser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar}
}

func call(t *testing.T, c *http.Client, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestTwoBrowsers checks, over HTTP with cookies as browsers keep them,
// that two visitors of one server never see each other's uploads.
func TestTwoBrowsers(t *testing.T) {
	s := httptest.NewServer(NewWith(api.New(lab.New()), nil, Options{Clients: true}))
	defer s.Close()
	alice, bob := browser(t), browser(t)
	code, body := call(t, alice, "POST", s.URL+"/api/datasets?name=alices-log", "page,time,changed\nhttp://a.example/1,2024-01-01,0\nhttp://a.example/1,2024-01-02,1\nhttp://a.example/2,2024-01-01,0\nhttp://a.example/2,2024-01-02,0\n")
	if code != 201 {
		t.Fatalf("alice's upload: %d %s", code, body)
	}
	var m struct{ Dataset struct{ ID string } }
	json.Unmarshal([]byte(body), &m)
	run := `{"dataset":{"id":"` + m.Dataset.ID + `"},"repeats":2,"policies":[{"id":"random"}]}`
	if code, body := call(t, alice, "POST", s.URL+"/api/run", run); code != 200 {
		t.Fatalf("alice's run: %d %.200s", code, body)
	}
	if _, body := call(t, alice, "GET", s.URL+"/api/datasets", ""); !strings.Contains(body, "alices-log") {
		t.Errorf("alice's list lacks her upload: %.300s", body)
	}
	if _, body := call(t, bob, "GET", s.URL+"/api/datasets", ""); strings.Contains(body, "alices-log") || strings.Contains(body, m.Dataset.ID) {
		t.Errorf("bob's list shows alice's upload: %.300s", body)
	}
	if code, body := call(t, bob, "POST", s.URL+"/api/run", run); code != 400 || strings.Contains(body, "alices-log") {
		t.Errorf("bob's run on alice's upload: %d %.300s, want 400 naming none of hers", code, body)
	}
	if code, body := call(t, http.DefaultClient, "POST", s.URL+"/api/run", run); code != 400 {
		t.Errorf("a client without cookies, on alice's upload: %d %.300s, want 400", code, body)
	}
}

// TestBodyLimits checks that a body too large is refused before it is
// read when its length is declared, and while reading when it is not, and
// that uploads past api.MaxConcurrentUploads wait their turn with a 429.
func TestBodyLimits(t *testing.T) {
	h := NewWith(api.New(lab.New()), nil, Options{Clients: true})
	s := httptest.NewServer(h)
	defer s.Close()
	big := bytes.Repeat([]byte("x"), api.MaxResultBytes+1)

	// Declared: refused from the header, the body never read.
	resp, err := http.Post(s.URL+"/api/run", "application/json", bytes.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("a declared %d-byte run: %d, want 413", len(big), resp.StatusCode)
	}
	// Undeclared (chunked): refused once the limit is read.
	pr, pw := io.Pipe()
	go func() { pw.Write(big); pw.Close() }()
	resp, err = http.Post(s.URL+"/api/run", "application/json", pr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(b), "at most 8 MB") {
		t.Errorf("a chunked %d-byte run: %d %s, want 413", len(big), resp.StatusCode, b)
	}

	// Uploads whose bodies are still coming hold every slot; one more
	// is told to come back.
	var writers []*io.PipeWriter
	answered := make(chan int, api.MaxConcurrentUploads)
	for range api.MaxConcurrentUploads {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		go func() {
			resp, err := http.Post(s.URL+"/api/datasets", "text/csv", pr)
			if err != nil {
				answered <- 0
				return
			}
			resp.Body.Close()
			answered <- resp.StatusCode
		}()
		pw.Write([]byte("page,time,changed\n")) // the server is reading it now
	}
	var got int
	for range 200 { // until both slots are taken (each waits on its body)
		resp, err := http.Post(s.URL+"/api/datasets", "text/csv", strings.NewReader("page,time,changed\n"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got = resp.StatusCode; got == 429 {
			if resp.Header.Get("Retry-After") == "" {
				t.Error("a 429 without Retry-After")
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got != 429 {
		t.Errorf("an upload while %d are being read: %d, want 429", api.MaxConcurrentUploads, got)
	}
	for _, pw := range writers {
		pw.Write([]byte("http://a.example/1,2024-01-01,0\nhttp://a.example/1,2024-01-02,1\n"))
		pw.Close()
	}
	for range writers {
		if code := <-answered; code != 201 {
			t.Errorf("an upload that held a slot: %d, want 201", code)
		}
	}
}

// TestAllow checks that a 405 says which methods the path takes.
func TestAllow(t *testing.T) {
	s := newServer(t)
	resp, err := http.Get(s.URL + "/api/run")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /api/run: %d, Allow %q; want 405, Allow POST", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestRequestContext checks that an API request runs under a context that
// ends when its client goes away, and under the handler's time limit.
func TestRequestContext(t *testing.T) {
	rt := api.New(lab.New())
	ended := make(chan error, 1)
	rt.Handle("POST", "/api/test/wait", func(req api.Request) api.Response {
		select {
		case <-req.Context.Done():
			ended <- req.Context.Err()
		case <-time.After(time.Minute):
			ended <- nil
		}
		return api.Response{Status: 503}
	})
	s := httptest.NewServer(NewWith(rt, nil, Options{Timeout: time.Hour}))
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/api/test/wait", strings.NewReader("{}"))
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	if err := <-ended; err != context.Canceled {
		t.Errorf("the request's context after its client went: %v, want context.Canceled", err)
	}

	s2 := httptest.NewServer(NewWith(rt, nil, Options{Timeout: 50 * time.Millisecond}))
	defer s2.Close()
	if resp, err := http.Post(s2.URL+"/api/test/wait", "application/json", strings.NewReader("{}")); err == nil {
		resp.Body.Close()
	}
	if err := <-ended; err != context.DeadlineExceeded {
		t.Errorf("the request's context past the time limit: %v, want context.DeadlineExceeded", err)
	}
}

// TestPrecompressedWasm checks that the content-hashed module is sent
// brotli- or gzip-compressed as the browser accepts, as application/wasm,
// cached for good; and that other files are revalidated.
func TestPrecompressedWasm(t *testing.T) {
	raw := []byte("\x00asm\x01\x00\x00\x00 module")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	site := fstest.MapFS{
		"index.html":                 {Data: []byte("<h1>lab</h1>")},
		"lab.0123456789ab.wasm":      {Data: raw},
		"lab.0123456789ab.wasm.br":   {Data: []byte("brotli bytes")},
		"lab.0123456789ab.wasm.gz":   {Data: gz.Bytes()},
		"plain.0123456789ab.wasm":    {Data: raw},
		"js/lab-worker.js":           {Data: []byte("//")},
		"nothashed.wasm":             {Data: raw},
		"nothashed.wasm.br":          {Data: []byte("brotli bytes")},
		"wasm.json":                  {Data: []byte(`{"module":"lab.0123456789ab.wasm"}`)},
		"lab.0123456789ab.wasm.gz.x": {Data: []byte("no")},
	}
	s := httptest.NewServer(New(api.New(lab.New()), site))
	defer s.Close()
	for _, tc := range []struct {
		path, accept           string
		encoding, ctype, cache string
		body                   []byte
	}{
		{"/lab.0123456789ab.wasm", "gzip, deflate, br, zstd", "br", "application/wasm", "immutable", []byte("brotli bytes")},
		{"/lab.0123456789ab.wasm", "gzip, deflate", "gzip", "application/wasm", "immutable", gz.Bytes()},
		{"/lab.0123456789ab.wasm", "br;q=0, gzip", "gzip", "application/wasm", "immutable", gz.Bytes()},
		{"/lab.0123456789ab.wasm", "identity", "", "application/wasm", "immutable", raw},
		{"/plain.0123456789ab.wasm", "br, gzip", "", "application/wasm", "immutable", raw},
		{"/nothashed.wasm", "br, gzip", "", "application/wasm", "no-cache", raw},
		{"/js/lab-worker.js", "br, gzip", "", "text/javascript; charset=utf-8", "no-cache", []byte("//")},
	} {
		req, _ := http.NewRequest("GET", s.URL+tc.path, nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		name := fmt.Sprintf("%s with Accept-Encoding %q", tc.path, tc.accept)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != tc.encoding || resp.Header.Get("Content-Type") != tc.ctype ||
			!strings.Contains(resp.Header.Get("Cache-Control"), tc.cache) || !bytes.Equal(b, tc.body) {
			t.Errorf("%s: %d, Content-Encoding %q, Content-Type %q, Cache-Control %q, %d bytes; want Content-Encoding %q, %s, %s, %d bytes",
				name, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), len(b),
				tc.encoding, tc.ctype, tc.cache, len(tc.body))
		}
	}
}
