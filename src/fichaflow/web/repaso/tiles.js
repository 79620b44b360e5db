// Domino tiles drawn as SVG: ivory faces, a dividing line and dark pips. A tile is drawn from
// its two halves in the order shown (left then right, or top then bottom).

const NS = 'http://www.w3.org/2000/svg';

// Pip centres in a 40 x 40 half.
const SPOTS = {
  0: [],
  1: [[20, 20]],
  2: [[30, 10], [10, 30]],
  3: [[30, 10], [20, 20], [10, 30]],
  4: [[10, 10], [30, 10], [10, 30], [30, 30]],
  5: [[10, 10], [30, 10], [20, 20], [10, 30], [30, 30]],
  6: [[10, 10], [30, 10], [10, 20], [30, 20], [10, 30], [30, 30]],
};

function el(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function half(group, number, dx, dy, upright) {
  for (const [x, y] of SPOTS[number]) {
    // Upright halves turn their pattern a quarter so 2, 3 and 6 read as players expect.
    const [px, py] = upright ? [y, x] : [x, y];
    group.append(el('circle', { cx: dx + px, cy: dy + py, r: 4, class: 'pip' }));
  }
}

/**
 * An <svg> of the tile with halves ``a`` and ``b``: lying flat (a on the left) or upright (a on
 * top). ``label`` is what a screen reader says.
 */
export function tileSvg(a, b, { upright = false, label = `${a}-${b}`, className = '' } = {}) {
  const width = upright ? 40 : 80;
  const height = upright ? 80 : 40;
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: `tile ${upright ? 'upright' : 'flat'} ${className}`.trim(),
    role: 'img',
    'aria-label': label,
  });
  svg.append(el('rect', { x: 1, y: 1, width: width - 2, height: height - 2, rx: 6, class: 'face' }));
  if (upright) {
    svg.append(el('line', { x1: 6, y1: 40, x2: 34, y2: 40, class: 'divider' }));
    half(svg, a, 0, 0, true);
    half(svg, b, 0, 40, true);
  } else {
    svg.append(el('line', { x1: 40, y1: 6, x2: 40, y2: 34, class: 'divider' }));
    half(svg, a, 0, 0, false);
    half(svg, b, 40, 0, false);
  }
  return svg;
}

/** The halves of a tile written "6-4" (in the order written). */
export function halves(text) {
  const [a, b] = String(text).split(':')[0].split('-').map(Number);
  return [a, b];
}
