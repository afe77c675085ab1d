// The Beam pipeline's outputs on the upload page (core/pipeline, wasm/beam):
// its summary.json, read and shown here in the page (it is not a dataset,
// so it never goes to the lab or a server), and the tests that tell its
// rates.csv and summary.json from a log.
import { el } from './experiment.js';

/**
 * Whether the start of a CSV file is a rates file's header: a rate column
 * and none of the columns a log of crawls or events needs.
 */
export function isRatesHeader(head) {
  const cols = (head.split(/\r?\n/, 1)[0] || '').split(',').map((c) => c.trim().toLowerCase().replace(/^"|"$/g, ''));
  return cols.includes('rate') && !cols.some((c) => ['time', 'changed', 'hash', 'event', 'digest', 'timestamp'].includes(c));
}

/**
 * Whether a file, by its name and first bytes, is a pipeline's summary
 * (one JSON document) rather than JSON lines: its first line is not a
 * whole object, or is the whole summary.
 */
export function isSummaryFile(name, head) {
  const first = (head.split('\n', 1)[0] || '').trim();
  if (!first.startsWith('{') || /\.(jsonl|ndjson)(\.gz)?$/i.test(name || '')) return false;
  try {
    const o = JSON.parse(first);
    return typeof o === 'object' && o !== null && 'rateHistogram' in o;
  } catch {
    return first === '{' || /\.json$/i.test(name || '');
  }
}

/** The 1-based line and column of offset i in text. */
function lineColumn(text, i) {
  const before = text.slice(0, Math.max(0, i));
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: before.length - nl };
}

// The fields the view needs, what each must be, and a test of it.
const NUMBER = ['a number', (v) => typeof v === 'number' && Number.isFinite(v)];
const COUNT = ['a count (a whole number, 0 or more)', (v) => Number.isInteger(v) && v >= 0];
const FIELDS = {
  pages: COUNT, sites: COUNT, captures: COUNT, observations: COUNT, changes: COUNT, malformed: COUNT,
  changeRate: NUMBER,
  rateHistogram: ['a list of bins {low, high, pages}', (v) => v === null || (Array.isArray(v) && v.every((b) => b && NUMBER[1](b.low) && NUMBER[1](b.high) && COUNT[1](b.pages)))],
};
const OPTIONAL = {
  rateQuantiles: ['an object of quantiles (p10 … p90) and their rates', (v) => v === null || (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(NUMBER[1]))],
  inputs: ['a list of file patterns', (v) => v === null || (Array.isArray(v) && v.every((x) => typeof x === 'string'))],
  examples: ['a list of malformed rows {file, line, column, error}', (v) => v === null || (Array.isArray(v) && v.every((x) => x && typeof x === 'object'))],
  dropped: ['an object of counts', (v) => v === null || (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(COUNT[1]))],
  edges: ['an object of counts', (v) => v === null || (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(COUNT[1]))],
};

/**
 * Reads the text of a pipeline's summary.json. Resolves to {ok, summary}
 * or {ok: false, error: {error, line, column}}: where the JSON breaks, or
 * the first field that is missing or not what the pipeline writes (at the
 * field's key, when the text names it).
 */
export function readSummary(text) {
  let s;
  try {
    s = JSON.parse(text);
  } catch (err) {
    const m = /position (\d+)/.exec(err.message);
    const at = m ? lineColumn(text, Number(m[1])) : /line (\d+) column (\d+)/.exec(err.message);
    const where = m ? at : at ? { line: Number(at[1]), column: Number(at[2]) } : { line: 0, column: 0 };
    const msg = err.message.replace(/\s*\(line \d+ column \d+\)$/, '').replace(/ in JSON at position \d+$/, '');
    return { ok: false, error: { ...where, error: `${where.line ? `line ${where.line}, column ${where.column}: ` : ''}not JSON: ${msg}` } };
  }
  if (typeof s !== 'object' || s === null || Array.isArray(s)) {
    return { ok: false, error: { line: 1, column: 1, error: 'line 1, column 1: expected a JSON object, the summary.json the pipeline writes' } };
  }
  for (const [fields, need] of [[FIELDS, true], [OPTIONAL, false]]) {
    for (const [k, [what, ok]] of Object.entries(fields)) {
      if (!(k in s)) {
        if (!need) continue;
        return { ok: false, error: { line: 0, column: 0, error: `no "${k}" field: expected ${what} (is this the summary.json of make pipeline?)` } };
      }
      if (!ok(s[k])) {
        const i = text.indexOf(`"${k}"`);
        const at = i >= 0 ? lineColumn(text, i) : { line: 0, column: 0 };
        const got = JSON.stringify(s[k]);
        return { ok: false, error: { ...at, error: `${at.line ? `line ${at.line}, column ${at.column}: ` : ''}"${k}" is ${got.length > 40 ? got.slice(0, 40) + '…' : got}: expected ${what}` } };
      }
    }
  }
  return { ok: true, summary: s };
}

const n = (x) => x.toLocaleString();
const rate = (r) => (r === 0 ? '0' : r.toPrecision(2));

/**
 * The view of a summary: its facts (every text from the file set as
 * text, never as markup) and the distribution of the pages' rates, one row
 * per bin with a meter, as a table a screen reader reads.
 */
export function summaryView(s, name, where) {
  const facts = [
    ['File', name],
    ['Read', where],
    ['Inputs', (s.inputs || []).join(', ') + (s.format ? ` (${s.format})` : '')],
    ['Pages', n(s.pages)],
    ['Sites', n(s.sites)],
    ['Captures', n(s.captures)],
    ['Changes seen', `${n(s.changes)} of ${n(s.observations)} intervals between captures (${(100 * s.changeRate).toFixed(1)}%)`],
  ];
  if (s.estimator) facts.push(['Estimator', s.estimator === 'pseudo-mle' ? 'MLE with two pseudo-intervals (Kolobov et al.)' : 'irregular-interval MLE']);
  const q = s.rateQuantiles || {};
  const qs = Object.keys(q).sort((a, b) => parseFloat(a.slice(1)) - parseFloat(b.slice(1)));
  if (qs.length) facts.push(['Change rate quantiles', qs.map((k) => `${k} ${rate(q[k])}`).join(', ') + ' changes per day']);
  const edges = Object.entries(s.edges || {});
  if (edges.length) facts.push(['Edge cases of the MLE', edges.map(([k, v]) => `${k} ${n(v)}`).join(', ')]);
  const dropped = Object.entries(s.dropped || {}).map(([k, v]) => `${k} ${n(v)}`).join(', ');
  facts.push(['Dropped', dropped ? `${dropped} (not captures of a page)` : 'none']);
  facts.push(['Malformed rows', n(s.malformed)]);
  if (s.samplePages) facts.push(['Sample', `${n(s.samplePages)} pages in sample.csv (open it as a crawl log)`]);
  const dl = el('dl', { class: 'facts', id: 'pipeline-facts' }, facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })]));
  const out = [dl];
  if ((s.examples || []).length) {
    out.push(el('h3', { text: 'The first malformed rows' }), el('ul', { class: 'bad-rows' }, s.examples.map((b) =>
      el('li', {}, el('code', { text: `${b.file || ''}:${b.line || '?'}${b.column ? ':' + b.column : ''}` }), ' ', String(b.error || '')))));
  }
  const bins = s.rateHistogram || [];
  if (bins.length) {
    const most = Math.max(...bins.map((b) => b.pages));
    const rows = bins.map((b) => el('tr', {},
      el('th', { scope: 'row', text: b.high ? `${rate(b.low)} – ${rate(b.high)}` : `${rate(b.low)} or more` }),
      el('td', { class: 'num', text: n(b.pages) }),
      el('td', {}, el('meter', { min: '0', max: String(most), value: String(b.pages), 'aria-hidden': 'true' }))));
    out.push(el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'rate-hist-caption' },
      el('table', { class: 'rate-hist', id: 'rate-hist' },
        el('caption', { id: 'rate-hist-caption', text: 'Pages by estimated change rate (changes per day, log-spaced bins)' }),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Changes per day' }), el('th', { scope: 'col', text: 'Pages' }), el('th', { scope: 'col', text: 'Share' }))),
        el('tbody', {}, rows))));
  }
  return out;
}
