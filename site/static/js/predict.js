// A lesson's predictions: each "Try this" step asks the learner to commit
// to a guess (a number, an interval or a policy) before it shows anything.
// Once the guess is in, the lab runs the lesson's experiment at the step's
// setting (the spec the build made with the lab's field resolver), here in
// the tab, and the page shows what it computed beside the guess, then the
// author's explanation, which was hidden until then. No answer is written
// in the page: it is computed from the lab's result each time.
//
// The forms are the build's (site/lesson predictionsHTML): plain radio
// buttons or a number field in a fieldset whose legend is the question, so
// they work from the keyboard and read well to a screen reader; when the
// answer appears the focus moves to it, so it is read out without a live
// region of its own.

import { runWithCharts, errorOf } from './api.js';
import { catalog, fmt, keyOf, el } from './experiment.js';

const config = JSON.parse(document.getElementById('lesson-config').textContent);
const predictions = config.predictions || [];

for (const item of document.querySelectorAll('li.predict[data-predict]')) {
  const p = predictions[Number(item.dataset.predict)];
  const form = item.querySelector('form');
  if (!p || !form) continue;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    reveal(item, form, p);
  });
}

/** The learner's guess: the chosen option's index, or the number typed; null when none. */
function guessOf(form, p) {
  if (p.options && p.options.length) {
    const on = form.querySelector('input[type=radio]:checked');
    return on ? Number(on.value) : null;
  }
  const v = form.querySelector('input[type=number]').valueAsNumber;
  return Number.isFinite(v) ? v : null;
}

/** Locks the guess in, runs the prediction's experiment and shows the answer. */
async function reveal(item, form, p) {
  const guess = guessOf(form, p);
  if (guess === null) return; // the form's own validation says what is missing
  const button = form.querySelector('button[type=submit]');
  for (const input of form.querySelectorAll('input')) input.disabled = true;
  button.disabled = true;
  button.textContent = 'Computing…';
  item.setAttribute('aria-busy', 'true');
  const answer = item.querySelector('.predict-answer');
  const out = answer.querySelector('.predict-result');
  let lines;
  try {
    const [cat, got] = await Promise.all([catalog(), runWithCharts(p.spec, [], undefined, true)]);
    if (!got.run.ok) throw new Error(errorOf(got.run).error);
    lines = explain(p, guess, got.run.json(), cat, item);
  } catch (err) {
    lines = [el('span', { class: 'error-text', text: `The lab could not compute the answer: ${err.message}` })];
  }
  out.replaceChildren(...lines);
  if (!answer.querySelector('.predict-see')) {
    const href = `?spec=${encodeURIComponent(JSON.stringify(p.spec))}#experiment`;
    answer.append(el('p', { class: 'predict-see' }, el('a', { href }, 'Open the experiment at this setting')));
  }
  item.removeAttribute('aria-busy');
  button.textContent = 'Guess locked in';
  item.classList.add('revealed');
  answer.hidden = false;
  answer.focus();
}

/** What a policy of result scores on the prediction's metric or fact: {v, half} or null. */
function valueOf(result, key, id) {
  const q = result.policies.find((x) => keyOf(x) === key);
  if (!q) return null;
  const s = q.metrics && q.metrics[id];
  if (s) return { v: s.mean, half: s.hi !== null && s.lo !== null && s.hi !== undefined ? (s.hi - s.lo) / 2 : null, name: q.name };
  const f = q.facts && q.facts[id];
  return f === undefined ? null : { v: f, half: null, name: q.name };
}

/**
 * The answer as elements: what the lab computed (with its interval where
 * it has one), the guess beside it, and whether the guess was right; it
 * also marks the right option in the form.
 */
function explain(p, guess, result, cat, item) {
  const m = cat.metrics.find((x) => x.id === p.metric) || (cat.facts || []).find((x) => x.id === p.metric) || { name: p.metric, unit: p.unit };
  const show = (v) => fmt({ unit: p.unit }, v);
  const strong = (t) => el('strong', { text: t });
  const at = `(${p.at})`;
  const verdict = (right) => el('span', { class: right ? 'verdict right' : 'verdict wrong', text: right ? 'Your guess was right.' : 'Not this time.' });
  const mark = (index) => {
    const input = item.querySelector(`input[type=radio][value="${index}"]`);
    if (input) input.closest('label').append(el('span', { class: 'lab-answer', text: ' ← the lab’s answer' }));
  };

  if (p.options && p.options.length && p.options[0].policy) {
    // Which policy is highest (or lowest)?
    const scored = p.options.map((o, i) => ({ i, label: o.label, s: valueOf(result, o.policy, p.metric) })).filter((x) => x.s);
    if (scored.length !== p.options.length) throw new Error(`the result lacks ${m.name} for some of the choices`);
    const best = scored.reduce((a, b) => ((p.pick === 'lowest' ? b.s.v < a.s.v : b.s.v > a.s.v) ? b : a));
    mark(best.i);
    const list = el('ul', { class: 'predict-values' }, [...scored].sort((a, b) => (p.pick === 'lowest' ? a.s.v - b.s.v : b.s.v - a.s.v))
      .map((x) => el('li', {}, `${x.label}: `, strong(show(x.s.v)), x.s.half !== null ? ` ± ${show(x.s.half)}` : '')));
    return [verdict(best.i === guess), ` The lab computed ${m.name} ${at}: ${p.pick} is `, strong(best.label), `. You chose ${p.options[guess].label}.`, list];
  }

  const a = valueOf(result, p.policy, p.metric);
  const b = p.minus ? valueOf(result, p.minus, p.metric) : null;
  if (!a || (p.minus && !b)) throw new Error(`the result lacks ${m.name} for ${p.minus && !b ? p.minus : p.policy}`);
  const v = b ? a.v - b.v : a.v;
  const what = b
    ? [`${a.name}’s ${m.name} ${at} is `, strong(show(a.v)), `, ${b.name}’s `, strong(show(b.v)), ': a difference of ', strong(show(v)), '.']
    : [`${a.name}’s ${m.name} ${at} is `, strong(show(v)), a.half !== null ? ` (± ${show(a.half)}, its 95% interval across repeats)` : '', '.'];
  if (p.options && p.options.length) {
    // Which interval holds it?
    const index = p.options.findIndex((o) => (o.lo === undefined || v >= o.lo) && (o.hi === undefined || v < o.hi));
    mark(index);
    return [verdict(index === guess), ' The lab computed: ', ...what, ` That is ${p.options[index].label}; you chose ${p.options[guess].label}.`];
  }
  const off = Math.abs(guess - v);
  return [verdict(off <= p.tolerance), ' The lab computed: ', ...what,
    ` Your guess, ${guess}, is ${show(off)} away${off <= p.tolerance ? ', within' : ', outside'} the ± ${p.tolerance} the question allowed.`];
}
