// An experiment panel: controls that edit a spec, the numbers and charts of
// its result, exports, and the spec itself in the page's address so a copied
// link reproduces the view. Lesson pages and the upload page mount one.
//
// Runs are coalesced: while one is computing only the newest spec waits, so
// dragging a slider never queues stale work. While a slider has the focus,
// the previews of its next values are computed ahead (lookAhead), so a key
// press draws one without waiting for the lab.

import { request, post, runWithCharts, pair, errorOf, onEngine, engineName } from './api.js';
import { restoreUpload } from './uploads.js';
import { Announcer, headline } from './status.js';
import { scrollRegion, valueText } from './screen.js';
import { sizeCharts, chartsOf } from './chart-size.js';
import { chartTooltips, focusablePoints } from './chart-tooltip.js';
import { SLOW_MS, expectedMs, labelDatasets, seconds } from './slow.js';

const $ = (sel, root = document) => root.querySelector(sel);

// Tests and make bench watch the panel through a probe
// (window.__refreshLab), and may switch a latency mechanism off to measure
// what it saves (?off=lookahead,keysahead,thin,helper): both only
// when the page's address asks for them (?probe).
const query = new URLSearchParams(location.search);
const probing = query.has('probe');
const off = new Set(probing ? (query.get('off') || '').split(',').filter(Boolean) : []);

/** Creates an element with attributes and children (strings become text). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/**
 * Formats a value of a metric or fact for people, by its unit (the
 * catalog's): ratios to three decimals, lengths in days as hours when short,
 * other numbers by their size. An exact value (a fact, with no interval)
 * gets one more digit.
 */
export function fmt(m, v, exact = false) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  const unit = m && m.unit;
  if (unit === 'ratio') return v.toFixed(exact ? 4 : 3);
  if (unit === 'day') return v < 2 ? `${(v * 24).toPrecision(3)} hours` : `${v.toPrecision(3)} days`;
  const a = Math.abs(v);
  const extra = exact ? 1 : 0;
  if (a >= 100) return v.toFixed(extra);
  if (a >= 10) return v.toFixed(1 + extra);
  return v.toFixed(2 + extra);
}

/** A unit as a column heading adds it, for the dataset's cycle unit. */
function unitSuffix(m, cycleUnit) {
  switch (m.unit) {
    case 'cycle': return ` (${cycleUnit || 'cycle'}s)`;
    case 'day': return ' (days)';
    case 'hour': return ' (hours)';
    case 'per day': return ' (per day)';
    default: return '';
  }
}

/** How a policy of a spec or result is addressed: its label, if the spec runs it twice, else its id. */
export const keyOf = (p) => p.label || p.id;

/** The i-th summary of a series, which the lab sends by column. */
export function at(series, i) {
  return { mean: series.mean[i], lo: series.lo[i], hi: series.hi[i], sd: series.sd[i], n: series.n[i] };
}

// oracleTag marks a policy that reads the truth: "upper bound" for the one
// no policy can beat, "sees the truth" for the others (true rates, say).
function oracleTag(p) {
  if (!p.oracle) return null;
  return p.upperBound
    ? el('span', { class: 'tag', text: 'upper bound', title: 'Reads the truth: no crawler can do better' })
    : el('span', { class: 'tag', text: 'sees the truth', title: 'Reads the truth (true change rates), which no crawler has; not a ceiling' });
}

function halfWidth(s) {
  return s && s.hi !== null && s.lo !== null && s.hi !== undefined ? (s.hi - s.lo) / 2 : null;
}

/** The catalog (datasets, policies, metrics), fetched once per page. */
let catalogPromise = null;
export function catalog() {
  if (!catalogPromise) {
    catalogPromise = Promise.all([request('GET', '/api/datasets'), request('GET', '/api/policies')]).then(([d, p]) => {
      if (!d.ok || !p.ok) throw new Error(errorOf(d.ok ? p : d).error);
      const pol = p.json();
      return { datasets: d.json().datasets, policies: pol.policies, metrics: pol.metrics, facts: pol.facts };
    });
    catalogPromise.catch(() => { catalogPromise = null; });
  }
  return catalogPromise;
}

export function refreshCatalog() {
  catalogPromise = null;
  return catalog();
}

// ---- the spec and the address bar ----

const clone = (v) => JSON.parse(JSON.stringify(v));

/** Reads the spec from ?spec= in the address, or returns null. */
export function specFromURL() {
  const raw = new URLSearchParams(location.search).get('spec');
  if (!raw) return null;
  try {
    const s = JSON.parse(raw);
    if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error('expected a JSON object');
    return s;
  } catch (err) {
    return { error: `The link's spec could not be read (${err.message}); showing the lesson's own.` };
  }
}

function writeURL(spec) {
  const u = new URL(location.href);
  u.searchParams.set('spec', JSON.stringify(spec));
  history.replaceState(null, '', u);
}

/**
 * Reads a control's value from spec where its resolved field (the lab's
 * Field: POST /api/fields, or the lesson builder) puts it.
 */
export function getField(spec, f) {
  if (f.type === 'policies') return (spec.policies || []).filter((p) => !p.label).map((p) => p.id);
  for (const t of f.targets || []) {
    if (t.member) {
      const v = t.member.reduce((o, k) => (o ? o[k] : undefined), spec);
      if (v !== undefined) return v;
      continue;
    }
    const p = (spec.policies || []).find((q) => (t.key ? keyOf(q) === t.key : q.id === t.id) && q.params && t.param in q.params);
    if (p) return p.params[t.param];
  }
  return undefined;
}

/**
 * Writes a control's value into spec at its field's targets; undefined
 * removes a parameter, so its default (or computed value) applies. The
 * policies field's value is the list of the spec's unlabelled policies;
 * labelled copies stay.
 */
export function setField(spec, f, value) {
  if (f.type === 'policies') {
    const keep = new Map((spec.policies || []).filter((p) => !p.label).map((p) => [p.id, p]));
    spec.policies = value.map((id) => keep.get(id) || { id }).concat((spec.policies || []).filter((p) => p.label));
    return;
  }
  for (const t of f.targets || []) {
    if (t.member) {
      let o = spec;
      for (const k of t.member.slice(0, -1)) o = o[k] = o[k] || {};
      o[t.member[t.member.length - 1]] = value;
      continue;
    }
    for (const p of spec.policies || []) {
      if (t.key ? keyOf(p) !== t.key : p.id !== t.id) continue;
      p.params = p.params || {};
      if (value === undefined) delete p.params[t.param];
      else p.params[t.param] = value;
      if (Object.keys(p.params).length === 0) delete p.params;
    }
  }
}

// ---- mounting ----

/**
 * Mounts an experiment panel in root.
 * config: {id, spec, controls, charts, readouts}; options.urlState: keep
 * the spec in the address bar.
 */
export async function mountExperiment(root, config, options = {}) {
  const x = new Experiment(root, config, options);
  await x.init();
  return x;
}

/**
 * Resolves the fields of config's controls that the lesson builder has
 * not (the upload page's, say) through POST /api/fields.
 */
async function resolveControls(config, spec) {
  const todo = config.controls.filter((c) => !c.resolved);
  if (todo.length === 0) return null;
  const r = await post('/api/fields', { spec, fields: todo.map((c) => c.field) });
  if (!r.ok) return errorOf(r);
  r.json().fields.forEach((f, i) => { todo[i].resolved = f; });
  return null;
}

let controlSeq = 0;

/** Whether e shows keyboard focus (false where :focus-visible is unknown). */
function focusVisible(e) {
  try {
    return e.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * The lab's pace on a panel's runs: what the latest run cost per repeat,
 * and the latest cost of each run size, by which a preview is sized.
 */
export class Pace {
  constructor(keep = 6) {
    this.keep = keep;
    this.seen = new Map(); // repeats → the latest run's ms, the latest run last
  }

  /** Records a run of repeats that took ms. */
  add(repeats, ms) {
    this.seen.delete(repeats);
    this.seen.set(repeats, ms);
    while (this.seen.size > this.keep) this.seen.delete(this.seen.keys().next().value);
  }

  /** The latest run's ms per repeat, or undefined before the first run. */
  perRepeat() {
    if (this.seen.size === 0) return undefined;
    const [r, ms] = [...this.seen.entries()].pop();
    return ms / r;
  }

  /** The expected ms of a run of repeats: the latest such run's, else at the latest pace. */
  ms(repeats) {
    if (this.seen.has(repeats)) return this.seen.get(repeats);
    const p = this.perRepeat();
    return p === undefined ? undefined : p * repeats;
  }

  /** How many repeats fit in ms (possibly none). */
  repeatsIn(ms) {
    const p = this.perRepeat();
    return p === undefined ? 0 : Math.floor(ms / p);
  }
}

/**
 * The values a preview of a sweep runs at: about keep of them, evenly
 * spread over the list and always its first and last, at least
 * MIN_SWEEP_PREVIEW (or all, if there are no more), in the list's order.
 */
export function thinSweep(values, keep) {
  const n = values.length;
  const k = Math.min(n, Math.max(MIN_SWEEP_PREVIEW, Math.floor(keep)));
  if (k >= n) return values.slice();
  const out = [];
  for (let i = 0; i < k; i++) out.push(values[Math.round(i * (n - 1) / (k - 1))]);
  return out;
}

// A sweep's preview keeps at least this many of its values: enough for a
// curve to show its shape (rise, peak and fall).
const MIN_SWEEP_PREVIEW = 5;

// The interaction budget (p95 under 50 ms from a slider's input to the
// redrawn chart) leaves about this much for computing a preview.
const PREVIEW_MS = 12;
// A preview is refined into the full run after this pause in the input.
const REFINE_AFTER_MS = 300;
// "Computing…" shows only when an answer takes longer than this: a press
// answered in one or two frames then changes nothing on the page but the
// slider until its charts, so the browser has no status line to lay out
// and paint while the lab computes, and the answer does not wait for it.
const STATUS_AFTER_MS = 100;
// Look-ahead computes the previews of a focused slider's next values, and
// keeps at most this many.
const AHEAD_KEEP = 16;
// Only where a preview costs at most this much: more expensive ones would
// hold up the lab for a press that may not come.
const AHEAD_MAX_MS = 2 * PREVIEW_MS;
// While the slider is stepped with the keys, previews up to this expensive
// are computed ahead too: a learner's next press is then a step on, and is
// drawn at once, even on a lesson whose every preview is slow (the
// clustering lesson's, on a loaded machine too). A press that jumps
// elsewhere waits for the one in flight. A slider dragged with the pointer
// gets no such look-ahead: its next value is anyone's guess.
const AHEAD_KEYS_MAX_MS = 300;
// A progressive run (the upload page's) draws its charts at most this often
// while its policies come in; its numbers table at every policy.
const CHART_EVERY_MS = 400;
// A lesson whose preview of one repeat takes longer than this pairs the lab
// with a helper worker (api.js pair) that computes part of each expensive
// run on the second core.
const PAIR_MS = 40;

class Experiment {
  constructor(root, config, options) {
    this.root = root;
    this.config = config;
    this.options = options;
    this.form = $('#controls', root);
    this.status = $('#status', root);
    this.error = $('#error', root);
    this.readouts = $('#readouts', root);
    this.charts = $('#charts', root);
    this.actions = $('#actions', root);
    this.specText = $('#spec-text', root);
    this.pending = null;
    this.running = false;
    this.inputAt = null;
    this.result = null;
    this.svgs = [];
    // What each of the lesson's charts asks POST /api/chart for: all but
    // the caption, which the page shows.
    this.chartSpecs = config.charts.map(({ caption, ...chart }) => chart);
    // A box that changes width redraws the result's charts for it (not
    // the run): at once when idle, else after the run in hand.
    this.sizer = sizeCharts(this.charts, () => this.chartSpecs, () => { if (this.running) this.resized = true; else this.redrawSized(); });
    chartTooltips(this.charts);
    this.ahead = new Map(); // full spec (JSON) → a preview computed ahead
    this.pace = new Pace();
    this.focused = null; // the slider being moved: { c, range, dir }
    this.probe = probing ? (window.__refreshLab = window.__refreshLab || { timings: [], renders: 0 }) : { timings: [], renders: 0 };
    // The status line shows what ran and its timings; the announcer says
    // each settled result's headline to a screen reader (status.js).
    this.announcer = new Announcer($('#announce', root), () => !this.running && !this.pending);
  }

  async init() {
    const engineLabel = $('#engine');
    if (engineLabel) onEngine((s) => { engineLabel.textContent = s.text; engineLabel.dataset.state = s.state; });
    this.setStatus('Starting the lab…');
    let cat;
    try {
      cat = await catalog();
    } catch (err) {
      this.showError({ error: `The lab did not start: ${err.message}` });
      this.setStatus('');
      return;
    }
    this.cat = cat;
    let spec = clone(this.config.spec);
    const fromURL = this.options.urlState ? specFromURL() : null;
    if (fromURL && fromURL.error) this.showError({ error: fromURL.error });
    else if (fromURL) spec = fromURL;
    this.spec = spec;
    const bad = await resolveControls(this.config, spec);
    if (bad) {
      this.showError(bad);
      this.setStatus('');
      return;
    }
    this.buildControls();
    this.buildActions();
    this.sizer.measure(); // the first chart's room, now that the controls are there
    // The crawler view (crawler.js), where the page asks for one: it
    // follows the panel's settled runs.
    if (this.config.crawler) import('./crawler.js').then((m) => m.mountCrawler(this.root, this.config.crawler, () => this.result));
    if (this.specText) {
      $('#spec-apply', this.root).addEventListener('click', () => this.applySpecText());
    }
    this.schedule();
  }

  /** Shows another experiment in the panel (the upload page's, for a new log). */
  async reconfigure(config, cat) {
    this.config = config;
    this.chartSpecs = config.charts.map(({ caption, ...chart }) => chart);
    this.sizer.set();
    this.spec = clone(config.spec);
    this.cat = cat;
    const bad = await resolveControls(config, this.spec);
    if (bad) {
      this.showError(bad);
      return;
    }
    this.buildControls();
    this.sizer.measure();
    this.schedule();
  }

  // ---- controls ----

  buildControls() {
    this.form.replaceChildren();
    this.form.addEventListener('submit', (e) => e.preventDefault());
    this.inputs = [];
    for (const c of this.config.controls) {
      const node = this.buildControl(c);
      if (node) this.form.append(node);
    }
  }

  buildControl(c) {
    const id = `ctl-${++controlSeq}`;
    const help = c.help ? el('p', { class: 'help', id: `${id}-help`, text: c.help }) : null;
    const describedBy = help ? `${id}-help` : undefined;
    const onInput = (e) => {
      this.inputAt = e && e.timeStamp !== undefined ? e.timeStamp : performance.now();
      this.schedule();
    };
    switch (c.type) {
      case 'select': {
        const opts = (c.options && c.options.length ? c.options : this.cat.datasets.map((d) => d.id))
          .map((dsID) => this.cat.datasets.find((d) => d.id === dsID))
          .filter(Boolean);
        const current = getField(this.spec, c.resolved);
        if (current && !opts.some((d) => d.id === current)) {
          const d = this.cat.datasets.find((q) => q.id === current);
          opts.push(d || { id: current, name: current });
        }
        const sel = el('select', { id, 'aria-describedby': describedBy },
          opts.map((d) => el('option', { value: d.id, selected: d.id === current }, d.name)));
        sel.addEventListener('change', (e) => { setField(this.spec, c.resolved, sel.value); onInput(e); });
        // Before the menu opens: warn of the datasets a run would be slow on (slow.js).
        sel.addEventListener('focus', () => labelDatasets(sel, this.spec, this.pace, this.result, this.cat.datasets));
        this.inputs.push({ c, sync: () => { sel.value = getField(this.spec, c.resolved); } });
        return el('div', { class: 'control' }, el('label', { for: id, text: c.label }), sel, help);
      }
      case 'policies': {
        const ids = c.options && c.options.length ? c.options : c.resolved.options;
        const boxes = ids.map((pid) => {
          const d = this.cat.policies.find((p) => p.id === pid);
          const bid = `${id}-${pid}`;
          const box = el('input', { type: 'checkbox', id: bid, value: pid });
          box.addEventListener('change', (e) => {
            const chosen = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
            if (chosen.length === 0) { box.checked = true; return; }
            // Keep the catalog's order so colours stay put.
            setField(this.spec, c.resolved, ids.filter((q) => chosen.includes(q)));
            onInput(e);
          });
          return { box, node: el('label', { class: 'check', for: bid }, box, d ? d.name : pid, d ? oracleTag(d) : null) };
        });
        const sync = () => {
          const on = getField(this.spec, c.resolved);
          for (const b of boxes) b.box.checked = on.includes(b.box.value);
        };
        sync();
        this.inputs.push({ c, sync });
        // A lesson shows the policies taught so far (c.taught, from the
        // build); the others wait behind "More policies", open when one of
        // them runs.
        const later = c.taught ? boxes.filter((b) => !c.taught.includes(b.box.value)) : [];
        const more = later.length ? el('details', { class: 'more-policies', open: later.some((b) => b.box.checked) },
          el('summary', { text: `More policies (${later.length}), not taught yet` }), later.map((b) => b.node)) : null;
        return el('fieldset', { class: 'control policies', 'aria-describedby': describedBy }, el('legend', { text: c.label }),
          boxes.filter((b) => !later.includes(b)).map((b) => b.node), more, help);
      }
      case 'choice': {
        const p = c.resolved.param;
        const options = (c.options && c.options.length ? c.options : (p && p.options) || []);
        const sel = el('select', { id, 'aria-describedby': describedBy }, options.map((o) => el('option', { value: o }, optionLabel(p, o))));
        sel.addEventListener('change', (e) => { setField(this.spec, c.resolved, sel.value); onInput(e); });
        const sync = () => {
          const v = getField(this.spec, c.resolved);
          sel.value = v !== undefined ? v : (p && p.default) || options[0];
        };
        sync();
        this.inputs.push({ c, sync });
        return el('div', { class: 'control' }, el('label', { for: id, text: c.label }), sel, help);
      }
      case 'checkbox': {
        const box = el('input', { type: 'checkbox', id, 'aria-describedby': describedBy });
        box.addEventListener('change', (e) => { setField(this.spec, c.resolved, box.checked); onInput(e); });
        const sync = () => { box.checked = !!getField(this.spec, c.resolved); };
        sync();
        this.inputs.push({ c, sync });
        return el('div', { class: 'control' }, el('label', { class: 'check', for: id }, box, c.label), help);
      }
      default:
        return this.buildRange(c, id, help, describedBy, onInput);
    }
  }

  buildRange(c, id, help, describedBy, onInput) {
    const p = c.resolved.param;
    const auto = p && (p.default === null || p.default === undefined) && p.auto;
    const fallback = () => (p && typeof p.default === 'number' ? p.default : c.min);
    const range = el('input', { type: 'range', id, min: c.min, max: c.max, step: c.step, 'aria-describedby': describedBy });
    const number = el('input', { type: 'number', min: c.min, max: c.max, step: c.step, 'aria-label': `${c.label} (exact value)`, class: 'exact' });
    // The value as shown beside the label; a screen reader hears it, with
    // its unit, as the slider's aria-valuetext.
    const shown = el('output', { for: id, class: 'value', 'aria-hidden': 'true' });
    const show = (v, auto = false) => {
      shown.textContent = auto ? `${v} (auto)` : String(v);
      range.setAttribute('aria-valuetext', valueText(c.label, v, auto));
    };
    let autoBox = null;
    const write = (v, e) => {
      setField(this.spec, c.resolved, v);
      onInput(e);
    };
    // keys: is the slider being moved with the keyboard (lookAhead)?
    const here = { c, range, dir: 1, last: Number(range.value), keys: false };
    range.addEventListener('keydown', () => { here.keys = true; });
    range.addEventListener('pointerdown', () => { here.keys = false; });
    range.addEventListener('input', (e) => {
      const v = Number(range.value);
      if (v !== here.last) here.dir = v > here.last ? 1 : -1;
      here.last = v;
      this.focused = here;
      number.value = range.value;
      show(range.value);
      write(v, e);
    });
    range.addEventListener('focus', () => {
      here.last = Number(range.value);
      here.keys = focusVisible(range); // focused from the keyboard
      this.focused = here;
      if (!this.running) this.lookAhead();
    });
    range.addEventListener('blur', () => { if (this.focused === here) this.focused = null; });
    number.addEventListener('change', (e) => {
      let v = Number(number.value);
      if (!Number.isFinite(v)) return;
      v = Math.min(c.max, Math.max(c.min, v));
      number.value = v;
      range.value = v;
      show(v);
      write(v, e);
    });
    const row = el('div', { class: 'range-row' }, range, number);
    if (auto) {
      const aid = `${id}-auto`;
      autoBox = el('input', { type: 'checkbox', id: aid });
      autoBox.addEventListener('change', (e) => {
        if (autoBox.checked) write(undefined, e);
        else write(Number(range.value), e);
        sync();
      });
      row.append(el('label', { class: 'check auto', for: aid }, autoBox, `auto: ${p.auto}`));
    }
    const sync = () => {
      let v = getField(this.spec, c.resolved);
      const isAuto = auto && (v === undefined || v === null);
      if (isAuto) {
        const resolved = this.resolvedParam(c);
        v = resolved !== undefined ? resolved : fallback();
      }
      if (v === undefined || v === null) v = fallback();
      if (isAuto && typeof v === 'number') v = Number(v.toPrecision(4)); // a computed value, shown rounded
      range.value = v;
      number.value = v;
      show(v, isAuto);
      if (autoBox) autoBox.checked = isAuto;
      range.disabled = number.disabled = false;
    };
    sync();
    this.inputs.push({ c, sync });
    return el('div', { class: 'control range' },
      el('label', { for: id }, el('span', { text: c.label }), shown), row, help);
  }

  /**
   * The value the lab used for a control's parameter in the last result:
   * a computed one is not in the echoed spec (which leaves it computed)
   * but beside it, in each policy's params.
   */
  resolvedParam(c) {
    if (!this.result) return undefined;
    const v = getField({ policies: this.result.policies }, c.resolved);
    return v !== undefined ? v : getField(this.result.spec, c.resolved);
  }

  syncControls() {
    for (const i of this.inputs) i.sync();
  }

  // ---- running ----

  schedule() {
    this.pending = clone(this.spec);
    this.pendingInputAt = this.inputAt;
    this.inputAt = null;
    clearTimeout(this.refineTimer);
    // A run that answers no input (the full run after a pause, say) gives
    // way: its answer would be dropped for this one anyway (run), and a
    // preview computed ahead can be drawn now instead of after it.
    if (this.giveWay && this.pendingInputAt !== null) this.giveWay();
    if (!this.running) this.pump();
  }

  async pump() {
    this.running = true;
    this.root.setAttribute('aria-busy', 'true');
    while (this.pending) {
      const spec = this.pending;
      const inputAt = this.pendingInputAt;
      this.pending = null;
      const ahead = this.takeAhead(spec, inputAt);
      let preview = ahead ? ahead.preview : this.previewOf(spec, inputAt);
      // A preview that would itself be slow (a switch to a far larger
      // dataset) gives way to the full run, drawn policy by policy.
      if (preview && !ahead && expectedMs(this.pace, preview.spec, this.result, this.cat.datasets) > SLOW_MS) preview = null;
      const drawn = await this.run(spec, inputAt, preview, ahead);
      if (drawn && preview && !this.pending) {
        // Refine once the learner pauses: the full run, drawn over the
        // preview. A new input before then cancels it.
        this.refineTimer = setTimeout(() => {
          this.pending = spec;
          this.pendingInputAt = null;
          if (!this.running) this.pump();
        }, REFINE_AFTER_MS);
      }
    }
    this.running = false;
    this.root.removeAttribute('aria-busy');
    if (this.resized) {
      this.resized = false;
      this.redrawSized();
    }
    this.lookAhead();
  }

  /** Draws the shown result's charts again at their boxes' width (chart-size.js). */
  async redrawSized() {
    const result = this.result;
    const svgs = result && await chartsOf(result, this.chartSpecs);
    if (svgs && this.result === result && !this.running) this.renderCharts(result, svgs);
  }

  /**
   * Pairs the lab with a helper worker (api.js pair) when a preview of one
   * repeat of spec took ms, over PAIR_MS: an expensive lesson.
   */
  pairIfSlow(spec, ms) {
    if (ms > PAIR_MS && !off.has('helper') && pair(spec)) this.probe.paired = true;
  }

  /**
   * For a run answering an input, a preview with fewer repeats when the
   * full run would miss the interaction budget: as many repeats as the last
   * runs' pace (fixed part included) allows in PREVIEW_MS, at least one. The
   * preview's repeats are the first ones of the full run (each repeat has
   * its own random stream), so the full run only adds to them. One repeat has
   * no interval; the refined run brings it. When even one repeat is over
   * the budget, a sweep previews fewer of its values (thinSweep), and an
   * estimate run then fewer simulated pages (the MAD is a median, so a
   * smaller sample draws the same shape).
   */
  previewOf(spec, inputAt) {
    if (this.options.progressive) return null; // each policy is drawn as it comes
    if (inputAt === null || inputAt === undefined || this.pace.perRepeat() === undefined) return null;
    const full = spec.repeats || 10;
    const affordable = this.pace.repeatsIn(PREVIEW_MS);
    if (affordable >= full) return null;
    const repeats = Math.max(1, affordable);
    const out = { spec: { ...clone(spec), repeats }, repeats, of: full };
    if (affordable >= 1 || off.has('thin')) return out;
    let share = PREVIEW_MS / this.pace.ms(1); // of one repeat, what fits
    const sw = spec.sweep;
    if (sw && Array.isArray(sw.values)) {
      const values = thinSweep(sw.values, sw.values.length * share);
      if (values.length < sw.values.length) {
        out.spec.sweep = { ...out.spec.sweep, values };
        out.values = values.length;
        out.ofValues = sw.values.length;
        share *= sw.values.length / values.length;
      }
    }
    const all = spec.kind === 'estimate' && ((spec.estimate && spec.estimate.pages) || this.estimatePages);
    // part: what share of one full repeat the preview runs.
    out.part = out.values ? out.values / out.ofValues : 1;
    if (all && share < 1) {
      const pages = Math.max(50, Math.floor(all * share));
      out.spec.estimate = { ...(out.spec.estimate || {}), pages };
      out.part *= Math.min(1, pages / all);
    }
    out.ms = this.pace.ms(1) * out.part; // what the preview should cost
    return out;
  }

  /**
   * Computes the previews of the focused slider's next values, one at a
   * time: four steps on in the direction it last moved (a held key repeats
   * faster than one exchange with the lab) and one back, so arrow keys draw
   * from them at once. One run at a time, each started only when the lab
   * has nothing else to do, so a press that jumps elsewhere waits for at
   * most one of them; and only where a preview is cheap (AHEAD_MAX_MS),
   * or not too expensive while the keys step the slider (AHEAD_KEYS_MAX_MS).
   * Each is one ordinary run of the lab, its result the same as if the
   * press had asked for it.
   */
  lookAhead() {
    const f = this.focused;
    if (off.has('lookahead')) return;
    if (this.aheadRunning || this.running || this.pending) return;
    if (!f || !this.result || this.pace.perRepeat() === undefined || document.activeElement !== f.range) return;
    const { c, range, dir } = f;
    const step = Number(range.step) || 1;
    const min = Number(range.min);
    const max = Number(range.max);
    const v = Number(range.value);
    for (const next of [1, 2, 3, 4, -1].map((k) => v + k * dir * step)) {
      if (next < min || next > max) continue;
      const full = clone(this.spec);
      setField(full, c.resolved, Number(next.toFixed(10)));
      const key = JSON.stringify(full);
      if (this.ahead.has(key)) continue;
      const preview = this.previewOf(full, 0);
      const ms = preview && preview.ms !== undefined ? preview.ms : this.pace.ms(preview ? preview.repeats : full.repeats || 10);
      // (Tests set their own limits: probe.aheadLimit(keys).)
      const limit = this.probe.aheadLimit ? this.probe.aheadLimit(f.keys) : f.keys && !off.has('keysahead') ? AHEAD_KEYS_MAX_MS : AHEAD_MAX_MS;
      if (ms > limit) return;
      if (probing) (this.probe.aheadAsked = this.probe.aheadAsked || []).push(next);
      const answer = runWithCharts(preview ? preview.spec : full, this.chartSpecs);
      this.ahead.set(key, { preview, answer });
      while (this.ahead.size > AHEAD_KEEP) this.ahead.delete(this.ahead.keys().next().value);
      this.aheadRunning = this.probe.aheadRunning = true; // (tests wait for it to end)
      const more = () => {
        this.aheadRunning = this.probe.aheadRunning = false;
        this.lookAhead();
      };
      answer.then(more, more);
      return;
    }
  }

  /** The preview computed ahead for spec, if one is (or is being) computed. */
  takeAhead(spec, inputAt) {
    if (inputAt === null || inputAt === undefined) return null;
    const key = JSON.stringify(spec);
    const hit = this.ahead.get(key);
    if (!hit) return null;
    this.ahead.delete(key);
    return hit;
  }

  async run(full, inputAt, preview, ahead = null) {
    const spec = preview ? preview.spec : full;
    const computing = preview ? 'Computing a preview…' : 'Computing…';
    if (spec.dataset && /^(upload|events)-/.test(spec.dataset.id || '') && !this.cat.datasets.some((d) => d.id === spec.dataset.id)) {
      this.setStatus(computing);
      const restored = await restoreUpload(spec.dataset.id);
      if (restored) this.cat = await refreshCatalog();
      else {
        this.showError({ error: `This link names an uploaded log (${spec.dataset.id}) that is not in this browser. Read the log again on the upload page; the link works once the same file is back.` });
        this.setStatus('');
        return;
      }
    }
    const t0 = performance.now();
    // The run and its charts in one exchange with the lab (api.js), or the
    // preview look-ahead asked for before the press. The page shows the new
    // spec (address and spec text) after the frame that draws its charts
    // (keepSpec): writing the address (history.replaceState) while the page
    // has changes to lay out forces that layout, and the lab's answer would
    // wait for it.
    // A run the lab's pace says will be slow says so first, and runs
    // policy by policy with a progress bar and Stop, as the upload page's do.
    const expect = ahead || this.options.progressive ? undefined : expectedMs(this.pace, spec, this.result, this.cat.datasets);
    const slowRun = expect > SLOW_MS;
    if (slowRun) this.setStatus(`This run should take about ${seconds(expect)}: it computes policy by policy, with a progress bar; Stop ends it.`);
    const answer = ahead ? ahead.answer : this.options.progressive || slowRun ? this.runProgressively(spec) : runWithCharts(spec, this.chartSpecs);
    let said = false; // "Computing…" shown
    const slow = slowRun ? 0 : setTimeout(() => { said = true; this.setStatus(computing); }, STATUS_AFTER_MS);
    // A run that answers no input stops waiting for its answer when an
    // input comes (schedule): the lab still computes it (and remembers its
    // policies' results), but the page goes on to the input.
    const gaveWay = inputAt === null || inputAt === undefined
      ? new Promise((res) => { this.giveWay = () => res(null); })
      : null;
    this.probe.awaitingFull = !!gaveWay; // (tests press while it is so)
    const got = await (gaveWay ? Promise.race([answer, gaveWay]) : answer);
    this.probe.awaitingFull = false;
    this.giveWay = null;
    clearTimeout(slow);
    if (got === null) {
      this.probe.gaveWay = (this.probe.gaveWay || 0) + 1;
      if (said) this.setStatus('');
      return false;
    }
    if (got.stopped !== undefined) {
      for (const td of this.readouts.querySelectorAll('tr.pending td')) td.textContent = 'not run';
      this.setStatus(`Stopped with ${got.stopped} of ${got.of} policies drawn. Change a setting, or press “Run the rest”, to go on.`);
      this.announcer.say(this.status.textContent);
      this.showResume(full);
      return false;
    }
    const { run: r, charts: svgs } = got;
    const tRun = performance.now();
    // A failed run or chart: say why, and keep the spec that failed.
    const fail = (bad) => {
      this.showError(errorOf(bad));
      this.setStatus('');
      this.keepSpec(full);
      return false;
    };
    if (!r.ok) return fail(r);
    const result = r.json();
    // What the charts cost the lab, apart from the run.
    const chartMs = svgs.reduce((sum, c) => sum + (c.ms || 0), 0);
    const runMs = ahead ? r.ms || 0 : Math.max(0, tRun - t0 - chartMs);
    // The pace of this spec's shape, from the worker's own time when it
    // reports one; answers from the lab's cache (near 0 ms) teach nothing.
    const workMs = (slowRun ? 0 : r.ms) || runMs; // (a slow run's r.ms is its last policy's)
    // A preview of fewer sweep values or simulated pages (previewOf's
    // part) counts at the pace of all of them, the size every other run has.
    const atFull = preview && preview.part ? workMs / preview.part : workMs;
    if (workMs > 2) this.pace.add(result.spec.repeats, atFull);
    // A preview of one repeat over PAIR_MS, alone: an expensive lesson.
    if (preview && preview.repeats === 1 && !r.shared) this.pairIfSlow(spec, workMs);
    const ran = result.spec.estimate;
    if (ran && !preview) this.estimatePages = ran.pages;
    const bad = svgs.find((c) => !c.ok);
    if (bad) return fail(bad);
    if (this.pending) return false; // a newer spec waits: skip drawing this one
    this.hideError();
    this.result = result;
    this.render(result, svgs.map((s) => s.body));
    this.syncControls();
    const total = performance.now() - t0;
    const where = engineName === 'wasm' ? '(WebAssembly in this tab)' : '(server)';
    const early = ahead ? ', computed ahead while the slider had the focus' : '';
    const two = r.shared ? ' on two workers' : '';
    this.setStatus(preview
      ? `Preview from ${preview.repeats} of ${preview.of} repeats${preview.values ? ` at ${preview.values} of the sweep's ${preview.ofValues} values` : ''}: ran in ${Math.round(runMs)} ms${two}${early}. All ${preview.of} follow when you pause.`
      : `${result.work}: ran in ${Math.round(runMs)} ms${two}${early}, drawn in ${Math.round(total - runMs)} ms ${where}.`);
    this.root.classList.toggle('preview', !!preview);
    if (!preview) this.announcer.settled(() => headline(result, this.config.readouts, (id) => this.metric(id), fmt));
    const tDrawn = performance.now();
    await new Promise((res) => requestAnimationFrame(() => res()));
    const tFrame = performance.now();
    this.keepSpec(full);
    this.probe.renders++;
    if (probing && inputAt !== null && inputAt !== undefined) {
      this.probe.timings.push(tFrame - inputAt);
      // Where the time went, for make bench: waiting to start, the run,
      // the charts, the DOM, the next frame.
      (this.probe.phases = this.probe.phases || []).push({
        queued: t0 - inputAt, run: runMs, charts: chartMs, dom: tDrawn - tRun, frame: tFrame - tDrawn,
        repeats: result.spec.repeats, pages: result.spec.estimate && result.spec.estimate.pages, worker: r.ms, ahead: !!ahead, shared: !!r.shared,
        toWorker: r.received - r.sent, fromWorker: r.delivered - r.answered, delivery: r.delivered - r.posted,
      });
    }
    this.root.dispatchEvent(new CustomEvent('rendered', { detail: result }));
    return true;
  }

  /**
   * Runs spec policy by policy, as the upload page does, where one run on a
   * long log takes seconds: each step asks the lab for the policies so far,
   * of which it computes only the newest (it remembers the others), and
   * draws them, the charts at most every CHART_EVERY_MS. A progress bar
   * counts repeats; Stop ends the run after the policy in hand (the lab's
   * module cannot be interrupted inside a call). Answers as runWithCharts
   * does, with the whole spec's result; null when a newer spec overtakes
   * it; {stopped, of} when stopped.
   */
  async runProgressively(spec) {
    const n = (spec.policies || []).length;
    const repeats = spec.repeats || 10;
    const bar = this.progressBar(n * repeats);
    this.stopAsked = false;
    let got = null;
    let svgs = null;
    let drawnAt = 0;
    try {
      for (let k = 1; k <= n; k++) {
        if (this.pending) return null;
        if (this.stopAsked) return { stopped: k - 1, of: n };
        const withCharts = k === n || performance.now() - drawnAt > CHART_EVERY_MS;
        const part = { ...spec, policies: spec.policies.slice(0, k) };
        bar.set((k - 1) * repeats, `Policy ${k} of ${n}`);
        // Until the last step, the numbers alone: the series per cycle of
        // a long log's policies would cross from the lab at every step.
        got = await runWithCharts(part, withCharts ? this.chartSpecs : [], (phase, done) => bar.set((k - 1) * repeats + Math.min(done, repeats), `Policy ${k} of ${n}`), k < n);
        if (!got.run.ok || got.charts.some((c) => !c.ok)) return got;
        if (k === n) return got;
        if (withCharts) {
          svgs = got.charts.map((c) => c.body);
          drawnAt = performance.now();
        }
        this.drawPartial(got.run.json(), svgs, spec.policies.slice(k));
        if (probing) Object.assign(this.probe.partial[this.probe.partial.length - 1], { worker: got.run.ms, charts: got.charts.reduce((t, c) => t + (c.ms || 0), 0), bytes: got.run.body.length });
      }
      return got;
    } finally {
      bar.remove();
    }
  }

  /** Draws the policies a progressive run has so far, and rows for those to come. */
  drawPartial(result, svgs, rest) {
    this.hideError();
    this.renderReadouts(result, rest);
    if (svgs) this.renderCharts(result, svgs);
    if (probing) (this.probe.partial = this.probe.partial || []).push({ policies: result.policies.length, at: performance.now() });
  }

  /** A progress bar with a Stop button under the status line, for a run of total repeats. */
  progressBar(total) {
    const meter = el('progress', { max: total, value: 0, 'aria-label': 'Repeats computed' });
    const what = el('span', { class: 'progress-what' });
    const stop = el('button', { type: 'button', class: 'small', text: 'Stop', onclick: () => { this.stopAsked = true; stop.disabled = true; stop.textContent = 'Stopping…'; } });
    const box = el('div', { class: 'run-progress' }, what, meter, stop);
    this.status.after(box);
    return {
      set: (done, text) => { meter.value = done; what.textContent = text; },
      remove: () => box.remove(),
    };
  }

  /** After a stop, a button that runs the rest of spec. */
  showResume(spec) {
    const again = el('button', { type: 'button', class: 'small', text: 'Run the rest', onclick: () => { again.remove(); this.spec = clone(spec); this.schedule(); } });
    this.status.after(el('div', { class: 'run-progress' }, again));
  }

  /**
   * Shows spec in the page's address (when the panel keeps its state
   * there) and in the spec text, once the frame in progress is painted: a
   * task queued now runs after it, when the page has nothing left to lay
   * out, so writing the address costs no layout. Of several specs kept
   * before it runs, the last is shown. A test reading the address after a
   * redraw waits one task (setTimeout 0) for it.
   */
  keepSpec(spec) {
    this.toKeep = spec;
    if (this.keepTimer) return;
    this.keepTimer = setTimeout(() => {
      this.keepTimer = 0;
      const s = this.toKeep;
      if (this.options.urlState) writeURL(s);
      if (this.specText && document.activeElement !== this.specText) this.specText.value = JSON.stringify(s, null, 2);
    }, 0);
  }

  applySpecText() {
    const hint = $('#spec-hint', this.root);
    try {
      const s = JSON.parse(this.specText.value);
      if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error('expected a JSON object');
      this.spec = s;
      hint.textContent = '';
      this.syncControls();
      this.schedule();
    } catch (err) {
      hint.textContent = `Not valid JSON: ${err.message}`;
    }
  }

  // ---- rendering ----

  metric(id) {
    return this.cat.metrics.find((m) => m.id === id) || { id, name: id, unit: '' };
  }

  fact(id) {
    return (this.cat.facts || []).find((f) => f.id === id) || { id, name: id, unit: '' };
  }

  render(result, svgs) {
    this.renderReadouts(result);
    this.renderCharts(result, svgs);
    this.renderLive(result);
  }

  /**
   * The numbers table: a row per policy, a column per readout metric (the
   * lesson's), each value ± the half-width of its 95% interval, and beside
   * a metric its exact expectation where some policy has one.
   */
  renderReadouts(result, rest = []) {
    const unit = result.dataset.cycleUnit || 'cycle';
    const metrics = this.config.readouts.map((id) => this.metric(id));
    const better = (m) => (m.better === 'lower' ? ' ↓' : m.better === 'higher' ? ' ↑' : '');
    const head = el('tr', {}, el('th', { scope: 'col', text: 'Policy' }),
      metrics.map((m) => el('th', { scope: 'col', title: m.help }, m.name, unitSuffix(m, unit), better(m) ? [el('span', { class: 'better', text: better(m), 'aria-hidden': 'true' }), el('span', { class: 'visually-hidden', text: ` (${m.better} is better)` })] : null)));
    // Each cell carries its column's heading, which a narrow screen shows
    // beside the value when it stacks a policy's row as a card (lab.css).
    const label = (m) => m.name + unitSuffix(m, unit) + better(m);
    const rows = result.policies.map((p) => el('tr', { class: p.oracle ? 'oracle' : '' },
      el('th', { scope: 'row' }, p.name, oracleTag(p)),
      metrics.map((m) => {
        const s = p.metrics[m.id];
        if (!s) return el('td', { title: `${p.name} has no ${m.name.toLowerCase()}`, 'data-label': label(m) }, '–');
        const h = halfWidth(s);
        const exact = m.exact && p.facts ? p.facts[m.exact] : undefined;
        return el('td', { 'data-label': label(m) }, el('span', { class: 'num', text: fmt(m, s.mean) }), h !== null ? el('span', { class: 'pm', text: ` ± ${fmt(m, h)}` }) : null,
          exact !== undefined ? el('span', { class: 'exact', title: this.fact(m.exact).help }, ' exact ', el('span', { class: 'exact-value', text: fmt(m, exact, true) })) : null);
      })));
    // A progressive run's policies still to come: named, their numbers to follow.
    const nameOf = (p) => { const d = this.cat.policies.find((q) => q.id === p.id); return (d ? d.name : p.id) + (p.label ? ` (${p.label})` : ''); };
    const waiting = rest.map((p, i) => el('tr', { class: 'pending' }, el('th', { scope: 'row' }, nameOf(p)),
      metrics.map((m) => el('td', { text: i === 0 ? 'computing…' : 'waiting', 'data-label': label(m) }))));
    const caption = el('caption', {}, result.about);
    this.readouts.replaceChildren(scrollRegion(el('table', { class: 'numbers' }, caption, el('thead', {}, head), el('tbody', {}, rows, waiting)), 'The numbers, a row per policy'));
  }

  renderCharts(result, svgs) {
    this.svgs = svgs;
    const figs = this.config.charts.map((ch, i) => {
      const figure = el('figure', { class: 'chart' });
      const svg = svgNode(svgs[i]);
      focusablePoints(svg);
      figure.append(svg);
      // What the chart's buttons name it by: its title.
      const named = svg.querySelector(':scope > title');
      const name = (named && named.textContent.trim()) || ch.title || `chart ${i + 1}`;
      const cap = el('figcaption', {}, ch.caption || '');
      // The chart's data as a table, from the lab (POST /api/chart with
      // format "table"), asked for when opened; it stays open across
      // redraws.
      const open = this.openTables && this.openTables.has(i);
      const details = el('details', { class: 'data', open }, el('summary', {}, 'Data table', el('span', { class: 'visually-hidden', text: ` of ${name}` })));
      const fill = async () => {
        const t = await chartTable(result, this.chartSpecs[i]);
        if (details.open && this.result === result) details.replaceChildren(details.firstChild, t);
      };
      if (open) fill();
      details.addEventListener('toggle', () => {
        this.openTables = this.openTables || new Set();
        if (details.open) {
          this.openTables.add(i);
          if (!details.querySelector('table')) fill();
        } else {
          this.openTables.delete(i);
        }
      });
      const dl = el('button', { type: 'button', class: 'small', text: 'Download SVG', 'aria-label': `Download SVG of ${name}`, onclick: () => download(svgs[i], `${this.fileBase(result)}-${ch.metric || ch.type}-${ch.type}.svg`, 'image/svg+xml') });
      figure.append(cap, el('div', { class: 'chart-tools' }, details, dl));
      return figure;
    });
    this.charts.replaceChildren(...figs);
    this.sizer.check();
  }

  /** Fills each live number of the narrative: a metric's mean or a fact. */
  renderLive(result) {
    for (const o of document.querySelectorAll('output.live')) {
      const p = result.policies.find((q) => keyOf(q) === o.dataset.policy);
      const id = o.dataset.metric;
      if (!p) {
        o.textContent = '–';
      } else if (p.metrics[id]) {
        o.textContent = fmt(this.metric(id), p.metrics[id].mean);
      } else {
        o.textContent = fmt(this.fact(id), p.facts ? p.facts[id] : undefined, true);
      }
    }
  }

  fileBase(result) {
    return `refresh-lab-${this.config.id || 'experiment'}-${result.dataset.id}-seed${result.spec.seed}`;
  }

  buildActions() {
    const copy = el('button', { type: 'button', text: 'Copy link' });
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(location.href);
        copy.textContent = 'Link copied';
      } catch {
        prompt('Copy this link:', location.href);
      }
      setTimeout(() => { copy.textContent = 'Copy link'; }, 1500);
    });
    const csv = el('button', { type: 'button', text: 'Download CSV', onclick: () => this.result && download(toCSV(this.result), `${this.fileBase(this.result)}.csv`, 'text/csv') });
    const json = el('button', { type: 'button', text: 'Download JSON', onclick: () => this.result && download(JSON.stringify(this.result, null, 2), `${this.fileBase(this.result)}.json`, 'application/json') });
    // A progressive panel starts with few repeats: this asks for more.
    const more = this.options.progressive ? el('button', { type: 'button', text: 'More repeats', onclick: () => {
      const now = this.spec.repeats || 10;
      this.spec.repeats = [3, 10, 30, 100, 300, 1000].find((r) => r > now) || now * 3;
      this.syncControls();
      this.schedule();
    } }) : null;
    this.actions.replaceChildren(...[more, copy, csv, json].filter(Boolean));
  }

  setStatus(text) {
    if (this.status) this.status.textContent = text;
  }

  showError(e) {
    const where = [e.field && `in ${e.field}`, e.line && `line ${e.line}`, e.column && `column ${e.column}`].filter(Boolean).join(', ');
    this.error.replaceChildren(el('strong', { text: 'This did not run. ' }), e.error || 'Unknown error', where && !String(e.error).includes(e.field || '\u0000') ? ` (${where})` : '');
    this.error.hidden = false;
  }

  hideError() {
    this.error.hidden = true;
  }
}

// ---- helpers ----

/** What people read for option o of a choice: the catalog's label for it (param.OptionLabels), else o. */
function optionLabel(p, o) {
  const i = p && p.options ? p.options.indexOf(o) : -1;
  return (i >= 0 && p.optionLabels && p.optionLabels[i]) || o;
}

/** Parses our SVG and returns it as a node, dropping anything scriptable. */
function svgNode(text) {
  // The chart package escapes every text it writes, so its SVG holds no
  // script, foreignObject, event attribute or javascript: link. Such an SVG
  // is parsed by the HTML parser into an inert template, which costs a
  // slider's redraw half of what the XML parser and the walk below do
  // (the 50-path chart of the MLE lesson, say); anything else takes the
  // careful path.
  if (!/<script|<foreignObject|\son[a-z]+\s*=|javascript:/i.test(text)) {
    const t = document.createElement('template');
    t.innerHTML = text;
    const svg = t.content.firstElementChild;
    if (svg && svg.nodeName === 'svg') return svg;
  }
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg.nodeName !== 'svg') return el('p', { class: 'error', text: 'The chart could not be drawn.' });
  for (const s of svg.querySelectorAll('script, foreignObject')) s.remove();
  for (const n of svg.querySelectorAll('*')) {
    for (const a of [...n.attributes]) if (/^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)) n.removeAttribute(a.name);
  }
  return document.importNode(svg, true);
}

/**
 * A chart's data as a table element: the lab builds it (POST /api/chart
 * with format "table") from the result it remembers by id, or from the
 * result itself when it no longer does.
 */
async function chartTable(result, chart) {
  const ask = (body) => post('/api/chart', body);
  let r = await ask({ id: result.id, chart: { ...chart, format: 'table' } });
  if (r.status === 404) r = await ask({ result, chart: { ...chart, format: 'table' } });
  if (!r.ok) return el('p', { class: 'error', text: `The table could not be made: ${errorOf(r).error}` });
  const t = r.json();
  return scrollRegion(el('table', { class: 'data-table' },
    el('caption', { text: t.caption }),
    el('thead', {}, el('tr', {}, t.head.map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, (t.rows || []).map((row) => el('tr', {}, el('th', { scope: 'row', text: row[0] }), row.slice(1).map((c) => el('td', { text: c })))))), t.caption);
}

/**
 * The result as long-format CSV: one row per policy, cycle (or "all") and
 * metric, then one per fact; a sweep adds one row per policy, value and
 * metric, its point named in the "sweep" column as field=value.
 */
export function toCSV(result) {
  const q = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [['dataset', 'policy', 'params', 'sweep', 'cycle', 'metric', 'mean', 'lo', 'hi', 'n', 'budget', 'repeats', 'seed'].join(',')];
  const s = result.spec;
  const row = (policy, params, point, cycle, metric, st) => lines.push(
    [result.dataset.id, policy, JSON.stringify(params || {}), point, cycle, metric, st.mean, st.lo, st.hi, st.n, s.budget, s.repeats, s.seed].map(q).join(','));
  for (const p of result.policies) {
    for (const [id, h] of Object.entries(p.metrics)) {
      row(keyOf(p), p.params, '', 'all', id, h);
      const per = p.series && p.series[id];
      if (per) per.mean.forEach((_, i) => row(keyOf(p), p.params, '', i + 1, id, at(per, i)));
    }
    for (const [id, v] of Object.entries(p.facts || {})) row(keyOf(p), p.params, '', 'all', id, { mean: v, lo: '', hi: '', n: '' });
  }
  if (result.sweep) {
    const sw = result.sweep;
    for (const p of sw.policies) {
      for (const [id, ser] of Object.entries(p.metrics)) {
        ser.mean.forEach((_, i) => row(keyOf(p), p.params[i], `${sw.field}=${sw.values[i]}`, 'all', id, at(ser, i)));
      }
    }
  }
  return lines.join('\n') + '\n';
}

export function download(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
