// Tiles as the game's table draws them (its own module, /js/tiles.js), so that a reviewed hand
// looks like the hand that was played; this adds what the Repaso needs: each tile's name for
// screen readers, and the drawings' shared definitions once per page.

import { halves, tileDefs, tileSvg as drawTile } from '/js/tiles.js';

let defined = false;

/**
 * An <svg> of the tile with halves ``a`` and ``b``: lying flat (a on the left) or upright (a on
 * top). ``label`` is what a screen reader says.
 */
export function tileSvg(a, b, { upright = false, label = `${a}-${b}`, className = '' } = {}) {
  if (!defined) {
    document.body.prepend(tileDefs());
    defined = true;
  }
  const classes = `tile ${upright ? 'upright' : 'flat'} ${className}`.trim();
  const svg = drawTile(`${a}-${b}`, { upright, className: classes });
  svg.removeAttribute('aria-hidden');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  return svg;
}

export { halves };
