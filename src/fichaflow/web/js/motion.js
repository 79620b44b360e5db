// The table in motion: a tile just played travels from its player's place (or from the hand,
// for the player's own) to its place in the line, and the tiles already down glide to where a
// new bend puts them. The screen is drawn afresh for each message; this module measures where
// things were before (``before``) and animates each from there to where it is now (``after``),
// with the Web Animations API (no style attribute: the pages' policy allows none).
// ``prefers-reduced-motion: reduce`` turns it all off.
//
// Each batch of animations started is announced as a ``fichaflow:motion`` event on ``window``
// (detail: ``travel``, the tiles travelling, and ``glide``, the tiles re-flowing).

const TRAVEL_MS = 320;
const GLIDE_MS = 260;
const quiet = window.matchMedia('(prefers-reduced-motion: reduce)');

function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2, w: box.width, h: box.height };
}

/** Where the line's tiles, the hand's tiles and the players' places are, before a redraw. */
export function before(root) {
  if (quiet.matches) return null;
  const line = new Map();
  for (const tile of root.querySelectorAll('.line-tile')) line.set(tile.dataset.tile, centre(tile));
  const hand = new Map();
  for (const tile of root.querySelectorAll('.hand-tile')) hand.set(tile.dataset.tile, centre(tile));
  const seats = new Map();
  for (const chip of root.querySelectorAll('.player[data-seat]')) seats.set(chip.dataset.seat, centre(chip));
  return { line, hand, seats };
}

/** The tile played last, and by whom, from the view's public history. */
function lastPlay(view) {
  const history = view?.history || [];
  for (let i = history.length - 1; i >= 0; i -= 1) {
    if (history[i].kind === 'play') return history[i];
  }
  return null;
}

function canonical(text) {
  const [a, b] = String(text).split('-').map(Number);
  return a >= b ? `${a}-${b}` : `${b}-${a}`;
}

/** Wrap an SVG tile in a group of its own, so that moving it leaves its own placement alone. */
function mover(tile) {
  const group = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  group.setAttribute('class', 'ff-mover');
  tile.replaceWith(group);
  group.append(tile);
  return group;
}

/** After the redraw: each tile of the line moves from where it was to where it is now. */
export function after(root, was, view) {
  // Nothing was on the table before (the first drawing, a reload): nothing to move from.
  if (!was || quiet.matches || !(was.line.size || was.seats.size)) return;
  const played = lastPlay(view);
  const newest = played ? canonical(played.tile) : null;
  let travel = 0;
  let glide = 0;
  for (const tile of root.querySelectorAll('.line-tile')) {
    const key = tile.dataset.tile;
    const now = centre(tile);
    const old = was.line.get(key);
    if (old) {
      const dx = old.x - now.x;
      const dy = old.y - now.y;
      if (Math.hypot(dx, dy) < 1) continue;
      mover(tile).animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }],
        { duration: GLIDE_MS, easing: 'ease-in-out', id: 'ff-glide' },
      );
      glide += 1;
    } else if (key === newest) {
      const from = was.hand.get(key) || was.seats.get(String(played.seat));
      if (!from) continue;
      const scale = Math.max(0.4, Math.min(1.6, from.h / Math.max(now.h, now.w, 1)));
      mover(tile).animate([
        { transform: `translate(${from.x - now.x}px, ${from.y - now.y}px) scale(${scale})`, opacity: 0.6 },
        { transform: 'translate(0, 0) scale(1)', opacity: 1 },
      ], { duration: TRAVEL_MS, easing: 'cubic-bezier(.2,.7,.3,1)', id: 'ff-travel' });
      travel += 1;
    }
  }
  if (travel || glide) {
    window.dispatchEvent(new CustomEvent('fichaflow:motion', { detail: { travel, glide } }));
  }
}
