// The players' page (/jugadores/): the leaderboard of each mode, people and bots on one scale,
// and with ?id=ACCOUNT a player's page: ratings, their history as an inline SVG chart, the
// statistics counted from the records, and the partidas, each with its record, its fair-deal
// check (the game's own, js/fairness.js) and its Repaso. Words: the jugadores.* keys.
import { loadCatalogues, section } from '../js/i18n.js';
import { checkHand } from '../js/fairness.js';
import { fullOptions } from '../js/rules.js';

await loadCatalogues();

const TEXT = { es: section('es', 'jugadores.'), en: section('en', 'jugadores.') };
const PRESETS = { es: section('es', 'preset.'), en: section('en', 'preset.') };
const MODES = ['parejas', 'mano_a_mano', 'tres'];
const params = new URLSearchParams(location.search);
const state = {
  lang: params.get('lang') === 'en' || (!params.get('lang') && localStorage.getItem('fichaflow.lang') === 'en') ? 'en' : 'es',
  mode: MODES.includes(params.get('modo')) ? params.get('modo') : 'parejas',
  id: params.get('id'),
  board: null,
  player: null,
  checks: {},
};
const $ = (id) => document.getElementById(id);

function t(key, values = {}) {
  const text = TEXT[state.lang][key] ?? TEXT.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

/** An element: ``el('a', {href}, 'text', child)``. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

async function get(path) {
  const response = await fetch(path);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error;
    throw new Error(error ? (state.lang === 'en' ? error.message_en : error.message) : t('failed'));
  }
  return data;
}

function say(text) {
  $('message').textContent = text;
  $('message').hidden = !text;
}

function when(stamp) {
  return new Date(stamp).toLocaleString(state.lang === 'en' ? 'en-GB' : 'es-ES', {
    dateStyle: 'medium', timeStyle: 'short',
  });
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** «1512 → 1531 (+19)»: a rated partida's change, as the end screen says it. */
export function changeText(before, after) {
  return `${before} → ${after} (${signed(after - before)})`;
}

// -- the leaderboard --------------------------------------------------------------------------

function drawBoard() {
  $('modes').replaceChildren(...MODES.map((mode) => el('button', {
    type: 'button', 'aria-pressed': String(mode === state.mode),
    onclick: () => { state.mode = mode; loadBoard(); },
  }, t(`mode_${mode}`))));
  $('board-caption').textContent = t('board_caption', { mode: t(`mode_${state.mode}`) });
  const entries = state.board?.entries ?? [];
  let place = 0;
  $('board').replaceChildren(...entries.map((entry) => {
    if (!entry.provisional) place += 1;
    const name = entry.kind === 'bot'
      ? [entry.name, el('span', { class: 'tag bot' }, t('bot'))]
      : [el('a', { href: `/jugadores/?id=${encodeURIComponent(entry.id)}` }, entry.name),
        entry.provisional ? el('span', { class: 'tag' }, t('provisional')) : null];
    return el('tr', { class: entry.kind, 'data-name': entry.name },
      el('td', {}, entry.provisional ? '·' : String(place)),
      el('td', {}, name),
      el('td', { class: 'num' }, String(entry.rating)),
      el('td', { class: 'num' }, entry.partidas === null ? '—' : String(entry.partidas)));
  }));
}

async function loadBoard() {
  drawBoard();
  try {
    state.board = await get(`/api/players/leaderboard/${state.mode}`);
  } catch (error) {
    say(error.message);
  }
  drawBoard();
}

// -- a player's page --------------------------------------------------------------------------

/** The rating's history in one mode as an SVG line: the partidas along, the rating up. */
function chart(mode, points) {
  const width = 320;
  const height = 140;
  const pad = { left: 38, right: 10, top: 12, bottom: 20 };
  const values = [1500, ...points.map((p) => p.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 20);
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(values.length - 1, 1);
  const y = (v) => pad.top + ((high - v) * (height - pad.top - pad.bottom)) / span;
  const path = values.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = values[values.length - 1];
  const label = t('chart_label', { mode: t(`mode_${mode}`), count: points.length, from: 1500, to: last });
  return svg('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, 'data-mode': mode },
    svg('title', {}, label),
    svg('line', { class: 'axis', x1: pad.left, y1: height - pad.bottom, x2: width - pad.right, y2: height - pad.bottom }),
    svg('line', { class: 'axis', x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom }),
    svg('text', { x: 2, y: y(high) + 4 }, String(high)),
    svg('text', { x: 2, y: y(low) + 4 }, String(low)),
    svg('path', { class: 'line', d: path }),
    ...values.map((v, i) => svg('circle', { class: 'dot', cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3 })));
}

const STATS = ['partidas', 'partidas_won', 'hands', 'hands_won', 'tantos_per_hand', 'dominadas_won',
  'tranques_won', 'capicuas', 'zapatos_given', 'zapatos_taken'];

function rulesWords(rules) {
  if (!rules) return t('rules_unknown');
  const preset = PRESETS[state.lang][rules.preset] ?? PRESETS.es[rules.preset] ?? rules.preset;
  const mode = t(`mode_${rules.mode}`);
  // «Mano a mano (1 contra 1)» says its mode already; «Venezuela (FVD)» does not
  if (preset.toLowerCase().includes(mode.toLowerCase())) return t('rules_line_preset', { preset, target: rules.target });
  return t('rules_line', { preset, mode, target: rules.target });
}

/** Check every hand of a partida's record as the table does: the seed against the commitment
 * published at the deal, the deal against the seed. */
async function fairCheck(entry) {
  const key = `${entry.mesa}.${entry.partida}`;
  state.checks[key] = { pending: true };
  drawPlayer();
  try {
    const [record, presets] = await Promise.all([get(recordPath(entry)), get('/api/presets')]);
    const seats = record.hands[0]?.deal?.length ?? 0;
    // As at the table: whether the first salida was drawn comes from the record's rules, so that
    // a server cannot skip the sorteo's check by not saying there was one.
    const drawn = fullOptions(presets, record.rules).first_lead === 'sorteo';
    const results = record.hands.map((hand, index) => checkHand(hand, {
      seats, promised: hand.commitment, seat: null, dealt: null, sorteo: drawn && index === 0,
    }));
    state.checks[key] = { ok: results.every((r) => r.ok), hands: results.length };
  } catch (error) {
    state.checks[key] = { error: error.message };
  }
  drawPlayer();
}

function recordPath(entry) {
  return `/api/mesas/${encodeURIComponent(entry.mesa)}/partidas/${entry.partida}/record`;
}

function partidaItem(entry) {
  const key = `${entry.mesa}.${entry.partida}`;
  const check = state.checks[key];
  const repaso = new URLSearchParams({ mesa: entry.mesa, partida: String(entry.partida), mano: '1',
    asiento: String(entry.seat), lang: state.lang });
  const result = entry.won ? t('won') : t('lost');
  const score = entry.scores ? ` · ${entry.scores.join(' – ')}` : '';
  return el('li', { 'data-mesa': entry.mesa, 'data-partida': String(entry.partida) },
    el('span', { class: 'hint' }, when(entry.finished_at), ' · ', rulesWords(entry.rules)),
    el('span', { class: `result ${entry.won ? 'won' : 'lost'}` }, result, score,
      entry.rated ? ` · ${changeText(entry.before, entry.after)}` : ` · ${t('unrated')}`),
    entry.partners?.length ? el('span', {}, t('partners', { names: entry.partners.join(', ') })) : null,
    entry.rivals ? el('span', {}, t('rivals', { names: entry.rivals.join(', ') })) : null,
    el('span', { class: 'links' },
      el('a', { href: recordPath(entry), target: '_blank', rel: 'noopener' }, t('record')),
      el('a', { href: `/repaso/?${repaso}`, target: '_blank', rel: 'noopener' }, t('repaso')),
      !check ? el('button', { type: 'button', onclick: () => fairCheck(entry) }, t('check')) : null,
      check?.pending ? el('span', { role: 'status' }, t('checking')) : null,
      check?.ok === true ? el('span', { class: 'fair-ok', role: 'status' }, `✓ ${check.hands === 1 ? t('fair_ok_one') : t('fair_ok', { hands: check.hands })}`) : null,
      check?.ok === false ? el('span', { class: 'fair-bad', role: 'alert' }, `✗ ${t('fair_bad')}`) : null,
      check?.error ? el('span', { class: 'fair-bad', role: 'alert' }, check.error) : null));
}

function drawPlayer() {
  const player = state.player;
  if (!player) return;
  document.title = `${player.name} · FichaFlow`;
  $('player-name').textContent = player.name;
  $('player-since').textContent = t('since', { date: when(player.since) });
  $('ratings').replaceChildren(...MODES.map((mode) => {
    const r = player.ratings[mode];
    return el('li', { 'data-mode': mode }, t(`mode_${mode}`),
      el('strong', {}, String(r.rating)),
      (r.partidas === 1 ? t('partidas_one') : t('partidas_count', { count: r.partidas })),
      r.provisional ? el('span', { class: 'tag' }, t('provisional')) : null);
  }));
  const charts = MODES.filter((mode) => player.history[mode].length)
    .map((mode) => el('figure', {}, el('figcaption', {}, t(`mode_${mode}`)), chart(mode, player.history[mode])));
  $('charts').replaceChildren(...(charts.length ? charts : [el('p', { class: 'hint' }, t('chart_none'))]));
  $('stats').replaceChildren(...STATS.flatMap((name) => [
    el('dt', {}, t(`stat_${name}`)), el('dd', { 'data-stat': name }, String(player.stats[name]))]));
  $('partidas-none').hidden = player.partidas.length > 0;
  $('partidas').replaceChildren(...player.partidas.map(partidaItem));
}

async function loadPlayer() {
  try {
    state.player = await get(`/api/players/${encodeURIComponent(state.id)}`);
    $('profile').hidden = false;
  } catch (error) {
    say(error.message);
  }
  drawPlayer();
}

function draw() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  $('lang').textContent = state.lang === 'es' ? 'English' : 'Español';
  $('lang').lang = state.lang === 'es' ? 'en' : 'es';
  if (state.id) drawPlayer();
  else drawBoard();
}

$('lang').addEventListener('click', () => {
  state.lang = state.lang === 'es' ? 'en' : 'es';
  localStorage.setItem('fichaflow.lang', state.lang);
  draw();
});

draw();
if (state.id) {
  await loadPlayer();
} else {
  $('boards').hidden = false;
  await loadBoard();
}
document.body.dataset.ready = 'yes';
