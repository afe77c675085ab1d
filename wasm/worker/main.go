// Command worker serves the lab's API over HTTP through
// github.com/syumai/workers. Built natively it is the local server,
// refresh-lab: it listens on $PORT (default 9900) and serves the static
// site from $SITE_DIR (default site/dist) beside the API, and it is the
// lab's command line (`refresh-lab run SPEC.json`, see cli.go). Built with
// GOOS=js GOARCH=wasm it is the Cloudflare Worker, answering /api/ while
// Cloudflare serves the site's files as static assets.
package main

import (
	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/wasm/handler"
	"github.com/syumai/workers"
)

// serve answers the API (and, natively, the site) until the process ends.
func serve() {
	workers.Serve(handler.New(api.New(lab.New()), siteFS()))
}
