// Package handler adapts the lab's API router to net/http, for the native
// server and the Cloudflare Worker (wasm/worker), and serves the static site
// beside it when there is one.
package handler

import (
	"io"
	"io/fs"
	"net/http"

	"github.com/refreshlab/refreshlab/core/api"
)

// New returns a handler answering /api/ from rt and every other path from
// site (nil: API only, as in the Worker, whose static assets Cloudflare
// serves).
func New(rt *api.Router, site fs.FS) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/", apiHandler{rt})
	if site != nil {
		files := http.FileServerFS(site)
		mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Lessons and datasets change with every build; let browsers
			// revalidate rather than cache stale code.
			w.Header().Set("Cache-Control", "no-cache")
			files.ServeHTTP(w, r)
		}))
	}
	return mux
}

type apiHandler struct{ rt *api.Router }

func (h apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxBody))
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(w, `{"error":"request body too large or unreadable"}`)
		return
	}
	resp := h.rt.Serve(api.Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Body: body})
	w.Header().Set("Content-Type", resp.ContentType)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(resp.Status)
	if r.Method != http.MethodHead {
		w.Write(resp.Body)
	}
}
