// Tiles as the protocol writes them ("6-4", high half first) and as the table draws them: SVG
// domino tiles with pips. One hidden <svg> holds the shared drawings (a tile's body and the pips
// of each number); every tile on the page is a few <use> elements pointing at them.

import { s } from './dom.js';

export const NUMBERS = [0, 1, 2, 3, 4, 5, 6];

/** The halves of a tile written "a-b", in the order written. */
export function halves(text) {
  const [a, b] = String(text).split(':')[0].split('-').map(Number);
  return [a, b];
}

/** The tile's usual name, high half first: "6-4" for "4-6". */
export function canonical(text) {
  const [a, b] = halves(text);
  return a >= b ? `${a}-${b}` : `${b}-${a}`;
}

export function isDouble(text) {
  const [a, b] = halves(text);
  return a === b;
}

export function pipsOf(text) {
  const [a, b] = halves(text);
  return a + b;
}

/** The tile number the core uses (0-0 is 0, 6-6 is 27), for sorting like the core does. */
export function tileNumber(text) {
  const [a, b] = halves(text);
  const hi = Math.max(a, b);
  const lo = Math.min(a, b);
  return (hi * (hi + 1)) / 2 + lo;
}

export function tileFromNumber(number) {
  let hi = 0;
  while (((hi + 1) * (hi + 2)) / 2 <= number) hi += 1;
  return `${hi}-${number - (hi * (hi + 1)) / 2}`;
}

// Pip centres in a 100 x 100 half, for a half standing upright (the tile drawn vertically).
const L = 27;
const M = 50;
const R = 73;
const PIP_SPOTS = {
  0: [],
  1: [[M, M]],
  2: [[R, L], [L, R]],
  3: [[R, L], [M, M], [L, R]],
  4: [[L, L], [R, L], [L, R], [R, R]],
  5: [[L, L], [R, L], [M, M], [L, R], [R, R]],
  6: [[L, L], [R, L], [L, M], [R, M], [L, R], [R, R]],
};

/** The shared drawings, once per page: a tile's body, its back, and the pips of 0..6. */
export function tileDefs() {
  const defs = s('defs', {},
    s('linearGradient', { id: 'ff-ivory', x1: '0', y1: '0', x2: '1', y2: '1' },
      s('stop', { offset: '0', 'stop-color': '#fffdf6' }),
      s('stop', { offset: '1', 'stop-color': '#efe6d2' })),
    s('linearGradient', { id: 'ff-back', x1: '0', y1: '0', x2: '1', y2: '1' },
      s('stop', { offset: '0', 'stop-color': '#2d3b36' }),
      s('stop', { offset: '1', 'stop-color': '#18211e' })),
    s('g', { id: 'ff-body' },
      s('rect', { x: 3, y: 3, width: 94, height: 194, rx: 14, fill: '#cfc3a7' }),
      s('rect', { x: 3, y: 1, width: 94, height: 192, rx: 14, fill: 'url(#ff-ivory)',
        stroke: '#b9ab8c', 'stroke-width': 2 }),
      s('line', { x1: 16, y1: 97, x2: 84, y2: 97, stroke: '#8f8468', 'stroke-width': 3,
        'stroke-linecap': 'round' }),
      s('circle', { cx: 50, cy: 97, r: 5, fill: '#b8913a' })),
    s('g', { id: 'ff-back-body' },
      s('rect', { x: 3, y: 3, width: 94, height: 194, rx: 14, fill: '#0c1210' }),
      s('rect', { x: 3, y: 1, width: 94, height: 192, rx: 14, fill: 'url(#ff-back)',
        stroke: '#44554e', 'stroke-width': 2 }),
      s('circle', { cx: 50, cy: 97, r: 6, fill: '#b8913a' })),
  );
  for (const n of NUMBERS) {
    defs.append(
      s('g', { id: `ff-pips-${n}` },
        ...PIP_SPOTS[n].map(([x, y]) => s('circle', { cx: x, cy: y - 3, r: 9.5, fill: '#1c1b19' }))),
    );
  }
  return s('svg', { width: 0, height: 0, 'aria-hidden': 'true', class: 'ff-defs' }, defs);
}

/**
 * A tile as SVG content in a 100 x 200 box standing upright: ``top`` pips above, ``bottom``
 * below. Callers rotate it to lie flat.
 */
export function tileBody(top, bottom) {
  return [
    s('use', { href: '#ff-body' }),
    s('use', { href: `#ff-pips-${top}` }),
    s('use', { href: `#ff-pips-${bottom}`, y: 97 }),
  ];
}

/**
 * A <g> that draws a tile in a ``w`` x ``h`` box at (x, y): upright when the box is taller than
 * wide (``first`` on top), else lying flat (``first`` on the left).
 */
export function placedTile(first, second, x, y, w, h, attrs = {}) {
  const upright = h > w;
  const unit = upright ? w / 100 : h / 100;
  const transform = upright
    ? `translate(${x} ${y}) scale(${unit})`
    : `translate(${x} ${y + h}) rotate(-90) scale(${unit})`;
  return s('g', { transform, ...attrs }, ...tileBody(first, second));
}

/** A standalone upright tile (for the player's hand and the summaries). */
export function tileSvg(text, { upright = true, className = 'tile-svg' } = {}) {
  const [a, b] = halves(text);
  const box = upright ? '0 0 100 200' : '0 0 200 100';
  const drawing = upright ? tileBody(a, b) : [placedTile(a, b, 0, 0, 200, 100)];
  return s('svg', { viewBox: box, class: className, 'aria-hidden': 'true', focusable: 'false' },
    ...drawing);
}

/** A tile's back, small, for the other players' tile counts. */
export function tileBackSvg() {
  return s('svg', { viewBox: '0 0 100 200', class: 'tile-back', 'aria-hidden': 'true',
    focusable: 'false' }, s('use', { href: '#ff-back-body' }));
}
