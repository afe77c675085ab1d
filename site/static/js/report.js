// The report view of the upload page: the experiment's latest full result
// as a report a researcher can cite (core/report, POST /api/report): the
// policies ranked by a metric with their 95% intervals and differences to
// the best, a forest plot, the log's SHA-256 (computed here, in this tab)
// and summary, the exact spec, the lab's version and the date, and the
// methods paragraph; exports as CSV, JSON, Markdown, LaTeX, SVG and PNG.
//
// The page's address is the report's link: it carries the spec (the
// experiment keeps it there) and the log's SHA-256 (log=). Opened
// elsewhere, the link asks for the log; the same file dropped again (the
// same hash) reproduces the view, and another file is said to be another.

import { post, errorOf } from './api.js';
import { el, download, catalog } from './experiment.js';
import { scrollRegion } from './screen.js';
import { latestUpload } from './uploads.js';

const $ = (sel, root = document) => root.querySelector(sel);

/**
 * Writes text in the report's status line. The line is not a live region
 * (it changes with every result); a failure is an alert, said at once.
 */
function tell(status, text, failed = false) {
  if (failed) status.setAttribute('role', 'alert');
  else status.removeAttribute('role');
  status.textContent = text;
}

/** The SHA-256 of a Blob's bytes, in hex, computed in this tab. */
export async function sha256(blob) {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The log's SHA-256 the page's address carries (a report link), or ''. */
function linkedHash() {
  return new URLSearchParams(location.search).get('log') || '';
}

function setLinkedHash(hash) {
  const u = new URL(location.href);
  u.searchParams.set('log', hash);
  history.replaceState(null, '', u);
}

function specOfURL() {
  try {
    return JSON.parse(new URLSearchParams(location.search).get('spec') || 'null');
  } catch {
    return null;
  }
}

/**
 * Rasterises an SVG document (text) to a PNG Blob at scale times its size,
 * on a white background, in this tab.
 */
export async function svgToPNG(svgText, scale = 2) {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const svg = doc.documentElement;
  const [, , w, h] = (svg.getAttribute('viewBox') || '0 0 720 360').split(/\s+/).map(Number);
  svg.setAttribute('width', String(w));
  svg.setAttribute('height', String(h));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'sync';
    await new Promise((resolve, reject) => { img.onload = resolve; img.onerror = () => reject(new Error('the chart could not be drawn as an image')); img.src = url; });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(w * scale);
    canvas.height = Math.round(h * scale);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

// The formats of POST /api/report, as the export buttons name them.
const FORMATS = [
  { id: 'csv', label: 'CSV', ext: 'csv', type: 'text/csv' },
  { id: 'json', label: 'JSON', ext: 'json', type: 'application/json' },
  { id: 'md', label: 'Markdown', ext: 'md', type: 'text/markdown' },
  { id: 'latex', label: 'LaTeX', ext: 'tex', type: 'application/x-latex' },
];

class Report {
  constructor(experimentRoot) {
    this.experiment = experimentRoot;
    this.log = null; // {name, sha256, summary, dataset}
    this.result = null;
    this.metric = '';
    this.seq = 0;
    this.root = el('section', { class: 'lab-panel wide report', id: 'report', 'aria-labelledby': 'report-title', hidden: true });
    this.root.append(
      el('div', { class: 'panel-head' }, el('h2', { id: 'report-title', text: 'Report' }),
        el('p', { class: 'status', id: 'report-status' })),
      el('p', { class: 'hash-check', id: 'hash-check', role: 'status', hidden: true }),
      el('div', { class: 'report-controls' },
        el('label', { for: 'report-metric', text: 'Rank by' }), el('select', { id: 'report-metric' }),
        el('span', { class: 'hint-plain', text: 'The experiment\'s “Copy link” is the report\'s link: it carries the spec and the log\'s SHA-256.' })),
      scrollRegion(el('table', { class: 'numbers report-table', id: 'report-table' }), 'The report\'s table, a row per policy'),
      el('div', { class: 'notes', id: 'report-notes' }),
      el('figure', { class: 'chart forest', id: 'report-forest' }),
      el('div', { class: 'exports', id: 'report-exports' }),
      el('h3', { text: 'Methods' }), el('p', { class: 'methods', id: 'report-methods' }),
      el('h3', { text: 'The log and the run' }), el('dl', { class: 'facts', id: 'report-facts' }),
      el('details', { class: 'spec' }, el('summary', { text: 'The exact spec (JSON)' }), el('pre', { id: 'report-spec' })),
    );
    experimentRoot.after(this.root);
    $('#report-metric', this.root).addEventListener('change', (e) => { this.metric = e.target.value; this.render(); });
    document.addEventListener('refresh-lab:log', (e) => this.onLog(e.detail));
    experimentRoot.addEventListener('rendered', (e) => {
      // Previews (a few repeats while a slider moves) are not reported.
      if (experimentRoot.classList.contains('preview')) return;
      this.result = e.detail;
      this.render();
    });
    const last = latestUpload();
    if (last) this.onLog(last);
  }

  /**
   * A log was read into the lab: note its name and summary, hash its bytes
   * here, and check them against the hash a report link carries.
   */
  async onLog({ file, dataset, summary }) {
    const linked = linkedHash();
    const linkSpec = specOfURL();
    // A report link's spec names the dataset its file was read into; a
    // file read into another is not the link's (or not read its way):
    // its own view shows instead of the link's error.
    if (linked && linkSpec && linkSpec.dataset && linkSpec.dataset.id !== dataset.id) {
      const u = new URL(location.href);
      u.searchParams.delete('spec');
      history.replaceState(null, '', u);
    }
    const log = { name: file.name || dataset.name, summary, dataset: dataset.id, sha256: '' };
    this.log = log;
    const check = $('#hash-check', this.root);
    check.hidden = true;
    try {
      log.sha256 = await sha256(file);
    } catch (err) {
      check.textContent = `The log's SHA-256 could not be computed in this tab (${err.message}).`;
      check.hidden = false;
      return;
    }
    if (this.log !== log) return; // another file came meanwhile
    if (linked) {
      const same = linked.toLowerCase() === log.sha256;
      check.dataset.match = same ? 'same' : 'different';
      check.textContent = same
        ? (linkSpec && linkSpec.dataset && linkSpec.dataset.id !== dataset.id
          ? `This is the file the link was made from (the same SHA-256), read another way (its cycle length or merge window): read it as the link's maker did to see their view.`
          : `This is the file the link was made from: its SHA-256 matches, so this is the linked view.`)
        : `This is not the file the link was made from: its SHA-256 is ${log.sha256.slice(0, 12)}…, the link's ${linked.slice(0, 12)}…. The view below is of this file.`;
      check.hidden = false;
    }
    setLinkedHash(log.sha256);
    this.render();
  }

  /** The report request for the current result, by id. */
  request(format) {
    const log = this.log && this.result && this.log.dataset === this.result.dataset.id
      ? { name: this.log.name, sha256: this.log.sha256 || undefined, summary: this.log.summary }
      : undefined;
    return { id: this.result.id, metric: this.metric || undefined, log, format };
  }

  /** POSTs a report or chart request by id, and with the result itself if the lab no longer holds it. */
  async ask(path, body) {
    let r = await post(path, body);
    if (r.status === 404 && body.id) {
      const { id, ...rest } = body;
      r = await post(path, { ...rest, result: this.result });
    }
    return r;
  }

  async render() {
    if (!this.result) return;
    const seq = ++this.seq;
    const status = $('#report-status', this.root);
    tell(status, 'Writing the report…');
    // The forest plot is drawn at the width it is shown at, so that its
    // text is the 12 pixels the chart package sets (the report may still be
    // hidden: the experiment panel above has the same width).
    const shown = $('#report-forest', this.root).clientWidth || (this.experiment.clientWidth - 48);
    const forestWidth = Math.max(200, Math.min(1000, Math.floor(shown > 0 ? shown : 720)));
    const [r, f] = await Promise.all([
      this.ask('/api/report', this.request('json')),
      this.ask('/api/chart', { id: this.result.id, chart: { type: 'forest', metric: this.metric || undefined, width: forestWidth } }),
    ]);
    if (seq !== this.seq) return; // a newer result or metric came meanwhile
    if (!r.ok) {
      tell(status, `The report could not be written: ${errorOf(r).error}`, true);
      return;
    }
    const rep = r.json();
    this.report = rep;
    this.forest = f.ok ? f.body : '';
    await this.fillMetrics(rep);
    this.fillTable(rep);
    this.fillForest(rep);
    this.fillExports(rep);
    $('#report-methods', this.root).textContent = rep.methods;
    this.fillFacts(rep);
    $('#report-spec', this.root).textContent = JSON.stringify(rep.spec, null, 2);
    tell(status, `Refresh Lab ${rep.version}, ${rep.date}.`);
    this.root.hidden = false;
    this.root.dispatchEvent(new CustomEvent('report', { detail: rep }));
  }

  async fillMetrics(rep) {
    const sel = $('#report-metric', this.root);
    const kind = rep.spec.kind || 'refresh';
    const cat = await catalog();
    const ms = cat.metrics.filter((m) => m.kinds.includes(kind) && (m.better === 'higher' || m.better === 'lower'));
    sel.replaceChildren(...ms.map((m) => el('option', { value: m.id, selected: m.id === rep.metric.id }, `${m.name} (${m.better} is better)`)));
  }

  fillTable(rep) {
    const t = rep.table;
    const head = el('tr', {}, t.head.map((h) => el('th', { scope: 'col', text: h })));
    const rows = t.rows.map((cells, i) => el('tr', { class: [rep.rows[i].oracle ? 'oracle' : '', rep.rows[i].key === rep.reference ? 'reference' : ''].filter(Boolean).join(' ') },
      cells.map((c, j) => (j === 1 ? el('th', { scope: 'row', text: c }) : el('td', { class: j === 0 || j === 2 || j === 4 ? 'num' : 'iv', text: c, 'data-label': t.head[j] })))));
    $('#report-table', this.root).replaceChildren(el('caption', { text: t.caption }), el('thead', {}, head), el('tbody', {}, rows));
    $('#report-notes', this.root).replaceChildren(...(t.notes || []).map((n) => el('p', { class: 'hint', text: n })));
  }

  fillForest() {
    const fig = $('#report-forest', this.root);
    if (!this.forest) {
      fig.replaceChildren(el('p', { class: 'error', text: 'The forest plot could not be drawn.' }));
      return;
    }
    const t = document.createElement('template');
    t.innerHTML = this.forest; // the chart package escapes every text it writes
    fig.replaceChildren(t.content.firstElementChild, el('figcaption', { text: 'Each policy\'s mean (point) and 95% interval (line), ranked; the dashed line is the reference. Hollow points read the truth.' }));
  }

  fileBase(rep) {
    return `refresh-lab-report-${rep.dataset.id}-${rep.metric.id}-seed${rep.spec.seed}`;
  }

  fillExports(rep) {
    const base = this.fileBase(rep);
    const box = $('#report-exports', this.root);
    const fmt = FORMATS.map((f) => el('button', {
      type: 'button', class: 'small', 'data-format': f.id, text: f.label,
      onclick: async () => {
        const r = await this.ask('/api/report', this.request(f.id));
        if (r.ok) download(r.body, `${base}.${f.ext}`, f.type);
        else tell($('#report-status', this.root), `The ${f.label} export failed: ${errorOf(r).error}`, true);
      },
    }));
    // The forest plot and each of the experiment's charts, as SVG and PNG.
    const charts = [{ title: 'Forest plot', svg: this.forest, name: `${base}-forest` }];
    [...this.experiment.querySelectorAll('#charts figure.chart svg')].forEach((svg, i) => {
      const title = (svg.querySelector('title') || {}).textContent || `Chart ${i + 1}`;
      charts.push({ title, svg: svg.outerHTML, name: `${base}-chart${i + 1}` });
    });
    const chartRows = charts.filter((c) => c.svg).map((c) => el('li', {}, el('span', { text: c.title }), ' ',
      el('button', { type: 'button', class: 'small', 'data-svg': c.name, text: 'SVG', onclick: () => download(c.svg, `${c.name}.svg`, 'image/svg+xml') }), ' ',
      el('button', { type: 'button', class: 'small', 'data-png': c.name, text: 'PNG', onclick: async () => download(await svgToPNG(c.svg, 2), `${c.name}.png`, 'image/png') })));
    box.replaceChildren(
      el('div', { class: 'row' }, el('span', { class: 'label', text: 'Download the report:' }), ...fmt),
      el('div', {}, el('span', { class: 'label', text: 'Charts (PNG at twice their size):' }), el('ul', { class: 'chart-exports' }, chartRows)),
    );
  }

  fillFacts(rep) {
    const facts = [];
    if (rep.log) {
      facts.push(['Log', rep.log.name || '–']);
      facts.push(['SHA-256', el('code', { class: 'sha', text: rep.log.sha256 || 'computing…' }), ' (of the file\'s bytes, computed in this tab)']);
    }
    const n = (x) => (typeof x === 'number' ? x.toLocaleString() : x);
    facts.push(['Dataset', `${rep.dataset.name}: ${n(rep.dataset.pages)} pages on ${n(rep.dataset.sites)} sites, ${n(rep.dataset.cycles)} ${rep.dataset.cycleUnit || 'cycle'}s`]);
    if (rep.log && rep.log.summary) {
      for (const [k, v] of Object.entries(rep.log.summary)) {
        if (['pages', 'sites', 'cycles'].includes(k)) continue;
        facts.push([`Log: ${k}`, Array.isArray(v) ? (v.length ? v.join(', ') : 'none') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]);
      }
    }
    facts.push(['What ran', rep.work]);
    facts.push(['Lab version', rep.version]);
    facts.push(['Date', rep.date]);
    $('#report-facts', this.root).replaceChildren(...facts.flatMap(([k, ...v]) => [el('dt', { text: k }), el('dd', {}, ...v)]));
  }
}

/** Mounts the report view under the experiment panel. */
export function mountReport(experimentRoot) {
  return new Report(experimentRoot);
}
