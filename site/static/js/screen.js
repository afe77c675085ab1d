// How the lab's pages fit the screen they are on and read to a screen
// reader: the experiment's controls on a narrow screen (the lesson's main
// slider pinned to the bottom, so that it moves the charts the learner has
// scrolled to), the help behind a toggle in the compact side panel of a
// wide one, tables that scroll inside a focusable region rather than the
// page sideways, and the accessible text of sliders. lab.css lays the
// rest out.

// Below this width a lesson is one column (lab.css: the side-by-side
// layout starts at 1100px), and its main slider is pinned to the bottom.
const ONE_COLUMN = '(max-width: 1099.98px)';

/**
 * Wraps el (a table, or what holds one) in a region that scrolls
 * sideways when it is wider than the screen, and that the keyboard can
 * reach and scroll (tabindex), named by label. Returns the region.
 */
export function scrollRegion(el, label) {
  const region = document.createElement('div');
  region.className = 'table-scroll';
  region.tabIndex = 0;
  region.setAttribute('role', 'region');
  region.setAttribute('aria-label', label);
  region.append(el);
  return region;
}

/** Makes an existing .table-scroll region reachable and named, as scrollRegion does. */
export function asScrollRegion(region, label) {
  region.tabIndex = 0;
  region.setAttribute('role', 'region');
  region.setAttribute('aria-label', label);
  return region;
}

/**
 * Lets the keyboard reach each displayed formula under root that is wider
 * than its box (lab.css scrolls it sideways there), and only those: a
 * formula that fits is no tab stop. Watched as the screen's width changes.
 */
export function reachableFormulas(root = document) {
  const formulas = root.querySelectorAll('math[display="block"]');
  if (formulas.length === 0) return;
  const fit = new ResizeObserver((entries) => {
    for (const { target: m } of entries) {
      if (m.scrollWidth > m.clientWidth + 1) {
        m.tabIndex = 0;
      } else {
        m.removeAttribute('tabindex');
      }
    }
  });
  for (const m of formulas) fit.observe(m);
}

/**
 * The unit a slider's value reads in, from its label: the label's closing
 * words in parentheses when they are lower-case words ("Crawl interval
 * (days)": days), else the label itself when it counts things per
 * something ("Downloads per cycle": a plural first, a leading symbol such
 * as "κ, " dropped), else none ("Seed").
 */
export function unitOf(label) {
  const paren = /\(([^()]*)\)\s*$/.exec(label);
  if (paren && /^[a-z][a-z ]*$/.test(paren[1].trim())) return paren[1].trim();
  const bare = label.replace(/\s*\([^()]*\)\s*$/, '').replace(/^\S{1,2},\s+/, '');
  if (/^\S+s\s.*\bper\s/.test(bare)) return bare.charAt(0).toLowerCase() + bare.slice(1);
  return '';
}

/**
 * A slider's aria-valuetext: its value and unit ("114 downloads per
 * cycle", "1 day": a plural first word made singular for 1), and whether
 * the lab computed it ("(auto)").
 */
export function valueText(label, value, auto = false) {
  let unit = unitOf(label);
  if (unit && Number(value) === 1) unit = unit.replace(/^(\S+?)s\b/, '$1');
  return `${value}${unit ? ` ${unit}` : ''}${auto ? ', computed by the lab (auto)' : ''}`;
}

/**
 * Sets up a lesson page's screen behaviours around its mounted experiment
 * x (experiment.js): the narrative's live numbers are not live regions
 * (they change at every press; the panel announces the headline once),
 * its tables scroll inside their own region and its wide formulas are
 * reachable by keyboard, the help toggle works, and
 * on one column the main slider is pinned to the bottom of the screen.
 */
export function mountScreen(x) {
  for (const o of document.querySelectorAll('.narrative output')) o.setAttribute('aria-live', 'off');
  for (const t of document.querySelectorAll('.narrative table')) {
    if (t.parentElement.classList.contains('table-scroll')) continue;
    const [parent, next] = [t.parentNode, t.nextSibling];
    const head = [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim()).join(', ');
    parent.insertBefore(scrollRegion(t, head ? `Table of ${head}` : 'Table'), next);
  }
  reachableFormulas();
  helpToggle(x);
  pinMainControl(x);
}

/** The panel's "Show help" button shows or hides every control's help. */
function helpToggle(x) {
  const button = x.root.querySelector('#help-toggle');
  if (!button || !x.form) return;
  button.addEventListener('click', () => {
    const show = !x.form.classList.contains('show-help');
    x.form.classList.toggle('show-help', show);
    button.setAttribute('aria-expanded', String(show));
    button.textContent = show ? 'Hide help' : 'Show help';
  });
}

/**
 * On one column, moves the panel's first slider (the lesson's main
 * control, with its label and value) into a bar pinned to the bottom of
 * the screen, and back into the panel on a wider screen. The control is
 * moved, not copied: one input, one value.
 */
function pinMainControl(x) {
  const main = x.form && x.form.querySelector('.control.range');
  if (!main) return;
  const bar = document.createElement('div');
  bar.className = 'control-bar';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', 'The main control, kept on screen');
  const home = document.createComment('the main control, when not pinned');
  main.before(home);
  x.root.append(bar);
  const one = matchMedia(ONE_COLUMN);
  const place = () => {
    const focused = main.contains(document.activeElement) ? document.activeElement : null;
    if (one.matches) bar.append(main);
    else home.after(main);
    bar.hidden = !one.matches;
    document.documentElement.classList.toggle('has-bar', one.matches);
    if (focused) focused.focus();
  };
  one.addEventListener('change', place);
  place();
}
