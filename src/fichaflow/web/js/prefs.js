// The player's own settings, kept in this browser (not the mesa's): whether the table makes
// sound (and vibrates), and the personal paso automático. Each is read when it is used, so a
// change made in one place (the sound button, the Mesa panel) holds everywhere at once.

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
