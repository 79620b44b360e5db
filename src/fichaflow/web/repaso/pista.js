// The pista: at a mesa where bots play every other seat, the moves of the player's turn ranked
// from what the player can see. The game's table can mount it with mountPista(element, code).

import { t } from './i18n.js';
import { call, mesaPath, Refusal } from './net.js';
import { factList, h, rankingTable } from './ranking.js';

/** The token this browser keeps for its seat at the mesa (set when it joined). */
export function seatToken(code) {
  try {
    const ticket = JSON.parse(localStorage.getItem(`fichaflow.mesa.${code}`));
    return ticket?.token || null;
  } catch {
    return null;
  }
}

export function askPista(code, token, precision = 'fast') {
  return call('POST', `${mesaPath(code)}/pista`, { token, precision });
}

/** A "Pedir pista" button and, once asked, the ranked moves. */
export function mountPista(container, code, lang = 'es') {
  const answer = h('div', { class: 'pista-answer', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'pista-ask' }, t(lang, 'pista_ask'));
  const token = seatToken(code);
  button.addEventListener('click', async () => {
    answer.replaceChildren(h('p', { class: 'working' }, t(lang, 'pista_working')));
    button.disabled = true;
    try {
      const hint = await askPista(code, token);
      answer.replaceChildren(h('div', { class: 'table-box' }, rankingTable(hint.moves, lang)), factList(hint, lang) || '');
    } catch (error) {
      const text = error instanceof Refusal ? error.text(lang) : String(error);
      answer.replaceChildren(h('p', { class: 'problem', role: 'alert' }, text));
    } finally {
      button.disabled = false;
    }
  });
  const box = h('section', { class: 'pista panel', 'aria-label': t(lang, 'pista') },
    h('h2', {}, t(lang, 'pista_title')),
    token ? button : h('p', {}, t(lang, 'pista_none')),
    answer);
  container.replaceChildren(box);
  return box;
}
