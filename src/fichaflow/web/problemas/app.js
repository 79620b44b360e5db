// Problemas (/problemas/): a position drawn like the table, the player taps a tile and an end;
// the server judges each move (it never sends the answer before the attempt ends). The other
// hands are drawn face up for a face-up problema, face down with their counts for a seat one
// (only what the seat knew: the numbers each passed on are said). A right
// answer plays out the line with the rivals' replies; a wrong one says what it loses, in tantos,
// and why. A guest's rating, streak and history stay in this browser (localStorage) and go with
// each attempt; a signed-in player's are the server's, on every device they sign in on. The
// streak counts the problemas solved in a row; in streak mode each one is asked harder.
import { api, call, ServerError } from '/js/api.js';
import { halves, tileBackSvg } from '/js/tiles.js';
import { loadCatalogues, section } from '/js/i18n.js';
import { tileSvg } from '../repaso/tiles.js';

await loadCatalogues();
const TEXT = { es: section('es', 'problemas.'), en: section('en', 'problemas.') };
const RATING_KEY = 'fichaflow.problemas.rating';
const HISTORY_KEY = 'fichaflow.problemas.history';
const THEME_KEY = 'fichaflow.problemas.theme';
const STREAK_KEY = 'fichaflow.problemas.streak';
const CLIMB = 25; // streak mode: each problema solved in a row asks the next this much harder
const $ = (id) => document.getElementById(id);

const state = {
  lang: new URLSearchParams(location.search).get('lang') === 'en' ? 'en' : 'es',
  puzzle: null, line: [], ends: [0, 0], hand: [], others: [], moves: [], chosen: null, busy: false,
  streakMode: false, lastVerdict: null,
  themes: [], theme: '',
  account: null, server: null, // signed in: who, and their rating, streaks and history
};

function t(key, params = {}) {
  const text = TEXT[state.lang][key] ?? TEXT.es[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}

function keep(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: not kept */ }
}

/** The player's rating: a signed-in player's from the server, a guest's from this browser. */
function myRating() {
  return state.account ? state.server?.rating ?? null : stored(RATING_KEY, null);
}

function streaks() {
  if (state.account) return { current: state.server?.streak ?? 0, best: state.server?.streak_best ?? 0 };
  return stored(STREAK_KEY, { current: 0, best: 0 });
}

function showProblem(error) {
  const p = $('problem');
  if (!error) { p.hidden = true; p.textContent = ''; return; }
  p.textContent = error instanceof ServerError ? error.text(state.lang) : t('offline');
  p.hidden = false;
}

function words() {
  document.documentElement.lang = state.lang;
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  $('lang').textContent = state.lang === 'en' ? 'Español' : 'English';
  $('lang').lang = state.lang === 'en' ? 'es' : 'en';
  $('line').setAttribute('aria-label', t('line'));
  $('hand').setAttribute('aria-label', t('hand'));
  drawRating();
  drawThemes();
  drawBoard();
  drawVerdict();
  drawHistory();
}

function drawRating(change = null) {
  $('rating').textContent = String(myRating()?.shown ?? 1500);
  if (change !== null) {
    const el = $('change');
    el.textContent = change >= 0 ? `+${change}` : `${change}`;
    el.className = `change ${change >= 0 ? 'up' : 'down'}`;
  }
  const { current, best } = streaks();
  $('streak').textContent = String(current);
  $('streak-best').textContent = String(best);
  $('streak-mode').setAttribute('aria-pressed', String(state.streakMode));
  $('who').hidden = !state.account;
  if (state.account) $('who').textContent = t('signed_in', { name: state.account.name });
}

/** The theme picker: every theme the set has, with how many problemas it has. */
function drawThemes() {
  const all = document.createElement('option');
  all.value = '';
  all.textContent = t('theme_all');
  const options = state.themes.map(({ theme, count }) => {
    const option = document.createElement('option');
    option.value = theme;
    option.textContent = t('theme_count', { theme: t(`theme.${theme}`), count });
    return option;
  });
  $('theme').replaceChildren(all, ...options);
  $('theme').value = state.theme;
}

/** The tile ``tile`` ("a-b") placed at ``end``: the line's new pair and its new ends. */
function place(tile, end) {
  const [a, b] = halves(tile);
  const [left, right] = state.ends;
  if (end === 'left') {
    const outer = a === left ? b : a;
    state.line.unshift([outer, left]);
    state.ends = [outer, right];
  } else {
    const outer = a === right ? b : a;
    state.line.push([right, outer]);
    state.ends = [left, outer];
  }
}

function fits(tile, end) {
  const [a, b] = halves(tile);
  const value = end === 'left' ? state.ends[0] : state.ends[1];
  return a === value || b === value;
}

function drawBoard() {
  const puzzle = state.puzzle;
  if (!puzzle) return;
  $('question').textContent = puzzle.position.question?.[state.lang] ?? t('question');
  $('puzzle-info').textContent = t('info', { rating: puzzle.rating,
    themes: puzzle.themes.map((k) => t(`theme.${k}`)).join(', ') });
  $('line').replaceChildren(...state.line.map(([a, b]) => tileSvg(a, b, {
    upright: a === b, label: `${a}-${b}` })));
  $('ends').textContent = t('ends', { left: state.ends[0], right: state.ends[1] });
  drawOthers();
  const over = state.lastVerdict?.done;
  $('hand').replaceChildren(...state.hand.map((tile) => {
    const [a, b] = halves(tile);
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.tile = tile;
    button.setAttribute('aria-pressed', String(state.chosen === tile));
    button.setAttribute('aria-label', t('tile', { tile }));
    button.disabled = Boolean(over) || state.busy;
    button.append(tileSvg(a, b, { upright: true, label: tile }));
    button.addEventListener('click', () => choose(tile));
    return button;
  }));
  const choice = $('end-choice');
  choice.hidden = !state.chosen || Boolean(over);
  for (const end of ['left', 'right']) {
    const button = $(end);
    button.textContent = t(`end_${end}`, { number: end === 'left' ? state.ends[0] : state.ends[1] });
    button.disabled = !state.chosen || !fits(state.chosen, end) || state.busy;
  }
}

/** The other seats, in the order they play after the player: face up, their tiles; face down
 * (a seat problema), a back for each tile they hold, and the numbers they passed on. */
function drawOthers() {
  $('others').setAttribute('aria-label', t('others'));
  $('others').replaceChildren(...state.others.map((other) => {
    const row = document.createElement('div');
    row.className = `other ${other.role}`;
    row.dataset.role = other.role;
    row.dataset.count = String(other.count);
    const label = document.createElement('p');
    let said = t(`other_${other.role}`, { count: other.count });
    if (other.passed.length) said += ` · ${t('other_passed', { numbers: other.passed.join(', ') })}`;
    label.textContent = said;
    const tiles = document.createElement('div');
    tiles.className = 'other-tiles';
    if (other.tiles) {
      tiles.append(...other.tiles.map((tile) => {
        const [a, b] = halves(tile);
        return tileSvg(a, b, { upright: true, label: tile });
      }));
    } else {
      for (let k = 0; k < other.count; k += 1) tiles.append(tileBackSvg());
    }
    row.append(label, tiles);
    return row;
  }));
}

/** The others' replies, each by the next seat in turn: a tile played leaves its hand (when no
 * montón is left, so nobody drew). */
function replied(replies) {
  if (state.puzzle.position.stock) return;
  replies.forEach((reply, k) => {
    const other = state.others[k % state.others.length];
    if (!other || reply === 'pass') return;
    const tile = reply.split(':')[0];
    other.count -= 1;
    if (other.tiles) other.tiles = other.tiles.filter((h) => h !== tile);
  });
}

function choose(tile) {
  state.chosen = state.chosen === tile ? null : tile;
  showProblem(null);
  drawBoard();
}

function drawVerdict() {
  const box = $('verdict');
  const v = state.lastVerdict;
  if (!v) { box.hidden = true; return; }
  box.hidden = false;
  box.className = `panel verdict ${v.correct ? 'right' : 'wrong'}`;
  const parts = [];
  const head = document.createElement('h2');
  head.className = v.correct ? 'right' : 'wrong';
  head.textContent = v.correct ? (v.done ? t('solved') : t('right_go_on')) : t('wrong');
  parts.push(head);
  if (v.replies?.length) {
    const p = document.createElement('p');
    p.textContent = t('replies', { moves: v.replies.map((m) => (m === 'pass' ? t('pass') : m)).join(', ') });
    parts.push(p);
  }
  if (v.done && !v.correct) {
    const p = document.createElement('p');
    p.className = 'cost';
    const seat = state.puzzle?.position.kind === 'seat'; // its values are means over the deals
    p.textContent = t(seat ? 'loses_seat' : 'loses', { cost: v.cost, best: v.best });
    parts.push(p);
  }
  if (v.explanation) {
    const p = document.createElement('p');
    p.className = 'why';
    p.textContent = v.explanation[state.lang] ?? v.explanation.es;
    parts.push(p);
  }
  if (v.rating) {
    const p = document.createElement('p');
    p.textContent = t('rating_moved', { before: v.rating.before, after: v.rating.shown });
    parts.push(p);
  }
  box.replaceChildren(...parts);
}

function drawHistory() {
  const lines = state.account ? state.server?.attempts ?? [] : stored(HISTORY_KEY, []);
  $('history').replaceChildren(...lines.slice(0, 20).map((h) => {
    const li = document.createElement('li');
    li.textContent = t(h.correct ? 'history_right' : 'history_wrong',
      { puzzle: h.puzzle, before: h.before, after: h.after });
    return li;
  }));
}

function show(puzzle) {
  state.puzzle = puzzle;
  state.line = puzzle.position.line.map(([a, b]) => [a, b]);
  state.ends = [...puzzle.position.ends];
  state.hand = [...puzzle.position.hand];
  state.others = (puzzle.position.others ?? []).map((o) => ({ ...o, tiles: o.tiles ? [...o.tiles] : null }));
  document.body.dataset.kind = puzzle.position.kind ?? 'face_up';
  state.moves = [];
  state.chosen = null;
  state.lastVerdict = null;
  document.body.dataset.puzzle = puzzle.id;
  drawBoard();
  drawVerdict();
}

async function load(path) {
  if (state.busy) return;
  state.busy = true;
  showProblem(null);
  try {
    const mine = myRating();
    const query = new URLSearchParams();
    if (state.streakMode) query.set('rating', String((mine?.shown ?? 1500) + CLIMB * streaks().current));
    else if (mine && !state.account) query.set('rating', String(mine.shown)); // else the server's
    if (state.theme) query.set('theme', state.theme);
    const asked = query.size ? `?${query}` : '';
    const url = { next: `/api/problemas/next${asked}`, daily: '/api/problemas/daily' }[path]
      ?? `/api/problemas/${encodeURIComponent(path.slice(3))}`; // 'id:…': one problema
    show(await call('GET', url));
  } catch (error) {
    showProblem(error);
  } finally {
    state.busy = false;
    drawBoard();
  }
}

async function play(end) {
  const tile = state.chosen;
  if (!tile || state.busy || !fits(tile, end)) return;
  const move = `${tile}:${end}`;
  state.busy = true;
  showProblem(null);
  const mine = state.account ? null : stored(RATING_KEY, null); // a signed-in one's: the server's
  try {
    const verdict = await call('POST', `/api/problemas/${encodeURIComponent(state.puzzle.id)}/attempt`, {
      moves: state.moves, move,
      rating: mine ? { mu: mine.mu, sigma: mine.sigma, attempts: mine.attempts } : null,
      streak: state.account ? 0 : streaks().current,
    });
    state.lastVerdict = verdict;
    state.chosen = null;
    if (verdict.correct) {
      state.moves.push(move);
      state.hand = state.hand.filter((h) => h !== tile);
      place(tile, end);
      for (const reply of verdict.replies) {
        if (reply === 'pass') continue;
        const [replyTile, named] = reply.split(':');
        // a tile that fits one end only is written without it (docs/records.md)
        const replyEnd = named || (fits(replyTile, 'left') ? 'left' : 'right');
        place(replyTile, replyEnd);
      }
      replied(verdict.replies);
    }
    if (verdict.done) finish(verdict);
    drawBoard();
    drawVerdict();
  } catch (error) {
    showProblem(error); // nothing changes: the same position, the same choice
  } finally {
    state.busy = false;
    drawBoard();
  }
}

function finish(verdict) {
  const before = verdict.rating.before;
  const line = { puzzle: state.puzzle.id, correct: verdict.correct, before, after: verdict.rating.shown };
  const current = verdict.streak.current;
  if (state.account) { // what the server keeps, as it answered
    state.server = { ...state.server, rating: verdict.rating, streak: current,
      streak_best: verdict.streak.best, attempts: [line, ...(state.server?.attempts ?? [])].slice(0, 50) };
  } else {
    keep(RATING_KEY, verdict.rating);
    keep(HISTORY_KEY, [line, ...stored(HISTORY_KEY, [])].slice(0, 50));
    keep(STREAK_KEY, { current, best: Math.max(streaks().best, current) });
  }
  drawRating(verdict.rating.shown - before);
  drawHistory();
}

$('lang').addEventListener('click', () => { state.lang = state.lang === 'en' ? 'es' : 'en'; words(); });
$('next').addEventListener('click', () => load('next'));
$('daily').addEventListener('click', () => load('daily'));
$('streak-mode').addEventListener('click', () => {
  state.streakMode = !state.streakMode;
  drawRating();
  load('next');
});
$('theme').addEventListener('change', () => {
  state.theme = $('theme').value;
  keep(THEME_KEY, state.theme);
  load('next');
});
for (const end of ['left', 'right']) $(end).addEventListener('click', () => play(end));

state.account = await api.me(); // null: a guest
try {
  if (state.account) state.server = await call('GET', '/api/problemas/me/history');
  state.themes = (await call('GET', '/api/problemas/themes')).themes;
} catch (error) {
  showProblem(error); // the picker offers every theme only; the problemas still come
}
const kept = stored(THEME_KEY, '');
state.theme = state.themes.some(({ theme }) => theme === kept) ? kept : '';
words();
const asked = new URLSearchParams(location.search);
await load(asked.get('id') ? `id:${asked.get('id')}` : (asked.get('daily') ? 'daily' : 'next'));
document.body.dataset.ready = 'true';
