//go:build js

package main

import (
	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/wasm/handler"
	"github.com/syumai/workers"
)

// serve answers the Worker's requests through syumai/workers.
func serve() {
	workers.Serve(handler.NewWith(api.New(lab.New()), siteFS(), handler.Options{Timeout: handler.DefaultTimeout}))
}
