//go:build !js

package main

import (
	"fmt"
	"io/fs"
	"os"
)

// siteFS returns the built site to serve beside the API.
func siteFS() fs.FS {
	dir := os.Getenv("SITE_DIR")
	if dir == "" {
		dir = "site/dist"
	}
	if _, err := os.Stat(dir); err != nil {
		fmt.Fprintf(os.Stderr, "worker: no site at %s (run make site); serving the API only\n", dir)
		return nil
	}
	return os.DirFS(dir)
}
