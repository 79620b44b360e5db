// The Repaso page: a finished hand rebuilt move by move (buttons and arrow keys), every seat's
// tiles face up, and at each decision of the chosen seat its moves ranked with what they cost.
// The server replays and evaluates; this page only draws what it is given.
//
// Address: /repaso/?mesa=CODE&partida=N&mano=K&asiento=S[&precision=P][&paso=I][&lang=en]
// With ?mesa=CODE&pista=1 it shows the pista for the player's turn instead.

import { t, TEXT } from './i18n.js';
import { call, mesaPath, Refusal } from './net.js';
import { mountPista } from './pista.js';
import { factList, h, rankingTable, verdictWords } from './ranking.js';
import { halves, tileSvg } from './tiles.js';

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const form = $('source');

// The language the player chose anywhere in FichaFlow (the game and the anotador keep it under
// this key); ?lang= in the address wins, so that a shared link opens in its language.
const LANG_KEY = 'fichaflow.lang';

function chosenLanguage() {
  const wanted = params.get('lang') || localStorage.getItem(LANG_KEY);
  return wanted === 'en' ? 'en' : 'es';
}

const state = {
  lang: chosenLanguage(),
  code: params.get('mesa') || '',
  record: null, // a record loaded from a file
  hand: Number(params.get('mano')) || null,
  partida: Number(params.get('partida')) || null,
  seat: params.has('asiento') ? Number(params.get('asiento')) : null,
  precision: params.get('precision') || 'normal',
  timeline: null,
  review: null,
  step: Number(params.get('paso')) || 0,
  loading: false,
};

// -- words -----------------------------------------------------------------------------------

function translate() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(state.lang, node.dataset.t);
  for (const node of document.querySelectorAll('[data-t-label]')) {
    node.setAttribute('aria-label', t(state.lang, node.dataset.tLabel));
    node.title = t(state.lang, node.dataset.tLabel);
  }
  $('line').setAttribute('aria-label', t(state.lang, 'line'));
  const other = state.lang === 'es' ? 'en' : 'es';
  $('lang').textContent = TEXT[state.lang].other_lang;
  $('lang').lang = other;
}

/** The players' names; where two seats share one (two bots of a kind), the seat is added. */
function names() {
  if (!state.timeline) return [];
  const plain = state.timeline.players[state.lang];
  return plain.map((name, seat) => (plain.indexOf(name) === plain.lastIndexOf(name)
    ? name
    : t(state.lang, 'seat_name', { name, seat: seat + 1 })));
}

function problem(error) {
  const box = $('problem');
  if (!error) {
    box.hidden = true;
    return;
  }
  box.textContent = error instanceof Refusal ? error.text(state.lang) : String(error.message || error);
  box.hidden = false;
}

function remember() {
  const out = new URLSearchParams();
  if (state.code && !state.record) {
    out.set('mesa', state.code);
    if (state.partida) out.set('partida', state.partida);
  }
  if (state.hand) out.set('mano', state.hand);
  if (state.seat !== null) out.set('asiento', state.seat);
  if (state.precision !== 'normal') out.set('precision', state.precision);
  if (state.step) out.set('paso', state.step);
  if (state.lang === 'en') out.set('lang', 'en');
  history.replaceState(null, '', `?${out}`);
}

// -- choosing a hand -------------------------------------------------------------------------

function options(select, values, chosen, label = (v) => String(v)) {
  select.replaceChildren(...values.map((v) => h('option', { value: v, selected: v === chosen }, label(v))));
}

async function loadMesa() {
  const mesa = await call('GET', mesaPath(state.code));
  const count = mesa.mesa.partida || 0;
  const partidas = Array.from({ length: count }, (_, i) => i + 1);
  state.partida = partidas.includes(state.partida) ? state.partida : count || null;
  options(form.partida, partidas, state.partida);
  if (state.partida) await loadPartida();
}

async function loadPartida() {
  const record = await call('GET', `${mesaPath(state.code)}/partidas/${state.partida}/record`);
  const hands = Array.from({ length: record.hands.length }, (_, i) => i + 1);
  state.hand = hands.includes(state.hand) ? state.hand : hands.length || null;
  options(form.mano, hands, state.hand);
  if (state.hand) await loadHand();
}

function handPath() {
  return `${mesaPath(state.code)}/partidas/${state.partida}/hands/${state.hand}/repaso`;
}

async function fetchRepaso(seat) {
  if (state.record) {
    const body = { record: state.record, hand: state.hand };
    if (seat !== null) Object.assign(body, { seat, precision: state.precision });
    return call('POST', '/api/repaso', body);
  }
  const query = seat === null ? '' : `?seat=${seat}&precision=${state.precision}`;
  return call('GET', `${handPath()}${query}`);
}

async function loadHand() {
  const answer = await fetchRepaso(null);
  state.timeline = answer.timeline;
  state.review = null;
  state.step = Math.min(state.step, state.timeline.steps.length - 1);
  fillSeats();
  $('board').hidden = false;
  render();
  if (state.seat !== null) await analyze();
}

function fillSeats() {
  const seats = Array.from({ length: state.timeline.seats }, (_, i) => i);
  if (state.seat === null || state.seat >= seats.length) state.seat = 0;
  const plain = state.timeline.players[state.lang];
  // Seats are counted from 1 on screen, as the lobby counts them (the address keeps the index).
  options(form.asiento, seats, state.seat, (s) => (state.timeline.named
    ? t(state.lang, 'seat_name', { name: plain[s], seat: s + 1 })
    : plain[s]));
}

async function analyze() {
  const seat = state.seat;
  state.loading = true;
  state.review = null;
  renderAnalysis();
  try {
    const answer = await fetchRepaso(seat);
    if (seat === state.seat) state.review = answer.review;
  } finally {
    state.loading = false;
  }
  renderAnalysis();
  remember();
}

async function readFile(file) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    throw new Error(t(state.lang, 'bad_file'));
  }
  if (!record || !Array.isArray(record.hands)) throw new Error(t(state.lang, 'bad_file'));
  state.record = record;
  state.code = '';
  form.mesa.value = '';
  form.mesa.required = false;
  const hands = record.hands.map((_, i) => i + 1);
  state.hand = hands.length ? 1 : null;
  state.step = 0;
  options(form.file_mano, hands, state.hand);
  $('file-hand').hidden = false;
  if (state.hand) await loadHand();
}

// -- drawing the hand ------------------------------------------------------------------------

function stepText(step) {
  const who = step.seat === null ? '' : names()[step.seat];
  const lang = state.lang;
  if (step.kind === null) return t(lang, 'deal', { who: names()[state.timeline.leader] });
  if (step.kind === 'pass') return t(lang, 'passed', { who });
  if (step.kind === 'draw') return t(lang, 'drew', { who, tile: step.tile });
  if (!step.end) return t(lang, 'played_lead', { who, tile: step.move });
  return t(lang, 'played_end', { who, tile: step.tile, end: t(lang, step.end) });
}

function seatBox(step, seat) {
  const tiles = step.hands[seat];
  const moving = step.turn === seat;
  const acted = step.seat === seat;
  const classes = ['seat', `team-${state.timeline.teams[seat]}`];
  if (moving) classes.push('to-move');
  if (seat === state.seat) classes.push('reviewed');
  if (acted) classes.push('acted');
  return h('div', { class: classes.join(' '), 'data-seat': seat },
    h('div', { class: 'who' },
      h('strong', {}, names()[seat]),
      h('span', { class: 'count' }, t(state.lang, tiles.length === 1 ? 'tiles_one' : 'tiles_count', { n: tiles.length })),
      moving ? h('span', { class: 'badge' }, t(state.lang, 'to_move')) : null),
    h('div', { class: 'tiles' }, tiles.map((tile) => {
      const [a, b] = halves(tile);
      const fresh = acted && step.kind === 'draw' && step.tile === tile;
      return tileSvg(a, b, { upright: true, label: tile, className: fresh ? 'fresh' : '' });
    })));
}

function render() {
  const timeline = state.timeline;
  if (!timeline) return;
  const steps = timeline.steps;
  const step = steps[state.step];
  $('seats').replaceChildren(...steps[0].hands.map((_, seat) => seatBox(step, seat)));
  const last = step.kind === 'play' ? step.tile : null;
  $('line').replaceChildren(...step.line.map(([a, b]) => {
    const mine = last !== null && (`${a}-${b}` === last || `${b}-${a}` === last);
    return tileSvg(a, b, { upright: a === b, label: `${a}-${b}`, className: mine ? 'fresh' : '' });
  }));
  const words = [stepText(step)];
  if (steps[0].stock.length) {
    words.push(t(state.lang, 'stock', { n: step.stock.length }));
  }
  $('step-text').textContent = words.join(' · ');
  if (step.ended) {
    const result = h('div', { class: 'result' }, h('strong', {}, `${t(state.lang, 'result')}: `),
      timeline.explanation[state.lang].join(' '));
    $('step-text').append(result);
  }
  $('counter').textContent = t(state.lang, 'counter', { n: state.step, total: steps.length - 1 });
  $('first').disabled = $('prev').disabled = state.step === 0;
  $('next').disabled = $('last').disabled = state.step === steps.length - 1;
  renderDecision();
  remember();
}

function go(step) {
  if (!state.timeline) return;
  state.step = Math.max(0, Math.min(step, state.timeline.steps.length - 1));
  render();
}

// -- the analysis ----------------------------------------------------------------------------

function renderAnalysis() {
  const panel = $('analysis');
  panel.hidden = !state.loading && !state.review;
  // In tres the exact values take both rivals as one side against the seat: the legend says so.
  $('legend_tres').hidden = !state.review || !state.review.rivals_together;
  const who = state.seat === null ? '' : names()[state.seat];
  if (state.loading) {
    $('summary').textContent = t(state.lang, 'working', { who });
    $('summary').classList.add('working');
    $('decisions').replaceChildren();
    $('decision').replaceChildren();
    return;
  }
  $('summary').classList.remove('working');
  const review = state.review;
  if (!review) return;
  const s = review.summary;
  $('summary').textContent = s.decisions
    ? t(state.lang, 'summary', {
      who,
      decisions: s.decisions,
      decisions_word: t(state.lang, s.decisions === 1 ? 'decision_one' : 'decision_many'),
      mistakes: s.mistakes,
      mistakes_word: t(state.lang, s.mistakes === 1 ? 'mistake_one' : 'mistake_many'),
      lost: s.points_lost.toFixed(1),
    })
    : t(state.lang, 'no_decisions', { who });
  $('decisions').replaceChildren(...review.decisions.map((d) => {
    const played = d.moves.find((m) => m.move === d.played);
    return h('li', {}, h('button', {
      type: 'button',
      class: `goto ${d.verdict}`,
      onclick: () => go(d.index),
    }, t(state.lang, 'go_decision', { n: d.move_number, verdict: verdictWords(played, state.lang) })));
  }));
  renderDecision();
}

function renderDecision() {
  const box = $('decision');
  const review = state.review;
  if (!review) {
    box.replaceChildren();
    return;
  }
  const before = review.decisions.find((d) => d.index === state.step);
  const after = review.decisions.find((d) => d.index + 1 === state.step);
  const decision = before || after;
  if (!decision) {
    box.replaceChildren();
    return;
  }
  const who = names()[review.seat];
  const played = after ? decision.played : null;
  // Once the move is on the line: what it won or lost, in tantos, and what the real hands say.
  const plain = after && decision.plain
    ? h('div', { class: 'plain' },
      h('p', { class: 'plain-verdict' }, decision.plain.verdict[state.lang]),
      decision.plain.hindsight
        ? h('p', { class: 'plain-hindsight' }, decision.plain.hindsight[state.lang]) : null)
    : null;
  const facts = factList(decision, state.lang, decision.played);
  box.replaceChildren(h('article', { class: 'decision', 'data-index': decision.index },
    h('h3', {}, t(state.lang, 'decision_title', { who, n: decision.move_number })),
    h('p', { class: 'hint' }, before
      ? t(state.lang, 'decision_hint')
      : t(state.lang, 'decision_after', { who, n: decision.move_number })),
    plain,
    h('div', { class: 'table-box' }, rankingTable(decision.moves, state.lang, played)),
    facts ? h('h4', { class: 'why' }, t(state.lang, 'why')) : null,
    facts));
}

// -- wiring ----------------------------------------------------------------------------------

async function guarded(work) {
  problem(null);
  try {
    await work();
  } catch (error) {
    problem(error);
  }
}

function wire() {
  $('lang').addEventListener('click', () => {
    state.lang = state.lang === 'es' ? 'en' : 'es';
    localStorage.setItem(LANG_KEY, state.lang);
    translate();
    if (state.timeline) fillSeats();
    render();
    renderAnalysis();
  });
  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(state.step - 1));
  $('next').addEventListener('click', () => go(state.step + 1));
  $('last').addEventListener('click', () => go(Infinity));
  document.addEventListener('keydown', (event) => {
    if (event.target.closest('input, select, textarea') || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });
  form.mesa.addEventListener('change', () => guarded(async () => {
    state.code = form.mesa.value.trim();
    state.record = null;
    state.partida = state.hand = null;
    state.step = 0;
    $('file-hand').hidden = true;
    if (state.code) await loadMesa();
  }));
  form.partida.addEventListener('change', () => guarded(async () => {
    state.partida = Number(form.partida.value);
    state.hand = null;
    state.step = 0;
    await loadPartida();
  }));
  for (const select of [form.mano, form.file_mano]) {
    select.addEventListener('change', () => guarded(async () => {
      state.hand = Number(select.value);
      state.step = 0;
      await loadHand();
    }));
  }
  form.file.addEventListener('change', () => guarded(async () => {
    if (form.file.files.length) await readFile(form.file.files[0]);
  }));
  form.asiento.addEventListener('change', () => {
    state.seat = Number(form.asiento.value);
    state.review = null;
    renderAnalysis();
    render();
  });
  form.precision.value = state.precision;
  form.precision.addEventListener('change', () => {
    state.precision = form.precision.value;
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    guarded(async () => {
      if (!state.timeline) {
        state.code = form.mesa.value.trim();
        await loadMesa();
      }
      if (state.timeline) await analyze();
    });
  });
}

function startPista() {
  form.hidden = true;
  const holder = h('div');
  document.querySelector('main').prepend(holder);
  mountPista(holder, state.code, state.lang);
}

translate();
wire();
if (state.code && params.get('pista')) {
  startPista();
} else if (state.code) {
  form.mesa.value = state.code;
  guarded(loadMesa);
}
