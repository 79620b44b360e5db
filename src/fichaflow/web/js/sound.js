// The table's sounds, made here with Web Audio (oscillators and noise shaped by envelopes: no
// sound files, nothing fetched): a tile set on the table, the knock of a pass, a draw from the
// montón, the end of a hand, dominó and capicúa; and a short vibration on phones that have it.
//
// Every sound the table makes is also announced as a ``fichaflow:sound`` event on ``window``
// (detail: ``name``, ``vibrate``), after its nodes are scheduled; nothing is made or announced
// while the player has the sound off. Tests listen to it; so could a page's own extension.

import { soundOn } from './settings.js';

const VIBRATIONS = { turn: [30, 60, 30], domino: [60, 40, 120], capicua: [60, 40, 60, 40, 160] };

let context = null;
let noise = null;

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    return null;
  }
  // One second of white noise, shared by the clicks, knocks and slides.
  noise = context.createBuffer(1, context.sampleRate, context.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
  return context;
}

// Browsers start audio only after the person has touched the page: each touch or key wakes it.
for (const kind of ['pointerdown', 'keydown']) {
  window.addEventListener(kind, () => {
    if (soundOn() && audio()?.state === 'suspended') context.resume().catch(() => {});
  }, { capture: true, passive: true });
}

/** A gain that rises in ``attack`` seconds to ``peak`` and falls away over ``decay``. */
function envelope(ctx, at, peak, attack, decay) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
  gain.connect(ctx.destination);
  return gain;
}

function burst(ctx, at, { filter = 'bandpass', freq, q = 1, peak, decay, sweepTo = null }) {
  const source = ctx.createBufferSource();
  source.buffer = noise;
  const shape = ctx.createBiquadFilter();
  shape.type = filter;
  shape.frequency.setValueAtTime(freq, at);
  if (sweepTo) shape.frequency.exponentialRampToValueAtTime(sweepTo, at + decay);
  shape.Q.value = q;
  source.connect(shape).connect(envelope(ctx, at, peak, 0.003, decay));
  source.start(at, Math.random() * 0.5, decay + 0.05);
}

function tone(ctx, at, { freq, type = 'sine', peak, attack = 0.005, decay, glideTo = null }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (glideTo) osc.frequency.exponentialRampToValueAtTime(glideTo, at + decay);
  osc.connect(envelope(ctx, at, peak, attack, decay));
  osc.start(at);
  osc.stop(at + attack + decay + 0.05);
}

/** A tile set down: the clack of bone on wood, and the table's low thump under it. */
function clack(ctx, at, loud = 1) {
  burst(ctx, at, { freq: 2600, q: 2.5, peak: 0.5 * loud, decay: 0.045 });
  tone(ctx, at, { freq: 190, glideTo: 90, peak: 0.35 * loud, decay: 0.08 });
}

function chime(ctx, at, notes, step, peak = 0.18) {
  notes.forEach((freq, i) => {
    tone(ctx, at + i * step, { freq, type: 'triangle', peak, attack: 0.01, decay: 0.5 });
  });
}

const SOUNDS = {
  tile: (ctx, at) => clack(ctx, at),
  // Two knocks of the knuckles on the table: «paso».
  pass: (ctx, at) => {
    for (const when of [at, at + 0.16]) {
      burst(ctx, when, { filter: 'lowpass', freq: 700, peak: 0.5, decay: 0.07 });
      tone(ctx, when, { freq: 120, glideTo: 70, peak: 0.45, decay: 0.09 });
    }
  },
  // A tile slid out of the montón across the felt.
  draw: (ctx, at) => burst(ctx, at, { freq: 900, sweepTo: 2400, q: 0.8, peak: 0.25, decay: 0.22 }),
  hand_end: (ctx, at) => chime(ctx, at, [392, 494, 587], 0.02, 0.12),
  domino: (ctx, at) => {
    clack(ctx, at, 1.4);
    chime(ctx, at + 0.08, [523, 659, 784], 0.09);
  },
  capicua: (ctx, at) => chime(ctx, at, [523, 659, 784, 1047, 784, 1047], 0.08, 0.16),
  turn: (ctx, at) => tone(ctx, at, { freq: 880, type: 'sine', peak: 0.06, decay: 0.15 }),
};

/**
 * Make the sounds ``names`` one after the other (``gap`` seconds apart); nothing while the sound
 * is off. The work is done in a task of its own, after the drawing that called for it.
 */
export function sound(names, gap = 0.12) {
  if (!soundOn() || !names.length) return;
  setTimeout(() => {
    const ctx = audio();
    // Suspended until the person first touched the page; once they have, it may resume.
    if (ctx?.state === 'suspended') ctx.resume().catch(() => {});
    let at = ctx ? ctx.currentTime + 0.01 : 0;
    for (const name of names) {
      const make = SOUNDS[name];
      if (!make) continue;
      if (ctx) make(ctx, at);
      at += gap;
      const vibrate = VIBRATIONS[name] || null;
      if (vibrate && navigator.vibrate) navigator.vibrate(vibrate);
      window.dispatchEvent(new CustomEvent('fichaflow:sound', {
        detail: { name, vibrate, audio: ctx ? ctx.state : 'none' },
      }));
    }
  }, 0);
}

/** The sounds a batch of the table's moments calls for (moments.js's kinds), in order. */
export function soundsOf(moments) {
  const out = [];
  for (const moment of moments) {
    if (moment.kind === 'play') out.push('tile');
    else if (moment.kind === 'pass') out.push('pass');
    else if (moment.kind === 'draw') out.push('draw');
    else if (moment.kind === 'domino') out.push('domino');
    else if (moment.kind === 'capicua') out.push('capicua');
    else if (moment.kind === 'tranque') out.push('hand_end');
  }
  return out;
}
