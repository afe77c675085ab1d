//go:build js

package main

import (
	"net/http"
	"strconv"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/wasm/handler"
	"github.com/syumai/workers"
)

// serve answers the Worker's requests through syumai/workers. Each request
// starts a fresh instance of this program, so uploads are kept in the KV
// namespace bound as UPLOADS (wrangler.jsonc), under the client's id from
// its cookie: a request reads back an upload an earlier one was sent, and
// one browser never reads another's. Without the binding an upload is
// refused, saying why, rather than read and forgotten.
func serve() {
	rt := api.New(lab.New())
	h := handler.NewWith(rt, siteFS(), handler.Options{Timeout: handler.DefaultTimeout, Clients: true})
	store, err := newKVStore("UPLOADS")
	if err == nil {
		rt.KeepIn(store)
	} else {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/api/datasets" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte(`{"error":` + strconv.Quote(err.Error()+": this Worker cannot keep uploads; read the log in your browser (the default engine)") + `}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	workers.Serve(h)
}
