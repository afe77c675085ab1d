// Command worker serves the lab's API over HTTP. Built natively it is
// refresh-lab, the local server (serve_native.go: net/http on $PORT,
// default 9900, with the static site from $SITE_DIR, default site/dist,
// beside the API) and the lab's command line (`refresh-lab run SPEC.json`,
// cli.go). Built with GOOS=js GOARCH=wasm it is the Cloudflare Worker
// (serve_js.go, through github.com/syumai/workers), answering /api/ while
// Cloudflare serves the site's files as static assets.
package main
