// Paso automático, the page's side. The mesa may have it on (the server then passes for whoever
// can only pass); a player may also turn it on for themselves alone (prefs.js): then this page,
// once it shows that the player can only pass, waits a moment the player can see and sends the
// «Paso» they would have sent. Nothing else changes: the pass is the player's, announced as any.

import { autoPassOn } from './prefs.js';

export const AUTO_PASS_MS = 1000;
let waiting = null; // the turn the page will pass at: "hand.turns"

/** The player's turn holds nothing but a pass, and someone (the mesa or the player) passes. */
export function passesByItself(app) {
  const view = app.state.view;
  const mine = view && !view.ended && view.turn === app.mySeat() && app.mySeat() !== null;
  if (!mine || (view.legal || []).join() !== 'pass') return false;
  return Boolean(app.state.mesa?.options?.auto_pass || autoPassOn());
}

function turnKey(view) {
  return `${view.hand_number}.${view.history.length}`;
}

/** After each redraw: start the moment before the page's own pass, when it is the page's to do
 * (with the mesa's option on the server passes, and the page must not pass twice). */
export function considerAutoPass(app) {
  if (!passesByItself(app) || app.state.mesa.options.auto_pass || app.state.pending) return;
  const key = turnKey(app.state.view);
  if (waiting === key) return;
  waiting = key;
  setTimeout(() => {
    const view = app.state.view;
    const still = passesByItself(app) && !app.state.pending && turnKey(view) === key;
    waiting = null;
    if (still && !app.state.mesa.options.auto_pass) app.play('pass');
  }, AUTO_PASS_MS);
}
