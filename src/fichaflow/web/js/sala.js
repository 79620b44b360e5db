// The public lobby on the home page: «Jugar ya» (a mode and how long to wait for people before
// bots fill the chairs) and the open public mesas, kept live from /ws/lobby (the whole list, then
// what changed). The list is redrawn in its own box, never the whole page: a player typing their
// name is not disturbed by mesas coming and going.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { presetLabel, rulesSummary } from './rules.js';

export const QUICK_WAITS = [10, 20, 40];
const MODES = ['parejas', 'mano_a_mano', 'tres'];
const SHOWN = 60; // mesas drawn at once; the rest are counted

let socket = null;
let mesas = new Map();
let redrawList = null;
let retry = 1000;

/** Follow the lobby while the home page shows (idempotent). */
export function followLobby() {
  if (socket) return;
  socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'lobby') {
      mesas = new Map(message.mesas.map((m) => [m.code, m]));
    } else if (message.type === 'lobby_diff') {
      for (const m of message.mesas) mesas.set(m.code, m);
      for (const code of message.gone) mesas.delete(code);
    }
    retry = 1000;
    redrawList?.();
  };
  socket.onclose = () => {
    socket = null;
    if (redrawList) setTimeout(followLobby, retry);
    retry = Math.min(retry * 2, 15000);
  };
}

/** Stop following (the player went to a mesa). */
export function leaveLobby() {
  redrawList = null;
  if (socket) {
    socket.onclose = null;
    socket.close();
    socket = null;
  }
}

function seatText(seat) {
  if (seat.kind === 'empty') return t('sala.free_chair');
  const rating = seat.rating == null ? t('sala.provisional') : t('lobby.bot_rating', { rating: seat.rating });
  return `${seat.name} (${rating})`;
}

function mesaRow(presets, mesa) {
  const status = mesa.status === 'waiting' ? t('sala.waiting') : t('sala.playing');
  return h('li', { class: 'sala-mesa', dataset: { code: mesa.code } },
    h('div', { class: 'sala-head' },
      h('strong', {}, presetLabel(mesa.rules.preset)), ' · ',
      mesa.rules.preset === mesa.mode ? null : h('span', {}, t(`value.mode.${mesa.mode}`)),
      mesa.rules.preset === mesa.mode ? null : ' · ',
      h('span', { class: 'sala-free' }, t(mesa.free === 1 ? 'sala.free_one' : 'sala.free', { count: mesa.free })), ' · ',
      h('span', { class: 'sala-mirones' }, t(mesa.mirones === 1 ? 'sala.mirones_one' : 'sala.mirones', { count: mesa.mirones })), ' · ',
      h('span', {}, status)),
    h('p', { class: 'sala-seats' }, mesa.seats.map(seatText).join(' · ')),
    h('details', { class: 'sala-rules' },
      h('summary', {}, t('sala.rules')),
      rulesSummary(presets, mesa.rules)),
    h('a', { class: 'secondary', href: `/m/${encodeURIComponent(mesa.code)}` },
      mesa.free > 0 && mesa.status === 'waiting' ? t('sala.sit') : t('sala.watch')));
}

function fillList(box, presets) {
  const all = [...mesas.values()].sort((a, b) => (b.free > 0) - (a.free > 0) || b.mirones - a.mirones);
  const open = [...box.querySelectorAll('details[open]')].map((d) => d.closest('li')?.dataset.code);
  clear(box);
  if (!all.length) {
    box.append(h('p', { class: 'hint' }, t('sala.empty')));
    return;
  }
  box.append(h('p', { class: 'sala-count' }, t(all.length === 1 ? 'sala.count_one' : 'sala.count', { count: all.length })));
  box.append(h('ul', { class: 'sala-list' }, all.slice(0, SHOWN).map((m) => mesaRow(presets, m))));
  for (const code of open) {
    box.querySelector(`li[data-code="${CSS.escape(code)}"] details`)?.setAttribute('open', '');
  }
}

/** «Jugar ya» and the public mesas, for the home page. */
export function salaSection(app, draft) {
  const { state } = app;
  const box = h('div', { id: 'public-list', 'aria-live': 'off' });
  fillList(box, state.presets);
  redrawList = () => {
    const live = document.getElementById('public-list');
    if (live) fillList(live, state.presets);
  };
  followLobby();
  const quick = state.quickDraft || (state.quickDraft = { mode: 'parejas', wait: 20 });
  const submit = (event) => {
    event.preventDefault();
    app.quickPlay({ name: draft.name.trim() || t('lobby.host_default'), mode: quick.mode, wait: quick.wait });
  };
  return h('section', { class: 'card sala', 'aria-labelledby': 'sala-title' },
    h('h2', { id: 'sala-title' }, t('sala.title')),
    h('form', { class: 'quick-form', onsubmit: submit },
      h('div', { class: 'field' },
        h('label', { for: 'quick-name' }, t('sala.name')),
        h('input', {
          id: 'quick-name', name: 'name', autocomplete: 'nickname', maxlength: 30,
          value: draft.name, placeholder: t('lobby.name_placeholder'),
          oninput: (event) => { draft.name = event.target.value; },
        })),
      h('div', { class: 'field' },
        h('label', { for: 'quick-mode' }, t('sala.mode')),
        h('select', { id: 'quick-mode', onchange: (event) => { quick.mode = event.target.value; } },
          MODES.map((mode) => h('option', { value: mode, selected: mode === quick.mode }, t(`value.mode.${mode}`))))),
      h('div', { class: 'field' },
        h('label', { for: 'quick-wait' }, t('sala.wait')),
        h('select', { id: 'quick-wait', onchange: (event) => { quick.wait = Number(event.target.value); } },
          QUICK_WAITS.map((s) => h('option', { value: s, selected: s === quick.wait }, t('sala.wait_seconds', { seconds: s }))))),
      h('p', { class: 'hint quick-hint' }, t('sala.wait_hint')),
      h('button', { class: 'primary big', type: 'submit', id: 'quick-play', disabled: state.busy }, t('sala.play_now'))),
    h('h3', {}, t('sala.public_title')),
    box);
}
