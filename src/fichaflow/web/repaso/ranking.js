// A decision's moves ranked with what each was worth, as the Repaso and the pista show them.

import { t } from './i18n.js';
import { halves, tileSvg } from './tiles.js';

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export { h };

const fixed = (x, digits = 1) => Number(x).toFixed(digits);
const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + fixed(Math.abs(x));

/** How a move is said: "6-4 izquierda", or the salida. */
export function moveWords(move, lang) {
  if (!move.end) return `${move.tile} · ${t(lang, 'lead_word')}`;
  return `${move.tile} ${t(lang, move.end)}`;
}

/** The move's tile, drawn as it would lie: the half it joins first. */
export function moveTile(move) {
  const [a, b] = halves(move.move);
  return tileSvg(a, b, { label: move.move, className: 'small' });
}

function verdict(move, lang) {
  if (move.verdict === 'best') return t(lang, 'best');
  if (move.verdict === 'mistake') return t(lang, 'mistake', { cost: fixed(move.cost) });
  return move.cost < 0.05 ? t(lang, 'equal') : `${t(lang, 'good')} (−${fixed(move.cost)})`;
}

export { verdict as verdictWords };

/** The table of ``moves`` (best first); ``played`` names the move made, if any. */
export function rankingTable(moves, lang, played = null) {
  const head = h('tr', {},
    h('th', { scope: 'col' }, t(lang, 'col_rank')),
    h('th', { scope: 'col' }, t(lang, 'col_move')),
    h('th', { scope: 'col' }, t(lang, 'col_points')),
    h('th', { scope: 'col' }, t(lang, 'col_win')),
    h('th', { scope: 'col' }, t(lang, 'col_hindsight')),
    h('th', { scope: 'col' }, t(lang, 'col_verdict')));
  const rows = moves.map((move, i) => {
    const mine = played !== null && move.move === played;
    return h('tr', { class: `${move.verdict}${mine ? ' played' : ''}`, 'data-move': move.move },
      h('td', {}, String(i + 1)),
      h('td', {}, h('span', { class: 'move' }, moveTile(move), h('span', {}, moveWords(move, lang)))),
      h('td', { class: 'num' }, `${signed(move.points)} `, h('small', {}, `±${fixed(move.points_se)}`)),
      h('td', { class: 'num' }, `${Math.round(move.win * 100)} %`),
      h('td', { class: 'num' }, move.hindsight === null ? t(lang, 'unsolved') : signed(move.hindsight)),
      h('td', {}, verdict(move, lang), mine ? h('strong', { class: 'mark' }, ` ← ${t(lang, 'played')}`) : null));
  });
  return h('table', { class: 'ranking' }, h('thead', {}, head), h('tbody', {}, rows));
}

/** The facts worth reading: the position's, then the best move's and the played move's. */
export function factList(decision, lang, played = null) {
  const seen = new Set();
  const items = [];
  const add = (fact) => {
    const text = lang === 'en' ? fact.en : fact.es;
    if (!seen.has(text)) {
      seen.add(text);
      items.push(h('li', {}, text));
    }
  };
  (decision.facts || []).forEach(add);
  const moves = decision.moves || [];
  if (moves.length) moves[0].facts.forEach(add);
  const mine = moves.find((m) => m.move === played);
  if (mine) mine.facts.forEach(add);
  return items.length ? h('ul', { class: 'facts' }, items) : null;
}
