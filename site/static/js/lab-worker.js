// The Web Worker that hosts the lab: one long-lived Go instance (lab.wasm)
// answering API requests posted by api.js, so the page never blocks while
// the core computes. If the instance ever exits, the worker reports it and
// api.js starts a new worker.
/* global Go */
importScripts('wasm_exec.js');

let ready = null;

function start() {
  ready = new Promise((resolve, reject) => {
    self.onRefreshLabReady = resolve;
    const go = new Go();
    WebAssembly.instantiateStreaming(fetch(new URL('../lab.wasm', self.location.href)), go.importObject)
      .then(({ instance }) => {
        go.run(instance).then(() => postMessage({ type: 'exit' }), (err) => postMessage({ type: 'failed', error: String(err) }));
      })
      .catch(reject);
  });
  ready.then(() => postMessage({ type: 'ready' }), (err) => postMessage({ type: 'failed', error: String(err && err.message || err) }));
}

// readBlob reads an upload in chunks, reporting progress, into one buffer.
async function readBlob(blob, id) {
  const total = blob.size;
  const out = new Uint8Array(total);
  const reader = blob.stream().getReader();
  let done = 0;
  let last = 0;
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    out.set(value, done);
    done += value.length;
    const now = performance.now();
    if (now - last > 50) {
      postMessage({ type: 'progress', id, phase: 'read', done, total });
      last = now;
    }
  }
  return out;
}

self.onmessage = async (e) => {
  const received = performance.timeOrigin + performance.now();
  const { id, method, path, query, body } = e.data;
  try {
    await ready;
    let payload = body;
    let total = 0;
    if (body instanceof Blob) {
      total = body.size;
      payload = await readBlob(body, id);
    }
    let last = 0;
    const progress = (done) => {
      const now = performance.now();
      if (now - last > 50) {
        postMessage({ type: 'progress', id, phase: 'parse', done, total });
        last = now;
      }
    };
    const t0 = performance.now();
    const r = self.refreshLab.handle(method, path, query || '', payload ?? '', progress);
    const t1 = performance.now();
    // A run with charts (api.js runWithCharts): draw each chart of the
    // result here, by its id, and answer all of it in one message.
    let charts;
    if (e.data.charts && r.status === 200) {
      const resultID = JSON.parse(r.body).id;
      charts = e.data.charts.map((chart) => {
        const c0 = performance.now();
        const c = self.refreshLab.handle('POST', '/api/chart', '', `{"id":${JSON.stringify(resultID)},"chart":${chart}}`);
        return { status: c.status, contentType: c.contentType, body: c.body, ms: performance.now() - c0 };
      });
    }
    postMessage({
      type: 'response', id, status: r.status, contentType: r.contentType, body: r.body, ms: t1 - t0, charts,
      // When the worker got the request and answered it (ms since the epoch),
      // so the page can tell waiting from working.
      received, answered: performance.timeOrigin + t1, posted: performance.timeOrigin + performance.now(),
    });
  } catch (err) {
    postMessage({
      type: 'response', id, status: 500, contentType: 'application/json',
      body: JSON.stringify({ error: `the lab's module failed: ${err && err.message || err}` }),
    });
    // A Go instance that has exited cannot answer again.
    if (String(err).includes('exited')) postMessage({ type: 'exit' });
  }
};

start();
