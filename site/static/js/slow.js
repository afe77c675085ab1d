// Runs the lab expects to be slow: a lesson's experiment moved to a large
// dataset (the 300,000-page web archive takes many seconds) says so before
// it starts, and runs policy by policy with a progress bar and Stop
// (experiment.js runProgressively), and the dataset menu warns about such
// datasets before one is chosen.

/** A run expected to take longer than this (ms) is announced and can be stopped. */
export const SLOW_MS = 2000;

/** The work of one repeat on a dataset grows with its pages times its cycles. */
const size = (d) => (d && d.pages && d.cycles ? d.pages * d.cycles : undefined);

/**
 * The ms the lab is expected to take for spec: the panel's latest pace per
 * repeat (experiment.js Pace, of its latest run, on the dataset of result)
 * times spec's repeats, scaled by how much larger spec's dataset (found in
 * datasets, the catalog's) is than result's. undefined before the first
 * run. (Pace's remembered runs by size are not used: they may be of
 * another dataset.)
 */
export function expectedMs(pace, spec, result, datasets) {
  const per = pace.perRepeat();
  if (per === undefined || !result) return undefined;
  const ms = per * (spec.repeats || 10);
  const to = datasets.find((d) => d.id === (spec.dataset && spec.dataset.id));
  const from = size(result.dataset);
  const scale = size(to) && from ? size(to) / from : 1;
  return ms * scale;
}

/** A dataset's menu entry: its name, and for one expected to be slow its size and how long a run takes. */
export function datasetLabel(d, ms) {
  if (ms === undefined || ms <= SLOW_MS) return d.name;
  return `${d.name}: ${d.pages.toLocaleString('en')} pages, slow (a run takes about ${seconds(ms)})`;
}

/** ms in words, for a notice. */
export function seconds(ms) {
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} minutes`;
}

/**
 * Relabels the options of a dataset menu for spec's other datasets at the
 * panel's pace: called when the menu gets the focus, before it opens, so
 * the warning reflects the runs seen so far and costs nothing per press.
 */
export function labelDatasets(select, spec, pace, result, datasets) {
  for (const o of select.options) {
    const d = datasets.find((x) => x.id === o.value);
    if (!d) continue;
    const ms = expectedMs(pace, { ...spec, dataset: { ...(spec.dataset || {}), id: d.id } }, result, datasets);
    o.textContent = datasetLabel(d, ms);
  }
}
