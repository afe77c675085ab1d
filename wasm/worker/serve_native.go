//go:build !js

package main

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/version"
	"github.com/refreshlab/refreshlab/wasm/handler"
)

// serve runs the native server until it fails: it listens on $PORT
// (default 9900) and serves the site from $SITE_DIR beside the API. A port
// it cannot listen on (taken, say) ends it at once with the reason and exit
// status 1; every request runs under $REQUEST_TIMEOUT (seconds, default
// handler.DefaultTimeout) and stops when its client goes away.
func serve() {
	if err := listenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "refresh-lab:", err)
		os.Exit(1)
	}
}

func listenAndServe() error {
	port := cmp.Or(os.Getenv("PORT"), "9900")
	timeout := handler.DefaultTimeout
	if s := os.Getenv("REQUEST_TIMEOUT"); s != "" {
		secs, err := strconv.ParseFloat(s, 64)
		if err != nil || !(secs > 0) {
			return fmt.Errorf("REQUEST_TIMEOUT=%q: expected a positive number of seconds", s)
		}
		timeout = time.Duration(secs * float64(time.Second))
	}
	ln, err := net.Listen("tcp", ":"+port)
	if err != nil {
		return fmt.Errorf("cannot listen on port %s (%v); is another server using it? Set PORT to another", port, err)
	}
	srv := &http.Server{
		Handler:           handler.NewWith(api.New(lab.New()), siteFS(), handler.Options{Timeout: timeout, Clients: true}),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Printf("Refresh Lab %s: serving http://localhost:%s (requests time out after %v)\n", version.String(), port, timeout)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
