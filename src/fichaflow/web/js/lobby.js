// Before the first hand: build a mesa (rules, target, bots' pace), join one from a link with
// just a name, and the waiting room (the invitation link, who sits where, bots in empty chairs,
// the parados and the mirones, the start).

import { h } from './dom.js';
import { errorText, t } from './i18n.js';
import { draftFrom, presetLabel, rulesBody, rulesEditor, rulesProblem, rulesSummary } from './rules.js';
import { lastName } from './session.js';
import { regionalPreset } from './region.js';
import { seatNames } from './names.js';
import { mainAttrs, topBar } from './chrome.js';
import { salaSection } from './sala.js';

const BOT_PACES = [0, 400, 800, 1500];
const TURN_CLOCKS = [null, 30, 60, 120];

export function renderHome(app) {
  const { state } = app;
  if (!state.presets) return h('main', { class: 'screen loading' }, t('common.loading'));
  if (!state.createDraft) {
    state.createDraft = {
      name: lastName(),
      rules: draftFrom(state.presets, { preset: regionalPreset(state.presets) }),
      botPause: 800,
      turnSeconds: null,
      autoPass: false,
      rated: false,
      public: false,
    };
  }
  const draft = state.createDraft;
  const redraw = () => app.render();
  const submit = async (event) => {
    event.preventDefault();
    // A meta out of range is said here, in the form's words, before any request goes out.
    state.formError = rulesProblem(state.presets, draft.rules);
    if (state.formError) {
      redraw();
      return;
    }
    await app.createMesa({
      name: draft.name.trim() || t('lobby.host_default'),
      rules: rulesBody(state.presets, draft.rules),
      botPause: draft.botPause,
      turnSeconds: draft.turnSeconds,
      autoPass: draft.autoPass,
      rated: draft.rated,
      public: draft.public,
    });
  };
  return h('div', { class: 'screen home' },
    topBar(app),
    h('main', mainAttrs('page'),
      h('section', { class: 'hero' },
        h('h1', {}, t('home.title')),
        h('p', { class: 'lead' }, t('home.lead'))),
      salaSection(app, draft),
      h('form', { class: 'card create-form', onsubmit: submit, 'aria-labelledby': 'create-title', novalidate: true },
        h('h2', { id: 'create-title' }, t('home.create_title')),
        h('div', { class: 'field' },
          h('label', { for: 'host-name' }, t('lobby.your_name')),
          h('input', {
            id: 'host-name', name: 'name', autocomplete: 'nickname', maxlength: 30,
            value: draft.name, placeholder: t('lobby.name_placeholder'),
            oninput: (event) => { draft.name = event.target.value; },
          }),
          accountNameHint(state.account)),
        rulesEditor(state.presets, draft.rules, (rules) => { draft.rules = rules; redraw(); },
          { idPrefix: 'create' }),
        botPaceField(draft.botPause, (ms) => { draft.botPause = ms; }, 'bot-pace'),
        h('div', { class: 'field' },
          h('label', { for: 'turn-clock' }, t('lobby.turn_clock')),
          h('select', {
            id: 'turn-clock', name: 'turn_seconds',
            onchange: (event) => {
              draft.turnSeconds = event.target.value ? Number(event.target.value) : null;
            },
          }, TURN_CLOCKS.map((seconds) => h('option', {
            value: seconds ?? '', selected: seconds === draft.turnSeconds,
          }, seconds ? t('turn_clock.seconds', { seconds }) : t('turn_clock.off')))),
          h('p', { class: 'hint' }, t('lobby.turn_clock_hint'))),
        autoPassField(draft.autoPass, (on) => { draft.autoPass = on; }, 'auto-pass'),
        ratedField(state.account, draft.rated, (on) => { draft.rated = on; }),
        h('div', { class: 'field check-field' },
          h('label', { for: 'public-mesa' },
            h('input', { id: 'public-mesa', type: 'checkbox', name: 'public', checked: draft.public,
              onchange: (event) => { draft.public = event.target.checked; } }),
            ' ', t('sala.public_option')),
          h('p', { class: 'hint' }, t('sala.public_hint'))),
        state.formError ? h('p', { class: 'form-error', role: 'alert' }, errorText(state.formError)) : null,
        h('button', { class: 'primary big', type: 'submit', disabled: state.busy }, t('home.create'))),
      h('p', { class: 'aside' }, t('home.anotador_note'), ' ',
        h('a', { href: '/anotador/' }, t('home.anotador_link'))),
      h('p', { class: 'aside' },
        h('a', { href: '/problemas/', dataset: { key: 'problemas' } }, t('home.problemas_link')), ' · ',
        h('a', { href: '/jugadores/', dataset: { key: 'players' } }, t('home.players_link')), ' · ',
        h('a', { href: '/cuenta/', dataset: { key: 'account' } },
          state.account ? t('home.account_named', { name: state.account.name }) : t('home.account_link')))));
}

/** Signed in, a player sits down as their account: its name is the one the mesa shows. */
function accountNameHint(account) {
  return account ? h('p', { class: 'hint', dataset: { key: 'account-name' } },
    t('lobby.as_account', { name: account.name })) : null;
}

/** A rated mesa: its partidas count for the ratings, so everyone at its chairs must be signed in
 * (the server refuses to start it otherwise); offered to a signed-in host only. */
function ratedField(account, value, onChange) {
  if (!account) {
    return h('p', { class: 'hint', dataset: { key: 'rated-signin' } }, t('lobby.rated_signin'), ' ',
      h('a', { href: '/cuenta/' }, t('home.account_link')));
  }
  return h('div', { class: 'field check-field' },
    h('label', { for: 'rated' },
      h('input', { id: 'rated', type: 'checkbox', name: 'rated', checked: value,
        onchange: (event) => onChange(event.target.checked) }),
      ' ', t('lobby.rated')),
    h('p', { class: 'hint' }, t('lobby.rated_hint')));
}

/** What a rated mesa says in its waiting room: who still has to sign in, or that it is ready. */
function ratedNote(mesa) {
  if (!mesa.options.rated) return null;
  const guests = mesa.seats.filter((seat) => seat.kind === 'human' && !seat.signed_in)
    .map((seat) => seatNames(mesa.seats)[seat.seat]);
  return h('p', { class: `rated-note${guests.length ? ' blocked' : ''}`, role: 'status', dataset: { key: 'rated-note' } },
    h('strong', {}, t('waiting.rated')), ' ',
    guests.length ? t('waiting.rated_guests', { names: guests.join(', ') }) : t('waiting.rated_ready'));
}

/** How long bots wait before they play (a mesa option, not a rule of the game). */
export function botPaceField(value, onChange, id) {
  return h('div', { class: 'field' },
    h('label', { for: id }, t('lobby.bot_pace')),
    h('select', { id, name: 'bot_pause_ms', onchange: (event) => onChange(Number(event.target.value)) },
      BOT_PACES.map((ms) => h('option', { value: ms, selected: ms === value }, t(`bot_pace.${ms}`)))),
    h('p', { class: 'hint' }, t('lobby.bot_pace_hint')));
}

/** Paso automático for the whole mesa: whoever can only pass passes by itself after a moment
 * (a mesa option, like the bots' pace; the server does it). */
export function autoPassField(value, onChange, id) {
  return h('div', { class: 'field check-field' },
    h('label', { for: id },
      h('input', { id, type: 'checkbox', name: 'auto_pass', checked: value,
        onchange: (event) => onChange(event.target.checked) }),
      ' ', t('lobby.auto_pass')),
    h('p', { class: 'hint' }, t('lobby.auto_pass_hint')));
}

/** Joining from an invitation: only a name, then the first free chair (or the queue). */
export function renderJoin(app) {
  const { state } = app;
  const preview = state.preview;
  if (!preview) return h('main', { class: 'screen loading' }, t('common.loading'));
  const mesa = preview.mesa;
  const free = mesa.seats.filter((seat) => seat.kind === 'empty');
  if (state.joinName === undefined) state.joinName = lastName();
  const submit = async (event) => {
    event.preventDefault();
    await app.joinMesa(state.joinName.trim());
  };
  return h('div', { class: 'screen join' },
    topBar(app),
    h('main', mainAttrs('page'),
      h('form', { class: 'card join-form', onsubmit: submit },
        h('h1', {}, t('join.title')),
        h('p', { class: 'lead' }, t('join.lead', {
          host: mesa.host?.name || t('lobby.host_default'),
          preset: presetLabel(mesa.rules.preset),
          target: mesa.rule_options.target,
        })),
        seatStrip(mesa),
        h('div', { class: 'field' },
          h('label', { for: 'join-name' }, t('join.your_name')),
          h('input', {
            id: 'join-name', name: 'name', autocomplete: 'nickname', maxlength: 30, required: true,
            value: state.joinName, placeholder: t('lobby.name_placeholder'),
            oninput: (event) => { state.joinName = event.target.value; },
          }),
          accountNameHint(state.account)),
        state.formError ? h('p', { class: 'form-error', role: 'alert' }, errorText(state.formError)) : null,
        h('button', { class: 'primary big', type: 'submit', disabled: state.busy },
          free.length && mesa.status === 'waiting' ? t('join.sit') : t('join.queue')),
        free.length && mesa.status === 'waiting'
          ? null : h('p', { class: 'hint' }, t('join.queue_hint')),
        h('p', { class: 'aside' },
          h('button', { type: 'button', class: 'link', onclick: () => app.watch() },
            t('join.watch')), ' ', t('join.watch_hint')))));
}

function seatStrip(mesa) {
  return h('ul', { class: 'seat-strip', 'aria-label': t('lobby.seats') },
    mesa.seats.map((seat) => h('li', { class: `seat-pill ${seat.kind}` },
      h('span', { class: 'seat-no' }, t('lobby.seat_n', { n: seat.seat + 1 })), ' ',
      seat.kind === 'empty' ? t('lobby.free') : seatLabel(seat, mesa.seats))));
}

/** A chair's name as the table calls it (js/names.js), with «bot» beside a bot's. */
export function seatLabel(seat, seats) {
  const name = seatNames(seats)[seat.seat];
  if (seat.kind !== 'bot') return name;
  return h('span', { class: 'seat-label' }, name, ' ', h('span', { class: 'tag bot' }, t('player.bot')));
}

/** A bot as the table calls it ("tirafichas", as the core's sentences do), with what it does
 * and, where it was measured for the mode, its fixed rating on the people's scale. */
export function botLabel(name, rating) {
  const key = `bot_hint.${name}`;
  const hint = t(key);
  const label = hint === key ? name : `${name} · ${hint}`;
  return rating ? `${label} · ${t('lobby.bot_rating', { rating })}` : label;
}

/** The waiting room: invitation, chairs, rules, parados and mirones, and the start. */
export function renderWaiting(app) {
  const { state } = app;
  const mesa = state.mesa;
  const you = state.you;
  const isHost = Boolean(you?.host);
  const mySeat = app.mySeat();
  const empty = mesa.seats.filter((seat) => seat.kind === 'empty').length;
  const guests = mesa.options.rated
    && mesa.seats.some((seat) => seat.kind === 'human' && !seat.signed_in);
  return h('div', { class: 'screen waiting' },
    topBar(app),
    h('main', mainAttrs('page'),
      h('section', { class: 'card invite' },
        h('h1', {}, t('waiting.title')),
        inviteBox(app)),
      h('section', { class: 'card chairs', 'aria-labelledby': 'chairs-title' },
        h('h2', { id: 'chairs-title' }, t('lobby.seats')),
        h('ol', { class: `chair-ring seats-${mesa.seats.length}` },
          mesa.seats.map((seat) => chairCard(app, seat, isHost, mySeat))),
        peopleAround(app)),
      h('section', { class: 'card rules-card', 'aria-labelledby': 'rules-title' },
        h('h2', { id: 'rules-title' }, t('waiting.rules')),
        rulesSummary(state.presets, mesa.rules, mesa.idle_options),
        isHost ? h('button', { type: 'button', class: 'secondary', dataset: { key: 'change-rules' },
          onclick: () => app.openRules() },
          t('waiting.change_rules')) : null),
      h('section', { class: 'start-bar' },
        isHost
          ? h('button', {
            class: 'primary big', type: 'button', disabled: empty > 0 || guests, dataset: { key: 'start' },
            onclick: () => app.send({ type: 'start' }),
          }, t('waiting.start'))
          : h('p', { class: 'hint' }, t('waiting.host_starts', { host: mesa.host?.name || '' })),
        ratedNote(mesa),
        empty > 0 && mesa.options.quick_seconds
          ? h('p', { class: 'hint quick-wait' }, t('sala.bots_after', { seconds: mesa.options.quick_seconds }))
          : null,
        empty > 0
          ? h('p', { class: 'hint' }, t(empty === 1 ? 'waiting.missing_one' : 'waiting.missing', { count: empty }))
          : null),
      app.chatSlot?.('waiting')));
}

function chairCard(app, seat, isHost, mySeat) {
  const mine = seat.seat === mySeat;
  const parejas = app.state.mesa.seats.length === 4;
  const partnerOf = parejas ? t('lobby.team_n', { n: (seat.seat % 2) + 1 }) : null;
  const actions = [];
  if (seat.kind === 'empty') {
    if (isHost) actions.push(botPicker(app, seat.seat));
    if (app.state.you && mySeat === null) {
      actions.push(h('button', { type: 'button', class: 'secondary',
        onclick: () => app.send({ type: 'sit', seat: seat.seat }) }, t('lobby.sit_here')));
    }
  } else if (seat.kind === 'bot' && isHost && !seat.substitute) {
    actions.push(h('button', { type: 'button', class: 'secondary small',
      'aria-label': t('lobby.remove_bot_named', { name: seat.bot, n: seat.seat + 1 }),
      onclick: () => app.send({ type: 'clear_seat', seat: seat.seat }) }, t('lobby.remove_bot')));
  } else if (mine) {
    actions.push(h('button', { type: 'button', class: 'secondary small',
      onclick: () => app.send({ type: 'stand' }) }, t('lobby.stand')));
  }
  return h('li', { class: `chair ${seat.kind}${mine ? ' mine' : ''}`, dataset: { seat: seat.seat } },
    h('div', { class: 'chair-head' },
      h('span', { class: 'seat-no' }, t('lobby.seat_n', { n: seat.seat + 1 })),
      partnerOf ? h('span', { class: 'team-tag' }, partnerOf) : null),
    h('div', { class: 'chair-name' },
      seat.kind === 'empty' ? h('span', { class: 'free' }, t('lobby.free')) : seatLabel(seat, app.state.mesa.seats),
      mine ? h('span', { class: 'you-tag' }, ` (${t('common.you')})`) : null,
      seat.kind === 'human' && !seat.connected
        ? h('span', { class: 'away-tag' }, ` · ${t('player.away')}`) : null,
      seat.kind === 'human' && app.state.mesa.options.rated && !seat.signed_in
        ? h('span', { class: 'away-tag' }, ` · ${t('player.no_account')}`) : null),
    actions.length ? h('div', { class: 'chair-actions' }, actions) : null);
}

/** The bot offered first: a good partner or rival (jugador). It is the same for every empty chair
 * whatever sits elsewhere, so that what the picker shows is what a click puts in the chair. */
const BOT_PREFERENCE = ['jugador', 'gallo', 'tirapuntos', 'acuestafichas', 'tirafichas'];

function defaultBot(app) {
  const bots = app.state.bots || [];
  return BOT_PREFERENCE.find((bot) => bots.includes(bot)) || bots[0];
}

function botPicker(app, seat) {
  const id = `bot-for-${seat}`;
  const bots = app.state.bots || [];
  // A bot the host picked for this chair stays picked while the room redraws.
  const picked = (app.state.botPicks ||= {});
  const chosen = bots.includes(picked[seat]) ? picked[seat] : defaultBot(app);
  const { rules } = app.state.mesa;
  const mode = rules.mode || app.state.presets.presets?.[rules.preset]?.mode;
  const ratings = app.state.botRatings?.[mode] || {};
  return h('div', { class: 'bot-picker' },
    h('label', { for: id, class: 'sr-only' }, t('lobby.bot_for', { n: seat + 1 })),
    h('select', { id, name: id, onchange: (event) => { picked[seat] = event.target.value; } },
      bots.map((bot) => h('option', { value: bot, selected: bot === chosen },
        botLabel(bot, ratings[bot])))),
    h('button', {
      type: 'button', class: 'secondary small', dataset: { key: `put-bot-${seat}` },
      'aria-label': t('lobby.put_bot_in', { n: seat + 1 }),
      onclick: (event) => {
        const select = event.target.closest('.bot-picker').querySelector('select');
        app.send({ type: 'seat_bot', seat, bot: select.value });
      },
    }, t('lobby.put_bot')));
}

/** The invitation link, to copy or share. */
export function inviteBox(app) {
  const url = `${location.origin}/m/${app.state.code}`;
  const share = async () => {
    if (navigator.share) {
      try {
        await navigator.share({ title: 'FichaFlow', text: t('invite.share_text'), url });
        return;
      } catch {
        // The person closed the share sheet: copying is the fallback.
      }
    }
    await copy();
  };
  const copy = async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(url);
      done = true;
    } catch {
      const input = document.getElementById('invite-link');
      input.select();
      done = document.execCommand('copy');
    }
    app.toast(done ? t('invite.copied') : t('invite.copy_by_hand'));
  };
  return h('div', { class: 'invite-box' },
    h('label', { for: 'invite-link' }, t('invite.label')),
    h('div', { class: 'invite-row' },
      h('input', { id: 'invite-link', readonly: true, value: url,
        onfocus: (event) => event.target.select() }),
      h('button', { type: 'button', class: 'secondary', onclick: copy }, t('invite.copy')),
      navigator.share ? h('button', { type: 'button', class: 'secondary', onclick: share },
        t('invite.share')) : null),
    h('p', { class: 'hint' }, t('invite.hint')));
}

/** The parados (queue, in order) and the mirones, with the person's own options. */
export function peopleAround(app) {
  const { state } = app;
  const mesa = state.mesa;
  const you = state.you;
  const queued = you && mesa.queue.some((person) => person.id === you.id);
  const seated = app.mySeat() !== null;
  const mirones = mesa.mirones ?? null;
  return h('div', { class: 'people-around' },
    h('p', { class: 'parados' },
      h('strong', {}, t('people.parados')), ' ',
      mesa.queue.length
        ? mesa.queue.map((person, i) => `${i + 1}. ${person.name}`).join(' · ')
        : t('people.nobody')),
    mirones === null ? null : h('p', { class: 'mirones' },
      h('strong', {}, t('people.mirones')), ' ', miradores(mirones, mesa.mirones_count ?? mirones.length)),
    you && !seated && !queued
      ? h('button', { type: 'button', class: 'secondary small',
        onclick: () => app.send({ type: 'queue' }) }, t('people.queue'))
      : null,
    you && queued
      ? h('button', { type: 'button', class: 'secondary small',
        onclick: () => app.send({ type: 'unqueue' }) }, t('people.unqueue'))
      : null);
}

/** The names the server sent (the first few, names before the anonymous), then how many more:
 * without a name, or, when the list is all names and stops short of ``count``, simply more. */
function miradores(mirones, count) {
  if (!count) return t('people.nobody');
  const named = mirones.filter((name) => name);
  const rest = count - named.length;
  const cut = named.length === mirones.length && mirones.length < count;
  const parts = [...named];
  if (rest) parts.push(t(cut ? 'people.more' : 'people.anonymous', { count: rest }));
  return parts.join(' · ');
}
