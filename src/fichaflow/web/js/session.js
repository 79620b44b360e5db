// What this browser remembers about each mesa it sat at: the token that puts the player back in
// their chair after a reload, and each hand's commitment as it was published at the deal (so the
// fair-deal check compares the revealed seed with what was promised then, not with a later copy),
// and, in a cluster, which server held the mesa (so a reload connects straight to it).

const PREFIX = 'fichaflow.';

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + key));
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private browsing with no storage: the game goes on, a reload just asks to join again.
  }
}

export function seatTicket(code) {
  return read(`mesa.${code}`);
}

export function saveSeatTicket(code, ticket) {
  write(`mesa.${code}`, ticket);
}

/** The server that held the mesa when this browser last heard (a cluster's `node`), or null. */
export function serverOf(code) {
  const node = read(`node.${code}`);
  return typeof node === 'string' ? node : null;
}

export function saveServerOf(code, node) {
  if (typeof node === 'string' && node) write(`node.${code}`, node);
}

export function forgetSeatTicket(code) {
  try {
    localStorage.removeItem(`${PREFIX}mesa.${code}`);
  } catch {
    // No storage: nothing was kept.
  }
}

export function lastName() {
  return read('name') || '';
}

export function saveName(name) {
  write('name', name);
}

function commitmentKey(code, partida, hand) {
  return `commitment.${code}.${partida}.${hand}`;
}

/** Keep the commitment published at a hand's deal; the first one seen is the one kept. */
export function rememberCommitment(code, partida, hand, commitment) {
  const key = commitmentKey(code, partida, hand);
  if (!read(key)) write(key, commitment);
}

export function promisedCommitment(code, partida, hand) {
  return read(commitmentKey(code, partida, hand));
}

function dealtKey(code, partida, hand) {
  return `dealt.${code}.${partida}.${hand}`;
}

/** Keep the tiles this seat was shown at a hand's deal, for the fair-deal check. */
export function rememberDealt(code, partida, hand, tiles) {
  const key = dealtKey(code, partida, hand);
  if (!read(key)) write(key, tiles);
}

export function dealtTiles(code, partida, hand) {
  return read(dealtKey(code, partida, hand));
}
