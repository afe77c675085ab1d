// What the experiment panel tells a screen reader: the headline of each
// settled result, once, in the panel's one polite live region (#announce).
// The visible status line beside it (what ran, in how many milliseconds)
// changes at every press and is not a live region: read aloud, it would
// talk over the learner at every step of a slider.

// A result is settled when no run has followed it for this long: a
// learner holding an arrow key hears the value they stop at, not every
// value on the way. (Past experiment.js's pause before a preview's full
// run, so that a preview is never announced in its place.)
const SETTLE_MS = 700;

// The headline names this many policies by value when its metric has no
// better direction; the rest are counted.
const LIST = 3;

/**
 * The headline of a result: the best real policy by the first metric of
 * readouts (oracles, which read the truth, are left out), as
 * "Site sampling, greedy: ChangeRatio 0.652 ± 0.007, the best of 4", or,
 * for a metric with no better direction (a mean estimate, say), the first
 * few policies' values. fmt formats a metric's value (experiment.js fmt);
 * metric looks a metric up in the catalog by id.
 */
export function headline(result, readouts, metric, fmt) {
  const m = metric(readouts[0]);
  const cycle = (result.dataset && result.dataset.cycleUnit) || 'cycle';
  const unit = m.unit === 'cycle' ? ` ${cycle}s` : m.unit === 'per day' ? ' per day' : '';
  const value = (s) => {
    const half = s.hi !== null && s.lo !== null && s.hi !== undefined ? (s.hi - s.lo) / 2 : null;
    return `${fmt(m, s.mean)}${half !== null && half > 0 ? ` ± ${fmt(m, half)}` : ''}${unit}`;
  };
  const all = result.policies.filter((p) => p.metrics[m.id]);
  const real = all.some((p) => !p.oracle) ? all.filter((p) => !p.oracle) : all;
  if (real.length === 0) return '';
  const sign = m.better === 'higher' ? 1 : m.better === 'lower' ? -1 : 0;
  if (sign !== 0) {
    const best = real.reduce((a, b) => (sign * (b.metrics[m.id].mean - a.metrics[m.id].mean) > 0 ? b : a));
    const of = real.length > 1 ? `, the best of ${real.length}` : '';
    return `${best.name}: ${m.name} ${value(best.metrics[m.id])}${of}.`;
  }
  const named = real.slice(0, LIST).map((p) => `${p.name} ${value(p.metrics[m.id])}`);
  const more = real.length > LIST ? `, and ${real.length - LIST} more` : '';
  return `${m.name}: ${named.join('; ')}${more}.`;
}

/**
 * Announcer says a settled result's headline in the live region el, and
 * says nothing for the runs in between. idle tells whether the panel has
 * no run under way or waiting.
 */
export class Announcer {
  constructor(el, idle) {
    this.el = el;
    this.idle = idle;
    this.timer = 0;
    this.said = '';
  }

  /**
   * A run was drawn: its headline (what text() returns, computed only
   * then) is said once the panel has stayed idle SETTLE_MS.
   */
  settled(text) {
    if (!this.el) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.idle()) return;
      const t = text();
      if (t && t !== this.said) this.say(t);
    }, SETTLE_MS);
  }

  /** Says text now (a stopped run, say). */
  say(text) {
    if (!this.el) return;
    clearTimeout(this.timer);
    this.said = text;
    this.el.textContent = text;
  }
}
