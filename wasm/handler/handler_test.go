package handler

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
)

// newServer serves the API, with a route that panics (an index out of
// range, as a bug would) at POST /api/test/panic, and a one-page site.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	site := fstest.MapFS{"index.html": {Data: []byte("<h1>lab</h1>")}}
	rt := api.New(lab.New())
	rt.Handle("POST", "/api/test/panic", func(req api.Request) api.Response {
		return api.Response{Status: int(req.Body[len(req.Body)])}
	})
	s := httptest.NewServer(New(rt, site))
	t.Cleanup(s.Close)
	return s
}

func do(t *testing.T, s *httptest.Server, method, path, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// TestSurvivesPanicsAndBadRequests checks the lab's reliability promise: a
// panic inside a handler is one 500 JSON error, a bad request one 400, and
// the next request works.
func TestSurvivesPanicsAndBadRequests(t *testing.T) {
	s := newServer(t)
	good := `{"dataset":{"id":"taleghani-example"},"repeats":2,"policies":[{"id":"random"}]}`
	steps := []struct {
		method, path, body string
		status             int
		contains           string
	}{
		{"POST", "/api/test/panic", "", 500, `"error"`},
		{"GET", "/api/health", "", 200, `"ok":true`},
		{"POST", "/api/run", `{"dataset":{"id":"nope"},"policies":[{"id":"random"}]}`, 400, `"field":"dataset.id"`},
		{"POST", "/api/run", `{"dataset":`, 400, `line 1, column`},
		{"POST", "/api/run", good, 200, `"changeRatio"`},
		{"GET", "/api/run", "", 405, "not allowed"},
		{"GET", "/api/nothing", "", 404, "no such endpoint"},
		{"POST", "/api/datasets", "page,time\n", 400, `"line"`},
		{"POST", "/api/run", good, 200, `"changeRatio"`},
		{"GET", "/index.html", "", 200, "<h1>lab</h1>"},
	}
	for _, st := range steps {
		code, ctype, body := do(t, s, st.method, st.path, st.body)
		if code != st.status || !strings.Contains(body, st.contains) {
			t.Errorf("%s %s: %d %q, want %d containing %q", st.method, st.path, code, body, st.status, st.contains)
		}
		if strings.HasPrefix(st.path, "/api/") && ctype != "application/json" {
			t.Errorf("%s %s: Content-Type %q, want application/json", st.method, st.path, ctype)
		}
	}
}

func TestChartIsSVG(t *testing.T) {
	s := newServer(t)
	code, ctype, body := do(t, s, "POST", "/api/chart",
		`{"spec":{"dataset":{"id":"taleghani-example"},"repeats":3,"policies":[{"id":"random"},{"id":"oracle"}]},"chart":{"type":"bars"}}`)
	if code != 200 || ctype != "image/svg+xml" || !strings.Contains(body, "<svg") || !strings.Contains(body, `role="img"`) {
		t.Fatalf("chart: %d %s %.200q", code, ctype, body)
	}
}
