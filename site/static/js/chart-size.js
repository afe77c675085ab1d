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
  return Math.floor((fig || container).getBoundingClientRect().width);
}

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
  let measuredFigure = false;
  const apply = () => {
    const w = chartWidth(container);
    measuredFigure = !!container.querySelector('figure.chart');
    if (!(w > 0) || w === width) return false;
    width = w;
    for (const s of specs()) s.width = w;
    return true;
  };
  const set = () => { for (const s of specs()) if (width > 0) s.width = width; };
  apply();
  if (typeof ResizeObserver === 'function') {
    let timer = 0;
    new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => { if (apply()) redraw(); }, 120);
    }).observe(container);
  }
  return {
    /** Sets the current width on specs (new ones, after a reconfigure). */
    set,
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
