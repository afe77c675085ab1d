// Package api is the lab's one HTTP API, as a router of our own: a request
// (method, path, query, body) goes in, a response (status, content type,
// body) comes out. The browser module calls it directly from JavaScript; the
// native server and the Cloudflare Worker wrap it in an http.Handler. Keeping
// net/http out of this package keeps it out of the browser's WebAssembly
// module: linking it into a js/wasm build costs about 2.8 MB raw, 0.6 MB
// brotli.
//
// Routes (v1):
//
//	GET  /api/health    {"ok": true, "version": ...}
//	GET  /api/datasets  {"datasets": [Info...]}
//	GET  /api/policies  {"kinds": [...], "policies": [Descriptor...]}
//	POST /api/datasets  body: a crawl log or change-event log; query: format (crawl-log | change-events),
//	                    name, cycle, and for events merge, start, end -> {"dataset": Info, "summary": ...}
//	POST /api/run       body: an experiment spec -> its result
//	POST /api/chart     body: {"id", "result" or "spec", "chart": options} -> SVG
//	POST /api/selftest/panic   panics on purpose: a 500, and the next request works
//
// Errors are JSON objects with an "error" message and, where known, where
// the problem is: "field" for specs, "line" and "column" for files.
package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/refreshlab/refreshlab/core/lab"
)

// Version is the API version reported by /api/health.
const Version = "1"

// Request is an API request.
type Request struct {
	Method string
	Path   string     // without the query, e.g. "/api/run"
	Query  url.Values // may be nil
	Body   []byte
	// Progress, when set, is told how many bytes of Body an upload has
	// read so far, for a progress bar.
	Progress func(read int64)
}

// Response is an API response.
type Response struct {
	Status      int
	ContentType string
	Body        []byte
	// ResultID is the id of a run's result (POST /api/run), for chart
	// requests, so that a caller in the same process need not decode the
	// body to find it.
	ResultID string
}

// MaxBody is the largest request body the API accepts (an upload of a few
// million crawl rows fits).
const MaxBody = 256 << 20

// Router serves the API from a lab.
type Router struct {
	lab     *lab.Lab
	results results
}

// New returns a router over l.
func New(l *lab.Lab) *Router { return &Router{lab: l} }

// Lab returns the lab the router serves.
func (rt *Router) Lab() *lab.Lab { return rt.lab }

type route struct {
	method, path string
	serve        func(rt *Router, req Request) Response
}

var routes = []route{
	{"GET", "/api/health", (*Router).health},
	{"GET", "/api/datasets", (*Router).datasets},
	{"POST", "/api/datasets", (*Router).upload},
	{"GET", "/api/policies", (*Router).policies},
	{"POST", "/api/run", (*Router).run},
	{"POST", "/api/chart", (*Router).chart},
	{"POST", "/api/selftest/panic", (*Router).panicOnPurpose},
}

// panicOnPurpose lets tests (and doubters) check that a panic inside a
// handler costs one 500 and nothing else.
func (rt *Router) panicOnPurpose(Request) Response {
	var m map[string]int
	m["boom"]++ // a nil map write: a runtime panic, as a real bug would be
	return Response{}
}

// Serve answers req. It never panics: a panic inside a handler becomes a
// 500 JSON error and the router keeps serving.
func (rt *Router) Serve(req Request) (resp Response) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(runtime.Error); ok {
				r = err.Error()
			}
			resp = errorResponse(500, "internal error: %v", r)
		}
	}()
	path := strings.TrimSuffix(req.Path, "/")
	if len(req.Body) > MaxBody {
		return errorResponse(413, "request body of %d bytes exceeds the limit of %d", len(req.Body), MaxBody)
	}
	var allowed []string
	for _, r := range routes {
		if r.path != path {
			continue
		}
		if r.method == req.Method || r.method == "GET" && req.Method == "HEAD" {
			return r.serve(rt, req)
		}
		allowed = append(allowed, r.method)
	}
	if allowed != nil {
		resp := errorResponse(405, "method %s not allowed on %s (expected %s)", req.Method, path, strings.Join(allowed, " or "))
		return resp
	}
	return errorResponse(404, "no such endpoint %s %s", req.Method, path)
}

func (rt *Router) health(Request) Response {
	return jsonResponse(200, map[string]any{"ok": true, "version": Version})
}

func (rt *Router) datasets(Request) Response {
	return jsonResponse(200, map[string]any{"datasets": rt.lab.Datasets()})
}

func (rt *Router) policies(Request) Response {
	return jsonResponse(200, map[string]any{
		"kinds":    lab.Kinds(),
		"metrics":  lab.Metrics,
		"policies": rt.lab.Policies(),
	})
}

func (rt *Router) run(req Request) Response {
	var spec lab.Spec
	if resp, ok := decode(req.Body, &spec); !ok {
		return resp
	}
	res, body, err := rt.runCached(spec)
	if err != nil {
		return specErrorResponse(err)
	}
	return Response{Status: 200, ContentType: "application/json", Body: body, ResultID: res.ID}
}

// runCached runs spec, or returns the result of the same spec run lately:
// runs are deterministic, so a slider moved back needs no new run.
func (rt *Router) runCached(spec lab.Spec) (*lab.Result, []byte, error) {
	key, err := json.Marshal(spec)
	if err != nil {
		return nil, nil, err
	}
	if c, ok := rt.results.byKey(string(key)); ok {
		return c.res, c.body, nil
	}
	res, err := rt.lab.Run(spec)
	if err != nil {
		return nil, nil, err
	}
	h := fnv.New64a()
	h.Write(key)
	res.ID = fmt.Sprintf("r%016x", h.Sum64())
	body, err := json.Marshal(res)
	if err != nil {
		return nil, nil, err
	}
	rt.results.add(cachedResult{key: string(key), res: res, body: body})
	return res, body, nil
}

// MaxCachedResults is how many recent results the router keeps, for
// charts by id and for repeated specs.
const MaxCachedResults = 16

type cachedResult struct {
	key  string
	res  *lab.Result
	body []byte
}

// results holds recent results, the newest last.
type results struct {
	mu   sync.Mutex
	list []cachedResult
}

func (r *results) add(c cachedResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, c)
	if len(r.list) > MaxCachedResults {
		r.list = slices.Delete(r.list, 0, len(r.list)-MaxCachedResults)
	}
}

func (r *results) byKey(key string) (cachedResult, bool) {
	return r.find(func(c cachedResult) bool { return c.key == key })
}

func (r *results) byID(id string) (cachedResult, bool) {
	return r.find(func(c cachedResult) bool { return c.res.ID == id })
}

func (r *results) find(match func(cachedResult) bool) (cachedResult, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.list) - 1; i >= 0; i-- {
		if match(r.list[i]) {
			return r.list[i], true
		}
	}
	return cachedResult{}, false
}

// decode reads body strictly into v: unknown fields are errors, so a typo
// in a spec is reported rather than silently ignored.
func decode(body []byte, v any) (Response, bool) {
	if len(strings.TrimSpace(string(body))) == 0 {
		return errorResponse(400, "empty body: expected a JSON object"), false
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(body, err), false
	}
	if dec.More() {
		return errorResponse(400, "expected a single JSON object, found more after it"), false
	}
	return Response{}, true
}

// jsonError turns a decoding error into a 400 that says where.
func jsonError(body []byte, err error) Response {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(body, syn.Offset)
		return jsonResponse(400, map[string]any{
			"error": fmt.Sprintf("line %d, column %d: invalid JSON: %v", line, col, syn), "line": line, "column": col,
		})
	case errors.As(err, &typ):
		line, col := position(body, typ.Offset)
		return jsonResponse(400, map[string]any{
			"error": fmt.Sprintf("%s: expected %s, got a JSON %s", typ.Field, typ.Type, typ.Value),
			"field": typ.Field, "line": line, "column": col,
		})
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(body, int64(len(body)))
		return jsonResponse(400, map[string]any{
			"error": fmt.Sprintf("line %d, column %d: the JSON ends early (an unclosed object, array or string)", line, col), "line": line, "column": col,
		})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return jsonResponse(400, map[string]any{"error": fmt.Sprintf("unknown field %q", name), "field": name})
	}
	return errorResponse(400, "invalid JSON: %v", err)
}

// position converts a byte offset into a 1-based line and column.
func position(body []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(body) && int64(i) < off; i++ {
		if body[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func specErrorResponse(err error) Response {
	var se *lab.SpecError
	if errors.As(err, &se) {
		return jsonResponse(400, map[string]any{"error": se.Error(), "field": se.Field})
	}
	return errorResponse(500, "%v", err)
}

func jsonResponse(status int, v any) Response {
	b, err := json.Marshal(v)
	if err != nil {
		return errorResponse(500, "encoding the response: %v", err)
	}
	return Response{Status: status, ContentType: "application/json", Body: b}
}

func errorResponse(status int, format string, args ...any) Response {
	b, _ := json.Marshal(map[string]string{"error": fmt.Sprintf(format, args...)})
	return Response{Status: status, ContentType: "application/json", Body: b}
}
