// The upload page: read a log (a crawl log, change events, or a web
// archive's index of captures), summarise it, and run every refresh
// policy on it.
import { mountExperiment, catalog, refreshCatalog, el, specFromURL } from './experiment.js';
import { uploadLog, restoreUpload, whereLogsGo } from './uploads.js';
import { onEngine } from './api.js';
import { isRatesHeader, isSummaryFile, readSummary, summaryView } from './pipeline.js';

const $ = (id) => document.getElementById(id);
const drop = $('dropzone');
const fileInput = $('file');
const progress = $('progress');
const bar = $('progress-bar');
const label = $('progress-label');
const errorBox = $('upload-error');
let experiment = null;
// Where the log goes, said truthfully for the engine this page uses.
let logsGo = { where: 'in this tab' };
whereLogsGo().then((w) => {
  logsGo = w;
  $('where-logs-go').replaceChildren(el('strong', { text: w.local ? 'Your log stays in this tab:' : 'Your log is sent to this server:' }), ' ' + w.text);
});
// The report view, under the experiment (report.js).
import('./report.js').then((m) => m.mountReport($('experiment')));

// What the page says of each format, and the examples it offers (site/build
// exports the generated ones and copies the others from datasets/).
const FORMATS = {
  'crawl-log': {
    drop: 'Drop a crawl log here', rows: 'crawls',
    what: 'A CSV file with a row per crawl of a page, saying whether the page changed since its last crawl.',
    examples: [{ path: 'examples/alqaaideh-jordan-crawl-log.csv', label: 'a generated crawl log', what: "Al-Qaaideh's nine sites" }],
  },
  'change-events': {
    drop: 'Drop a change-event log here', rows: 'events',
    what: 'A CSV file with a row per change of a page (and, optionally, when its tracking started). An Open Terms Archive events.csv reads as it is.',
    examples: [
      { path: 'examples/alqaaideh-jordan-change-events.csv', label: 'a generated one', what: "Al-Qaaideh's nine sites" },
      { path: 'examples/ota-pga-excerpt-events.csv', label: 'a real one', what: 'Open Terms Archive, 114 documents', credit: true },
    ],
  },
  cdx: {
    drop: 'Drop a CDX file here', rows: 'captures',
    what: "A web archive's CDX index (the Wayback Machine's, pywb's): a capture per line; a new content digest is a change.",
    examples: [{ path: 'examples/example-captures.cdx', label: 'a small CDX file', what: '5 URLs over 5 days' }],
  },
  cdxj: {
    drop: 'Drop a CDXJ file here', rows: 'captures',
    what: "A CDXJ index (pywb's, Common Crawl's): a URL key, a timestamp and a JSON object per line; a new digest is a change.",
    examples: [{ path: 'examples/example-captures.cdxj', label: 'a small CDXJ file', what: 'one site in six monthly crawls' }],
  },
  jsonl: {
    drop: 'Drop a JSON lines file here', rows: 'rows',
    what: "A JSON object per line: a crawl log's fields (page or url, site, time, changed or hash), or the Common Crawl index's (url, timestamp, status, digest, …).",
    examples: [{ path: 'examples/example-captures.jsonl', label: 'Common Crawl index lines', what: 'one site in six monthly crawls' }],
  },
  rates: {
    drop: "Drop the pipeline's rates.csv here", rows: 'pages',
    what: "A CSV file with a row per page and its change rate, as the Beam pipeline writes its rates.csv: the schedules of the whole crawl at the bandwidth you set. Its summary.json may come with it.",
    examples: [],
  },
};
const CSV = new Set(['crawl-log', 'change-events']);

/** The chosen format: a key of FORMATS. */
function format() {
  const r = document.querySelector('input[name="format"]:checked');
  return r ? r.value : 'crawl-log';
}

function setFormat(f) {
  const r = document.querySelector(`input[name="format"][value="${f}"]`);
  if (r) r.checked = true;
  showFormat();
}

function showFormat() {
  const f = format();
  const F = FORMATS[f];
  for (const d of document.querySelectorAll('[data-format]')) d.hidden = d.dataset.format !== f;
  $('merge-option').hidden = f !== 'change-events';
  $('sep-option').hidden = !CSV.has(f) && f !== 'rates';
  $('cycle-option').hidden = f === 'rates'; // a rates file has no cycles
  $('cycle-default').textContent = f === 'change-events' ? '1 day (the default)' : 'infer from the log';
  $('drop-what').textContent = F.drop;
  $('format-what').textContent = F.what;
  const links = F.examples.flatMap((x, i) => [
    i ? ' or ' : ' ',
    el('button', { type: 'button', class: 'link example', 'data-path': x.path, text: x.label }),
    ` (${x.what})`,
  ]);
  $('examples').replaceChildren('or try', ...links);
  $('examples').hidden = !F.examples.length;
  $('ota-credit').hidden = !F.examples.some((x) => x.credit);
}
for (const r of document.querySelectorAll('input[name="format"]')) {
  r.addEventListener('change', () => { showFormat(); hideMapping(); });
}
showFormat();

onEngine((s) => { $('engine').textContent = s.text; $('engine').dataset.state = s.state; });
// Start the lab now, so it is ready when a file arrives.
catalog().catch(() => {});

// A file whose name says its format (.cdx, .cdxj, .jsonl, .ndjson, with
// or without .gz) is read in it.
function formatOfName(name) {
  const m = /\.(cdx|cdxj|jsonl|ndjson)(\.gz)?$/i.exec(name || '');
  if (!m) return null;
  const ext = m[1].toLowerCase();
  return ext === 'ndjson' ? 'jsonl' : ext;
}

// readNew reads a file newly chosen: with the format its name (or, for a
// pipeline's rates.csv, its header) says, if any, and without the
// separator and column map chosen for the last one.
async function readNew(file) {
  let f = formatOfName(file.name);
  if (!f && isRatesHeader(await textOf(file, 4096).catch(() => ''))) f = 'rates';
  if (f && f !== format()) setFormat(f);
  $('sep').value = '';
  columns = '';
  hideMapping();
  read(file);
}

// readChosen reads the files chosen or dropped together: a pipeline's
// summary.json is shown (it is not a dataset), and the first other file
// read into the lab, so that the pipeline's rates.csv and summary.json
// may come at once.
async function readChosen(files) {
  // The last file's error goes now, before the files are looked at.
  errorBox.hidden = true;
  let log = null;
  let summaries = 0;
  for (const file of files) {
    if (isSummaryFile(file.name, await textOf(file, 1 << 16).catch(() => ''))) {
      if (!summaries++) await showPipelineSummary(file);
    } else {
      log ||= file;
    }
  }
  if (log) await readNew(log);
}

fileInput.addEventListener('change', () => { if (fileInput.files.length) readChosen([...fileInput.files]); });
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (e.dataTransfer.files.length) readChosen([...e.dataTransfer.files]);
});
$('examples').addEventListener('click', async (e) => {
  const path = e.target.closest('button.example')?.dataset.path;
  if (!path) return;
  const r = await fetch(path);
  if (!r.ok) {
    errorBox.replaceChildren(el('strong', { text: 'The example is not in this build of the site. ' }), `(${path}: ${r.status})`);
    errorBox.hidden = false;
    return;
  }
  const blob = await r.blob();
  readNew(new File([blob], path.split('/').pop(), { type: blob.type }));
});

function showProgress(phase, done, total) {
  progress.hidden = false;
  const rows = FORMATS[format()].rows;
  label.textContent = { read: 'Reading the file…', inflate: 'Decompressing the file…', parse: `Parsing ${rows}…` }[phase] || 'Working…';
  if (total > 0) {
    bar.max = total;
    bar.value = done;
  } else {
    bar.removeAttribute('value');
  }
}

// The file last read, and the column map it was read with, so that a
// change of how to read it (the cycle length, the merge window, the
// separator) reads it again: the same bytes read another way are another
// dataset.
let lastFile = null;
let columns = '';
for (const id of ['cycle', 'merge', 'sep']) {
  $(id).addEventListener('change', () => { if (lastFile) read(lastFile); });
}

async function read(file) {
  lastFile = file;
  errorBox.hidden = true;
  showProgress('read', 0, file.size);
  const t0 = performance.now();
  const f = format();
  const r = await uploadLog(file, {
    format: f, cycle: f === 'rates' ? '' : $('cycle').value, merge: f === 'change-events' ? $('merge').value : '',
    sep: CSV.has(f) || f === 'rates' ? $('sep').value : '', columns, onProgress: showProgress,
  });
  progress.hidden = true;
  if (!r.ok) {
    await showUploadError(file, r.error, f);
    return;
  }
  hideMapping();
  if (f === 'change-events') showEventSummary(r.dataset, r.summary, performance.now() - t0);
  else if (f === 'rates') showRatesSummary(r.dataset, r.summary, performance.now() - t0);
  else showSummary(r.dataset, r.summary, performance.now() - t0);
  if (r.note) $('facts').append(el('dt', { text: 'Your uploads' }), el('dd', { text: r.note }));
  await refreshCatalog();
  await showExperiment(r.dataset);
}

// textOf returns the first bytes of a file's text (decompressed, when it
// is gzip-compressed), to show a line of it.
async function textOf(file, max) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] !== 0x1f || head[1] !== 0x8b || typeof DecompressionStream !== 'function') return file.slice(0, max).text();
  const reader = file.stream().pipeThrough(new DecompressionStream('gzip')).pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    while (text.length < max) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    reader.cancel();
  } catch { /* a second gzip member: the first one's text is what there is */ }
  return text;
}

// cellsOf splits a line of format f into the cells before, at and after
// the given column, to mark the one at fault: the field's position in CSV
// (by the separator) and CDX (by spaces), the value's byte position in
// CDXJ and JSON lines.
function cellsOf(line, col, f, sep) {
  if (f === 'cdxj' || f === 'jsonl') {
    const bytes = new TextEncoder().encode(line);
    const start = new TextDecoder().decode(bytes.subarray(0, col - 1)).length;
    let end = start;
    if (line[start] === '"') {
      for (end = start + 1; end < line.length && line[end] !== '"'; end++) if (line[end] === '\\') end++;
      end++;
    } else {
      while (end < line.length && !/[\s,}\]]/.test(line[end])) end++;
    }
    return [line.slice(0, start), line.slice(start, Math.max(end, start + 1)), line.slice(Math.max(end, start + 1))];
  }
  const s = f === 'cdx' ? ' ' : sep === 'tab' ? '\t' : sep || ',';
  const cells = line.split(s);
  if (col > cells.length) return null;
  return [cells.slice(0, col - 1).join(s) + (col > 1 ? s : ''), cells[col - 1], col < cells.length ? s + cells.slice(col).join(s) : ''];
}

async function showUploadError(file, e, f) {
  // With a preview, the step below says what the hint's column map would.
  const msg = e.preview && e.hint && (e.error || '').endsWith(`: ${e.hint}`) ? e.error.slice(0, -e.hint.length - 2) : e.error;
  const parts = [el('strong', { text: `${file.name || 'The file'} could not be read. ` }), msg || 'Unknown error.'];
  if (e.line && (!e.hint || e.preview)) {
    // Show the offending line, read again here from the file in this tab
    // (not for a file that is not text to read, or in another format).
    try {
      const line = (await textOf(file, 64 << 20)).split(/\r?\n/)[e.line - 1];
      if (line !== undefined) {
        const cells = e.column > 0 ? cellsOf(line, e.column, f, $('sep').value) : null;
        const code = el('code', {}, cells ? [cells[0], el('mark', { text: cells[1] }), cells[2]] : line);
        parts.push(el('div', { class: 'bad-line' }, el('span', { class: 'ln', text: `line ${e.line}` }), code));
      }
    } catch { /* the message alone says where */ }
  }
  if (e.sep) {
    const name = { ';': 'semicolons', '\t': 'tabs', '|': 'bars', ',': 'commas' }[e.sep] || `“${e.sep}”`;
    parts.push(el('p', { class: 'hint' }, el('button', { type: 'button', id: 'use-sep', text: `Read it separated by ${name}` })));
  } else if (e.format && FORMATS[e.format]) {
    parts.push(el('p', { class: 'hint' }, el('button', { type: 'button', id: 'use-format', text: `Read it as ${e.format === 'crawl-log' ? 'a CSV crawl log' : e.format.toUpperCase().replace('JSONL', 'JSON lines')}` })));
  } else if (e.line && !e.column && /^a (page|time|change) column/.test(e.expected || '') && CSV.has(f)) {
    // A header the chosen format cannot read may be the other format's.
    parts.push(el('p', { class: 'hint', text: f === 'change-events'
      ? 'If the file has a row per crawl of each page, choose “crawls” above and drop it again.'
      : 'If the file lists when pages changed rather than every crawl (an Open Terms Archive events.csv, say), choose “change events” above and drop it again.' }));
  }
  parts.push(el('p', { class: 'hint', text: e.preview
    ? 'Nothing was added. Say below which column is which, or fix the file and drop it again.'
    : e.sep || e.format ? 'Nothing was added and nothing else changed.'
      : 'Nothing was added and nothing else changed; fix the file and drop it again.' }));
  errorBox.replaceChildren(...parts);
  errorBox.hidden = false;
  $('use-sep')?.addEventListener('click', () => { $('sep').value = e.sep === '\t' ? 'tab' : e.sep === ',' ? '' : e.sep; read(file); });
  $('use-format')?.addEventListener('click', () => { setFormat(e.format); columns = ''; hideMapping(); read(file); });
  if (e.preview) showMapping(file, e.preview);
  else if (!columns) hideMapping();
}

// What each role of a column map means, for the mapping step.
const ROLES = {
  page: ['Page', "the page's id, or its URL"],
  url: ['URL', "the page's address, when the page id is not one"],
  site: ['Site', "optional: else the URL's host"],
  time: ['Time', 'when it was crawled, or when it happened'],
  changed: ['Changed', '0/1, true/false: the crawl saw a change'],
  hash: ['Hash', 'a digest, ETag or Last-Modified: a new value is a change'],
  event: ['Event', 'change, start, or another kind (dropped)'],
  status: ['Status', 'the HTTP status: only 200 and revisits count'],
  mime: ['Media type', 'warc/revisit marks a revisit'],
};

// showMapping shows the mapping step: the file's first rows, and a menu
// per role with the column the lab read as it or guessed for it chosen.
function showMapping(file, p) {
  const menus = p.roles.map((r) => {
    const [name, what] = ROLES[r.role] || [r.role, ''];
    const select = el('select', { id: `map-${r.role}`, 'data-role': r.role },
      [el('option', { value: '', text: '— none —' }), ...p.header.map((h, i) => el('option', { value: String(i), text: h || `column ${i + 1}` }))]);
    select.value = r.column >= 0 ? String(r.column) : '';
    select.addEventListener('change', markColumns);
    const need = r.need === 'optional' ? 'optional' : r.need === 'required' ? 'needed' : `needed: ${r.need}`;
    return el('div', { class: 'role' },
      el('label', { for: select.id }, el('strong', { text: name }), ' ', el('span', { class: 'need', text: need }),
        r.guessed ? el('span', { class: 'guessed', text: 'guessed' }) : ''),
      select,
      el('span', { class: 'what', text: what }));
  });
  $('mapping-roles').replaceChildren(...menus);
  const table = $('mapping-rows');
  table.tHead.replaceChildren(el('tr', {}, p.header.map((h, i) => el('th', { scope: 'col', 'data-col': String(i) }, el('span', { text: h }), el('span', { class: 'as' })))));
  table.tBodies[0].replaceChildren(...p.rows.map((row) => el('tr', {}, p.header.map((_, i) => el('td', { 'data-col': String(i), text: row[i] ?? '' })))));
  $('mapping').hidden = false;
  markColumns();
  $('mapping-read').onclick = () => {
    const header = p.header;
    columns = [...$('mapping-roles').querySelectorAll('select')]
      .filter((s) => s.value !== '')
      .map((s) => `${s.dataset.role}=${header[Number(s.value)]}`)
      .join(',');
    read(file);
  };
}

// markColumns shows, above each column of the preview, the roles it is
// chosen for.
function markColumns() {
  const as = {};
  for (const s of $('mapping-roles').querySelectorAll('select')) {
    if (s.value !== '') (as[s.value] ||= []).push((ROLES[s.dataset.role] || [s.dataset.role])[0]);
  }
  for (const c of $('mapping-rows').querySelectorAll('[data-col]')) {
    const roles = as[c.dataset.col];
    c.classList.toggle('chosen', !!roles);
    const tag = c.querySelector('.as');
    if (tag) tag.textContent = roles ? roles.join(', ') : '';
  }
}

function hideMapping() {
  $('mapping').hidden = true;
}

function showSummary(d, s, ms) {
  const n = (x) => x.toLocaleString();
  const captures = s.format && s.format !== 'crawl-log';
  const facts = [
    ['Dataset', d.name],
    ['Pages', n(s.pages)],
    ['Sites', n(s.sites)],
    [captures ? 'Captures' : 'Crawl rows', n(s.rows)],
  ];
  const dropped = Object.entries(s.dropped || {}).map(([k, v]) => `${k} ${n(v)}`).join(', ');
  if (captures) facts.push(['Dropped', dropped ? `${dropped} (not captures of a page)` : 'none']);
  facts.push(
    ['Cycles', `${n(s.cycles)} of ${humanSeconds(s.cycleLength)}${s.cycleInferred ? ' (inferred)' : ''}`],
    ['Period', `${s.start} to ${s.end}`],
    ['Observed change rate', `${(100 * s.changeRate).toFixed(1)}% of ${n(s.crawls)} ${captures ? 're-captures' : 're-crawls'} saw a change`],
    ['Change from', s.changeFrom === 'hash' ? (captures ? 'content digests' : 'content hashes') : 'the changed column'],
    ['Columns used', (s.columns || []).join(', ')],
  );
  if (s.ignored && s.ignored.length) facts.push(['Columns ignored', s.ignored.join(', ')]);
  facts.push(['Read in', `${Math.round(ms)} ms, ${logsGo.where}`]);
  $('facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
  $('summary').hidden = false;
}

function showEventSummary(d, s, ms) {
  const n = (x) => x.toLocaleString();
  const dropped = Object.entries(s.dropped || {}).map(([k, v]) => `${k} ${n(v)}`).join(', ');
  const facts = [
    ['Dataset', d.name],
    ['Read as', s.readAs.replace(/^read as /, '')],
    ['Pages', n(s.pages)],
    ['Sites', n(s.sites)],
    ['Event rows', n(s.rows)],
    ['Changes', `${n(s.changes)} kept of ${n(s.changeRows)} change rows` +
      ` (${n(s.merged)} merged${s.merge ? ` within ${humanSeconds(s.merge)} of an earlier change` : ''}, ${n(s.outside)} outside the window or before tracking began)`],
    ['Tracking starts', `${n(s.starts)} start rows`],
    ['Dropped', dropped ? `${dropped} (not page changes)` : 'none'],
    ['Cycles', `${n(s.cycles)} of ${humanSeconds(s.cycleLength)}${s.cycleDefault ? ' (the default)' : ''}`],
    ['Window', `${s.start} to ${s.end}`],
    ['Changed page-cycles', `${n(s.changedCycles)} (changes in the same cycle count once)`],
    ['True change rate', `${s.changesPerDay.toPrecision(3)} changes per page per day, over ${n(Math.round(s.trackedDays))} page-days tracked`],
    ['Columns used', (s.columns || []).join(', ')],
  ];
  if (s.ignored && s.ignored.length) facts.push(['Columns ignored', s.ignored.join(', ')]);
  facts.push(['Read in', `${Math.round(ms)} ms, ${logsGo.where}`]);
  $('facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
  $('summary').hidden = false;
}

function showRatesSummary(d, s, ms) {
  const n = (x) => x.toLocaleString();
  const facts = [
    ['Dataset', d.name],
    ['Pages', n(s.pages)],
    ['Sites', n(s.sites)],
    ['Rates', "each page's estimated rate, taken as its true rate by the schedules below"],
    ['Read in', `${Math.round(ms)} ms, ${logsGo.where}`],
  ];
  $('facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
  $('summary').hidden = false;
}

// showPipelineSummary shows a pipeline's summary.json, read here in the
// page whichever engine reads the logs.
async function showPipelineSummary(file) {
  const box = $('pipeline-body');
  let text;
  try {
    text = await textOf(file, 64 << 20);
  } catch (err) {
    text = null;
    box.replaceChildren(el('div', { class: 'error', role: 'alert' }, el('strong', { text: `${file.name} could not be read. ` }), String(err.message || err)));
  }
  if (text !== null) {
    const r = readSummary(text);
    if (r.ok) {
      box.replaceChildren(...summaryView(r.summary, file.name, 'in this tab by the page itself; a summary is never sent anywhere, whichever engine reads logs'));
    } else {
      const parts = [el('strong', { text: `${file.name} could not be read. ` }), r.error.error];
      const line = r.error.line ? text.split(/\r?\n/)[r.error.line - 1] : undefined;
      if (line !== undefined) parts.push(el('div', { class: 'bad-line' }, el('span', { class: 'ln', text: `line ${r.error.line}` }), el('code', { text: line })));
      box.replaceChildren(el('div', { class: 'error', role: 'alert', id: 'pipeline-error' }, ...parts));
    }
  }
  $('pipeline').hidden = false;
}

function humanSeconds(s) {
  if (!s) return 'one cycle';
  const units = [[604800, 'week'], [86400, 'day'], [3600, 'hour'], [60, 'minute']];
  for (const [n, u] of units) {
    const k = s / n;
    if (k >= 1 && Math.abs(k - Math.round(k)) < 0.01) return Math.round(k) === 1 ? `1 ${u}` : `${Math.round(k)} ${u}s`;
  }
  return `${s.toFixed(0)} seconds`;
}

async function showExperiment(d, spec) {
  const cat = await catalog();
  const schedules = spec ? spec.kind === 'schedule' : format() === 'rates';
  $('experiment-title').textContent = schedules ? 'Every schedule on your crawl' : 'Every policy on your log';
  if (schedules) return mount(scheduleConfig(cat, d, spec));
  const ids = cat.policies.filter((p) => p.kind === 'refresh').map((p) => p.id);
  const budget = Math.max(1, Math.round(d.pages / 10));
  const config = {
    id: 'upload',
    // A few repeats first, every policy drawn as it comes; "More repeats"
    // adds to them.
    spec: spec || { kind: 'refresh', dataset: { id: d.id }, budget, repeats: 3, seed: 1, policies: ids.map((id) => ({ id })) },
    controls: [
      { field: 'budget', label: `Downloads per ${d.cycleUnit || 'cycle'}`, type: 'range', min: 1, max: Math.max(2, d.pages), step: 1 },
      { field: 'params.sampleSize', label: 'Sample size per site', type: 'range', min: 1, max: Math.max(2, Math.min(200, Math.ceil(d.pages / Math.max(1, d.sites)))), step: 1 },
      { field: 'repeats', label: 'Repeats', type: 'range', min: 1, max: 200, step: 1 },
      { field: 'seed', label: 'Seed', type: 'range', min: 1, max: 1000, step: 1 },
      { field: 'policies', label: 'Policies', type: 'policies', options: ids },
    ],
    charts: [
      { type: 'cycles', metric: 'changeRatio', caption: 'Share of each cycle\'s downloads that found a change.' },
      { type: 'cycles', metric: 'freshness', caption: 'Share of all pages up to date after each cycle\'s downloads.' },
      { type: 'bars', metric: 'changeRatio', caption: 'ChangeRatio averaged over cycles, with 95% intervals across repeats.' },
    ],
    readouts: ['changeRatio', 'freshness', 'age'],
    crawler: true, // the crawler view, on a sample of the log's pages when it is large
  };
  return mount(config, cat);
}

// The most pages whose allocation a schedule result lists, so the most an
// allocation chart draws (schedulekind.MaxAllocationPages).
const ALLOCATION_PAGES = 200;

// scheduleConfig is the experiment on a rates dataset (the pipeline's
// rates.csv): the schedule kind plans each page's syncs per day at the
// bandwidth set, with the uploaded rates as the truth, and simulates every
// plan on them, as the optimal-schedules lesson does on Cho &
// Garcia-Molina's five pages.
function scheduleConfig(cat, d, spec) {
  const ids = cat.policies.filter((p) => p.kind === 'schedule').map((p) => p.id);
  const charts = [
    { type: 'bars', metric: 'freshness', caption: "Share of time each copy is up to date, averaged over the pages, with 95% intervals across repeats. The crawlers' adaptive rules (Nutch, Heritrix, StormCrawler) spend what their rules make them spend, not the bandwidth set: see the table's Syncs per day." },
    { type: 'bars', metric: 'age', expected: true, caption: "How long, on average, a copy has been missing a change, simulated beside each plan's exact expectation (the open bar)." },
  ];
  if (d.pages <= ALLOCATION_PAGES) {
    charts.splice(1, 0, { type: 'allocation', metric: 'freshness', caption: "Each policy's syncs per day for each page, beside the page's change rate (hatched)." });
  }
  return {
    id: 'upload',
    spec: spec || {
      kind: 'schedule', dataset: { id: d.id }, budget: Math.max(1, Math.round(d.pages / 10)), repeats: 5, seed: 1,
      schedule: { days: 200, warmup: 150, rates: 'oracle' }, policies: ids.map((id) => ({ id })),
    },
    controls: [
      { field: 'budget', label: 'Syncs per day (the bandwidth)', type: 'range', min: 1, max: Math.max(10, 5 * d.pages), step: 1,
        help: d.pages > ALLOCATION_PAGES ? `The whole crawl's syncs per day, shared among its pages. The allocation per page is drawn for at most ${ALLOCATION_PAGES} pages.` : "The whole crawl's syncs per day, shared among its pages." },
      { field: 'schedule.rates', label: 'Rates the policies plan with', type: 'choice' },
      { field: 'repeats', label: 'Repeats', type: 'range', min: 2, max: 40, step: 1 },
      { field: 'seed', label: 'Seed', type: 'range', min: 1, max: 1000, step: 1 },
      { field: 'policies', label: 'Schedules', type: 'policies', options: ids },
    ],
    charts,
    readouts: ['freshness', 'age', 'syncsPerDay'],
  };
}

async function mount(config, cat) {
  cat ||= await catalog();
  const root = $('experiment');
  root.hidden = false;
  if (experiment) {
    await experiment.reconfigure(config, cat);
  } else {
    experiment = await mountExperiment(root, config, { urlState: true, progressive: true });
  }
}

// A reload or a shared link: find the log in this browser again.
(async () => {
  const s = specFromURL();
  if (!s || s.error || !s.dataset || !/^(upload|events|rates)-/.test(s.dataset.id || '')) return;
  showProgress('read', 0, 0);
  const ok = await restoreUpload(s.dataset.id);
  progress.hidden = true;
  if (!ok) {
    errorBox.replaceChildren(el('strong', { text: 'This link names an uploaded log that is not in this browser. ' }), 'Read the same file again below to see this view.');
    errorBox.hidden = false;
    return;
  }
  const cat = await refreshCatalog();
  const d = cat.datasets.find((x) => x.id === s.dataset.id);
  if (d) await showExperiment(d, s);
})();
