//go:build js

package main

import "io/fs"

// siteFS is nil in the Worker: Cloudflare serves the site's files as static
// assets (wrangler.jsonc), and the Worker answers the API.
func siteFS() fs.FS { return nil }
