// The Web Worker that hosts the lab: one long-lived Go instance (lab.wasm)
// answering API requests posted by api.js, so the page never blocks while
// the core computes. If the instance ever exits, the worker reports it and
// api.js starts a new worker.
//
// On a machine with two cores a lesson whose runs are expensive pairs this
// worker with a helper, a second worker running this same script (api.js
// pair): the two talk over a MessageChannel, this one splits each expensive run
// of a bundled dataset between them (lab.Split), and the helper hands its
// results over (share, adopt). The answer is the same as without it.
/* global Go */
importScripts('wasm_exec.js');

let ready = null;

// The module's name: lab.HASH.wasm as make writes it (wasm.json), which
// servers send precompressed and browsers keep, else lab.wasm.
async function moduleURL() {
  try {
    const r = await fetch(new URL('../wasm.json', self.location.href));
    if (r.ok) return new URL(`../${(await r.json()).wasm}`, self.location.href);
  } catch { /* a host without it: the plain name */ }
  return new URL('../lab.wasm', self.location.href);
}

// instantiate compiles the module as it streams in when the host sends it
// as application/wasm, which streaming compilation requires; many static
// hosts send application/octet-stream, so then the bytes are compiled
// whole.
async function instantiate(url, imports) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  if ((response.headers.get('Content-Type') || '').split(';')[0].trim() === 'application/wasm') {
    return WebAssembly.instantiateStreaming(response, imports);
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

function start() {
  ready = new Promise((resolve, reject) => {
    self.onRefreshLabReady = resolve;
    const go = new Go();
    moduleURL()
      .then((url) => instantiate(url, go.importObject))
      .then(({ instance }) => {
        go.run(instance).then(() => postMessage({ type: 'exit' }), (err) => postMessage({ type: 'failed', error: String(err) }));
      })
      .catch(reject);
  });
  ready.then(() => postMessage({ type: 'ready' }), (err) => postMessage({ type: 'failed', error: String(err && err.message || err) }));
}

// readBlob reads an upload in chunks, reporting progress, into one buffer.
// A gzip-compressed upload (its first bytes 1f 8b) is decompressed as it
// is read, with the browser's DecompressionStream, and the lab gets its
// text: the same dataset as the compressed file read natively, whose id
// covers the text. Progress counts the compressed bytes. A browser's
// DecompressionStream stops at the end of a first gzip member, so a file
// of several (Common Crawl's index files are blocks of 3,000 lines, each
// its own member) is handed over as it is and the module decompresses it;
// so is a damaged one, whose error the module reports.
async function readBlob(blob, id) {
  if (typeof DecompressionStream === 'function' && await isGzip(blob)) {
    try {
      return await inflate(blob, id);
    } catch { /* several members, or a damaged stream: the module reads it */ }
  }
  return readPlain(blob, id);
}

async function isGzip(blob) {
  const b = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  return b.length === 2 && b[0] === 0x1f && b[1] === 0x8b;
}

// progressOf returns a function that reports done of total bytes in a
// phase, at most every 50 ms.
function progressOf(id, phase, total) {
  let last = 0;
  return (done) => {
    const now = performance.now();
    if (now - last > 50) {
      postMessage({ type: 'progress', id, phase, done, total });
      last = now;
    }
  };
}

async function readPlain(blob, id) {
  const total = blob.size;
  const out = new Uint8Array(total);
  const reader = blob.stream().getReader();
  const report = progressOf(id, 'read', total);
  let done = 0;
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    out.set(value, done);
    done += value.length;
    report(done);
  }
  return out;
}

// inflate decompresses a gzip Blob as it streams, into a buffer that
// grows by doubling.
async function inflate(blob, id) {
  const report = progressOf(id, 'inflate', blob.size);
  let read = 0;
  const count = new TransformStream({
    transform(chunk, ctl) {
      read += chunk.length;
      report(read);
      ctl.enqueue(chunk);
    },
  });
  const reader = blob.stream().pipeThrough(count).pipeThrough(new DecompressionStream('gzip')).getReader();
  let out = new Uint8Array(Math.max(1 << 16, 4 * blob.size));
  let n = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (n + value.length > out.length) {
      const bigger = new Uint8Array(Math.max(2 * out.length, n + value.length));
      bigger.set(out.subarray(0, n));
      out = bigger;
    }
    out.set(value, n);
    n += value.length;
  }
  return out.subarray(0, n);
}

// The helper this worker shares expensive runs with, once paired: its port, and
// whether it has run the lesson's spec once (warm), building what its
// policies derive from the dataset, so no shared run waits for that.
let helper = null;
// A shared run in progress: requests that come meanwhile wait for it, so
// they are answered in order, as they are without a helper.
let sharing = null;
// How long a shared run waits for the helper before computing its part
// itself (and sharing no more: the helper is gone or stuck).
const HELPER_TIMEOUT_MS = 5000;

// giveUp gives up on the helper (it could not run the lesson, or stopped
// answering) and tells the page, which frees it: runs stay on this worker.
function giveUp(why) {
  helper.gone = true;
  postMessage({ type: 'unpaired', error: why });
}

// ask sends the helper a spec to run; the promise gives its answer, or null
// after HELPER_TIMEOUT_MS (when wait).
function ask(spec, warm, wait) {
  const id = helper.next++;
  return new Promise((resolve) => {
    helper.waiting.set(id, resolve);
    helper.port.postMessage({ id, spec, warm });
    if (wait) {
      setTimeout(() => {
        if (!helper.waiting.delete(id)) return;
        giveUp(`the helper did not answer within ${HELPER_TIMEOUT_MS / 1000} s`);
        resolve(null);
      }, HELPER_TIMEOUT_MS);
    }
  });
}

// warmHelper has the helper run spec once on its own (see helper). A
// helper that cannot (its module failed to start for want of memory, say)
// is given up on.
function warmHelper(spec) {
  if (helper.warming) return;
  helper.warming = true;
  ask(spec, true, false).then((m) => {
    helper.warm = !!(m && m.warmed);
    if (!helper.warm) giveUp((m && m.error) || 'the helper did not answer');
  });
}

// share computes the run of spec (JSON) with the helper, when it is worth
// it: the helper runs its part while this worker runs the rest, and adopts
// the helper's results, so that the run that follows remembers them all.
// It reports whether it shared.
async function share(spec) {
  if (!helper || helper.gone) return false;
  if (!helper.warm) {
    warmHelper(spec);
    return false;
  }
  try {
    const parts = self.refreshLab.split(spec);
    if (!parts) return false;
    const answer = ask(parts[1], false, true);
    self.refreshLab.compute(parts[0]);
    const m = await answer;
    return !!(m && m.shared) && self.refreshLab.adopt(m.shared) === null;
  } catch {
    return false; // the run that follows computes what is missing
  }
}

// serve answers the paired worker: it runs each spec it is sent and hands
// back what it computed (or, for the warm-up, whether it ran).
function serve(port) {
  port.onmessage = async (e) => {
    const { id, spec, warm } = e.data;
    let out = { id };
    try {
      await ready;
      const failed = self.refreshLab.compute(spec);
      out = warm ? { id, warmed: failed === null, error: failed } : { id, shared: failed === null ? self.refreshLab.share(spec) : null };
    } catch (err) {
      // The paired worker computes the part itself.
      out.error = String(err && err.message || err);
    }
    port.postMessage(out);
  };
}

self.onmessage = async (e) => {
  const received = performance.timeOrigin + performance.now();
  if (e.data.type === 'pair') {
    helper = { port: e.data.port, next: 1, waiting: new Map(), warm: false, warming: false, gone: false };
    helper.port.onmessage = (m) => {
      const resolve = helper.waiting.get(m.data.id);
      if (resolve && helper.waiting.delete(m.data.id)) resolve(m.data);
    };
    if (typeof e.data.warm === 'string') warmHelper(e.data.warm);
    return;
  }
  if (e.data.type === 'serve') {
    serve(e.data.port);
    return;
  }
  const { id, method, path, query, body } = e.data;
  try {
    await ready;
    while (sharing) await sharing;
    let payload = body;
    let total = 0;
    if (body instanceof Blob) {
      payload = await readBlob(body, id);
      total = payload.length;
    }
    let last = 0;
    // Progress: an upload's bytes read (of total), or a run's repeats
    // finished (the page knows of how many).
    const phase = path === '/api/run' ? 'run' : 'parse';
    const progress = (done) => {
      const now = performance.now();
      if (now - last > 50) {
        postMessage({ type: 'progress', id, phase, done, total });
        last = now;
      }
    };
    const t0 = performance.now();
    // A lesson's run with charts (runWithCharts) on an expensive spec: share its
    // policies with the helper first; the run below then remembers them.
    let shared = false;
    if (helper && e.data.charts && method === 'POST' && path === '/api/run' && typeof payload === 'string') {
      sharing = share(payload);
      try {
        shared = await sharing;
      } finally {
        sharing = null;
      }
    }
    const r = self.refreshLab.handle(method, path, query || '', payload ?? '', progress);
    const t1 = performance.now();
    // A run with charts (api.js runWithCharts): draw each chart of the
    // result here, by its id, and answer all of it in one message.
    let charts;
    if (e.data.charts && r.status === 200) {
      const resultID = r.resultID;
      charts = e.data.charts.map((chart) => {
        const c0 = performance.now();
        const c = self.refreshLab.handle('POST', '/api/chart', '', `{"id":${JSON.stringify(resultID)},"chart":${chart}}`);
        return { status: c.status, contentType: c.contentType, body: c.body, ms: performance.now() - c0 };
      });
    }
    postMessage({
      type: 'response', id, status: r.status, contentType: r.contentType, body: r.body, ms: t1 - t0, charts, shared,
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
