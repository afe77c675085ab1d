// Command worker serves the lab's API over HTTP through
// github.com/syumai/workers. Built natively it is the local server: it
// listens on $PORT (default 9900) and serves the static site from $SITE_DIR
// (default site/dist) beside the API. Built with GOOS=js GOARCH=wasm it is
// the Cloudflare Worker, answering /api/ while Cloudflare serves the site's
// files as static assets.
package main

import (
	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/wasm/handler"
	"github.com/syumai/workers"
)

func main() {
	workers.Serve(handler.New(api.New(lab.New()), siteFS()))
}
