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
//	GET  /api/health    {"ok": true, "version": the API's, "labVersion": the lab's (core/version)}
//	GET  /api/datasets  {"datasets": [Info...]}
//	GET  /api/policies  {"kinds", "metrics", "facts", "charts", "fields", "policies": [Descriptor...]}
//	POST /api/datasets  body: a log, gzip-compressed or not; query: format (crawl-log | change-events |
//	                    cdx | cdxj | jsonl), name, cycle, sep, columns, and for events merge, start, end
//	                    -> {"dataset": Info, "summary": ...}
//	POST /api/run       body: an experiment spec -> its result
//	POST /api/fields    body: {"spec", "fields": [path...]} -> {"fields": [lab.Field...]}
//	POST /api/chart     body: {"id", "result" or "spec", "chart": options} -> SVG
//	POST /api/report    body: {"id", "result" or "spec", "metric", "reference", "log": {"name", "sha256", "summary"},
//	                    "format": md | latex | csv | json} -> the report (core/report), in that format
//	POST /api/trace     body: {"spec", "policy" (its key in the spec), "repeat" (from 0), "maxPages"}
//	                    -> that repeat of that refresh policy, cycle by cycle and page by page (lab.Trace):
//	                    which pages changed, were stale, sampled, downloaded, found changed and stale
//	                    after the cycle, as base64 bitsets over the pages shown, with the cycle's totals,
//	                    ChangeRatio and freshness; at most lab.MaxTracePages pages and
//	                    lab.MaxTraceCells pages × cycles, a 400 naming maxPages beyond; like a run,
//	                    only of a dataset the client may see, and a 503 once the request's context is done
//
// Errors are JSON objects with an "error" message and, where known, where
// the problem is: "field" for specs, "line" and "column" for files.
package api

import (
	"bytes"
	"context"
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

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/version"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Version is the API version reported by /api/health.
const Version = "1"

// Request is an API request.
type Request struct {
	Method string
	Path   string     // without the query, e.g. "/api/run"
	Query  url.Values // may be nil
	Body   []byte
	// Progress, when set, is told how far the request has come, for a
	// progress bar: how many bytes of Body an upload has read, or how many
	// repeats a run has finished (lab.RunContext).
	Progress func(done int64)
	// Context, when set, bounds the request: a run stops (between repeats)
	// once it is done, when its client has gone or its time is up.
	Context context.Context
	// Client names who sent the request on a server shared by many (a
	// browser's cookie): an upload is visible to the clients that sent
	// it alone. "" is the one client of a lab in a browser tab.
	Client string
}

// context returns the request's context, or the background one.
func (req Request) context() context.Context {
	if req.Context == nil {
		return context.Background()
	}
	return req.Context
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
	// Allow lists the methods the path takes, on a 405.
	Allow string
}

// MaxBody is the largest request body the API accepts, an upload's (a
// few million crawl rows fit); other requests take at most
// MaxResultBytes (BodyLimit).
const MaxBody = 256 << 20

// BodyLimit is the largest body a request to path may carry: MaxBody for
// an upload, MaxResultBytes for the rest, so a server that reads bodies
// can refuse one before reading it.
func BodyLimit(path string) int64 {
	if strings.TrimSuffix(path, "/") == "/api/datasets" {
		return MaxBody
	}
	return MaxResultBytes
}

// Router serves the API from a lab.
type Router struct {
	lab     *lab.Lab
	results results
	owners  *owners
	store   Store   // where uploads outlive the process, if anywhere (KeepIn)
	extra   []route // added by Handle
}

// New returns a router over l.
func New(l *lab.Lab) *Router { return &Router{lab: l, owners: newOwners(l.RemoveUpload)} }

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
	{"POST", "/api/fields", (*Router).fields},
	{"POST", "/api/chart", (*Router).chart},
	{"POST", "/api/report", (*Router).report},
	{"POST", "/api/trace", (*Router).trace},
}

// Handle adds a route to rt, answered by serve, after the API's own; call
// it before serving. Tests use it to add a handler that panics, to check
// that a panic costs one 500 and nothing else.
func (rt *Router) Handle(method, path string, serve func(Request) Response) {
	rt.extra = append(rt.extra, route{method, path, func(_ *Router, req Request) Response { return serve(req) }})
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
	if n, limit := int64(len(req.Body)), BodyLimit(path); n > limit {
		return errorResponse(413, "a request body of %.1f MB: at most %d MB here%s", float64(n)/(1<<20), limit>>20, bodyHint(path))
	}
	var allowed []string
	for _, r := range slices.Concat(routes, rt.extra) {
		if r.path != path {
			continue
		}
		if r.method == req.Method || r.method == "GET" && req.Method == "HEAD" {
			return r.serve(rt, req)
		}
		allowed = append(allowed, r.method)
	}
	if allowed != nil {
		resp := errorResponse(405, "method %s not allowed on %s (expected %s)", quote.Q(req.Method), path, strings.Join(allowed, " or "))
		resp.Allow = strings.Join(allowed, ", ")
		return resp
	}
	return errorResponse(404, "no such endpoint %s %s", quote.Q(req.Method), quote.Q(path))
}

// bodyHint says what to send instead of a body too large for path.
func bodyHint(path string) string {
	if BodyLimit(path) < MaxBody {
		return "; to draw or report a result, send its id, or its spec, rather than the result"
	}
	return "; read a larger log in your browser (the default engine), where it stays on your machine"
}

func (rt *Router) health(req Request) Response {
	out := map[string]any{"ok": true, "version": Version, "labVersion": version.String()}
	if req.Client != "" {
		// A server shared by many: say how it keeps uploads, for the
		// upload page to tell its user.
		out["uploads"] = map[string]any{"keptFor": KeptFor(), "keptForSeconds": UploadTTL.Seconds(), "visibleTo": "the browser that sent it"}
	}
	return jsonResponse(200, out)
}

// datasets lists the bundled datasets and the client's own uploads.
func (rt *Router) datasets(req Request) Response {
	out := []dataset.Info{}
	for _, d := range rt.lab.Datasets() {
		if rt.visible(req.Client, d.ID) {
			out = append(out, d)
		}
	}
	kept, err := rt.storedIndex(req.Client)
	if err != nil {
		return errorResponse(503, "this server could not list your uploads (%v): try again", err)
	}
	for _, d := range kept {
		if !slices.ContainsFunc(out, func(o dataset.Info) bool { return o.ID == d.ID }) {
			out = append(out, d)
		}
	}
	return jsonResponse(200, map[string]any{"datasets": out})
}

// policies answers the catalog: the experiment kinds, the metrics and
// facts results carry, the chart types, the spec fields controls may set
// and every policy, so that a page builds its controls, tables and charts
// from it without declaring any of them itself.
func (rt *Router) policies(Request) Response {
	return jsonResponse(200, map[string]any{
		"kinds":    lab.Kinds(),
		"metrics":  lab.Metrics,
		"facts":    lab.Facts,
		"charts":   ChartTypes,
		"fields":   lab.SpecFields(),
		"policies": rt.lab.Policies(),
	})
}

// FieldsRequest is the body of POST /api/fields: field paths to resolve
// against a spec (lab.Field).
type FieldsRequest struct {
	Spec   lab.Spec `json:"spec"`
	Fields []string `json:"fields"`
}

// fields resolves field paths against a spec, for a page that builds
// controls: what each field is and where its value goes in the spec.
func (rt *Router) fields(req Request) Response {
	var fr FieldsRequest
	if resp, ok := decode(req.Body, &fr); !ok {
		return resp
	}
	out := make([]lab.Field, len(fr.Fields))
	for i, path := range fr.Fields {
		f, err := rt.lab.Field(fr.Spec, path)
		if err != nil {
			return jsonResponse(400, map[string]any{"error": err.Error(), "field": fmt.Sprintf("fields[%d]", i)})
		}
		if f.Type == lab.FieldDataset {
			f.Options = slices.DeleteFunc(f.Options, func(id string) bool { return !rt.visible(req.Client, id) })
			kept, err := rt.storedIndex(req.Client)
			if err != nil {
				return errorResponse(503, "this server could not list your uploads (%v): try again", err)
			}
			for _, d := range kept {
				if !slices.Contains(f.Options, d.ID) {
					f.Options = append(f.Options, d.ID)
				}
			}
		}
		out[i] = f
	}
	return jsonResponse(200, map[string]any{"fields": out})
}

func (rt *Router) run(req Request) Response {
	var spec lab.Spec
	if resp, ok := decode(req.Body, &spec); !ok {
		return resp
	}
	var progress func(int)
	if req.Progress != nil {
		progress = func(n int) { req.Progress(int64(n)) }
	}
	if resp, ok := rt.checkVisible(req, spec); !ok {
		return resp
	}
	c, err := rt.runCached(req.context(), spec, progress)
	if err != nil {
		return specErrorResponse(err)
	}
	if req.Query.Get("brief") == "1" {
		// The headline numbers alone, without the series per cycle (a
		// page drawing a long log's policies one by one needs their
		// numbers at once, and the charts come from the result here, by
		// id).
		brief := *c.res
		brief.Policies = slices.Clone(brief.Policies)
		for i := range brief.Policies {
			brief.Policies[i].Series = nil
		}
		resp := jsonResponse(200, &brief)
		resp.ResultID = c.res.ID
		return resp
	}
	body, err := c.encoded()
	if err != nil {
		return errorResponse(500, "encoding the result: %v", err)
	}
	return Response{Status: 200, ContentType: "application/json", Body: body, ResultID: c.res.ID}
}

// runCached runs spec, or returns the result of the same spec run lately:
// runs are deterministic, so a slider moved back needs no new run.
func (rt *Router) runCached(ctx context.Context, spec lab.Spec, progress func(repeats int)) (*cachedResult, error) {
	key, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	if c, ok := rt.results.byKey(string(key)); ok && rt.current(c) {
		return c, nil
	}
	res, err := rt.lab.RunContext(ctx, spec, progress)
	if err != nil {
		return nil, err
	}
	data, _ := rt.lab.Dataset(res.Dataset.ID)
	h := fnv.New64a()
	h.Write(key)
	res.ID = fmt.Sprintf("r%016x", h.Sum64())
	c := &cachedResult{key: string(key), res: res, data: data}
	rt.results.add(c)
	return c, nil
}

// current reports whether the dataset a remembered result was computed
// from is still the lab's under its id: a result never outlives its data
// (an upload evicted, or replaced by another read of the same file).
func (rt *Router) current(c *cachedResult) bool {
	d, ok := rt.lab.Dataset(c.res.Dataset.ID)
	return ok && d == c.data
}

// MaxCachedResults is how many recent results the router keeps, for
// charts by id and for repeated specs.
const MaxCachedResults = 16

type cachedResult struct {
	key  string
	res  *lab.Result
	data *dataset.Dataset // the dataset it was computed from

	once sync.Once // encodes body, the first time it is asked for
	body []byte
	err  error
}

// encoded returns the result in JSON, encoding it the first time.
func (c *cachedResult) encoded() ([]byte, error) {
	c.once.Do(func() { c.body, c.err = json.Marshal(c.res) })
	return c.body, c.err
}

// results holds recent results, the newest last.
type results struct {
	mu   sync.Mutex
	list []*cachedResult
}

func (r *results) add(c *cachedResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, c)
	if len(r.list) > MaxCachedResults {
		r.list = slices.Delete(r.list, 0, len(r.list)-MaxCachedResults)
	}
}

func (r *results) byKey(key string) (*cachedResult, bool) {
	return r.find(func(c *cachedResult) bool { return c.key == key })
}

func (r *results) byID(id string) (*cachedResult, bool) {
	return r.find(func(c *cachedResult) bool { return c.res.ID == id })
}

func (r *results) find(match func(*cachedResult) bool) (*cachedResult, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.list) - 1; i >= 0; i-- {
		if match(r.list[i]) {
			return r.list[i], true
		}
	}
	return nil, false
}

// Decode reads body into v as the API reads every request body: strictly
// (an unknown field is an error), and a failure is the 400 the API would
// answer, saying where (line, column, field). The command line uses it to
// read a spec file before it names the dataset it uploaded.
func Decode(body []byte, v any) (Response, bool) { return decode(body, v) }

// decode reads body strictly into v: unknown fields are errors, so a typo
// in a spec is reported rather than silently ignored.
func decode(body []byte, v any) (Response, bool) {
	if len(bytes.TrimSpace(body)) == 0 {
		return errorResponse(400, "empty body: expected a JSON object"), false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(body, v, err), false
	}
	if dec.More() {
		return errorResponse(400, "expected a single JSON object, found more after it"), false
	}
	return Response{}, true
}

// jsonError turns an error decoding body into v into a 400 that says
// where. encoding/json has no error type for an unknown field, so an error
// of none of its types is explained by finding the unknown field.
func jsonError(body []byte, v any, err error) Response {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(body, syn.Offset)
		return jsonResponse(400, map[string]any{
			"error": fmt.Sprintf("line %d, column %d: invalid JSON: %v", line, col, syn), "line": line, "column": col,
		})
	case errors.As(err, &typ):
		if t := typeError(body, v); t != nil {
			typ = t // where it is in the whole body, not in a spec or result
		}
		line, col := position(body, typ.Offset)
		msg := fmt.Sprintf("expected %s, got a JSON %s", typ.Type, typ.Value)
		if typ.Field == "" {
			return jsonResponse(400, map[string]any{"error": msg, "line": line, "column": col})
		}
		return jsonResponse(400, map[string]any{"error": typ.Field + ": " + msg, "field": typ.Field, "line": line, "column": col})
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(body, int64(len(body)))
		return jsonResponse(400, map[string]any{
			"error": fmt.Sprintf("line %d, column %d: the JSON ends early (an unclosed object, array or string)", line, col), "line": line, "column": col,
		})
	}
	if u := findUnknownField(body, v); u != nil {
		line, col := position(body, u.Offset)
		return jsonResponse(400, map[string]any{"error": u.Error(), "field": u.Field, "line": line, "column": col})
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
	switch {
	case errors.As(err, &se):
		return jsonResponse(400, map[string]any{"error": se.Error(), "field": se.Field})
	case errors.Is(err, context.DeadlineExceeded):
		return errorResponse(503, "the run took longer than this server allows and was stopped: use fewer repeats, cycles or policies, or run it in your browser (the default engine)")
	case errors.Is(err, context.Canceled):
		return errorResponse(503, "the run was stopped: its request was cancelled")
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
