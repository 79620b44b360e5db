// The table: the line of tiles in the middle, the other players around it (tile counts, passes,
// whose turn), the scores at the top and the player's own tiles at the bottom.
//
// Every choice the player may make comes from the view's ``legal`` list, which the core computed:
// a tile is marked playable only if it is there, and when it is there for both ends the two ends
// light up and the player picks one. The client never chooses an end.

import { h, s } from './dom.js';
import { listing, t, tileName } from './i18n.js';
import { layoutHand, layoutLine, leadIndexOf } from './layout.js';
import { mainAttrs, topBar } from './chrome.js';
import { cutName, seatNames } from './names.js';
import { passesByItself, soundToggle } from './settings.js';
import { canonical, placedTile, tileBackSvg, tileNumber, tileSvg } from './tiles.js';

const POSITIONS = { 2: ['bottom', 'top'], 3: ['bottom', 'right', 'left'],
  4: ['bottom', 'right', 'top', 'left'] };

/** Who sits where on this screen: the player at the bottom (seat 0 for a mirón). */
export function perspective(app) {
  const view = app.state.view;
  const mesa = app.state.mesa;
  const n = mesa.seats.length;
  const mySeat = app.mySeat();
  const bottom = mySeat ?? 0;
  const names = view?.players || seatNames(mesa.seats).map((name) => name || t('lobby.free'));
  return {
    n, mySeat, bottom, names,
    position: (seat) => POSITIONS[n][(seat - bottom + n) % n],
  };
}

/** The sides' names: "Nosotros"/"Ellos" for a player in parejas, names otherwise. */
export function sideNames(app) {
  const { n, mySeat, names } = perspective(app);
  if (n === 4) {
    const pair = (side) => listing([names[side], names[side + 2]]);
    return [0, 1].map((side) => ({
      short: mySeat === null ? pair(side) : t(side === mySeat % 2 ? 'score.us' : 'score.them'),
      long: pair(side),
      mine: mySeat !== null && side === mySeat % 2,
    }));
  }
  return names.map((name, seat) => ({ short: name, long: name, mine: seat === mySeat }));
}

export function movesByTile(legal) {
  const byTile = new Map();
  for (const move of legal || []) {
    if (move === 'pass' || move === 'draw') continue;
    const [tileText, end] = move.split(':');
    const key = canonical(tileText);
    if (!byTile.has(key)) byTile.set(key, {});
    byTile.get(key)[end || 'lead'] = move;
  }
  return byTile;
}

function scoreboard(app) {
  const view = app.state.view;
  const scores = view?.scores || app.state.partida?.scores || [];
  const sides = sideNames(app);
  const target = app.state.mesa.rule_options.target;
  return h('div', { class: 'scoreboard', role: 'group', 'aria-label': t('score.label') },
    sides.map((side, i) => h('div', { class: `score${side.mine ? ' mine' : ''}`,
      title: side.long },
    // Cut in the middle like the chairs' names, so two long names sharing a beginning stay apart.
    h('span', { class: 'score-side' }, cutName(side.short)),
    h('span', { class: 'score-points', dataset: { side: i } }, String(scores[i] ?? 0)))),
    h('div', { class: 'score target' },
      h('span', { class: 'score-side' }, t('score.target')),
      h('span', { class: 'score-points' }, String(target))),
    partidaClock(app.state.mesa.clock));
}

// A partida played by time: the time left, and «Tiempo» once it is called (the hand in play is
// finished, then the higher score wins). The seconds are kept up by app.js's updateClocks.
function partidaClock(clock) {
  if (!clock) return null;
  if (clock.time_up) {
    return h('div', { class: 'score time time-up', role: 'status' },
      h('span', { class: 'score-side' }, t('score.time_up')),
      h('span', { class: 'score-points' }, t('score.time_up_note')));
  }
  return h('div', { class: 'score time' },
    h('span', { class: 'score-side' }, t('score.time')),
    h('span', { class: 'score-points', dataset: { partidaClock: String(clock.ends_at) } }, timeLeft(clock.ends_at)));
}

export function timeLeft(endsAt) {
  const seconds = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function passesOf(history, seat) {
  return history.filter((turn) => turn.seat === seat && turn.kind === 'pass');
}

function playerChip(app, seat, where) {
  const { state } = app;
  const view = state.view;
  const chair = state.mesa.seats[seat];
  const { names, mySeat, n } = perspective(app);
  const turn = view && !view.ended && view.turn === seat;
  const count = view ? view.counts[seat] : 0;
  const passes = view ? passesOf(view.history, seat) : [];
  const partner = n === 4 && mySeat !== null && seat !== mySeat && seat % 2 === mySeat % 2;
  const tags = [];
  if (partner) tags.push(h('span', { class: 'tag partner' }, t('player.partner')));
  if (chair.kind === 'bot') tags.push(h('span', { class: 'tag bot' }, t('player.bot')));
  if (chair.substitute) tags.push(h('span', { class: 'tag bot' }, t('player.substitute')));
  if (chair.kind === 'human' && !chair.connected && !chair.substitute) {
    tags.push(h('span', { class: 'tag away' }, t('player.away')));
  }
  const passText = passes.length
    ? t('player.passed', { ends: passes.slice(-3).map((p) => endsText(p.ends)).join(' · ') })
    : '';
  const notes = [h('span', { class: 'tile-count', title: t('player.tiles', { count }) },
    tileBackSvg(), h('span', { class: 'count' }, String(count))), ...tags];
  if (turn) notes.push(h('span', { class: 'turn-mark' }, t('player.playing'), h('span', { class: 'clock', dataset: { clock: seat } })));
  return h('div', {
    class: `player pos-${where}${turn ? ' is-turn' : ''}${partner ? ' is-partner' : ''}`,
    dataset: { seat }, role: 'group',
    'aria-label': [names[seat], turn ? t('player.playing') : '',
      t('player.tiles', { count }), passText].filter(Boolean).join(', '),
  },
  h('div', { class: 'player-name' }, cutName(names[seat], { class: 'name' })),
  h('div', { class: 'player-info' }, notes),
  passes.length ? h('div', { class: 'passes' }, passText) : null);
}

function endsText(ends) {
  if (!ends) return '';
  const [left, right] = ends;
  return left === right ? String(left) : `${left} ${t('word.and')} ${right}`;
}

/** What the player is told to do now (or whose turn it is), as the status line shows it. */
export function statusText(app) {
  const { state } = app;
  const view = state.view;
  if (!view) return '';
  const { names, mySeat } = perspective(app);
  if (view.ended) return t('status.hand_over');
  if (state.choosing) {
    return t('status.choose_end', { tile: state.choosing.tile, left: view.ends[0], right: view.ends[1] });
  }
  if (mySeat !== null && view.turn === mySeat) {
    const legal = view.legal || [];
    if (!view.ends) {
      return view.forced_lead
        ? t('status.forced_lead', { tile: view.forced_lead, name: tileName(view.forced_lead) })
        : t('status.lead');
    }
    if (legal.includes('pass')) return t(passesByItself(app) ? 'status.auto_pass' : 'status.must_pass');
    if (legal.includes('draw')) return t('status.must_draw');
    return t('status.your_turn');
  }
  if (!view.ends && view.forced_lead) {
    return t('status.waiting_forced', { who: names[view.turn], tile: view.forced_lead });
  }
  return t('status.turn_of', { who: names[view.turn] });
}

function handSection(app) {
  const { state } = app;
  const view = state.view;
  const { mySeat } = perspective(app);
  if (mySeat === null || !view) {
    return h('section', { class: 'my-hand miron' },
      h('p', { class: 'hint' }, t('table.miron_note')));
  }
  const myTurn = !view.ended && view.turn === mySeat;
  const byTile = movesByTile(myTurn ? view.legal : []);
  const tiles = [...view.tiles].sort((a, b) => tileNumber(b) - tileNumber(a));
  const buttons = tiles.map((tile, i) => {
    const playable = byTile.has(tile);
    const chosen = state.choosing?.tile === tile;
    return h('button', {
      type: 'button',
      class: `hand-tile${playable ? ' playable' : ''}${chosen ? ' chosen' : ''}`,
      'aria-label': tileName(tile),
      'aria-disabled': playable && !state.pending ? 'false' : 'true',
      'aria-pressed': chosen ? 'true' : null,
      tabindex: i === focusIndex(app, tiles, byTile) ? '0' : '-1',
      dataset: { tile, key: `tile-${tile}` },
      onclick: () => app.tapTile(tile),
    }, tileSvg(tile));
  });
  const legal = myTurn ? view.legal || [] : [];
  const actions = [];
  if (legal.includes('pass')) {
    actions.push(h('button', { type: 'button', class: 'primary action-pass', disabled: state.pending,
      dataset: { key: 'pass' }, onclick: () => app.play('pass') }, t('table.pass')));
  }
  if (legal.includes('draw')) {
    actions.push(h('button', { type: 'button', class: 'primary action-draw', disabled: state.pending,
      dataset: { key: 'draw' }, onclick: () => app.play('draw') }, t('table.draw')));
  }
  const stock = view.rules && state.mesa.rule_options.mode !== 'parejas'
    ? h('span', { class: 'stock', title: t('table.stock_title') },
      tileBackSvg(), t('table.stock', { count: view.stock_left }))
    : null;
  return h('section', { class: `my-hand${myTurn ? ' my-turn' : ''}`, 'aria-label': t('table.your_tiles') },
    h('div', { class: 'hand-bar' },
      h('span', { class: 'me' }, perspective(app).names[mySeat], ' ',
        h('span', { class: 'you-tag' }, `(${t('common.you')})`),
        myTurn ? h('span', { class: 'clock', dataset: { clock: mySeat } }) : null),
      stock, actions),
    h('div', { class: 'hand-tiles', role: 'toolbar', 'aria-label': t('table.your_tiles'),
      'aria-orientation': 'horizontal', onkeydown: (event) => handKeys(app, event) }, buttons));
}

function focusIndex(app, tiles, byTile) {
  const remembered = app.state.handFocus;
  const at = tiles.indexOf(remembered);
  if (at >= 0) return at;
  const firstPlayable = tiles.findIndex((tile) => byTile.has(tile));
  return firstPlayable >= 0 ? firstPlayable : 0;
}

/** Arrow keys move along the tiles (Home/End to the ends of the row); Enter plays. */
function handKeys(app, event) {
  const buttons = [...event.currentTarget.querySelectorAll('.hand-tile')];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  let next = null;
  if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (at + 1) % buttons.length;
  if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (at - 1 + buttons.length) % buttons.length;
  if (event.key === 'Home') next = 0;
  if (event.key === 'End') next = buttons.length - 1;
  if (next === null) return;
  event.preventDefault();
  buttons[at].tabIndex = -1;
  buttons[next].tabIndex = 0;
  buttons[next].focus();
  app.state.handFocus = buttons[next].dataset.tile;
}

export function renderTable(app) {
  const { state } = app;
  const view = state.view;
  const { n, bottom } = perspective(app);
  const others = [];
  for (let k = 1; k < n; k += 1) {
    const seat = (bottom + k) % n;
    others.push(playerChip(app, seat, perspective(app).position(seat)));
  }
  const mirónBottom = app.mySeat() === null ? playerChip(app, bottom, 'bottom') : null;
  const tools = [
    h('button', { type: 'button', class: 'chip-button icon-button', dataset: { key: 'open-sheet' },
      'aria-label': t('sheet.button'), title: t('sheet.button'),
      onclick: () => app.openDialog('sheet') }, sheetIcon(), h('span', { class: 'tool-word' }, t('sheet.button'))),
    h('button', { type: 'button', class: 'chip-button icon-button', dataset: { key: 'open-mesa' },
      'aria-label': t('mesa.button'), title: t('mesa.button'),
      onclick: () => app.openDialog('mesa') }, mesaIcon(), h('span', { class: 'tool-word' }, t('mesa.button'))),
    soundToggle(app),
  ];
  const event = state.lastEvent;
  // Which hand and how far into it the screen shows (read by people debugging, and by the tests).
  const progress = view ? { hand: view.hand_number, turns: view.history.length } : {};
  return h('div', { class: `screen table-screen mode-${n}`, dataset: progress },
    topBar(app, { middle: scoreboard(app), tools, compact: true }),
    connectionBanner(app),
    h('main', mainAttrs('table-main'),
    h('h1', { class: 'sr-only' }, t('table.heading')),
    h('div', { class: 'felt' },
      h('div', { class: 'opponents' }, others),
      h('div', { class: 'line-area', 'aria-label': t('table.line'), role: 'region' },
        h('div', { class: 'line-box' })),
      mirónBottom,
      aroundTheTable(app)),
    app.chatSlot?.('table'),
    h('div', { class: 'status-area' },
      event ? h('p', { class: 'event' }, event) : null,
      h('p', { class: 'prompt' }, statusText(app),
        view?.ended && state.lastHand ? h('button', { type: 'button', class: 'chip-button summary-button',
          dataset: { key: 'open-summary' }, onclick: () => app.openDialog('summary') }, t('summary.button')) : null),
      view?.ends ? h('p', { class: 'ends-text' }, t('table.ends', { left: view.ends[0], right: view.ends[1] })) : null),
    handSection(app)));
}

function sheetIcon() {
  return s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' },
    s('rect', { x: 5, y: 3, width: 14, height: 18, rx: 2 }),
    s('path', { d: 'M12 3v18M5 8h14M8 12h2M14 12h2M8 16h2' }));
}

function mesaIcon() {
  return s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' },
    s('rect', { x: 7, y: 7, width: 10, height: 10, rx: 2 }),
    s('path', { d: 'M12 2.5v2M12 19.5v2M2.5 12h2M19.5 12h2' }));
}

/** The parados (waiting to sit, in order) and the mirones, as a quiet note on the felt. */
function aroundTheTable(app) {
  const mesa = app.state.mesa;
  const parados = mesa.queue.map((person) => person.name);
  const mirones = mesa.mirones_count ?? (mesa.mirones || []).length;
  if (!parados.length && !mirones) return null;
  const parts = [];
  if (parados.length) parts.push(t('around.parados', { names: parados.join(', ') }));
  if (mirones) parts.push(t('around.mirones', { count: mirones }));
  return h('button', { type: 'button', class: 'around', dataset: { key: 'around' },
    onclick: () => app.openDialog('mesa') }, parts.join(' · '));
}

export function connectionBanner(app) {
  const status = app.state.connection;
  if (status === 'open' && app.state.waitingFor?.length) {
    // the server is connected but cannot reach Redis: bots wait, the seat and moves are kept
    return h('div', { class: 'connection-banner', role: 'status' }, t('connection.degraded'));
  }
  if (status === 'open' || !status) return null;
  return h('div', { class: 'connection-banner', role: 'status' },
    t(status === 'connecting' ? 'connection.connecting' : 'connection.reconnecting'));
}

/** After the table is in the page: draw the line in the room it has and size the hand. */
export function layoutTable(app, root) {
  const view = app.state.view;
  const box = root.querySelector('.line-box');
  if (box && view) drawLine(app, box, view);
  const hand = root.querySelector('.hand-tiles');
  if (hand) {
    const count = hand.children.length;
    const width = hand.clientWidth;
    const maxHeight = Math.min(150, Math.max(70, window.innerHeight * 0.2));
    const maxUnit = Math.min(46, Math.max(30, window.innerWidth / 14));
    const { unit } = layoutHand(count, width, maxHeight, { maxUnit, gap: 6 });
    hand.style.setProperty('--u', `${unit}px`);
  }
}

function drawLine(app, box, view) {
  const width = box.clientWidth;
  const height = box.clientHeight;
  const line = view.line || [];
  const lead = leadIndexOf(view.history || []);
  const pad = 6;
  // Tiles as big as a real table's on a laptop, never so big that a phone's line turns too soon.
  const maxUnit = Math.min(50, Math.max(28, width / 10));
  const layout = layoutLine(line, lead, width - 2 * pad, height - 2 * pad, { maxUnit });
  const svg = s('svg', {
    class: 'line', width, height, viewBox: `0 0 ${width} ${height}`, role: 'list',
    'aria-label': line.length
      ? t(line.length === 1 ? 'table.line_label_one' : 'table.line_label', { count: line.length })
      : t('table.line_empty'),
  });
  const newest = newestIndex(view, line.length, lead);
  for (const tile of layout.tiles) {
    const name = `${line[tile.index][0]}-${line[tile.index][1]}`;
    const g = placedTile(tile.left, tile.right, tile.x + pad, tile.y + pad, tile.w, tile.h, {
      role: 'listitem', 'aria-label': tileName(name), class: 'line-tile',
      dataset: { index: tile.index, tile: canonical(name) },
    });
    if (tile.index === newest) {
      svg.append(s('rect', { class: 'newest-glow', x: tile.x + pad - 3, y: tile.y + pad - 3,
        width: tile.w + 6, height: tile.h + 6, rx: Math.max(4, layout.unit * 0.3) }));
    }
    svg.append(g);
  }
  box.replaceChildren(svg);
  if (!line.length) {
    box.append(h('p', { class: 'line-empty' }, t('table.line_empty')));
  }
  if (app.state.choosing && layout.ends) {
    box.append(...endButtons(app, layout.ends, pad, view.ends, layout.unit));
  }
}

/** The two lit ends, each centred on its end of the line; pulled apart when they would overlap
 * (a lone salida is both ends at once). */
function endButtons(app, ends, pad, numbers, unit) {
  const centre = (where) => [where.x + pad + where.w / 2, where.y + pad + where.h / 2];
  const size = Math.max(44, unit * 1.3);
  let left = centre(ends.left);
  let right = centre(ends.right);
  if (Math.hypot(left[0] - right[0], left[1] - right[1]) < size + 4) {
    // A lone salida: light the places where the next tile would go, one on each side of it.
    const from = Math.min(ends.left.x, ends.right.x) + pad;
    const to = Math.max(ends.left.x + ends.left.w, ends.right.x + ends.right.w) + pad;
    const y = (left[1] + right[1]) / 2;
    left = [from - size / 2 - 4, y];
    right = [to + size / 2 + 4, y];
  }
  return [endButton(app, 'left', left, size, numbers[0]), endButton(app, 'right', right, size, numbers[1])];
}

function newestIndex(view, length, lead) {
  const plays = (view.history || []).filter((turn) => turn.kind === 'play');
  const last = plays[plays.length - 1];
  if (!last) return -1;
  if (!last.end) return lead;
  return last.end === 'left' ? 0 : length - 1;
}

function endButton(app, end, [cx, cy], size, number) {
  const button = h('button', {
    type: 'button', class: `end-choice end-${end}`,
    'aria-label': t(`table.end_${end}`, { number }),
    dataset: { end, key: `end-${end}` },
    onclick: () => app.chooseEnd(end),
    onkeydown: (event) => {
      if (event.key === 'Escape') app.cancelChoice();
      if (['ArrowLeft', 'ArrowUp'].includes(event.key)) {
        event.preventDefault();
        document.querySelector('.end-choice.end-left')?.focus();
      }
      if (['ArrowRight', 'ArrowDown'].includes(event.key)) {
        event.preventDefault();
        document.querySelector('.end-choice.end-right')?.focus();
      }
    },
  }, h('span', { class: 'end-number', 'aria-hidden': 'true' }, String(number)));
  // Placed through the style object, not a style attribute: the pages' policy allows no inline
  // style attributes.
  Object.assign(button.style, {
    left: `${cx - size / 2}px`, top: `${cy - size / 2}px`, width: `${size}px`, height: `${size}px`,
  });
  return button;
}
