// The fair-deal check, in the browser: at the deal the server publishes SHA-256(seed); at the
// hand's end it reveals the seed. The deal is a published function of the seed (docs/records.md,
// "The deal from a seed"), so this page recomputes it and compares it with the commitment it saw
// at the deal, the hands revealed, and the tiles it was dealt itself.

import { sha256 } from '../vendor/js-sha256/sha256.min.js'; // relative: one version with the page
import { canonical, isDouble, pipsOf, tileFromNumber, tileNumber } from './tiles.js';

const HAND_SIZE = 7;
const encoder = new TextEncoder();

/** SHA-256 of the seed's UTF-8 text, in hexadecimal (what the server commits to). */
export function commitmentOf(seed) {
  return sha256(seed);
}

/** Uniform whole numbers from SHA-256(seed ‖ 8-byte big-endian block counter). */
class SeedStream {
  constructor(bytes) {
    this.seed = bytes;
    this.counter = 0;
    this.buffer = [];
  }

  word() {
    if (this.buffer.length < 4) {
      const block = new Uint8Array(this.seed.length + 8);
      block.set(this.seed);
      const view = new DataView(block.buffer);
      view.setUint32(this.seed.length, Math.floor(this.counter / 2 ** 32));
      view.setUint32(this.seed.length + 4, this.counter >>> 0);
      this.buffer.push(...sha256.array(block));
      this.counter += 1;
    }
    const [a, b, c, d] = this.buffer.splice(0, 4);
    return a * 2 ** 24 + b * 2 ** 16 + c * 2 ** 8 + d;
  }

  below(n) {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const word = this.word();
      if (word < limit) return word % n;
    }
  }
}

/** The 28 tile numbers in the order the seed shuffles them (Fisher–Yates). */
export function shuffle(seed) {
  const stream = new SeedStream(encoder.encode(seed));
  const tiles = Array.from({ length: 28 }, (_, i) => i);
  for (let i = 27; i > 0; i -= 1) {
    const j = stream.below(i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles;
}

/** Each seat's tiles (sorted like the core writes them) and the montón in drawing order. */
export function dealFromSeed(seats, seed) {
  const order = shuffle(seed);
  const hands = [];
  for (let seat = 0; seat < seats; seat += 1) {
    const mine = order.slice(HAND_SIZE * seat, HAND_SIZE * (seat + 1)).sort((a, b) => a - b);
    hands.push(mine.map(tileFromNumber));
  }
  return { hands, stock: order.slice(HAND_SIZE * seats).map(tileFromNumber) };
}

/**
 * Who wins the sorteo the seed draws for the first salida: a mirror of the core's draw
 * (core.deal.sorteo, written out in docs/records.md), held to it by tests/web/test_modules.py.
 * The page never chooses a leader with it; it only checks the one the server announced.
 */
export function sorteoWinner(seats, seed) {
  const stream = new SeedStream(encoder.encode(`${seed}|sorteo`));
  let contenders = Array.from({ length: seats }, (_, i) => i);
  let pool = Array.from({ length: 28 }, (_, i) => i);
  const rank = (tile) => pipsOf(tileFromNumber(tile)) * 2 + (isDouble(tileFromNumber(tile)) ? 1 : 0);
  for (;;) {
    if (pool.length < contenders.length) pool = Array.from({ length: 28 }, (_, i) => i);
    const turned = contenders.map((seat) => [seat, pool.splice(stream.below(pool.length), 1)[0]]);
    const best = Math.max(...turned.map(([, tile]) => rank(tile)));
    contenders = turned.filter(([, tile]) => rank(tile) === best).map(([seat]) => seat);
    if (contenders.length === 1) return contenders[0];
  }
}

function sameTiles(a, b) {
  const norm = (list) => list.map(canonical).sort((x, y) => tileNumber(x) - tileNumber(y)).join(' ');
  return norm(a) === norm(b);
}

/**
 * Check a finished hand. ``summary`` is the server's hand summary (seed, deal, stock, leader);
 * ``promised`` the commitment this page saw at the deal (null if it joined after the end);
 * ``dealt`` the tiles this seat was shown at the deal (null for a mirón); ``sorteo`` true for a
 * first hand whose salida was drawn. Returns {ok, problems, commitment}.
 */
export function checkHand(summary, { seats, promised, seat, dealt, sorteo }) {
  const problems = [];
  const seed = summary.seed;
  const published = promised || summary.commitment;
  if (typeof seed !== 'string' || commitmentOf(seed) !== String(published).toLowerCase()) {
    problems.push('commitment');
  } else {
    const deal = dealFromSeed(seats, seed);
    const handsMatch = deal.hands.every((hand, s) => sameTiles(hand, summary.deal?.[s] || []));
    const stockMatch = deal.stock.join(' ') === (summary.stock || []).map(canonical).join(' ');
    if (!handsMatch || !stockMatch) problems.push('deal');
    if (dealt && seat !== null && seat !== undefined && !sameTiles(deal.hands[seat], dealt)) {
      problems.push('mine');
    }
    if (sorteo && sorteoWinner(seats, seed) !== summary.leader) problems.push('sorteo');
  }
  return { ok: problems.length === 0, problems, commitment: published, atDeal: Boolean(promised) };
}
