// After a hand: every hand face up, what was counted and why (the core's own sentences), the fair
// deal check, and at the partida's end the winner, zapato and chancleta. Also the anotador (the
// partida's score sheet, hands in columns as on paper) and the mesa's panel.

import { langToggle } from './chrome.js';
import { h } from './dom.js';
import { language, listing, t, tileName } from './i18n.js';
import { inviteBox, peopleAround, seatLabel } from './lobby.js';
import { handEndMoments } from './moments.js';
import { rulesSummary } from './rules.js';
import { perspective, sideNames } from './table.js';
import { tileNumber, tileSvg } from './tiles.js';

function faceUp(tiles) {
  const sorted = [...tiles].sort((a, b) => tileNumber(b) - tileNumber(a));
  // A list only when there is something in it: an empty list role is no list at all.
  if (!sorted.length) return h('span', { class: 'face-up no-tiles' }, t('summary.no_tiles'));
  return h('span', { class: 'face-up', role: 'list' },
    sorted.map((tile) => h('span', { class: 'mini-tile', role: 'listitem', 'aria-label': tileName(tile) },
      tileSvg(tile, { upright: true, className: 'tile-svg' }))));
}

function fairnessLine(app, summary) {
  const check = app.state.fairness[`${app.state.partida?.number}.${summary.number}`];
  if (!check) return h('p', { class: 'fair pending' }, t('fair.checking'));
  const short = (text) => `${String(text).slice(0, 10)}…`;
  if (check.ok) {
    return h('p', { class: 'fair ok', role: 'status' },
      h('span', { class: 'fair-mark', 'aria-hidden': 'true' }, '✓ '),
      t(check.atDeal ? 'fair.ok' : 'fair.ok_late', { commitment: short(check.commitment) }),
      h('span', { class: 'fair-detail' }, ' ', t('fair.detail', { seed: short(summary.seed) })));
  }
  return h('p', { class: 'fair bad', role: 'alert' },
    h('span', { class: 'fair-mark', 'aria-hidden': 'true' }, '✗ '),
    check.problems.map((problem) => t(`fair.problem.${problem}`)).join(' '));
}

/** The body of a finished hand's summary. */
export function handSummaryBody(app, summary) {
  const { names } = perspective(app);
  const score = summary.score;
  const sides = sideNames(app);
  // The explanation already says dominó and capicúa; who trancó and a hanged cochina it does not.
  const moments = handEndMoments(summary, names)
    .filter((moment) => moment.kind !== 'domino' && moment.kind !== 'capicua');
  const lang = language();
  const rows = names.map((name, seat) => {
    const marks = [];
    if (score.end === 'domino' && seat === score.seat) marks.push(t('summary.dominated'));
    if (score.end === 'tranque' && seat === score.seat) marks.push(t('summary.tranco'));
    if (score.counted.includes(seat)) marks.push(t('summary.counted'));
    return h('tr', { class: score.counted.includes(seat) ? 'counted' : '' },
      h('th', { scope: 'row' }, name, marks.length ? h('span', { class: 'marks' }, marks.join(' · ')) : null),
      h('td', {}, faceUp(summary.revealed[seat] || [])),
      h('td', { class: 'num' }, String(score.pips[seat])));
  });
  const gains = score.gains.map((gain, side) => h('li', { class: sides[side].mine ? 'mine' : '' },
    h('span', {}, sides[side].long), ' ',
    h('strong', {}, gain ? `+${gain}` : '0'), ' ',
    h('span', { class: 'total' }, t('summary.total', { total: summary.scores[side] }))));
  return h('div', { class: 'hand-summary' },
    moments.length ? h('ul', { class: 'moments' }, moments.map((moment) =>
      h('li', { class: `moment ${moment.kind}` }, h('strong', {}, moment.big), ' ', moment.text))) : null,
    h('div', { class: 'explanation' },
      (summary.explanation?.[lang] || summary.explanation?.es || []).map((line) => h('p', {}, line))),
    h('table', { class: 'hands-up' },
      h('caption', {}, t('summary.hands_face_up')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('summary.player')),
        h('th', { scope: 'col' }, t('summary.tiles')),
        h('th', { scope: 'col', class: 'num' }, t('summary.pips')))),
      h('tbody', {}, rows)),
    h('ul', { class: 'gains' }, gains),
    fairnessLine(app, summary));
}

function readyState(app) {
  const { state } = app;
  const mesa = state.mesa;
  const { names, mySeat } = perspective(app);
  const waiting = mesa.seats.filter((seat) => seat.kind === 'human' && seat.connected
    && !seat.ready && seat.seat !== mySeat).map((seat) => names[seat.seat]);
  const iAmReady = mySeat !== null && Boolean(mesa.seats[mySeat]?.ready);
  return { waiting, iAmReady, seated: mySeat !== null };
}

/** A link to the Repaso of this hand, from this seat (or seat 0 for a mirón). */
function repasoLink(app, summary) {
  const { state } = app;
  const seat = perspective(app).mySeat ?? 0;
  const query = new URLSearchParams({
    mesa: state.code, partida: String(state.partida?.number ?? 1), mano: String(summary.number),
    asiento: String(seat), lang: language(),
  });
  return h('a', { class: 'repaso-link', href: `/repaso/?${query}`, target: '_blank',
    rel: 'noopener', dataset: { key: 'repaso' } }, t('summary.repaso'));
}

/** The hand's summary as a dialog, with the partida's end when it came with it. */
export function summaryDialogParts(app) {
  const { state } = app;
  const summary = state.lastHand;
  const over = state.mesa.status === 'partida_over';
  const isHost = Boolean(state.you?.host);
  const actions = [];
  const body = [handSummaryBody(app, summary)];
  if (over) {
    body.unshift(partidaEndBlock(app));
    if (isHost) {
      actions.push(h('button', { type: 'button', class: 'primary', dataset: { key: 'new-partida' },
        onclick: () => app.send({ type: 'start' }) }, t('summary.new_partida')));
    } else {
      actions.push(h('p', { class: 'hint' }, t('summary.host_new_partida')));
    }
  } else if (state.mesa.status === 'hand_over' && state.you) {
    const { waiting, iAmReady, seated } = readyState(app);
    if (seated) {
      actions.push(h('button', {
        type: 'button', class: 'primary', disabled: iAmReady, dataset: { key: 'next-hand' },
        onclick: () => app.send({ type: 'ready', after: summary.number }),
      }, iAmReady ? t('summary.waiting_others') : t('summary.next_hand')));
    }
    if (isHost && waiting.length) {
      actions.push(h('button', { type: 'button', class: 'secondary', dataset: { key: 'deal-now' },
        onclick: () => app.send({ type: 'next_hand' }) }, t('summary.deal_now')));
    }
    if (waiting.length) actions.push(h('p', { class: 'hint' }, t('summary.waiting_for', { who: listing(waiting) })));
  }
  actions.push(h('button', { type: 'button', class: 'secondary', dataset: { key: 'see-line' },
    onclick: () => app.closeDialog() }, t('summary.see_line')));
  actions.push(repasoLink(app, summary));
  const title = over
    ? t('summary.partida_title', { number: summary.number })
    : t('summary.title', { number: summary.number });
  return { title, body, actions };
}

function partidaEndBlock(app) {
  const end = app.state.partidaEnd || app.state.partida;
  const sides = sideNames(app);
  const scores = end.scores;
  const winner = end.winner;
  const rest = scores.filter((_, side) => side !== winner).join(' · ');
  const losers = listing(scores.map((_, side) => side).filter((side) => side !== winner)
    .map((side) => sides[side].long));
  return h('div', { class: 'partida-end' },
    h('p', { class: 'winner' }, t('summary.winner', { who: sides[winner]?.long ?? '', score: scores[winner], rest })),
    end.zapato ? h('p', { class: 'moment zapato' }, h('strong', {}, t('moment.zapato_big')), ' ',
      t('moment.zapato', { who: losers })) : null,
    end.chancleta && !end.zapato ? h('p', { class: 'moment chancleta' }, h('strong', {}, t('moment.chancleta_big')), ' ',
      t('moment.chancleta', { who: losers })) : null,
    ratingChanges(end.ratings));
}

/** A rated partida's end: each player's rating before and after, «1512 → 1531 (+19)»; a bot's
 * fixed rating does not move. */
function ratingChanges(ratings) {
  if (!ratings?.length) return null;
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  return h('div', { class: 'rating-changes', dataset: { key: 'ratings' } },
    h('h3', {}, t('summary.ratings_title')),
    h('ul', {}, ratings.map((r) => h('li', { dataset: { seat: String(r.seat) } },
      h('strong', {}, r.name), ' ',
      r.bot ? t('summary.rating_bot', { after: r.after })
        : t('summary.rating_change', { before: r.before, after: r.after, change: signed(r.change) }),
      r.provisional ? ` · ${t('summary.rating_provisional')}` : ''))));
}

/** The anotador: one column per side, one row per hand, totals, the target and the winner. */
export function sheetBody(app) {
  const partida = app.state.partida;
  const sides = sideNames(app);
  const target = app.state.mesa.rule_options.target;
  const sheet = partida?.sheet || [];
  const totals = partida?.scores || sides.map(() => 0);
  return h('div', { class: 'sheet-wrap' },
    h('table', { class: 'sheet' },
      h('caption', {}, t('sheet.caption', { number: partida?.number ?? 1, target })),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('sheet.hand')),
        sides.map((side) => h('th', { scope: 'col', class: side.mine ? 'mine' : '' },
          side.short, side.short !== side.long ? h('span', { class: 'who' }, side.long) : null)))),
      h('tbody', {}, sheet.length
        ? sheet.map((row) => h('tr', {},
          h('th', { scope: 'row' }, String(row.hand)),
          row.gains.map((gain, side) => h('td', { class: 'num' },
            gain ? h('span', { class: 'gain' }, String(gain)) : h('span', { class: 'nil' }, '—'),
            h('span', { class: 'running' }, String(row.scores[side]))))))
        : h('tr', {}, h('td', { colspan: sides.length + 1, class: 'empty' }, t('sheet.empty')))),
      h('tfoot', {}, h('tr', {},
        h('th', { scope: 'row' }, t('sheet.total')),
        totals.map((total, side) => h('td', { class: `num${partida?.over && partida.winner === side ? ' winner' : ''}` },
          String(total)))))),
    h('p', { class: 'sheet-note' }, partida?.over
      ? t('sheet.winner', { who: sides[partida.winner]?.long ?? '' })
      : t('sheet.to_go', { target })));
}

/** The mesa's panel during play: the link, the chairs, the parados and mirones, the rules. */
export function mesaBody(app) {
  const { state } = app;
  const mesa = state.mesa;
  const isHost = Boolean(state.you?.host);
  const grace = mesa.options.grace_seconds;
  const seats = mesa.seats.map((seat) => {
    const away = seat.kind === 'human' && !seat.connected;
    const actions = [];
    if (isHost && away && !seat.substitute) {
      actions.push(h('button', { type: 'button', class: 'secondary small',
        onclick: () => app.send({ type: 'seat_bot', seat: seat.seat, bot: state.bots?.[0] || 'tirafichas' }) },
      t('mesa.bot_for_away', { bot: state.bots?.[0] || 'tirafichas' })));
    }
    return h('li', {},
      h('span', { class: 'seat-no' }, t('lobby.seat_n', { n: seat.seat + 1 })), ' ',
      h('strong', {}, seat.kind === 'empty' ? t('lobby.free') : seatLabel(seat, mesa.seats)),
      seat.substitute ? ` · ${t('player.substitute')}` : '',
      away ? ` · ${t('mesa.away_for', { seconds: seat.away_seconds ?? 0, grace })}` : '',
      actions);
  });
  return h('div', { class: 'mesa-panel' },
    h('p', { class: 'lang-row' }, langToggle(app)),
    inviteBox(app),
    h('h3', {}, t('lobby.seats')),
    h('ul', { class: 'mesa-seats' }, seats),
    peopleAround(app),
    h('h3', {}, t('waiting.rules')),
    rulesSummary(state.presets, mesa.rules, mesa.idle_options));
}
