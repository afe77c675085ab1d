// Hovering or focusing a chart's point shows its exact value and interval.
// The chart package marks each point and bar it draws as class "pt" with a
// <title> that says it in words ("Random, day 3: 0.1801 (interval 0.162 to
// 0.1983)"); this module shows that text in a tooltip beside the point, for
// the pointer, and for the keyboard: a chart takes the focus (Tab) and the
// arrow keys step through its points, Home and End jump to the first and
// last, Escape hides the tooltip.

const tip = document.createElement('div');
tip.className = 'chart-tip';
tip.setAttribute('role', 'status');
tip.hidden = true;
let active = null;

/** The text of point p, moved from its <title> (which would show a second, slower tooltip). */
function textOf(p) {
  if (p.dataset.tip === undefined) {
    const t = p.querySelector('title');
    p.dataset.tip = t ? t.textContent : '';
    if (t) t.remove();
  }
  return p.dataset.tip;
}

function show(p, x, y) {
  const text = textOf(p);
  if (!text) return hide();
  if (active && active !== p) active.classList.remove('pt-active');
  active = p;
  p.classList.add('pt-active');
  if (!tip.isConnected) document.body.append(tip);
  tip.textContent = text;
  tip.hidden = false;
  const r = p.getBoundingClientRect();
  const px = x === undefined ? r.left + r.width / 2 : x;
  const py = y === undefined ? r.top : y;
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  const left = Math.max(4, Math.min(window.innerWidth - w - 4, px - w / 2));
  const top = py - h - 10 >= 4 ? py - h - 10 : py + 18;
  tip.style.left = `${left + window.scrollX}px`;
  tip.style.top = `${top + window.scrollY}px`;
}

function hide() {
  tip.hidden = true;
  if (active) active.classList.remove('pt-active');
  active = null;
}

/** Makes every chart drawn in container show its points' values on hover and focus. */
export function chartTooltips(container) {
  container.addEventListener('pointermove', (e) => {
    const p = e.target.closest && e.target.closest('.pt');
    if (p && container.contains(p)) show(p, e.clientX, e.clientY);
    else if (active && !(document.activeElement && document.activeElement.contains(active))) hide();
  });
  container.addEventListener('pointerleave', () => {
    if (!(active && document.activeElement && document.activeElement.contains(active))) hide();
  });
  container.addEventListener('focusin', (e) => {
    const svg = e.target.closest && e.target.closest('svg');
    if (!svg) return;
    const pts = svg.querySelectorAll('.pt');
    if (pts.length) show(pts[0]);
  });
  container.addEventListener('focusout', hide);
  container.addEventListener('keydown', (e) => {
    const svg = e.target.closest && e.target.closest('svg');
    if (!svg) return;
    const pts = [...svg.querySelectorAll('.pt')];
    if (!pts.length) return;
    const i = active ? pts.indexOf(active) : -1;
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: pts.length - 1 }[e.key];
    if (e.key === 'Escape') {
      hide();
      return;
    }
    if (to === undefined) return;
    e.preventDefault();
    show(pts[Math.max(0, Math.min(pts.length - 1, to))]);
  });
}

/** Lets the keyboard reach svg's points: the chart takes the focus when it has any. */
export function focusablePoints(svg) {
  if (svg.querySelector && svg.querySelector('.pt')) {
    svg.setAttribute('tabindex', '0');
    svg.setAttribute('aria-keyshortcuts', 'ArrowLeft ArrowRight Home End');
  }
}
