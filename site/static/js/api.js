// The lab's API client. Pages call request(method, path, options) and do not
// care who answers: by default the lab's WebAssembly module, one long-lived
// Go instance in a Web Worker (any static host works and uploads stay in the
// browser); with ?engine=server in the page's address, the server the page
// came from (make serve, or a Cloudflare Worker).

/** @typedef {{status:number, contentType:string, body:string, ok:boolean, ms:number, json:() => any}} Response */

const params = new URLSearchParams(location.search);

/** Which engine answers: "wasm" (default) or "server". */
export const engineName = params.get('engine') === 'server' ? 'server' : 'wasm';

// Keep the site and the lab's module for when the network goes (sw.js),
// where the browser allows a service worker (https, or localhost). The
// page hands it what it loaded before the worker controlled it.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register(new URL('../sw.js', import.meta.url), { scope: new URL('../', import.meta.url).pathname })
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => {
      const loaded = [location.href.split('#')[0], ...performance.getEntriesByType('resource').map((e) => e.name)];
      reg.active.postMessage({ cache: loaded });
    })
    .catch(() => { /* no offline copy: the lab works online as before */ });
}

// Say truthfully where the work and the user's logs go with the server
// engine (the page's footer says "in this tab" for the default).
if (engineName === 'server' && typeof document !== 'undefined') {
  const where = document.getElementById('where-runs');
  if (where) where.textContent = 'With ?engine=server this page has the server it came from run its experiments, and sends it any log you read (the upload page says how long the server keeps one).';
}

const listeners = new Set();
let engineState = { state: 'starting', text: 'starting the lab…' };

/** Calls fn with the engine's state now and whenever it changes. */
export function onEngine(fn) {
  listeners.add(fn);
  fn(engineState);
  return () => listeners.delete(fn);
}

function setEngine(state, text) {
  engineState = { state, text };
  for (const fn of listeners) fn(engineState);
}

function response(status, contentType, body, ms, extra) {
  return {
    status, contentType, body, ms, ...extra,
    ok: status >= 200 && status < 300,
    json() { return JSON.parse(body); },
  };
}

function errorResponse(status, message) {
  return response(status, 'application/json', JSON.stringify({ error: message }), 0);
}

/** The Go instance in a Web Worker; restarted if it ever exits. */
class WorkerEngine {
  constructor() {
    this.next = 1;
    this.pending = new Map();
    this.start();
  }

  start() {
    const t0 = performance.now();
    setEngine('starting', 'starting the lab…');
    this.worker = new Worker(new URL('lab-worker.js', import.meta.url));
    this.ready = new Promise((resolve, reject) => { this.resolveReady = resolve; this.rejectReady = reject; });
    this.ready.catch(() => {});
    this.worker.onmessage = (e) => this.receive(e.data, t0);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.fail(`the lab's worker failed: ${e.message || 'unknown error'}`);
    };
  }

  receive(m, t0) {
    switch (m.type) {
      case 'ready':
        setEngine('ready', `WebAssembly in this tab · ready in ${Math.round(performance.now() - t0)} ms`);
        this.resolveReady();
        return;
      case 'failed':
        this.fail(`the lab could not start: ${m.error}`);
        return;
      case 'unpaired':
        // The helper could not run the lesson or stopped answering (lab-worker.js
        // giveUp): free it, and pair no more.
        if (this.helper) this.helper.terminate();
        this.unpaired = m.error;
        return;
      case 'exit':
        // The Go instance stopped (it should not): answer what is pending
        // and start a fresh one for the next request.
        this.fail('the lab stopped and was restarted; uploaded logs must be read again');
        return;
      case 'progress': {
        const p = this.pending.get(m.id);
        if (p && p.onProgress) p.onProgress(m.phase, m.done, m.total);
        return;
      }
      case 'response': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        const r = response(m.status, m.contentType, m.body, m.ms, { shared: !!m.shared, received: m.received, answered: m.answered, posted: m.posted, sent: p.sent, delivered: performance.timeOrigin + performance.now() });
        if (!p.batch) p.resolve(r);
        else if (!m.charts) p.resolve({ run: r, charts: [] }); // the run failed, or the module did
        else p.resolve({ run: r, charts: m.charts.map((c) => response(c.status, c.contentType, c.body, c.ms)) });
      }
    }
  }

  /**
   * Gives the lab's worker a helper, a second worker it shares expensive runs
   * with over a MessageChannel (lab-worker.js), where the machine has a
   * second core for it. Once per engine; the helper first runs spec (a
   * lesson's, in JSON) on its own, so that it holds what the lesson's
   * policies derive from the dataset before it takes a part of any run.
   */
  pair(spec) {
    if (this.helper || this.unpaired || this.dead || !(navigator.hardwareConcurrency >= 2)) return false;
    const ch = new MessageChannel();
    this.helper = new Worker(new URL('lab-worker.js', import.meta.url));
    this.helper.onerror = (e) => e.preventDefault(); // the lab's worker then shares no more
    this.helper.postMessage({ type: 'serve', port: ch.port2 }, [ch.port2]);
    this.worker.postMessage({ type: 'pair', port: ch.port1, warm: spec }, [ch.port1]);
    return true;
  }

  fail(message) {
    if (this.helper) {
      this.helper.terminate();
      this.helper = null;
    }
    setEngine('error', message);
    this.rejectReady(new Error(message));
    for (const p of this.pending.values()) p.resolve(errorResponse(503, message));
    this.pending.clear();
    this.worker.terminate();
    this.dead = true;
  }

  async request(method, path, { query = '', body = '', onProgress } = {}) {
    return this.send({ method, path, query, body }, { onProgress });
  }

  // One message to the worker, which runs spec and draws each chart of its
  // result before it answers: a round trip between threads costs up to a
  // frame on a busy machine, and a slider should pay for one, not two.
  async runWithCharts(spec, charts, onProgress, brief = false) {
    return this.send({ method: 'POST', path: '/api/run', query: brief ? 'brief=1' : '', body: JSON.stringify(spec), charts: charts.map((c) => JSON.stringify(c)) }, { batch: true, onProgress });
  }

  send(message, { onProgress, batch = false }) {
    if (this.dead) {
      this.dead = false;
      this.start();
    }
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onProgress, batch, sent: performance.timeOrigin + performance.now() });
      this.worker.postMessage({ id, ...message });
    });
  }
}

/** The server the page came from. */
class ServerEngine {
  constructor() {
    this.base = new URL('../api/', import.meta.url);
    setEngine('ready', 'answered by the server');
  }

  async request(method, path, { query = '', body, onProgress } = {}) {
    const url = new URL(path.replace(/^\/api\//, ''), this.base);
    url.search = query;
    const t0 = performance.now();
    if (onProgress) onProgress('upload', 0, 1);
    try {
      const r = await fetch(url, { method, body: method === 'GET' ? undefined : body });
      const text = await r.text();
      const type = r.headers.get('Content-Type') || '';
      if (!r.ok && !type.includes('json')) {
        // A static host answers /api/ with its own page (a 404 in HTML, or
        // a 405): it has no API.
        setEngine('error', 'this host has no API');
        return errorResponse(503, `this host has no API (it answered ${r.status} with a page, not the lab): it serves the site only. Open the page without ?engine=server to run the lab in your browser.`);
      }
      return response(r.status, type, text, performance.now() - t0);
    } catch (err) {
      return errorResponse(503, `the server did not answer: ${err.message}`);
    }
  }

  // The run, then each chart of it by its spec: a server that holds the
  // result still draws it at once (its runs are remembered by spec), and
  // one that does not (every request to the Cloudflare Worker starts
  // afresh) runs the spec again, rather than answer 404 to an id and be
  // sent the whole result, which a brief run's lacks the series of.
  async runWithCharts(spec, charts, onProgress, brief = false) {
    const run = await this.request('POST', '/api/run', { body: JSON.stringify(spec), query: brief ? 'brief=1' : '' });
    if (!run.ok) return { run, charts: [] };
    return {
      run,
      charts: await Promise.all(charts.map((chart) => this.request('POST', '/api/chart', { body: JSON.stringify({ spec, chart }) }))),
    };
  }
}

let engine;

/** The engine, created on first use. */
export function getEngine() {
  if (!engine) engine = engineName === 'server' ? new ServerEngine() : new WorkerEngine();
  return engine;
}

/**
 * Sends one API request. body is a string (JSON) or a Blob (an upload);
 * query a string without "?". Never throws: failures are responses with an
 * error status and a JSON {"error": ...} body.
 * @returns {Promise<Response>}
 */
export function request(method, path, options) {
  return getEngine().request(method, path, options);
}

/**
 * Runs spec (POST /api/run) and draws each chart of its result (POST
 * /api/chart), in one exchange with the module where it can; onProgress,
 * when given, hears ('run', repeats finished) while it runs; brief asks
 * for the result without its series per cycle (the charts are drawn from
 * the whole). Never throws.
 * @returns {Promise<{run: Response, charts: Response[]}>} charts is empty
 *   when the run failed.
 */
export function runWithCharts(spec, charts, onProgress, brief) {
  return getEngine().runWithCharts(spec, charts, onProgress, brief);
}

/**
 * Pairs the lab with a helper worker for expensive runs (WorkerEngine.pair);
 * reports whether it did. The server engine has no use for one.
 */
export function pair(spec) {
  const e = getEngine();
  return e.pair ? e.pair(JSON.stringify(spec)) : false;
}

/** POSTs v as JSON. */
export function post(path, v) {
  return request('POST', path, { body: JSON.stringify(v) });
}

/** The error message of a failed response, with where it is when known. */
export function errorOf(r) {
  try {
    const e = r.json();
    return e;
  } catch {
    return { error: `HTTP ${r.status}: ${r.body.slice(0, 200)}` };
  }
}
