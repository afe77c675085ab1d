# Refresh Lab. Two commands on a fresh machine:
#   make serve   builds everything and serves the lab on http://localhost:9900
#   make test    runs every test: Go natively, the core under WebAssembly in
#                Node, the browser tests in headless Chromium (installed
#                with apt-get when missing), the Cloudflare Worker under
#                wrangler dev (installed with npm), and staticcheck
# Also: make cli (bin/refresh-lab, the server and command line), make
# pipeline (the Beam pipeline on this machine; see the README), make bench
# (speed and size figures beside their budgets, which
# site/e2e/bench/main.go states), make worker (the Cloudflare Worker
# build), make worker-test (the Worker run locally), make dist-zip (the site as one archive for a static host), make
# clean.

GO      ?= go
PORT    ?= 9900
DIST    := site/dist
WASM    := $(DIST)/lab.wasm
GOROOT  := $(shell $(GO) env GOROOT)
WASMEXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The lab's version, written into every Go build (core/version): what git
# says of this checkout, or "unknown" where there is no git (a tarball).
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
LDFLAGS := -X github.com/refreshlab/refreshlab/core/version.Version=$(VERSION)

GO_SOURCES   := $(shell find core wasm site -name '*.go' -not -path '*/testdata/*' -not -path '*/node_modules/*') go.mod go.sum
SITE_SOURCES := $(shell find site/static site/templates lessons -type f) site/sources.md site/instructors.md site/build/typeset.mjs
TEMML        := site/node_modules/.package-lock.json

# The core's packages, tested natively and under WebAssembly.
CORE := ./core/...

.PHONY: all site wasm cli serve pipeline test test-go staticcheck test-wasm test-browser bench worker worker-test dist-zip clean tools

all: site wasm worker

site: $(DIST)/index.html
$(DIST)/index.html: $(GO_SOURCES) $(SITE_SOURCES) $(TEMML)
	$(GO) run -ldflags="$(LDFLAGS)" ./site/build -out $(DIST)

# temml, which the build runs in Node to typeset the lessons' formulas as
# MathML, and axe-core, the accessibility checker the browser tests load
# into each page, at the versions site/package-lock.json pins; installed
# when missing or when the lock changes.
$(TEMML): site/package.json site/package-lock.json
	@command -v npm >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y nodejs npm; }
	cd site && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

# The browser module, also under a name that carries its content's hash,
# precompressed (brotli, gzip) beside it: servers send it once and browsers
# keep it (wasm/handler); wasm.json tells the page its name.
wasm: $(WASM)
$(WASM): $(GO_SOURCES)
	@mkdir -p $(DIST)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w $(LDFLAGS)" -o $@ ./wasm/lab
	@command -v brotli >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y brotli; }
	@cd $(DIST) && rm -f lab.*.wasm lab.*.wasm.br lab.*.wasm.gz && h=$$(sha256sum lab.wasm | cut -c1-12) && \
	  cp lab.wasm lab.$$h.wasm && brotli -q 11 -f -o lab.$$h.wasm.br lab.$$h.wasm && gzip -9 -k -f lab.$$h.wasm && \
	  printf '{"wasm": "lab.%s.wasm"}\n' $$h > wasm.json && echo "lab.wasm: lab.$$h.wasm, precompressed"

# The native binary: the local server and the command line
# (bin/refresh-lab run SPEC.json; see the README).
cli:
	$(GO) build -ldflags="$(LDFLAGS)" -o bin/refresh-lab ./wasm/worker

serve: site wasm cli
	PORT=$(PORT) SITE_DIR=$(DIST) ./bin/refresh-lab

# The Apache Beam pipeline (core/pipeline, command wasm/beam) on this
# machine with the Prism runner: every page's change rate, per-site
# aggregates, a crawl-log sample and a summary, written to PIPELINE_OUT.
# By default over the example Common Crawl index; see the README for
# other files and for Dataflow or Flink.
PIPELINE_INPUT  ?= datasets/example-captures.cdxj
PIPELINE_FORMAT ?= cdxj
PIPELINE_OUT    ?= bin/pipeline-out
PIPELINE_SAMPLE ?= 1000
PIPELINE_FLAGS  ?=
pipeline:
	$(GO) run ./wasm/beam -input '$(PIPELINE_INPUT)' -format $(PIPELINE_FORMAT) -output $(PIPELINE_OUT) -sample $(PIPELINE_SAMPLE) $(PIPELINE_FLAGS)

# The site as one archive an instructor unpacks on any static host, at its
# root or under a sub-path: every page, lesson and script, and the module
# under its hashed name (the plain and precompressed copies are for
# servers that choose among them, wasm/handler).
dist-zip: site wasm
	@command -v zip >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y zip; }
	@mkdir -p bin && rm -f bin/refresh-lab-site.zip
	cd $(DIST) && zip -q -r -9 $(CURDIR)/bin/refresh-lab-site.zip . -x lab.wasm '*.wasm.br' '*.wasm.gz'
	@echo "bin/refresh-lab-site.zip: $$(du -h bin/refresh-lab-site.zip | cut -f1); unpack it on any static host (see the README)"

# The Cloudflare Worker: the same wasm/worker main built for js/wasm, with
# syumai/workers' JavaScript runtime beside it. make worker-test runs it
# locally under `wrangler dev` (the version wasm/worker/package.json pins,
# installed by npm when missing) and checks it across requests
# (wasm/worker/worker_test.go), logging each request's CPU and wall time;
# deploying is not tested (README, "Deploying to Cloudflare").
worker: wasm/worker/build/app.wasm
wasm/worker/build/app.wasm: $(GO_SOURCES)
	@mkdir -p wasm/worker/build
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o wasm/worker/build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w $(LDFLAGS)" -o $@ ./wasm/worker

worker-test: tools site wasm worker
	@command -v npm >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y npm; }
	./wasm/worker/worker-test.sh

test: tools site wasm worker test-go test-wasm test-browser worker-test staticcheck

test-go:
	@unformatted=$$(gofmt -l core wasm site); if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test ./...

# staticcheck, at the version the tool line of go.mod pins: over every
# package natively, then over the packages that only the js/wasm build has
# (the browser module and the Worker), with the same native binary
# (go tool -n builds it and prints its path).
staticcheck:
	$(GO) tool staticcheck ./...
	GOOS=js GOARCH=wasm $$($(GO) tool -n staticcheck) ./wasm/...

test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASMEXEC)" $(CORE)

test-browser: $(TEMML)
	REFRESHLAB_E2E=1 REFRESHLAB_DIST=$(CURDIR)/$(DIST) $(GO) test -count=1 -v -run 'Browser' ./site/e2e/

bench: tools site wasm
	$(GO) run ./site/e2e/bench -dist $(DIST) -out site/e2e/bench/figures.md

# Tools the tests need, installed when missing: Node (for Go's js/wasm test
# runner and wrangler) and Debian's Chromium (for the browser tests), plus brotli for
# the size report; npm installs the site's Node tools (site/package.json).
tools: $(TEMML)
	@command -v node >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y nodejs; }
	@command -v npm >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y npm; }
	@command -v chromium >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; }
	@command -v brotli >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y brotli; }

clean:
	rm -rf $(DIST) bin wasm/worker/build wasm/worker/node_modules wasm/worker/.wrangler site/node_modules
