// Charts are drawn at the width they are shown at: the page asks the lab
// (POST /api/chart) for each chart as wide as its box, so the SVG is never
// scaled down and its text stays at the 12 pixels or more the chart package
// sets. This module measures the box and asks for a redraw when it changes
// (a turned phone, a resized window), never on a slider's press.

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
 * Returns check(), to call after charts are drawn: the first time, it
 * measures a drawn chart's box (the container may hold several side by
 * side) once the frame is painted.
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
