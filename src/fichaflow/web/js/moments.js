// What the table says aloud: paso, robó, doble muerto, a violín at the deal, and at a hand's end
// dominó, capicúa, tranque (with who trancó), an ahorcada cochina; zapato and chancleta at the
// partida's end. Who won and what was counted come from the server's summary (the core decided
// them); this module only reads the public picture and puts it into words.

import { listing, numberPlural, t, tileName } from './i18n.js';
import { halves, NUMBERS } from './tiles.js';

/** The turns in ``view`` that ``previous`` (the same hand, earlier) had not shown yet. */
export function newTurns(previous, view) {
  if (!previous || !view || previous.hand_number !== view.hand_number) return [];
  if (previous.history.length > view.history.length) return [];
  return view.history.slice(previous.history.length);
}

/** Sentences for new turns: passes (with the ends faced) and draws from the montón. */
export function turnMoments(turns, names, mySeat) {
  const out = [];
  let i = 0;
  while (i < turns.length) {
    const turn = turns[i];
    const who = names[turn.seat];
    if (turn.kind === 'pass') {
      const [left, right] = turn.ends || [];
      const key = left === right ? 'moment.pass_one' : 'moment.pass';
      out.push({ kind: 'pass', big: t('moment.pass_big'), text: t(key, { who, left, right }),
        seat: turn.seat });
    } else if (turn.kind === 'draw') {
      let j = i;
      while (j < turns.length && turns[j].kind === 'draw' && turns[j].seat === turn.seat) j += 1;
      const count = j - i;
      if (turn.seat === mySeat) {
        const drawn = turns.slice(i, j).map((d) => d.drawn).filter(Boolean);
        out.push({ kind: 'draw', text: t('moment.you_drew', { tiles: listing(drawn) }) });
      } else {
        const key = count === 1 ? 'moment.drew_one' : 'moment.drew';
        out.push({ kind: 'draw', text: t(key, { who, count }) });
      }
      i = j;
      continue;
    }
    i += 1;
  }
  return out;
}

/** The doubles that are dead: not on the line, the six other tiles of their number are, and no
 * open end shows the number (where one does, the double still fits). */
export function deadDoubles(line) {
  const onLine = new Set(line.map(([a, b]) => (a >= b ? `${a}-${b}` : `${b}-${a}`)));
  const ends = line.length ? [line[0][0], line[line.length - 1][1]] : [];
  return NUMBERS.filter((n) => {
    if (onLine.has(`${n}-${n}`) || ends.includes(n)) return false;
    const others = [...onLine].filter((tile) => {
      const [a, b] = halves(tile);
      return a !== b && (a === n || b === n);
    });
    return others.length === 6;
  });
}

/** Doubles that died with the newest tiles (announced once, when it happens). */
export function newlyDead(previousLine, line) {
  const before = new Set(deadDoubles(previousLine || []));
  return deadDoubles(line)
    .filter((n) => !before.has(n))
    .map((n) => ({ kind: 'doble_muerto', big: t('moment.doble_muerto_big'),
      text: t('moment.doble_muerto', { tile: `${n}-${n}`, name: tileName(`${n}-${n}`) }) }));
}

/** A violín in one's own hand at the deal: four or more tiles of one number. */
export function violines(tiles) {
  return NUMBERS.filter((n) => tiles.filter((tile) => halves(tile).includes(n)).length >= 4)
    .map((n) => ({ kind: 'violin', big: t('moment.violin_big'),
      text: t('moment.violin', { numbers: numberPlural(n), count: countOf(tiles, n) }) }));
}

function countOf(tiles, n) {
  return tiles.filter((tile) => halves(tile).includes(n)).length;
}

/** What the table announces when a hand ends, from the server's summary of it. */
export function handEndMoments(summary, names) {
  const score = summary.score;
  const out = [];
  const who = names[score.seat];
  if (score.end === 'domino') {
    out.push({ kind: 'domino', big: t('moment.domino_big'), text: t('moment.domino', { who }) });
    if (score.capicua) {
      out.push({ kind: 'capicua', big: t('moment.capicua_big'), text: t('moment.capicua', { who }) });
    }
  } else {
    out.push({ kind: 'tranque', big: t('moment.tranque_big'), text: t('moment.tranque', { who }) });
  }
  const hanged = (summary.revealed || []).findIndex((hand) => hand.includes('6-6'));
  if (hanged >= 0) {
    out.push({ kind: 'cochina', big: t('moment.cochina_big'),
      text: t('moment.cochina', { who: names[hanged] }) });
  }
  return out;
}

/** Zapato and chancleta at the partida's end, and who won it. */
export function partidaEndMoments(end, sideName) {
  const out = [{ kind: 'partida', big: t('moment.partida_big'),
    text: t('moment.partida', { who: sideName(end.winner) }) }];
  const losers = end.scores.map((_, side) => side).filter((side) => side !== end.winner);
  const names = listing(losers.map(sideName));
  if (end.zapato) {
    out.push({ kind: 'zapato', big: t('moment.zapato_big'), text: t('moment.zapato', { who: names }) });
  } else if (end.chancleta) {
    out.push({ kind: 'chancleta', big: t('moment.chancleta_big'),
      text: t('moment.chancleta', { who: names }) });
  }
  return out;
}

