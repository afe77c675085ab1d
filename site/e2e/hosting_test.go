package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/wasm/handler"
)

// subPath is where the static host of TestBrowserStaticHost puts the
// site, as an instructor's course pages would.
const subPath = "/course/refresh-lab"

// staticHost serves dir under subPath as a plain static host does: every
// file as it is (nothing precompressed, no cache rules), WebAssembly as
// application/octet-stream, as many hosts send it, and no API: /api/
// answers the host's own HTML 404.
func staticHost(dir string) http.Handler {
	files := http.StripPrefix(subPath, http.FileServerFS(os.DirFS(dir)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, subPath+"/") || strings.HasPrefix(r.URL.Path, subPath+"/api/") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "<!doctype html><title>404</title><h1>Not Found</h1><p>The requested URL was not found on this server.</p>")
			return
		}
		if path.Ext(r.URL.Path) == ".wasm" {
			w.Header().Set("Content-Type", "application/octet-stream")
		}
		files.ServeHTTP(w, r)
	})
}

// TestBrowserStaticHost runs a lesson from a static host under a sub-path
// that sends the module as application/octet-stream (the page compiles
// its bytes instead of streaming them), and checks that the server engine
// there says the host has no API rather than show the host's page.
func TestBrowserStaticHost(t *testing.T) {
	e := setup(t)
	rec := Record(staticHost(e.dist))
	srv := httptest.NewServer(rec)
	defer srv.Close()
	tb := e.openURL(t, srv.URL+subPath+lessonPath)
	tb.waitRender(0)
	if n := tb.numbers(); len(n.Rows) == 0 {
		t.Fatalf("no numbers from the static host:\n%s", n.Text)
	}
	var wasm []Request
	for _, r := range rec.Since(0) {
		if strings.HasSuffix(r.Path, ".wasm") {
			wasm = append(wasm, r)
		}
	}
	if len(wasm) == 0 || slices.ContainsFunc(wasm, func(r Request) bool { return r.Status != 200 }) {
		t.Errorf("the module's requests: %v, want 200s", wasm)
	}
	tb.shot("23-static-host", "")

	st := e.openURL(t, "")
	// The browser reports the host's 404s itself; the page must not.
	st.console.Allow("the server responded with a status of 404")
	st.do(chromedp.Navigate(Probed(srv.URL + subPath + lessonPath + "?engine=server")))
	st.waitFor("the server engine's error", `document.body.innerText.includes('this host has no API')`)
	if text := evalJS[string](st, `document.body.innerText`); strings.Contains(text, "Not Found") || strings.Contains(text, "<h1>") {
		t.Errorf("the page shows the host's 404 page: %.400q", text)
	}
	st.shot("23-static-host-no-api", "")
}

// TestBrowserOffline visits a lesson once, then takes the network away
// (Chromium's offline emulation, for the page and its service worker, and
// the server itself stopped) and reloads: the lesson comes from the
// service worker's cache and runs.
func TestBrowserOffline(t *testing.T) {
	e := setup(t)
	srv := httptest.NewServer(handler.New(api.New(lab.New()), os.DirFS(e.dist)))
	tb := e.openURL(t, srv.URL+lessonPath)
	tb.waitRender(0)
	online := tb.numbers().Text
	// The service worker has taken over and cached the page, its modules
	// and the lab's module.
	tb.waitFor("the offline copy", `(async () => {
	  if (!navigator.serviceWorker.controller) return false;
	  const keys = (await (await caches.open('refresh-lab-v1')).keys()).map((r) => new URL(r.url).pathname);
	  const wasm = (await (await fetch('/wasm.json')).json()).wasm;
	  return keys.includes('/' + wasm) && keys.includes('/js/experiment.js') && keys.some((k) => k.endsWith('.html'));
	})()`)
	srv.Close()
	offline := true
	if _, err := chromedp.Call(tb.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		EmulateOfflineServiceWorker: &offline,
		MatchedNetworkConditions:    []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.Reload())
	tb.waitRender(0)
	if !evalJS[bool](tb, `!navigator.onLine`) {
		t.Error("navigator.onLine is true: the page did not see the network go")
	}
	if got := tb.numbers().Text; got != online {
		t.Errorf("offline, the lesson shows other numbers:\n%s\nonline:\n%s", got, online)
	}
	tb.shot("24-offline", "")
}
