// The crawler view: one repeat of one refresh policy played cycle by cycle,
// every page a cell, grouped by site (or by the policy's categories or
// clusters). Its data is the lab's own record of that repeat (POST
// /api/trace, lab.Trace): which pages changed, which the policy sampled and
// downloaded, which downloads found a change, which copies are fresh after
// the cycle. Nothing is simulated here; the view only draws what the trace
// says, and its counts are the trace's, which are the run's numbers for
// that repeat.
//
// It follows the experiment panel it is mounted in: after a run settles
// (a full run drawn, not a preview, and the panel idle for a moment) it asks
// for the trace of the panel's spec, never on each press of a slider, and
// only while it is on screen.

import { post, errorOf } from './api.js';
import { el, fmt } from './experiment.js';

const query = new URLSearchParams(location.search);
const probing = query.has('probe');

// A trace is asked for this long after the last drawing of the panel, so a
// slider held down or stepped with the keys asks for none until it rests.
const SETTLE_MS = 350;
// One cycle lasts this long at 1× speed.
const CYCLE_MS = 900;
const SPEEDS = [0.5, 1, 2, 4];
// The lab shows at most this many pages (lab.MaxTraceCells bounds pages ×
// cycles); fewer on a narrow screen, where cells would be too small.
const MAX_PAGES = 2000;
const MAX_PAGES_NARROW = 1200;
const MAX_CELLS = 250000;
// Cells are drawn this big, at most and at least (CSS px).
const CELL_MAX = 16;
const CELL_MIN = 6;

const ratio = { unit: 'ratio' };
const count = (n) => n.toLocaleString('en-US');

/**
 * The states a cell shows, each by colour and by a second channel
 * (pattern or shape), so that none is told by colour alone.
 */
const LEGEND = [
  { state: 'stale', label: 'Stale: changed since the last copy (hatched)' },
  { state: 'found', label: 'Downloaded, found changed (solid blue)' },
  { state: 'downloaded', label: 'Downloaded this cycle (a frame)' },
  { state: 'sampled', label: 'Sampled, to estimate its group (a dot)' },
  { state: 'fresh', label: 'Fresh copy (pale)' },
];

const COLOURS = {
  stale: '#d55e00', // Okabe–Ito vermillion
  hatch: '#ffffff',
  found: '#0072b2', // Okabe–Ito blue
  fresh: '#e6eaf0',
  frame: '#1d2430',
  dotOnPale: '#1d2430',
  dotOnBlue: '#ffffff',
};

/** Decodes a base64 bitset (lab.Bits) into a Uint8Array. */
function bits(b64) {
  const s = atob(b64 || '');
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const has = (b, i) => (b[i >> 3] >> (i & 7)) & 1;

/**
 * Draws one cell at (x, y), size s, in a state: what the frame of a cycle
 * says of a page. ctx's transform is in CSS px.
 */
function drawCell(ctx, x, y, s, st) {
  const w = s - 1; // one pixel between cells
  ctx.fillStyle = st.stale ? COLOURS.stale : st.found ? COLOURS.found : COLOURS.fresh;
  ctx.fillRect(x, y, w, w);
  if (st.stale) {
    // Diagonal stripes: the pattern that says "out of date" without colour.
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, w, w);
    ctx.clip();
    ctx.strokeStyle = COLOURS.hatch;
    ctx.lineWidth = Math.max(1, w / 7);
    const step = Math.max(3, w / 2.5);
    ctx.beginPath();
    for (let d = -w; d < w; d += step) {
      ctx.moveTo(x + d, y + w);
      ctx.lineTo(x + d + w, y);
    }
    ctx.stroke();
    ctx.restore();
  }
  if (st.downloaded || st.sampled) {
    const lw = w >= 10 ? 2 : 1.5;
    ctx.strokeStyle = COLOURS.frame;
    ctx.lineWidth = lw;
    ctx.strokeRect(x + lw / 2, y + lw / 2, w - lw, w - lw);
  }
  if (st.sampled) {
    ctx.fillStyle = st.found ? COLOURS.dotOnBlue : COLOURS.dotOnPale;
    ctx.beginPath();
    ctx.arc(x + w / 2, y + w / 2, Math.max(1.2, w / 5), 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** A canvas sized w × h CSS px, sharp on the screen's pixels. */
function canvasOf(w, h, label) {
  const c = el('canvas', { role: 'img', 'aria-label': label });
  const dpr = window.devicePixelRatio || 1;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  c.style.width = `${w}px`;
  c.style.height = `${h}px`;
  const ctx = c.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { canvas: c, ctx };
}

/** A group's name with line-break opportunities after its dots and slashes (host names, URLs). */
function breakable(name) {
  return name.split(/(?<=[./])/).flatMap((part, i) => (i ? [el('wbr'), part] : [part]));
}

/** A legend swatch: one cell in a state. */
function swatch(state) {
  const s = 18;
  const { canvas, ctx } = canvasOf(s, s, '');
  canvas.removeAttribute('role');
  canvas.setAttribute('aria-hidden', 'true');
  const st = { stale: state === 'stale', found: state === 'found', downloaded: state === 'downloaded', sampled: state === 'sampled' };
  drawCell(ctx, 0.5, 0.5, s, st);
  return canvas;
}

let seq = 0;

/**
 * Mounts the crawler view in the experiment panel root, under its charts.
 * first is the key of the policy to show first (a lesson's crawler field),
 * or true for the spec's first policy that is not an oracle; latest
 * returns the panel's latest result, if it drew one before the view came.
 */
export function mountCrawler(root, first, latest = () => null) {
  const view = new CrawlerView(root, first);
  const result = latest();
  if (result) view.onRendered(result);
  return view;
}

class CrawlerView {
  constructor(root, first) {
    this.root = root;
    this.first = typeof first === 'string' ? first : '';
    this.id = `crawler-${++seq}`;
    this.result = null;
    this.trace = null;
    this.key = '';
    this.asked = '';
    this.cycle = 0;
    this.timer = 0;
    this.settle = 0;
    this.speed = 1;
    this.visible = false;
    this.reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
    this.probe = probing ? (window.__refreshLab = window.__refreshLab || { timings: [], renders: 0 }) : {};
    this.build();
    root.addEventListener('rendered', (e) => this.onRendered(e.detail));
    this.reduced.addEventListener('change', () => this.syncMotion());
    if ('IntersectionObserver' in window) {
      new IntersectionObserver((entries) => {
        this.visible = entries.some((e) => e.isIntersecting);
        if (this.visible) this.schedule();
        else this.pause();
      }, { rootMargin: '200px' }).observe(this.section);
    } else {
      this.visible = true;
    }
  }

  build() {
    const id = this.id;
    const button = (cls, text, label, onclick) => el('button', { type: 'button', class: `small ${cls}`, 'aria-label': label, onclick }, text);
    this.policySel = el('select', { id: `${id}-policy` });
    this.policySel.addEventListener('change', () => { this.policy = this.policySel.value; this.request(); });
    this.repeatIn = el('input', { type: 'number', id: `${id}-repeat`, min: 1, value: 1, step: 1, class: 'repeat' });
    this.repeatIn.addEventListener('change', () => this.request());
    this.back = button('back', '◀ Back', 'Step back one cycle', () => this.step(-1));
    this.play = button('play', '▶ Play', 'Play', () => (this.timer ? this.pause() : this.start()));
    this.forward = button('forward', 'Step ▶', 'Step forward one cycle', () => this.step(1));
    this.speedSel = el('select', { id: `${id}-speed` }, SPEEDS.map((s) => el('option', { value: s, selected: s === 1 }, `${s}×`)));
    this.speedSel.addEventListener('change', () => { this.speed = Number(this.speedSel.value); if (this.timer) this.start(); });
    this.scrub = el('input', { type: 'range', id: `${id}-cycle`, min: 1, max: 1, value: 1, step: 1 });
    this.scrub.addEventListener('input', () => { this.pause(); this.show(Number(this.scrub.value) - 1, true); });
    // (Not a live region: it changes at every cycle played; this.said speaks.)
    this.cycleOut = el('output', { for: `${id}-cycle`, class: 'cycle-of', 'aria-live': 'off' });
    this.speedBox = el('span', { class: 'speed' }, el('label', { for: `${id}-speed`, text: 'Speed' }), this.speedSel);
    this.stillNote = el('p', { class: 'still-note', hidden: true, text: 'Your device asks for reduced motion: step through the cycles one at a time.' });
    // The cycle's two numbers beside the controls, in view while the
    // cells play even where the full counts sit below them.
    this.now = el('p', { class: 'crawler-now' });
    this.shown = el('p', { class: 'crawler-shown' });
    this.error = el('p', { class: 'error', role: 'alert', hidden: true });
    this.grid = el('div', { class: 'crawler-grid' });
    this.counts = el('div', { class: 'crawler-counts' });
    this.said = el('p', { class: 'visually-hidden', role: 'status' });
    this.legend = el('ul', { class: 'crawler-legend', 'aria-label': 'What a cell shows' },
      LEGEND.map((l) => el('li', { 'data-state': l.state }, swatch(l.state), el('span', { text: l.label }))));
    this.section = el('section', { class: 'crawler', id, 'aria-labelledby': `${id}-title`, 'data-state': 'waiting' },
      el('h3', { id: `${id}-title`, text: 'Watch the crawler' }),
      el('p', { class: 'crawler-what', id: `${id}-what` }, 'One repeat of one policy, cycle by cycle: every square is a page. Which pages changed, which the crawler sampled and downloaded, and which copies are fresh after its downloads.'),
      el('div', { class: 'crawler-controls' },
        el('span', { class: 'pick' }, el('label', { for: `${id}-policy`, text: 'Policy' }), this.policySel),
        el('span', { class: 'pick' }, el('label', { for: `${id}-repeat`, text: 'Repeat' }), this.repeatIn, el('span', { class: 'of' })),
        el('span', { class: 'transport', role: 'group', 'aria-label': 'Play the cycles' }, this.back, this.play, this.forward),
        this.speedBox,
        el('span', { class: 'scrub' }, el('label', { for: `${id}-cycle`, text: 'Cycle' }), this.scrub, this.cycleOut)),
      this.now, this.stillNote, this.error, this.legend,
      el('div', { class: 'crawler-body' }, this.grid, this.counts),
      this.shown, this.said);
    const charts = this.root.querySelector('#charts');
    if (charts) charts.after(this.section);
    else this.root.append(this.section);
    this.syncMotion();
    this.enable(false);
  }

  /** Under reduced motion there is no autoplay: step only. */
  syncMotion() {
    const still = this.reduced.matches;
    this.play.hidden = still;
    this.speedBox.hidden = still;
    this.stillNote.hidden = !still;
    if (still) this.pause();
  }

  enable(on) {
    for (const b of [this.back, this.play, this.forward, this.scrub]) b.disabled = !on;
  }

  onRendered(result) {
    // Previews (a few repeats while a slider moves) are followed by the
    // full run; the trace waits for it.
    if (this.root.classList.contains('preview')) return;
    if (!result || !result.spec || (result.spec.kind && result.spec.kind !== 'refresh')) return;
    this.result = result;
    this.syncPolicies(result);
    this.schedule();
  }

  /** The policy menu: the spec's policies, by name. */
  syncPolicies(result) {
    const keys = result.policies.map((p) => p.label || p.id);
    const same = keys.length === this.policySel.options.length && keys.every((k, i) => this.policySel.options[i].value === k);
    if (!same) {
      this.policySel.replaceChildren(...result.policies.map((p) => el('option', { value: p.label || p.id }, p.name)));
    }
    if (!keys.includes(this.policy)) {
      const firstReal = result.policies.find((p) => !p.oracle);
      this.policy = keys.includes(this.first) ? this.first : firstReal ? firstReal.label || firstReal.id : keys[0];
    }
    this.policySel.value = this.policy;
    const reps = result.spec.repeats || 1;
    this.repeatIn.max = reps;
    if (Number(this.repeatIn.value) > reps) this.repeatIn.value = reps;
    this.section.querySelector('.of').textContent = `of ${count(reps)}`;
    if (this.trace) this.describe(reps);
  }

  /** Asks for the trace once the panel has settled and the view is on screen. */
  schedule() {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      if (!this.result || !this.visible) return;
      if (this.root.getAttribute('aria-busy') === 'true') return; // the next drawing asks again
      this.request();
    }, SETTLE_MS);
  }

  /** What to ask the lab for: the spec (its repeats apart), the policy, the repeat. */
  ask() {
    const spec = this.result.spec;
    const cycles = spec.cycles || (this.result.dataset && this.result.dataset.cycles) || 1;
    const narrow = this.section.clientWidth < 500;
    const maxPages = Math.max(1, Math.min(narrow ? MAX_PAGES_NARROW : MAX_PAGES, Math.floor(MAX_CELLS / cycles)));
    const reps = spec.repeats || 1;
    const repeat = Math.min(reps, Math.max(1, Math.round(Number(this.repeatIn.value) || 1))) - 1;
    this.repeatIn.value = repeat + 1;
    const { repeats, ...rest } = spec;
    const key = JSON.stringify({ spec: rest, policy: this.policy, repeat, maxPages });
    return { key, body: { spec, policy: this.policy, repeat, maxPages } };
  }

  async request() {
    if (!this.result) return;
    const { key, body } = this.ask();
    if (key === this.key || key === this.asked) return;
    this.asked = key;
    this.section.dataset.state = 'loading';
    if (probing) {
      // Tests read what the view asked for, and how often.
      this.probe.traces = (this.probe.traces || 0) + 1;
      this.probe.traceAsked = body;
    }
    const r = await post('/api/trace', body);
    if (this.asked !== key) return; // a newer one is on its way
    this.asked = '';
    if (!r.ok) {
      const e = errorOf(r);
      this.error.textContent = `The crawler view could not be drawn: ${e.error}`;
      this.error.hidden = false;
      this.section.dataset.state = 'error';
      return;
    }
    this.error.hidden = true;
    this.key = key;
    this.load(r.json());
  }

  /** Takes a new trace: lays out its groups, keeps the cycle shown where it can. */
  load(tr) {
    this.trace = tr;
    const n = tr.pages.length;
    this.frames = tr.cycles.map((c) => ({
      changed: bits(c.changed), stale: bits(c.stale), sampled: bits(c.sampled),
      downloaded: bits(c.downloaded), found: bits(c.found), after: bits(c.staleAfter),
      totals: c.totals, changeRatio: c.changeRatio, freshness: c.freshness,
    }));
    const unit = tr.dataset.cycleUnit || 'cycle';
    this.unit = unit;
    this.scrub.max = tr.cycles.length;
    this.section.dataset.policy = tr.policy;
    this.section.dataset.repeat = String(tr.repeat);
    this.section.dataset.cycles = String(tr.cycles.length);
    this.section.dataset.pages = String(n);
    this.section.dataset.budget = String(tr.budget);
    this.describe(tr.repeats);
    this.shown.textContent = tr.pages.length < tr.dataset.pages ? `Pages shown: ${tr.shown}` : '';
    this.layout();
    this.enable(true);
    // One cycle (a lesson of a single cycle) has nothing to play.
    this.play.disabled = this.scrub.disabled = tr.cycles.length < 2;
    this.section.dataset.state = 'ready';
    this.show(Math.min(this.cycle, tr.cycles.length - 1), false);
  }

  /**
   * Says what the view plays. repeats is the panel's: a trace does not
   * depend on how many repeats the run has, so changing them asks for no
   * new one.
   */
  describe(repeats) {
    const tr = this.trace;
    const unit = this.unit;
    this.section.querySelector('.crawler-what').textContent =
      `Repeat ${tr.repeat + 1} of ${count(repeats)} of ${tr.name}, ${unit} by ${unit}: every square is a page, grouped by ${tr.groupBy}. ` +
      `The table and charts average all ${count(repeats)} repeats; the numbers here are this repeat's.`;
  }

  /** Lays out a canvas per group, cells sized to the width at hand. */
  layout() {
    const tr = this.trace;
    const width = Math.max(200, this.grid.clientWidth || this.section.clientWidth || 300);
    const n = tr.pages.length;
    const height = Math.min(520, Math.max(240, width * 0.6));
    const s = Math.max(CELL_MIN, Math.min(CELL_MAX, Math.floor(Math.sqrt((width * height) / Math.max(1, n)))));
    const perRow = Math.max(1, Math.floor(width / s));
    this.cell = s;
    this.groups = tr.groups.map((g) => {
      const cols = Math.min(perRow, g.shown, Math.max(4, Math.ceil(Math.sqrt(g.shown * 2))));
      const rows = Math.ceil(g.shown / cols);
      const { canvas, ctx } = canvasOf(cols * s, rows * s, g.name);
      const more = g.shown < g.pages ? ` (${count(g.shown)} of ${count(g.pages)})` : '';
      const fig = el('figure', { class: 'crawler-group' }, canvas,
        el('figcaption', {}, el('span', { class: 'name' }, breakable(g.name)), ' ', el('span', { class: 'n', text: `${count(g.shown)}${more}` })));
      // The caption wraps within its block (at least a few words wide).
      fig.style.width = `${Math.max(cols * s, 96)}px`;
      return { g, cols, ctx, canvas, fig };
    });
    this.grid.replaceChildren(...this.groups.map((x) => x.fig));
    this.laidOutAt = width;
    if (!this.resizing) {
      this.resizing = new ResizeObserver(() => {
        const w = this.grid.clientWidth;
        if (this.trace && w && Math.abs(w - this.laidOutAt) > 24) {
          this.layout();
          this.show(this.cycle, false);
        }
      });
      this.resizing.observe(this.grid);
    }
  }

  /** Draws cycle c (from 0) and its counts; said: tell a screen reader. */
  show(c, said) {
    if (!this.trace) return;
    const f = this.frames[c];
    this.cycle = c;
    const s = this.cell;
    for (const { g, cols, ctx, canvas } of this.groups) {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      let due = 0, fetched = 0, sampled = 0, found = 0, fresh = 0;
      for (let k = 0; k < g.shown; k++) {
        const i = g.start + k;
        const st = {
          stale: has(f.after, i), found: has(f.found, i),
          downloaded: has(f.downloaded, i), sampled: has(f.sampled, i),
        };
        drawCell(ctx, (k % cols) * s, Math.floor(k / cols) * s, s, st);
        if (has(f.stale, i) || has(f.changed, i)) due++;
        if (st.downloaded || st.sampled) fetched++;
        if (st.sampled) sampled++;
        if (st.found) found++;
        if (!st.stale) fresh++;
      }
      canvas.setAttribute('aria-label', `${g.name}: ${count(g.shown)} pages; ${due} changed since the last copy, ${fetched} downloaded (${sampled} sampled), ${found} found changed, ${fresh} fresh after the downloads`);
    }
    this.scrub.value = c + 1;
    this.cycleOut.textContent = `${c + 1} of ${this.frames.length}`;
    this.back.disabled = c === 0;
    this.forward.disabled = c === this.frames.length - 1;
    this.renderCounts(c);
    const unit = `${this.unit[0].toUpperCase()}${this.unit.slice(1)}`;
    this.now.replaceChildren(el('strong', { text: `${unit} ${c + 1}` }),
      ` · ChangeRatio ${f.changeRatio === null ? 'none' : fmt(ratio, f.changeRatio)} · freshness ${fmt(ratio, f.freshness)}`);
    this.section.dataset.cycle = String(c);
    if (said) this.said.textContent = this.sentence(c);
  }

  /**
   * The cycle's counts over every page (the trace's totals), its
   * ChangeRatio and freshness, and their means over the cycles so far,
   * averaged as the lab averages a repeat (ChangeRatio over the cycles that
   * downloaded something).
   */
  renderCounts(c) {
    const f = this.frames[c];
    const t = f.totals;
    const n = this.trace.dataset.pages;
    let sumCR = 0, nCR = 0, sumFr = 0;
    for (let k = 0; k <= c; k++) {
      const x = this.frames[k].changeRatio;
      if (x !== null && x !== undefined) { sumCR += x; nCR++; }
      sumFr += this.frames[k].freshness;
    }
    const meanCR = nCR ? sumCR / nCR : null;
    const meanFr = sumFr / (c + 1);
    const unit = this.unit;
    const row = (name, value, raw, cls) => [el('dt', { text: name }), el('dd', { class: cls, 'data-value': raw === undefined ? undefined : raw === null ? '' : String(raw) }, value)];
    this.counts.replaceChildren(
      el('p', { class: 'cycle-head' }, `${unit[0].toUpperCase()}${unit.slice(1)} ${c + 1} of ${this.frames.length}`),
      el('dl', {},
        ...row('Changed at the source', count(t.changed)),
        ...row('Out of date before the downloads', `${count(t.outOfDate)} (${count(t.stale)} from before)`),
        ...row('Downloads', t.samples ? `${count(t.downloads)}, ${count(t.samples)} of them samples` : count(t.downloads)),
        ...row('Found changed', count(t.found)),
        ...row('ChangeRatio', f.changeRatio === null ? 'none: nothing downloaded' : `${count(t.found)} / ${count(t.downloads)} = ${fmt(ratio, f.changeRatio)}`, f.changeRatio, 'change-ratio'),
        ...row('Fresh after the downloads', `${count(t.fresh)} of ${count(n)} pages`),
        ...row('Freshness', fmt(ratio, f.freshness), f.freshness, 'freshness')),
      el('p', { class: 'so-far' }, c === 0 ? `Mean over ${unit} 1` : `Mean over ${unit}s 1–${c + 1}`),
      el('dl', {},
        ...row('ChangeRatio', meanCR === null ? '–' : fmt(ratio, meanCR), meanCR, 'mean-change-ratio'),
        ...row('Freshness', fmt(ratio, meanFr), meanFr, 'mean-freshness')),
    );
  }

  sentence(c) {
    const f = this.frames[c];
    const t = f.totals;
    return `${this.unit} ${c + 1} of ${this.frames.length}: ${count(t.changed)} pages changed, ${count(t.downloads)} downloads` +
      `${t.samples ? ` (${count(t.samples)} samples)` : ''}, ${count(t.found)} found changed, ChangeRatio ${f.changeRatio === null ? 'none' : fmt(ratio, f.changeRatio)}, freshness ${fmt(ratio, f.freshness)}.`;
  }

  step(d) {
    if (!this.trace) return;
    this.pause();
    const c = Math.min(this.frames.length - 1, Math.max(0, this.cycle + d));
    if (c !== this.cycle) this.show(c, true);
  }

  start() {
    if (!this.trace || this.reduced.matches) return;
    clearInterval(this.timer);
    if (this.cycle >= this.frames.length - 1) this.show(0, false);
    this.timer = setInterval(() => {
      if (this.cycle >= this.frames.length - 1) {
        this.pause();
        return;
      }
      this.show(this.cycle + 1, false);
    }, CYCLE_MS / this.speed);
    this.play.textContent = '❚❚ Pause';
    this.play.setAttribute('aria-label', 'Pause');
    this.section.dataset.playing = 'true';
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = 0;
    this.play.textContent = '▶ Play';
    this.play.setAttribute('aria-label', 'Play');
    delete this.section.dataset.playing;
    if (this.trace) this.said.textContent = this.sentence(this.cycle);
  }
}
