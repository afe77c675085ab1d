// Package handler adapts the lab's API router to net/http, for the native
// server and the Cloudflare Worker (wasm/worker), and serves the static site
// beside it when there is one.
package handler

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/refreshlab/refreshlab/core/api"
)

// DefaultTimeout bounds one API request: a run still computing then stops
// (between repeats) and answers 503.
const DefaultTimeout = 60 * time.Second

// Options tune the handler.
type Options struct {
	// Timeout bounds each API request; 0 means DefaultTimeout.
	Timeout time.Duration
	// Clients gives each browser a client id of its own (a cookie), so
	// that a server shared by many keeps each one's uploads to itself
	// (api.Request.Client).
	Clients bool
}

// New returns a handler answering /api/ from rt and every other path from
// site (nil: API only, as in the Worker, whose static assets Cloudflare
// serves), with the default options.
func New(rt *api.Router, site fs.FS) http.Handler { return NewWith(rt, site, Options{}) }

// NewWith is New with options.
func NewWith(rt *api.Router, site fs.FS, opts Options) http.Handler {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", apiHandler{rt, opts, make(chan struct{}, api.MaxConcurrentUploads)})
	if site != nil {
		mux.Handle("/", staticHandler{site, http.FileServerFS(site)})
	}
	return mux
}

type apiHandler struct {
	rt   *api.Router
	opts Options
	// uploads holds a slot per upload being read, so that memory holds
	// at most api.MaxConcurrentUploads upload bodies at once.
	uploads chan struct{}
}

// clientCookie names the cookie that carries a browser's client id.
const clientCookie = "refreshlab_client"

var clientID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func (h apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	limit := api.BodyLimit(r.URL.Path)
	if r.ContentLength > limit {
		// Refused before a byte of it is read.
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a request body of %.1f MB: at most %d MB here", float64(r.ContentLength)/(1<<20), limit>>20))
		return
	}
	if limit == api.MaxBody && r.Method == http.MethodPost {
		select {
		case h.uploads <- struct{}{}:
			defer func() { <-h.uploads }()
		default:
			w.Header().Set("Retry-After", "5")
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("this server is reading %d uploads already: try again in a moment, or read the log in your browser (the default engine)", api.MaxConcurrentUploads))
			return
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a request body of more than %d MB: at most %d MB here", limit>>20, limit>>20))
		} else {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("reading the request body: %v", err))
		}
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	req := api.Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Body: body, Context: ctx}
	if h.opts.Clients {
		req.Client = h.client(w, r)
	}
	resp := h.rt.Serve(req)
	w.Header().Set("Content-Type", resp.ContentType)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if resp.Allow != "" {
		w.Header().Set("Allow", resp.Allow)
	}
	w.WriteHeader(resp.Status)
	if r.Method != http.MethodHead {
		w.Write(resp.Body)
	}
}

// client returns the request's client id from its cookie, giving the
// browser a new random one when it has none.
func (h apiHandler) client(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(clientCookie); err == nil && clientID.MatchString(c.Value) {
		return c.Value
	}
	var b [16]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{Name: clientCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return id
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":%q}`, msg)
}

// staticHandler serves the built site. A file whose name carries its
// content's hash (lab.0123456789ab.wasm, as make writes the module) never
// changes, so browsers may keep it for a year; it is served precompressed
// (NAME.br, NAME.gz beside it) when the browser takes that encoding. Other
// files change with every build: browsers revalidate them.
type staticHandler struct {
	site  fs.FS
	files http.Handler
}

var hashed = regexp.MustCompile(`\.[0-9a-f]{12}\.[a-z]+$`)

func (s staticHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if !hashed.MatchString(name) {
		w.Header().Set("Cache-Control", "no-cache")
		s.files.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Add("Vary", "Accept-Encoding")
	accept := r.Header.Get("Accept-Encoding")
	for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !acceptsEncoding(accept, enc.token) {
			continue
		}
		f, err := s.site.Open(name + enc.ext)
		if err != nil {
			continue
		}
		defer f.Close()
		st, err := f.Stat()
		rs, seeks := f.(io.ReadSeeker)
		if err != nil || !seeks {
			continue
		}
		w.Header().Set("Content-Encoding", enc.token)
		w.Header().Set("Content-Type", contentType(name))
		http.ServeContent(w, r, name, st.ModTime(), rs)
		return
	}
	s.files.ServeHTTP(w, r)
}

// acceptsEncoding reports whether an Accept-Encoding header takes enc
// (with a quality above 0).
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(token), enc) {
			continue
		}
		for _, p := range strings.Split(params, ";") {
			if q, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				v, err := strconv.ParseFloat(q, 64)
				return err == nil && v > 0
			}
		}
		return true
	}
	return false
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".wasm":
		return "application/wasm"
	case ".js":
		return "text/javascript; charset=utf-8"
	}
	return "application/octet-stream"
}
