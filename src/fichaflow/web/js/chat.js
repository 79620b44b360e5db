// Table talk (docs/protocol.md, «Table talk»): the quick phrases in the table's words, free chat
// (200 characters at most, shown as text, never as HTML), muting a person (this browser only,
// per mesa), blocking one (the server stops sending their words) and reporting a saying.
//
// The server decides who hears what: a mirón's words never reach a seated player while a hand is
// in play, so this page shows every saying it receives (less the muted ones).
//
// The panel is one element kept for the whole visit, outside the screen the page redraws at
// every move: what the player is typing, the caret and the phone's keyboard survive the redraws.
// Each screen leaves a slot for it (``slot``) where the layout wants it, and ``place`` lays the
// panel over that slot after each drawing (on a phone, between the table and the player's hand,
// which it never covers).

import { h } from './dom.js';
import { t } from './i18n.js';

const PHRASES = ['buena', 'que_mano', 'paso', 'capicua', 'tranque', 'se_enfria', 'gracias', 'buena_partida'];
const MAX_CHARS = 200; // the server's limit (server/talk.py MAX_CHARS)
const KEEP = 100;
const WIDE = '(min-width: 1100px) and (min-height: 560px)';

const talk = {
  messages: [],
  blocked: new Set(),
  unread: 0,
  open: null, // null: not chosen yet (open on a wide screen, closed on a phone)
  chosen: null, // the message whose actions are shown
  pending: null, // {ref, text}: a saying sent and not yet heard back
  refs: new Set(), // the refs of this panel's intentions, so that their errors are said here
  reported: new Set(),
  error: null,
  code: null,
};

let panel = null;
let parts = null;
let appRef = null;

// -- what the server tells ----------------------------------------------------------------------

/** A welcome: the recent talk this connection may hear and whom its person blocked. */
export function welcome(app, message) {
  appRef = app;
  if (talk.code !== app.state.code) {
    talk.code = app.state.code;
    talk.unread = 0;
    talk.reported = new Set();
  }
  talk.messages = (message.chat || []).slice(-KEEP);
  talk.blocked = new Set(message.blocked || []);
  talk.chosen = null;
  refresh();
}

/** One saying: shown, and counted as unread while the panel is closed. */
export function heard(app, message) {
  appRef = app;
  talk.messages.push(message);
  if (talk.messages.length > KEEP) talk.messages.splice(0, talk.messages.length - KEEP);
  const mine = message.person === app.state.you?.id;
  if (mine && talk.pending) talk.pending = null;
  if (!mine && !isOpen() && !muted(message.person)) talk.unread += 1;
  refresh();
}

export function blocked(app, message) {
  appRef = app;
  talk.blocked = new Set(message.people || []);
  refresh();
}

export function reported(app, message) {
  appRef = app;
  talk.reported.add(message.id);
  talk.error = { text: t('chat.reported'), ok: true };
  refresh();
}

/** An error answering one of this panel's intentions: said in the panel (not a toast), and a
 * refused saying goes back into the field. Returns whether it was the panel's. */
export function refused(app, message, text) {
  if (!message.ref || !talk.refs.has(message.ref)) return false;
  talk.refs.delete(message.ref);
  if (talk.pending?.ref === message.ref) {
    const input = parts?.input;
    if (input && !input.value) {
      input.value = talk.pending.text;
      counted();
    }
    talk.pending = null;
  }
  talk.error = { text, ok: false };
  refresh();
  return true;
}

// -- mutes (this browser, per mesa) ---------------------------------------------------------------

function muteKey() {
  return `fichaflow.mute.${talk.code}`;
}

function mutes() {
  try {
    return new Set(JSON.parse(localStorage.getItem(muteKey())) || []);
  } catch {
    return new Set(memoryMutes);
  }
}

let memoryMutes = [];

function setMuted(person, on) {
  const now = mutes();
  if (on) now.add(person);
  else now.delete(person);
  memoryMutes = [...now];
  try {
    localStorage.setItem(muteKey(), JSON.stringify(memoryMutes));
  } catch {
    // No storage: the mute lasts as long as the page.
  }
}

function muted(person) {
  return mutes().has(person);
}

// -- the slot and the panel -------------------------------------------------------------------

function isOpen() {
  if (talk.open === null) talk.open = window.matchMedia(WIDE).matches;
  return talk.open;
}

/** Where the screen wants the panel: an empty box the panel is laid over. */
export function slot(app, where) {
  appRef = app;
  return h('div', { class: `chat-slot chat-slot-${where}${isOpen() ? ' open' : ''}`, 'aria-hidden': 'true' });
}

/** After each drawing: the panel over its slot (or hidden when the screen has none). ``inert``
 * while a modal dialog is open, as the screen behind it is. */
export function place(app, root, inert) {
  appRef = app;
  build();
  const target = root.querySelector('.chat-slot');
  if (!target) {
    if (panel.contains(document.activeElement)) document.getElementById('main')?.focus();
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.inert = inert;
  refresh();
  fit(target);
}

function fit(target) {
  const fill = getComputedStyle(target).getPropertyValue('--chat-fill').trim() === '1';
  panel.classList.toggle('fill', fill);
  let box = target.getBoundingClientRect();
  panel.style.width = `${box.width}px`;
  if (fill) {
    panel.style.height = `${box.height}px`;
  } else {
    panel.style.height = '';
    target.style.height = `${panel.offsetHeight}px`;
    box = target.getBoundingClientRect();
  }
  panel.style.left = `${box.left + window.scrollX}px`;
  panel.style.top = `${box.top + window.scrollY}px`;
}

function refit() {
  const target = document.querySelector('#app .chat-slot');
  if (panel && target && !panel.hidden) fit(target);
}

function build() {
  if (panel) return;
  const input = h('input', {
    id: 'chat-input', type: 'text', maxlength: String(MAX_CHARS), autocomplete: 'off',
    enterkeyhint: 'send', dataset: { key: 'chat-input' }, oninput: counted,
  });
  const count = h('span', { class: 'chat-count', 'aria-live': 'off' });
  const label = h('label', { for: 'chat-input', class: 'sr-only' });
  const send = h('button', { type: 'submit', class: 'primary chat-send', dataset: { key: 'chat-send' } });
  const form = h('form', { class: 'chat-form', onsubmit: submit }, label, input, count, send);
  parts = {
    title: h('h2', { id: 'chat-title', class: 'chat-title' }),
    toggle: h('button', { type: 'button', class: 'chat-toggle', dataset: { key: 'chat-toggle' },
      'aria-controls': 'chat-body', onclick: toggle }),
    preview: h('p', { class: 'chat-preview' }),
    log: h('div', { class: 'chat-log', role: 'log' }),
    note: h('p', { class: 'chat-note' }),
    people: h('div', { class: 'chat-people' }),
    phrases: h('div', { class: 'chat-phrases', role: 'group' }),
    status: h('p', { class: 'chat-status', role: 'status' }),
    form, input, count, label, send,
    lang: null,
  };
  const body = h('div', { id: 'chat-body', class: 'chat-body' },
    parts.log, parts.people, parts.note, parts.phrases, form, parts.status);
  panel = h('aside', { class: 'chat', 'aria-labelledby': 'chat-title', hidden: true },
    h('div', { class: 'chat-head' }, parts.title, parts.preview, parts.toggle), body);
  parts.body = body;
  document.body.append(panel);
  window.addEventListener('resize', refit);
  // (a frame later: a change made while observing must not be observed in the same round)
  new ResizeObserver(() => requestAnimationFrame(refit)).observe(document.getElementById('app'));
  counted();
}

function counted() {
  const length = parts.input.value.length;
  parts.count.textContent = `${length}/${MAX_CHARS}`;
  parts.count.title = t('chat.count', { length, limit: MAX_CHARS });
  parts.count.classList.toggle('full', length >= MAX_CHARS);
}

function toggle() {
  talk.open = !isOpen();
  if (talk.open) talk.unread = 0;
  talk.chosen = null;
  appRef?.render(); // the slot changes size, and with it the table
  if (talk.open) parts.input.focus();
}

function say(message) {
  const app = appRef;
  if (!app) return null;
  return sent(app.send({ type: 'say', ...message }));
}

function sent(ref) {
  if (ref !== null && ref !== undefined) {
    talk.refs.add(ref);
    if (talk.refs.size > 50) talk.refs.delete(talk.refs.values().next().value);
  }
  return ref ?? null;
}

function submit(event) {
  event.preventDefault();
  const text = parts.input.value;
  if (!text.trim()) return;
  const ref = say({ text });
  if (ref === null) return;
  talk.pending = { ref, text };
  talk.error = null;
  parts.input.value = '';
  counted();
  refresh();
}

function phrase(key) {
  const ref = say({ phrase: key });
  if (ref !== null) {
    talk.pending = { ref, text: '' };
    talk.error = null;
    refresh();
  }
}

function block(person, on) {
  sent(appRef?.send({ type: 'block', person, on }));
  talk.chosen = null;
}

/** «Denunciar este mensaje» (once a saying). */
function reportButton(message) {
  if (talk.reported.has(message.id)) return null;
  return h('button', { type: 'button', class: 'secondary small',
    dataset: { key: `report-${message.id}` }, onclick: () => report(message) }, t('chat.report'));
}

function report(message) {
  sent(appRef?.send({ type: 'report', id: message.id }));
  talk.chosen = null;
  refresh();
}

// -- drawing the panel's contents -------------------------------------------------------------

function refresh() {
  if (!panel || panel.hidden || !appRef) return;
  const app = appRef;
  const state = app.state;
  const open = isOpen();
  const active = document.activeElement;
  const focusKey = panel.contains(active) ? active.dataset?.key : null;
  const atBottom = parts.log.scrollHeight - parts.log.scrollTop - parts.log.clientHeight < 24;
  const lang = document.documentElement.lang;
  if (parts.lang !== lang) {
    parts.lang = lang;
    parts.title.textContent = t('chat.title');
    parts.log.setAttribute('aria-label', t('chat.log'));
    parts.phrases.setAttribute('aria-label', t('chat.phrases'));
    parts.label.textContent = t('chat.input');
    parts.input.placeholder = t('chat.placeholder');
    parts.send.textContent = t('chat.send');
    parts.phrases.replaceChildren(...PHRASES.map((key) => h('button', {
      type: 'button', class: 'chat-phrase', dataset: { key: `phrase-${key}`, phrase: key },
      onclick: () => phrase(key),
    }, t(`chat.phrase.${key}`))));
    counted();
  }
  panel.classList.toggle('open', open);
  parts.body.hidden = !open;
  parts.toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
  parts.toggle.textContent = open ? t('chat.close')
    : talk.unread ? `${t('chat.open')} · ${t('chat.unread', { count: talk.unread })}` : t('chat.open');
  const shown = talk.messages.filter((m) => !muted(m.person));
  const last = shown[shown.length - 1];
  parts.preview.hidden = open;
  parts.preview.replaceChildren(...(last ? saying(last) : [t('chat.empty')]));
  const canSpeak = Boolean(state.you);
  parts.phrases.hidden = !canSpeak;
  parts.form.hidden = !canSpeak;
  const seated = app.mySeat() !== null;
  parts.note.textContent = !canSpeak ? t('chat.anonymous')
    : seated ? t('chat.note_player') : t('chat.note_miron');
  parts.status.textContent = talk.error?.text || '';
  parts.status.classList.toggle('bad', Boolean(talk.error && !talk.error.ok));
  parts.people.replaceChildren(...peopleLines(app));
  if (open) {
    parts.log.replaceChildren(...(shown.length ? shown.map((m) => entry(app, m))
      : [h('p', { class: 'chat-empty' }, t('chat.empty'))]));
    if (atBottom || !talk.chosen) parts.log.scrollTop = parts.log.scrollHeight;
  }
  if (focusKey && document.activeElement !== active) {
    const back = panel.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) || parts.toggle;
    back.focus();
  }
}

/** Who is muted here and who blocked, each with the way back. */
function peopleLines(app) {
  const names = new Map(talk.messages.map((m) => [m.person, m.name]));
  for (const person of app.state.mesa?.seats || []) {
    if (person.person !== null && person.person !== undefined && person.name) names.set(person.person, person.name);
  }
  const nameOf = (person) => names.get(person) || `#${person}`;
  const lines = [];
  const silent = [...mutes()];
  if (silent.length) {
    lines.push(h('p', { class: 'chat-muted' }, t('chat.muted_list', { names: '' }),
      silent.map((person) => h('button', { type: 'button', class: 'link chat-undo',
        dataset: { key: `unmute-${person}` }, onclick: () => { setMuted(person, false); refresh(); } },
      t('chat.unmute', { name: nameOf(person) })))));
  }
  if (talk.blocked.size) {
    lines.push(h('p', { class: 'chat-muted' }, t('chat.blocked_list', { names: '' }),
      [...talk.blocked].map((person) => h('button', { type: 'button', class: 'link chat-undo',
        dataset: { key: `unblock-${person}` }, onclick: () => block(person, false) },
      t('chat.unblock', { name: nameOf(person) })))));
  }
  return lines;
}

/** A saying's words: its speaker, «mirón» for one who watched, and the text (as text). */
function saying(message) {
  const words = message.phrase ? t(`chat.phrase.${message.phrase}`) : message.text;
  return [
    h('strong', { class: 'chat-name' }, message.name),
    message.role === 'miron' ? h('span', { class: 'chat-role' }, ` (${t('chat.miron')})`) : null,
    ': ',
    h('span', { class: `chat-words${message.phrase ? ' phrase' : ''}` }, words),
  ];
}

function entry(app, message) {
  const mine = message.person === app.state.you?.id;
  const chosen = talk.chosen === message.id;
  const words = saying(message);
  const line = mine || !app.state.you
    ? h('p', { class: 'chat-line' }, words)
    : h('p', { class: 'chat-line' }, h('button', {
      type: 'button', class: 'chat-who', dataset: { key: `who-${message.id}` },
      'aria-expanded': chosen ? 'true' : 'false', 'aria-label': t('chat.who', { name: message.name }),
      onclick: () => { talk.chosen = chosen ? null : message.id; refresh(); },
    }, words[0], words[1]), ...words.slice(2));
  const item = h('div', { class: `chat-message${mine ? ' mine' : ''}${message.role === 'miron' ? ' miron' : ''}`,
    dataset: { id: message.id, person: message.person } }, line);
  if (chosen) {
    const name = message.name;
    const isBlocked = talk.blocked.has(message.person);
    item.append(h('div', { class: 'chat-actions' },
      h('button', { type: 'button', class: 'secondary small', dataset: { key: `mute-${message.id}` },
        onclick: () => { setMuted(message.person, true); talk.chosen = null; refresh(); } },
      t('chat.mute', { name })),
      h('button', { type: 'button', class: 'secondary small', dataset: { key: `block-${message.id}` },
        onclick: () => block(message.person, !isBlocked) },
      t(isBlocked ? 'chat.unblock' : 'chat.block', { name })),
      reportButton(message),
      h('p', { class: 'hint' }, t('chat.hint'))));
  }
  return item;
}
