// The player's own settings, kept in this browser (not the mesa's), and what the page does with
// them: sound and vibration (on unless turned off; the tool bar's switch and the Mesa panel), and
// the personal paso automático (off unless turned on; independent of the anotador and of the
// mesa's option). Each is read when it is used, so a change made in one place holds everywhere.
//
// Paso automático, the page's side: the mesa may have it on (the server then passes for whoever
// can only pass); a player may also turn it on for themselves alone: then this page, once it
// shows that the player can only pass, waits a moment the player can see and sends the «Paso»
// they would have sent. Nothing else changes: the pass is the player's, announced as any.

import { h, s } from './dom.js';
import { t } from './i18n.js';

const KEYS = { sound: 'fichaflow.sound', autoPass: 'fichaflow.auto_pass' };

function read(key, fallback) {
  try {
    const value = localStorage.getItem(KEYS[key]);
    return value === null ? fallback : value === 'on';
  } catch {
    return fallback;
  }
}

function write(key, on) {
  try {
    localStorage.setItem(KEYS[key], on ? 'on' : 'off');
  } catch {
    // No storage (private browsing): the setting lasts until the page is closed.
  }
  memory[key] = on;
}

const memory = {};

/** Sound and vibration: on unless the player turned them off. */
export function soundOn() {
  return memory.sound ?? read('sound', true);
}

export function setSound(on) {
  write('sound', on);
}

/** The personal paso automático: off unless the player turned it on. */
export function autoPassOn() {
  return memory.autoPass ?? read('autoPass', false);
}

export function setAutoPass(on) {
  write('autoPass', on);
}

// -- paso automático ---------------------------------------------------------------------------

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

// -- the switches ------------------------------------------------------------------------------

function toggle(id, label, hint, on, change) {
  return h('div', { class: 'field check-field' },
    h('label', { for: id },
      h('input', { id, type: 'checkbox', checked: on, onchange: (event) => change(event.target.checked) }),
      ' ', label),
    hint ? h('p', { class: 'hint' }, hint) : null);
}

export function personalSettings(app) {
  const mesaPasses = Boolean(app.state.mesa?.options?.auto_pass);
  return h('section', { class: 'personal-settings', 'aria-labelledby': 'settings-title' },
    h('h3', { id: 'settings-title' }, t('settings.title')),
    toggle('setting-sound', t('settings.sound'), null, soundOn(), (on) => {
      setSound(on);
      app.render();
    }),
    toggle('setting-auto-pass', t('settings.auto_pass'),
      t(mesaPasses ? 'settings.auto_pass_mesa' : 'settings.auto_pass_hint'), autoPassOn(), (on) => {
        setAutoPass(on);
        app.render();
      }));
}

/** The sound switch for the table's tool bar: a toggle button, its state remembered. */
export function soundToggle(app) {
  const on = soundOn();
  return h('button', {
    type: 'button', class: `chip-button icon-button sound-toggle${on ? '' : ' muted'}`,
    dataset: { key: 'sound-toggle' },
    'aria-pressed': on ? 'true' : 'false',
    'aria-label': t('sound.toggle'),
    title: t(on ? 'sound.on_title' : 'sound.off_title'),
    onclick: () => {
      setSound(!soundOn());
      app.render();
    },
  }, speakerIcon(on), h('span', { class: 'tool-word' }, t('sound.toggle')));
}

function speakerIcon(on) {
  return s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' },
    s('path', { d: 'M4 9.5h3.5L12 5.5v13l-4.5-4H4z' }),
    s('path', { d: on ? 'M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11' : 'M16 9.5l5 5M21 9.5l-5 5' }));
}
