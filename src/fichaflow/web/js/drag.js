// Drag to play, beside tapping: a tile of the hand picked up (mouse, finger or pen) follows the
// pointer and is played where it is dropped on the line: at the end it is dropped nearer to,
// when it fits both; at its one end when it fits one; as the salida on an empty line. Dropped
// anywhere else it goes back to the hand. A short press that does not move stays a tap, and the
// keyboard plays as before: this only adds a way.
//
// The listeners sit on the page's root, so they outlive the redraws each server message brings;
// the tile under the finger is a copy on top of the page, placed through its style object.

import { movesByTile } from './table.js';
import { tileSvg } from './tiles.js';

const START_PX = 8;
let drag = null;

/** Watch ``root`` for tiles dragged out of the hand. */
export function dragToPlay(app, root) {
  root.addEventListener('pointerdown', (event) => {
    const tile = event.target.closest?.('.hand-tile');
    if (!tile || event.button > 0 || drag) return;
    drag = { tile: tile.dataset.tile, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });
  window.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < START_PX) return;
      if (!canPlay(app)) {
        drag = null;
        return;
      }
      drag.ghost = ghost(root, drag.tile);
      document.body.classList.add('dragging-tile');
    }
    event.preventDefault();
    place(drag.ghost, event.clientX, event.clientY);
    root.querySelector('.line-area')?.classList.toggle('drop-here', overLine(root, event));
  }, { passive: false });
  window.addEventListener('pointerup', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const done = drag;
    drag = null;
    if (!done.ghost) return; // a tap: the click plays it
    finish(root, done);
    swallowClick();
    const move = moveAt(app, root, done.tile, event);
    if (move) app.play(move);
  });
  window.addEventListener('pointercancel', () => {
    if (drag?.ghost) finish(root, drag);
    drag = null;
  });
}

function canPlay(app) {
  const view = app.state.view;
  return Boolean(view && !view.ended && view.turn === app.mySeat() && !app.state.pending);
}

function ghost(root, tile) {
  const from = root.querySelector(`.hand-tile[data-tile="${tile}"]`);
  const box = from?.getBoundingClientRect();
  const copy = document.createElement('div');
  copy.className = 'drag-ghost';
  copy.setAttribute('aria-hidden', 'true');
  copy.append(tileSvg(tile));
  Object.assign(copy.style, { width: `${box?.width || 40}px`, height: `${box?.height || 80}px` });
  document.body.append(copy);
  return copy;
}

function place(copy, x, y) {
  const box = copy.getBoundingClientRect();
  Object.assign(copy.style, { left: `${x - box.width / 2}px`, top: `${y - box.height / 2}px` });
}

function finish(root, done) {
  done.ghost.remove();
  document.body.classList.remove('dragging-tile');
  root.querySelector('.line-area')?.classList.remove('drop-here');
}

/** A drag ends with a click on whatever is under the pointer: that click is not a tap. */
function swallowClick() {
  const stop = (event) => {
    event.stopPropagation();
    event.preventDefault();
  };
  window.addEventListener('click', stop, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', stop, { capture: true }), 0);
}

function overLine(root, event) {
  const area = root.querySelector('.line-area');
  if (!area) return false;
  const box = area.getBoundingClientRect();
  return event.clientX >= box.left && event.clientX <= box.right
    && event.clientY >= box.top && event.clientY <= box.bottom;
}

/** The move a drop at the pointer makes, if the tile was dropped on the line and fits. */
function moveAt(app, root, tile, event) {
  if (!canPlay(app) || !overLine(root, event)) return null;
  const moves = movesByTile(app.state.view.legal).get(tile);
  if (!moves) {
    app.tapTile(tile); // says why it does not fit, as a tap does
    return null;
  }
  if (moves.lead) return moves.lead;
  if (!(moves.left && moves.right)) return moves.left || moves.right;
  const ends = lineEnds(root, app.state.view.line.length);
  if (!ends) return null;
  if (ends.lone) return event.clientX < ends.left.x ? moves.left : moves.right;
  const far = (end) => Math.hypot(event.clientX - end.x, event.clientY - end.y);
  return far(ends.left) <= far(ends.right) ? moves.left : moves.right;
}

/** The screen centres of the line's first and last tiles (one tile alone: a lone salida,
 * whose left end is its left side on the screen). */
function lineEnds(root, length) {
  const first = root.querySelector('.line-tile[data-index="0"]');
  const last = root.querySelector(`.line-tile[data-index="${length - 1}"]`);
  if (!first || !last) return null;
  const at = (element) => {
    const box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  };
  return { left: at(first), right: at(last), lone: first === last };
}
