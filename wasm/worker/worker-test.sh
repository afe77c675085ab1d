#!/bin/sh
# make worker-test: runs the Cloudflare Worker (built by make worker) under
# `wrangler dev`, locally (no account: KV is a local simulation, kept in
# a temporary folder), and runs TestWorker against it: upload-then-run
# across requests, privacy between two browsers, a lesson's spec and
# charts, and each kind of request's CPU and wall time.
set -eu
cd "$(dirname "$0")"
[ -x node_modules/.bin/wrangler ] || npm ci --ignore-scripts --no-audit --no-fund
PORT=${WORKER_PORT:-8788}
state=$(mktemp -d)
log=$state/wrangler.log
WRANGLER_SEND_METRICS=false setsid node_modules/.bin/wrangler dev --port "$PORT" --ip 127.0.0.1 \
  --persist-to "$state" --show-interactive-dev-session=false >"$log" 2>&1 &
wrangler=$!
trap 'kill -- -$wrangler 2>/dev/null || true; rm -rf "$state"' EXIT INT TERM
i=0
until grep -q "Ready on" "$log"; do
  i=$((i + 1))
  if [ $i -gt 120 ] || ! kill -0 $wrangler 2>/dev/null; then
    cat "$log"; echo "worker-test: wrangler dev did not start" >&2; exit 1
  fi
  sleep 0.5
done
# The workerd process that runs the Worker: of the two wrangler starts (a
# proxy in front, the Worker behind it), the one with an inspector, which
# may start a moment after wrangler says it is ready.
workerd=
for _ in 1 2 3 4 5 6 7 8 9 10; do
  for p in $(pgrep -s $wrangler workerd); do
    if tr '\0' ' ' </proc/$p/cmdline | grep -q -- --inspector-addr; then workerd=$p; fi
  done
  [ -n "$workerd" ] && break
  sleep 1
done
echo "worker-test: wrangler dev on port $PORT (workerd pid ${workerd:-unknown})"
# The size Cloudflare counts against the plan's limit (3 MB on the free
# plan, 10 MB on the paid one): the upload, gzip-compressed.
WRANGLER_SEND_METRICS=false node_modules/.bin/wrangler deploy --dry-run --outdir "$state/dry" 2>&1 | grep "Total Upload" | sed 's/^/worker-test: the Worker to deploy: /'
REFRESHLAB_WORKER=http://127.0.0.1:$PORT REFRESHLAB_WORKERD_PID=$workerd \
  go test -count=1 -v -run '^TestWorker$' .
