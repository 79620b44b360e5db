// The web client: routes (home, an invitation, a mesa), the state the server's messages build,
// and the screens drawn from it. Everything the game decides arrives from the server (the core):
// the legal moves, the count, who won; this page shows it and sends the player's choices back.

import { api, ServerError } from './api.js';
import { dialog } from './chrome.js';
import { MesaConnection } from './connection.js';
import { clear, h } from './dom.js';
import { checkHand } from './fairness.js';
import { errorText, loadLanguage, t, tileName } from './i18n.js';
import { autoPassField, botPaceField, renderHome, renderJoin, renderWaiting } from './lobby.js';
import { leaveLobby } from './sala.js';
import {
  handEndMoments, newlyDead, newTurns, partidaEndMoments, turnMoments, violines,
} from './moments.js';
import { draftFrom, fullOptions, rulesBody, rulesEditor, rulesProblem } from './rules.js';
import * as session from './session.js';
import { mesaBody, sheetBody, summaryDialogParts } from './summary.js';
import {
  connectionBanner, layoutTable, movesByTile, perspective, renderTable, sideNames, statusText, timeLeft,
} from './table.js';
import { tileDefs } from './tiles.js';
import { considerAutoPass, personalSettings } from './settings.js';

const root = document.getElementById('app');
const PREGON_MS = 1300;
// What the page says to a screen reader within this many milliseconds is said as one sentence,
// and each sentence is added to the live region, not written over the one before: bots that
// play 25 ms apart must not leave only their last move heard.
const ANNOUNCE_MERGE_MS = 150;
const ANNOUNCE_KEEP = 4;
// Where the focus goes when a dialog closes and what opened it is gone (an automatic summary).
const DIALOG_OPENERS = { summary: 'open-summary', sheet: 'open-sheet', mesa: 'open-mesa', rules: 'change-rules' };

const state = {
  screen: 'loading',
  code: null,
  presets: null,
  bots: null,
  connection: null,
  // what the server is waiting for (Redis, in a cluster): the page says it is reconnecting
  waitingFor: [],
  you: null,
  role: null,
  mesa: null,
  partida: null,
  hand: null,
  view: null,
  // a move did not follow the view held: hello said again, its welcome awaited
  resyncing: false,
  lastHand: null,
  partidaEnd: null,
  fairness: {},
  pending: false,
  choosing: null,
  dialog: null,
  focusDialog: false,
  rulesDraft: null,
  rulesRef: null,
  lastEvent: null,
  busy: false,
  formError: null,
  preview: null,
  handFocus: null,
  summaryShownFor: null,
  dialogOpener: null,
  focusAfterDialog: null,
};
let connection = null;
// The table talk's panel (js/chat.js), loaded when the page goes to a mesa; what it is to be told
// meanwhile waits here, in order.
let chat = null;
const forChat = [];
let wasMyTurn = false;
let turnSounded = true; // a turn found on arrival (a reload, a welcome) is not a turn starting

// What makes the table feel alive (its sounds, its motion, dragging tiles) is loaded at a mesa
// (the waiting room or the table), once its first drawing is done and the page is idle, out of
// the way of the first render and of the first tap: until then there is nothing to move and
// nothing to hear (a welcome's drawing is quiet), and tiles are played by tapping. (Imported
// when needed, these three are not among the modules the page preloads.)
const feel = { sound: null, motion: null, asked: false };
const whenIdle = window.requestIdleCallback || ((work) => setTimeout(work, 100));

function loadFeel() {
  feel.asked = true;
  whenIdle(() => {
    import('./sound.js').then((module) => { feel.sound = module; });
    import('./motion.js').then((module) => { feel.motion = module; });
    import('./drag.js').then((module) => module.dragToPlay(app, root));
  }, { timeout: 2000 });
}

function loadChat() {
  if (chat || forChat.loading) return;
  forChat.loading = true;
  import('./chat.js').then((module) => {
    chat = module;
    for (const message of forChat.splice(0)) toChat(message);
    render();
  });
}

/** A message of the table talk (and each welcome, which carries the recent talk). */
function toChat(message) {
  if (!chat) {
    forChat.push(message);
    return;
  }
  if (message.type === 'welcome') chat.welcome(app, message);
  else if (message.type === 'chat') chat.heard(app, message);
  else if (message.type === 'blocked') chat.blocked(app, message);
  else if (message.type === 'reported') chat.reported(app, message);
}

function sound(names) {
  feel.sound?.sound(names);
}

// -- helpers the screens call ------------------------------------------------------------------

function mySeat() {
  if (!state.you || !state.mesa) return null;
  const chair = state.mesa.seats.find((seat) => seat.person === state.you.id);
  return chair ? chair.seat : null;
}

function send(message) {
  if (!connection) return null;
  const ref = connection.send(message);
  if (ref === null) toast(t('connection.not_sent'));
  return ref;
}

function play(move) {
  if (state.pending) return;
  state.choosing = null;
  if (send({ type: 'play', move }) !== null) state.pending = true;
  render();
}

function tapTile(tile) {
  const view = state.view;
  state.handFocus = tile;
  if (!view || view.ended || view.turn !== mySeat() || state.pending) return;
  if (state.choosing?.tile === tile) {
    cancelChoice(); // a second tap on the same tile puts it back
    return;
  }
  const moves = movesByTile(view.legal).get(tile);
  if (!moves) {
    toast(t('table.does_not_fit', { name: tileName(tile), left: view.ends?.[0], right: view.ends?.[1] }));
    return;
  }
  if (moves.lead) {
    play(moves.lead);
  } else if (moves.left && moves.right) {
    state.choosing = { tile, left: moves.left, right: moves.right };
    render();
    document.querySelector('.end-choice.end-left')?.focus();
    announce(t('status.choose_end', { tile, left: view.ends[0], right: view.ends[1] }));
  } else {
    play(moves.left || moves.right);
  }
}

function chooseEnd(end) {
  if (!state.choosing) return;
  const move = state.choosing[end];
  state.handFocus = state.choosing.tile;
  play(move);
}

function cancelChoice() {
  const tile = state.choosing?.tile;
  state.choosing = null;
  render();
  if (tile) document.querySelector(`.hand-tile[data-tile="${tile}"]`)?.focus();
}

function openDialog(name) {
  if (!state.dialog) state.dialogOpener = document.activeElement?.dataset?.key ?? null;
  state.dialog = name;
  state.focusDialog = true;
  render();
}

/** The dialog goes away (closed by the person, or by the table moving on): the focus goes back
 * to what opened it, or to the button that opens it again. */
function dropDialog() {
  if (!state.dialog) return;
  state.focusAfterDialog = [state.dialogOpener, DIALOG_OPENERS[state.dialog]];
  state.dialogOpener = null;
  state.dialog = null;
}

function closeDialog() {
  if (state.dialog === 'summary' && state.lastHand) state.summaryShownFor = summaryKey(state.lastHand);
  dropDialog();
  state.formError = null;
  render();
}

function openRules() {
  state.rulesDraft = {
    rules: draftFrom(state.presets, state.mesa.rules),
    botPause: state.mesa.options.bot_pause_ms,
    autoPass: Boolean(state.mesa.options.auto_pass),
  };
  state.formError = null;
  openDialog('rules');
}

function saveRules() {
  state.formError = rulesProblem(state.presets, state.rulesDraft.rules);
  if (state.formError) {
    render();
    return;
  }
  const options = { ...state.mesa.options, bot_pause_ms: state.rulesDraft.botPause,
    auto_pass: state.rulesDraft.autoPass };
  state.rulesRef = send({ type: 'configure', rules: rulesBody(state.presets, state.rulesDraft.rules), options });
}

// -- what the page says ------------------------------------------------------------------------

function toast(text) {
  const box = document.getElementById('toasts');
  const item = h('div', { class: 'toast', role: 'alert' }, text);
  box.append(item);
  setTimeout(() => item.remove(), 4500);
}

const heard = [];
let heardTimer = null;

/** Tell a screen reader ``text``: merged with whatever else comes within ANNOUNCE_MERGE_MS,
 * then added to the live region after what it already said. */
function announce(text) {
  if (!text) return;
  heard.push(text);
  if (heardTimer === null) heardTimer = setTimeout(sayHeard, ANNOUNCE_MERGE_MS);
}

function sayHeard() {
  heardTimer = null;
  const live = document.getElementById('announcer');
  live.append(h('p', {}, heard.splice(0).join(' ')));
  while (live.childElementCount > ANNOUNCE_KEEP) live.firstElementChild.remove();
}

/** «Te toca», «No llevas: di Paso», «Sales tú…»: said once, when the turn comes to this seat. */
function yourTurn(previous, view) {
  const seat = mySeat();
  if (seat === null || !view || view.ended || view.turn !== seat) return [];
  if (previous && !previous.ended && previous.turn === seat
    && previous.hand_number === view.hand_number) return [];
  return [{ kind: 'your_turn', text: statusText(app) }];
}

const pregones = [];
let pregonBusy = false;

/** Say ``texts`` big in the middle of the table, one after the other. */
function pregon(texts) {
  pregones.push(...texts);
  // Fast bots can pass faster than the table can say it: stale calls are dropped.
  if (pregones.length > 2) pregones.splice(0, pregones.length - 2);
  if (!pregonBusy) nextPregon();
}

function nextPregon() {
  const box = document.getElementById('pregon');
  const text = pregones.shift();
  if (text === undefined) {
    pregonBusy = false;
    return;
  }
  pregonBusy = true;
  box.textContent = text;
  box.classList.remove('show');
  void box.offsetWidth; // restart the animation
  box.classList.add('show');
  setTimeout(nextPregon, PREGON_MS);
}

/** How long the table needs to say what is queued, so a dialog does not cover it. */
function pregonWait() {
  return (pregones.length + (pregonBusy ? 1 : 0)) * PREGON_MS;
}

function say(moments) {
  if (!moments.length) return;
  if (feel.sound) sound(feel.sound.soundsOf(moments));
  const loud = moments.filter((moment) => moment.big);
  if (loud.length) pregon(loud.map((moment) => moment.big));
  // What the table calls out first, then the plays and passes that led to it.
  const sentence = [...loud, ...moments.filter((moment) => !moment.big)]
    .map((moment) => moment.text).join(' ');
  state.lastEvent = sentence;
  announce(sentence);
}

// -- server messages ---------------------------------------------------------------------------

function names() {
  return perspective(app).names;
}

function summaryKey(summary) {
  return `${state.partida?.number}.${summary.number}`;
}

/** The tiles this seat was dealt: what it holds, plus what it played, minus what it drew. */
function dealtFrom(view) {
  const seat = view.seat;
  const mine = new Set(view.ended ? view.revealed[seat] : view.tiles);
  for (const turn of view.history) {
    if (turn.seat !== seat) continue;
    if (turn.kind === 'play') mine.add(canonicalTile(turn.tile));
    if (turn.kind === 'draw' && turn.drawn) mine.delete(turn.drawn);
  }
  return [...mine];
}

function canonicalTile(text) {
  const [a, b] = text.split('-').map(Number);
  return a >= b ? `${a}-${b}` : `${b}-${a}`;
}

function noteDeal(header, view) {
  if (header) session.rememberCommitment(state.code, header.partida, header.number, header.commitment);
  if (header && view && view.seat !== null && view.seat !== undefined) {
    session.rememberDealt(state.code, header.partida, header.number, dealtFrom(view));
  }
}

function checkFairness(summary) {
  const number = state.partida.number;
  const seat = state.view?.seat ?? null;
  const rules = fullOptions(state.presets, state.partida.rules || state.mesa.rules);
  let dealt = seat === null ? null : session.dealtTiles(state.code, number, summary.number);
  if (!dealt && seat !== null && state.view?.ended && state.view.hand_number === summary.number) {
    dealt = dealtFrom(state.view);
  }
  state.fairness[`${number}.${summary.number}`] = checkHand(summary, {
    seats: state.mesa.seats.length,
    promised: session.promisedCommitment(state.code, number, summary.number),
    seat,
    dealt,
    // Whether the first salida was drawn comes from the rules agreed at the mesa, not from the
    // server's word, so that a server cannot skip the check by not announcing a sorteo.
    sorteo: summary.number === 1 && rules.first_lead === 'sorteo',
  });
}

function newPartida(header, view) {
  state.partida = {
    number: header.partida,
    players: view?.players || null,
    rules: view?.rules || state.mesa.rules,
    scores: (view?.scores || []).map(() => 0),
    sheet: [],
    hands: [],
    over: false,
    winner: null,
    zapato: false,
    chancleta: false,
  };
  state.partidaEnd = null;
  state.fairness = {};
}

function onWelcome(message) {
  turnSounded = true;
  state.resyncing = false;
  state.you = message.you;
  state.role = message.role;
  state.mesa = message.mesa;
  state.partida = message.partida;
  state.hand = message.hand;
  state.view = message.view;
  state.pending = false;
  state.choosing = null;
  state.partidaEnd = message.partida?.over ? message.partida : null;
  noteDeal(message.hand, message.view);
  const status = message.mesa.status;
  const hands = message.partida?.hands || [];
  state.lastHand = null;
  if ((status === 'hand_over' || status === 'partida_over') && hands.length) {
    state.lastHand = hands[hands.length - 1];
    hands.forEach(checkFairness);
    if (state.summaryShownFor !== summaryKey(state.lastHand)) {
      state.dialog = 'summary';
      state.focusDialog = true;
    }
  }
}

function onHandStart(message) {
  const header = message.hand;
  if (!state.partida || state.partida.number !== header.partida) newPartida(header, message.view);
  state.hand = header;
  state.view = message.view;
  state.lastHand = null;
  state.pending = false;
  state.choosing = null;
  state.lastEvent = null;
  if (state.dialog === 'summary') dropDialog();
  if (message.turn_deadline !== undefined && state.mesa) state.mesa.turn_deadline = message.turn_deadline;
  noteDeal(header, message.view);
  const moments = [];
  if (header.sorteo) moments.push({ kind: 'sorteo', text: t('moment.sorteo', { who: names()[header.leader] }) });
  moments.push({ kind: 'deal', text: t('moment.new_hand', { number: header.number, who: names()[header.leader] }) });
  if (message.view?.seat !== null && message.view?.tiles) moments.push(...violines(message.view.tiles));
  moments.push(...yourTurn(null, message.view));
  say(moments);
}

/**
 * The view after ``message``: a `move` brings the view without its history and the turns it
 * added, from `turns_from` on; the other messages bring the whole view. Null when a move does
 * not follow the view held (another hand, or turns this page never got).
 */
function viewAfter(previous, message) {
  const view = message.view;
  if (!Array.isArray(message.turns) || !view) return view;
  if (!previous || previous.hand_number !== view.hand_number) return null;
  if (previous.history.length < message.turns_from) return null;
  return { ...view, history: previous.history.slice(0, message.turns_from).concat(message.turns) };
}

function onMove(message) {
  const previous = state.view;
  const view = viewAfter(previous, message);
  if (view === null) {
    // Asked once: the moves that come before its welcome (the whole state) are skipped.
    if (!state.resyncing) connection?.hello();
    state.resyncing = true;
    return;
  }
  state.view = view;
  state.pending = false;
  state.choosing = null;
  if (message.turn_deadline !== undefined && state.mesa) state.mesa.turn_deadline = message.turn_deadline;
  const turns = newTurns(previous, view);
  const moments = [];
  const who = names();
  for (const turn of turns) {
    if (turn.kind === 'play') {
      const key = turn.end ? `moment.play_${turn.end}` : 'moment.lead';
      moments.push({ kind: 'play', text: t(key, { who: who[turn.seat], tile: turn.tile, name: tileName(turn.tile) }) });
    }
  }
  moments.push(...turnMoments(turns, who, mySeat()));
  if (message.move?.timed_out) moments.push({ kind: 'timeout', text: t('moment.timed_out', { who: who[message.move.seat] }) });
  moments.push(...newlyDead(previous?.line, view?.line || []));
  moments.push(...yourTurn(previous, view));
  say(moments);
}

function onHandEnd(message) {
  onMove(message);
  const summary = message.hand;
  if (!state.partida) newPartida({ partida: state.hand?.partida ?? 1 }, message.view);
  const partida = state.partida;
  partida.hands.push(summary);
  partida.sheet.push({ hand: summary.number, gains: summary.score.gains, scores: summary.scores });
  partida.scores = summary.scores;
  state.lastHand = summary;
  checkFairness(summary);
  say(handEndMoments(summary, names()));
  const key = summaryKey(summary);
  // The summary opens once the table has said its piece (and the partida's end, which follows).
  setTimeout(() => {
    if (state.lastHand && summaryKey(state.lastHand) === key && state.summaryShownFor !== key) {
      openDialog('summary');
    }
  }, Math.max(900, pregonWait() + 2 * PREGON_MS));
}

function onPartidaEnd(message) {
  const end = { ...message.partida, ratings: message.ratings || null };
  state.partidaEnd = end;
  if (state.partida) Object.assign(state.partida, { over: true, winner: end.winner, scores: end.scores,
    zapato: end.zapato, chancleta: end.chancleta });
  const sides = sideNames(app);
  say(partidaEndMoments(end, (side) => sides[side]?.long ?? ''));
  const moved = (message.rotation || []).filter((change) => change.down !== null);
  if (moved.length) toast(t('moment.rotation', { count: moved.length }));
}

function onMessage(message) {
  switch (message.type) {
    case 'welcome':
      onWelcome(message);
      toChat(message);
      break;
    case 'chat':
    case 'blocked':
    case 'reported':
      toChat(message); // the panel draws itself: the table need not be drawn again
      return;
    case 'mesa':
      state.mesa = message.mesa;
      if (state.rulesRef && state.dialog === 'rules') {
        state.rulesRef = null;
        dropDialog();
      }
      break;
    case 'status':
      state.waitingFor = message.ok ? [] : (message.waiting_for || ['server']);
      break;
    case 'mirones':
      if (!state.mesa) return;
      state.mesa = { ...state.mesa, mirones: message.mirones, mirones_count: message.mirones_count };
      break;
    case 'hand_start':
      onHandStart(message);
      break;
    case 'move':
      onMove(message);
      break;
    case 'hand_end':
      onHandEnd(message);
      break;
    case 'partida_end':
      onPartidaEnd(message);
      break;
    case 'error':
      onError(message);
      break;
    default:
      return;
  }
  render();
}

function onError(message) {
  if (chat?.refused(app, message, errorText(message))) return; // said in the talk's panel
  state.pending = false;
  if (message.code === 'server.bad_token' || message.code === 'server.no_mesa') {
    session.forgetSeatTicket(state.code);
    connection?.close();
    connection = null;
    showJoin();
    return;
  }
  if (state.rulesRef && message.ref === state.rulesRef) {
    state.rulesRef = null;
    state.formError = message;
    return;
  }
  toast(errorText(message));
}

// -- flows -------------------------------------------------------------------------------------

function connect(token) {
  leaveLobby();
  state.screen = 'mesa';
  loadChat();
  connection?.close();
  connection = new MesaConnection(state.code, token, {
    onMessage,
    onStatus: (status) => {
      state.connection = status;
      // a new connection: its server says again what it waits for, after its welcome
      if (status !== 'open') state.waitingFor = [];
      render();
    },
  });
  connection.open();
}

async function showJoin() {
  state.screen = 'join';
  state.preview = null;
  render();
  try {
    state.preview = await api.mesa(state.code);
  } catch (error) {
    state.screen = 'missing';
    state.formError = error instanceof ServerError ? error.error : null;
  }
  render();
}

async function createMesa({ name, rules, botPause, turnSeconds, autoPass, rated, public: listed }) {
  state.busy = true;
  state.formError = null;
  render();
  try {
    const created = await api.create({
      rules, name, seat: 0,
      options: { bot_pause_ms: botPause, turn_seconds: turnSeconds, auto_pass: Boolean(autoPass),
        rated: Boolean(rated && state.account), public: Boolean(listed) },
    });
    session.saveName(name);
    session.saveSeatTicket(created.code, { token: created.token, person: created.person });
    session.saveServerOf(created.code, created.node);
    history.pushState({}, '', `/m/${encodeURIComponent(created.code)}`);
    state.code = created.code;
    state.busy = false;
    connect(created.token);
  } catch (error) {
    state.busy = false;
    state.formError = error instanceof ServerError ? error.error : { message: String(error) };
  }
  render();
}

/** «Jugar ya»: the server seats the player at a public mesa of the mode, or opens one. */
async function quickPlay({ name, mode, wait }) {
  state.busy = true;
  state.formError = null;
  render();
  try {
    const joined = await api.quick({ name, mode, wait_seconds: wait });
    session.saveName(name);
    session.saveSeatTicket(joined.code, { token: joined.token, person: joined.person });
    session.saveServerOf(joined.code, joined.node);
    history.pushState({}, '', `/m/${encodeURIComponent(joined.code)}`);
    state.code = joined.code;
    state.busy = false;
    connect(joined.token);
  } catch (error) {
    state.busy = false;
    state.formError = error instanceof ServerError ? error.error : { message: String(error) };
  }
  render();
}

async function joinMesa(name) {
  state.busy = true;
  state.formError = null;
  render();
  try {
    const fresh = await api.mesa(state.code);
    const free = fresh.mesa.seats.find((seat) => seat.kind === 'empty');
    const body = { name };
    if (free && fresh.mesa.status === 'waiting') body.seat = free.seat;
    const joined = await api.join(state.code, body);
    session.saveName(name);
    session.saveSeatTicket(state.code, { token: joined.token, person: joined.person });
    session.saveServerOf(state.code, joined.node);
    state.busy = false;
    connect(joined.token);
  } catch (error) {
    state.busy = false;
    state.formError = error instanceof ServerError ? error.error : { message: String(error) };
  }
  render();
}

function watch() {
  connect(null);
  render();
}

async function setLanguage(lang) {
  await loadLanguage(lang);
  render();
}

// -- drawing -----------------------------------------------------------------------------------

function screen() {
  switch (state.screen) {
    case 'home':
      return renderHome(app);
    case 'join':
      return renderJoin(app);
    case 'missing':
      return h('main', { class: 'screen page missing' },
        h('h1', {}, t('missing.title')),
        h('p', {}, state.formError ? errorText(state.formError) : t('missing.text')),
        h('a', { class: 'primary', href: '/' }, t('missing.home')));
    case 'mesa':
      if (!state.mesa) {
        return h('main', { class: 'screen loading' }, connectionBanner(app) || t('common.loading'));
      }
      return state.mesa.status === 'waiting' ? renderWaiting(app) : renderTable(app);
    default:
      return h('main', { class: 'screen loading' }, t('common.loading'));
  }
}

function currentDialog() {
  if (!state.dialog || !state.mesa) return null;
  if (state.dialog === 'summary' && state.lastHand) {
    const { title, body, actions } = summaryDialogParts(app);
    return dialog('summary-dialog', title, body, { onClose: closeDialog, actions, wide: true });
  }
  if (state.dialog === 'sheet') {
    return dialog('sheet-dialog', t('sheet.title'), sheetBody(app), { onClose: closeDialog });
  }
  if (state.dialog === 'mesa') {
    const actions = [];
    if (state.you?.host && state.mesa.status !== 'playing' && state.mesa.status !== 'hand_over') {
      actions.push(h('button', { type: 'button', class: 'secondary', onclick: openRules }, t('waiting.change_rules')));
    }
    const body = h('div', {}, mesaBody(app), personalSettings(app));
    return dialog('mesa-dialog', t('mesa.title'), body, { onClose: closeDialog, actions });
  }
  if (state.dialog === 'rules' && state.rulesDraft) {
    const draft = state.rulesDraft;
    const body = h('div', {},
      rulesEditor(state.presets, draft.rules, (rules) => { draft.rules = rules; render(); },
        { lockMode: true, idPrefix: 'configure' }),
      botPaceField(draft.botPause, (ms) => { draft.botPause = ms; }, 'configure-bot-pace'),
      autoPassField(draft.autoPass, (on) => { draft.autoPass = on; }, 'configure-auto-pass'),
      state.formError ? h('p', { class: 'form-error', role: 'alert' }, errorText(state.formError)) : null);
    return dialog('rules-dialog', t('waiting.change_rules'), body, {
      onClose: closeDialog,
      actions: [h('button', { type: 'button', class: 'primary', onclick: saveRules }, t('rules.save'))],
    });
  }
  return null;
}

function render() {
  const active = document.activeElement;
  const focusKey = active?.dataset?.key || (active?.id ? `#${active.id}` : null);
  const scrolls = {};
  for (const element of root.querySelectorAll('[data-scroll-key]')) {
    scrolls[element.dataset.scrollKey] = element.scrollTop;
  }
  const atTable = state.screen === 'mesa' && state.mesa && state.mesa.status !== 'waiting';
  const was = atTable && feel.motion ? feel.motion.before(root) : null;
  const built = screen();
  const overlay = currentDialog();
  // Behind a modal dialog the screen is inert: no focus, no clicks, nothing read.
  built.inert = Boolean(overlay);
  clear(root).append(built);
  if (overlay) root.append(overlay);
  chat?.place(app, root, Boolean(overlay)); // before the table's layout: its slot takes room
  if (atTable) {
    layoutTable(app, root);
    if (was) feel.motion.after(root, was, state.view);
  }
  for (const element of root.querySelectorAll('[data-scroll-key]')) {
    const top = scrolls[element.dataset.scrollKey];
    if (top) element.scrollTop = top;
  }
  restoreFocus(focusKey, overlay);
  updateClocks();
  const myTurn = Boolean(state.view && !state.view.ended && state.view.turn === mySeat());
  document.title = myTurn ? t('title.your_turn') : t('title.page');
  if (myTurn && !turnSounded) sound(['turn']);
  turnSounded = myTurn;
  if (atTable) considerAutoPass(app);
  if (!feel.asked && state.screen === 'mesa' && state.mesa) loadFeel(); // at a mesa, not before
}

/** Where a screen leaves room for the table talk's panel (nothing until it is loaded). */
function chatSlot(where) {
  return chat ? chat.slot(app, where) : null;
}

function byKey(key) {
  if (!key) return null;
  return key.startsWith('#')
    ? document.getElementById(key.slice(1))
    : root.querySelector(`[data-key="${CSS.escape(key)}"]`);
}

/** Where the focus goes when the control that had it is gone: a played tile, a lit end, «Paso»
 * to the hand (or, with the hand empty, the summary's button); a filled chair's «Poner bot» to the
 * next one, then to «Empezar la partida». Never to the page's body. */
function standIn(key) {
  if (key.startsWith('put-bot-')) {
    return root.querySelector('[data-key^="put-bot-"]') || root.querySelector('[data-key="start"]');
  }
  if (key === 'hand' || /^(tile-|end-)/.test(key) || key === 'pass' || key === 'draw') {
    return root.querySelector('.hand-tile[tabindex="0"], .action-pass, .action-draw')
      || root.querySelector('[data-key="open-summary"]') || document.getElementById('main');
  }
  return null;
}

function restoreFocus(focusKey, overlay) {
  if (overlay && state.focusDialog) {
    state.focusDialog = false;
    overlay.querySelector('h2')?.focus();
    return;
  }
  const myTurn = Boolean(state.view && !state.view.ended && state.view.turn === mySeat());
  const turnStarted = myTurn && !wasMyTurn;
  wasMyTurn = myTurn;
  const after = state.focusAfterDialog;
  state.focusAfterDialog = null;
  if (after && !overlay) {
    const back = after.map(byKey).find(Boolean) || standIn('hand');
    if (back) {
      back.focus();
      return;
    }
  }
  if (focusKey) {
    const target = byKey(focusKey) || standIn(focusKey);
    if (target) {
      target.focus();
      return;
    }
  }
  if (turnStarted && !overlay && (document.activeElement === document.body || !document.activeElement)) {
    root.querySelector('.hand-tile[tabindex="0"], .action-pass, .action-draw')?.focus();
  }
}

function updateClocks() {
  const deadline = state.mesa?.turn_deadline;
  for (const clock of document.querySelectorAll('[data-clock]')) {
    clock.textContent = deadline ? ` · ${Math.max(0, Math.ceil((deadline - Date.now()) / 1000))} s` : '';
  }
  for (const clock of document.querySelectorAll('[data-partida-clock]')) {
    clock.textContent = timeLeft(Number(clock.dataset.partidaClock));
  }
}

const app = {
  state, render, send, mySeat, tapTile, play, chooseEnd, cancelChoice, openDialog, closeDialog,
  openRules, createMesa, quickPlay, joinMesa, watch, setLanguage, toast, chatSlot,
};

// -- start -------------------------------------------------------------------------------------

async function start() {
  document.body.prepend(tileDefs());
  // The words, the presets and the bots are asked for at once (the page preloads all three).
  const offered = Promise.all([api.presets(), api.bots()]);
  offered.catch(() => {}); // (its failure is handled below, after the words)
  // Signed in? Then the mesas made and joined here are the account's (and may be rated).
  api.me().then((account) => {
    state.account = account;
    if (account) render();
  });
  await loadLanguage();
  try {
    const [presets, bots] = await offered;
    state.presets = presets;
    state.bots = bots.bots;
    state.botRatings = bots.ratings || {};
  } catch {
    state.presets = { presets: {} };
    state.bots = [];
  }
  const match = location.pathname.match(/^\/m\/([^/]+)\/?$/);
  if (match) {
    state.code = decodeURIComponent(match[1]);
    const ticket = session.seatTicket(state.code);
    if (ticket?.token) connect(ticket.token);
    else await showJoin();
  } else {
    state.screen = 'home';
  }
  render();
}

window.addEventListener('resize', () => {
  if (state.screen === 'mesa' && state.mesa && state.mesa.status !== 'waiting') layoutTable(app, root);
});
window.addEventListener('popstate', () => location.reload());
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && state.choosing) cancelChoice();
});
setInterval(updateClocks, 1000);

start();
