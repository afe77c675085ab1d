// The upload page: read a crawl log or a change-event log in this tab,
// summarise it, and run every refresh policy on it.
import { mountExperiment, catalog, refreshCatalog, el, specFromURL } from './experiment.js';
import { uploadLog, restoreUpload } from './uploads.js';
import { onEngine } from './api.js';

const $ = (id) => document.getElementById(id);
const drop = $('dropzone');
const fileInput = $('file');
const progress = $('progress');
const bar = $('progress-bar');
const label = $('progress-label');
const errorBox = $('upload-error');
let experiment = null;
// The report view, under the experiment (report.js).
import('./report.js').then((m) => m.mountReport($('experiment')));

// The example each format offers (site/build exports them).
const EXAMPLES = {
  'crawl-log': { path: 'examples/alqaaideh-jordan-crawl-log.csv', what: "(Al-Qaaideh's nine sites, exported as a crawl log)" },
  'change-events': { path: 'examples/alqaaideh-jordan-change-events.csv', what: "(Al-Qaaideh's nine sites, exported as change events)" },
};

/** The chosen format: "crawl-log" or "change-events". */
function format() {
  const r = document.querySelector('input[name="format"]:checked');
  return r ? r.value : 'crawl-log';
}

function showFormat() {
  const f = format();
  for (const d of document.querySelectorAll('[data-format]')) d.hidden = d.dataset.format !== f;
  $('merge-option').hidden = f !== 'change-events';
  $('cycle-default').textContent = f === 'change-events' ? '1 day (the default)' : 'infer from the log';
  $('example-what').textContent = EXAMPLES[f].what;
  $('drop-what').textContent = f === 'change-events' ? 'Drop a change-event log here' : 'Drop a crawl log here';
  $('format-what').textContent = f === 'change-events'
    ? 'A CSV file with a row per change of a page (and, optionally, when its tracking started). An Open Terms Archive events.csv reads as it is.'
    : 'A CSV file with a row per crawl of a page, saying whether the page changed since its last crawl.';
}
for (const r of document.querySelectorAll('input[name="format"]')) r.addEventListener('change', showFormat);
showFormat();

onEngine((s) => { $('engine').textContent = s.text; $('engine').dataset.state = s.state; });
// Start the lab now, so it is ready when a file arrives.
catalog().catch(() => {});

fileInput.addEventListener('change', () => { if (fileInput.files[0]) read(fileInput.files[0]); });
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const f = e.dataTransfer.files[0];
  if (f) read(f);
});
$('example').addEventListener('click', async () => {
  const path = EXAMPLES[format()].path;
  const r = await fetch(path);
  if (!r.ok) {
    errorBox.replaceChildren(el('strong', { text: 'The example is not in this build of the site. ' }), `(${path}: ${r.status})`);
    errorBox.hidden = false;
    return;
  }
  const blob = await r.blob();
  read(new File([blob], path.split('/').pop(), { type: 'text/csv' }));
});

function showProgress(phase, done, total) {
  progress.hidden = false;
  const rows = format() === 'change-events' ? 'events' : 'crawls';
  label.textContent = phase === 'read' ? 'Reading the file…' : phase === 'parse' ? `Parsing ${rows}…` : 'Working…';
  if (total > 0) {
    bar.max = total;
    bar.value = done;
  } else {
    bar.removeAttribute('value');
  }
}

// The file last read, so that a change of how to read it (the cycle
// length, the merge window) reads it again: the same bytes read another
// way are another dataset.
let lastFile = null;
for (const id of ['cycle', 'merge']) {
  $(id).addEventListener('change', () => { if (lastFile) read(lastFile); });
}

async function read(file) {
  lastFile = file;
  errorBox.hidden = true;
  showProgress('read', 0, file.size);
  const t0 = performance.now();
  const f = format();
  const r = await uploadLog(file, { format: f, cycle: $('cycle').value, merge: f === 'change-events' ? $('merge').value : '', onProgress: showProgress });
  progress.hidden = true;
  if (!r.ok) {
    await showUploadError(file, r.error, f);
    return;
  }
  if (f === 'change-events') showEventSummary(r.dataset, r.summary, performance.now() - t0);
  else showSummary(r.dataset, r.summary, performance.now() - t0);
  await refreshCatalog();
  await showExperiment(r.dataset);
}

async function showUploadError(file, e, f) {
  const parts = [el('strong', { text: `${file.name || 'The file'} could not be read. ` }), e.error || 'Unknown error.'];
  if (e.line) {
    // Show the offending line, read again here from the file in this tab.
    try {
      const text = await file.slice(0, Math.min(file.size, 64 << 20)).text();
      const line = text.split(/\r?\n/)[e.line - 1];
      if (line !== undefined) {
        const col = e.column > 0 ? e.column : 0;
        const cells = line.split(',');
        const code = el('code', {}, col > 0 && col <= cells.length
          ? [cells.slice(0, col - 1).join(',') + (col > 1 ? ',' : ''), el('mark', { text: cells[col - 1] }), col < cells.length ? ',' + cells.slice(col).join(',') : '']
          : line);
        parts.push(el('div', { class: 'bad-line' }, el('span', { class: 'ln', text: `line ${e.line}` }), code));
      }
    } catch { /* the message alone says where */ }
  }
  if (e.line && !e.column && /^a (page|time|change) column/.test(e.expected || '')) {
    // A header the chosen format cannot read may be the other format's.
    parts.push(el('p', { class: 'hint', text: f === 'change-events'
      ? 'If the file has a row per crawl of each page, choose “crawls” above and drop it again.'
      : 'If the file lists when pages changed rather than every crawl (an Open Terms Archive events.csv, say), choose “change events” above and drop it again.' }));
  }
  parts.push(el('p', { class: 'hint', text: 'Nothing was added and nothing else changed; fix the file and drop it again.' }));
  errorBox.replaceChildren(...parts);
  errorBox.hidden = false;
}

function showSummary(d, s, ms) {
  const facts = [
    ['Dataset', d.name],
    ['Pages', s.pages.toLocaleString()],
    ['Sites', s.sites.toLocaleString()],
    ['Crawl rows', s.rows.toLocaleString()],
    ['Cycles', `${s.cycles.toLocaleString()} of ${humanSeconds(s.cycleLength)}${s.cycleInferred ? ' (inferred)' : ''}`],
    ['Period', `${s.start} to ${s.end}`],
    ['Observed change rate', `${(100 * s.changeRate).toFixed(1)}% of ${s.crawls.toLocaleString()} re-crawls saw a change`],
    ['Change from', s.changeFrom === 'hash' ? 'content hashes' : 'the changed column'],
    ['Columns used', (s.columns || []).join(', ')],
  ];
  if (s.ignored && s.ignored.length) facts.push(['Columns ignored', s.ignored.join(', ')]);
  facts.push(['Read in', `${Math.round(ms)} ms, in this tab`]);
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
  facts.push(['Read in', `${Math.round(ms)} ms, in this tab`]);
  $('facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
  $('summary').hidden = false;
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
  };
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
  if (!s || s.error || !s.dataset || !/^(upload|events)-/.test(s.dataset.id || '')) return;
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
