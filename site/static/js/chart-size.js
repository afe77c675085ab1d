// Charts are drawn at the width they are shown at: the page asks the lab
// (POST /api/chart) for each chart as wide as its box, so the SVG is never
// scaled down and its text stays at the 12 pixels or more the chart package
// sets. This module measures the box and asks for a redraw when it changes
// (a turned phone, a resized window), never on a slider's press.

import { post } from './api.js';

/**
 * The width, in whole CSS pixels, of a chart shown in container: its box's
 * width rounded down (clientWidth rounds to the nearest, and a chart half a
 * pixel wider than its box would be scaled down).
 */
export function chartWidth(container) {
  const fig = container.querySelector('figure.chart');
  const w = (fig || container).getBoundingClientRect().width;
  if (w > 0 || fig) return Math.floor(w);
  // Before the first chart, in a pinned panel whose charts' box lays its
  // figures out in the panel itself (display: contents): the panel's
  // width inside its padding, so that the first draw is the right size.
  const panel = container.closest('.lab-panel');
  if (!panel) return 0;
  const cs = getComputedStyle(panel);
  return Math.floor(panel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
}

/**
 * The height, in whole CSS pixels, that the first chart of container may
 * take when the experiment panel beside the narrative is pinned (a wide
 * screen): what the panel shows below the controls, so that a slider and
 * the chart it moves are on one screen. 0 where the panel is not pinned,
 * for the chart to choose its height from its width.
 */
export function firstChartHeight(container) {
  const panel = container.closest('.lab-panel');
  if (!panel || getComputedStyle(panel).position !== 'sticky') return 0;
  const fig = container.querySelector('figure.chart');
  const at = (e) => e.getBoundingClientRect().top - panel.getBoundingClientRect().top + panel.scrollTop;
  // Before the first chart: it will follow the panel's parts that come
  // first (its heading and controls), so below the lowest of them.
  const top = fig ? at(fig) : Math.max(0, ...[...panel.children]
    .filter((e) => e.getClientRects().length && (parseInt(getComputedStyle(e).order, 10) || 0) === 0)
    .map((e) => at(e) + e.getBoundingClientRect().height + parseFloat(getComputedStyle(e).marginBottom)));
  // The panel's most height, not its height, which the chart itself sets.
  const most = parseFloat(getComputedStyle(panel).maxHeight) || panel.clientHeight;
  return Math.max(MIN_PINNED_HEIGHT, Math.floor(most - top - 8));
}

// How far the room for a pinned first chart may differ from the height it
// was drawn at before it is drawn again.
const HEIGHT_SLACK = 24;

// The least height a pinned first chart is drawn at, however little room
// the controls leave: below it a chart's plot is too flat to read.
const MIN_PINNED_HEIGHT = 300;

/**
 * Keeps the width of every chart spec (specs() lists them) equal to the
 * width charts get in container, and calls redraw when it changes.
 * Returns set(), to size specs that replaced the old ones, and check(), to
 * call after charts are drawn: the first time, it measures a drawn chart's
 * box (the container may hold several side by side) once the frame is
 * painted.
 */
export function sizeCharts(container, specs, redraw) {
  let width = 0;
  let height = 0; // the first chart's, where the panel is pinned
  let measuredFigure = false;
  const size = (s, i) => {
    s.width = width;
    if (i === 0 && height > 0) s.height = height;
    else delete s.height;
  };
  const apply = () => {
    const w = chartWidth(container);
    const h = firstChartHeight(container);
    measuredFigure = !!container.querySelector('figure.chart');
    // A height within a few pixels of the drawn one is not worth a redraw
    // (the first draw's height is estimated before its figure exists).
    if (!(w > 0) || (w === width && Math.abs(h - height) <= HEIGHT_SLACK)) return false;
    width = w;
    height = h;
    specs().forEach(size);
    return true;
  };
  const set = () => { if (width > 0) specs().forEach(size); };
  apply();
  if (typeof ResizeObserver === 'function') {
    let timer = 0;
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { if (apply()) redraw(); }, 120);
    };
    new ResizeObserver(later).observe(container);
    // A pinned panel's height follows the window's.
    addEventListener('resize', later);
  }
  return {
    /** Sets the current width on specs (new ones, after a reconfigure). */
    set,
    /** Measures again (the panel's controls now built), before a first draw. */
    measure: apply,
    /** After a draw: measures a drawn chart once, and redraws if it differs. */
    check() {
      if (measuredFigure) return;
      requestAnimationFrame(() => setTimeout(() => { if (apply()) redraw(); }, 0));
    },
  };
}

/**
 * The SVG of each chart spec of result, drawn anew (at the specs' widths)
 * from the result the lab remembers by id, or from the result itself when
 * it no longer does; null if any could not be drawn.
 */
export async function chartsOf(result, specs) {
  const one = async (chart) => {
    let r = await post('/api/chart', { id: result.id, chart });
    if (r.status === 404) r = await post('/api/chart', { result, chart });
    return r.ok ? r.body : null;
  };
  const svgs = await Promise.all(specs.map(one));
  return svgs.every((s) => s !== null) ? svgs : null;
}
