// Every sound is synthesized with Web Audio: shuffle, snap, thud, felt slide, flip,
// fanfare, and a soft jazz piano.
import * as settings from "./settings.js";

let ctx = null;
let master = null;
let musicGain = null;
let musicTimer = null;

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
    master = ctx.createGain();
    master.connect(ctx.destination);
    musicGain = ctx.createGain();
    musicGain.gain.value = 0.35;
    musicGain.connect(master);
    updateVolume();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function updateVolume() {
  if (!master) return;
  const s = settings.get();
  master.gain.value = s.muted ? 0 : s.volume;
}

settings.onChange((s, changes) => {
  updateVolume();
  if ("music" in changes || "muted" in changes) s.music && !s.muted ? startMusic() : stopMusic();
});

/** Browsers start audio only after a user gesture: unlock on the first one. */
export function unlock() {
  const s = settings.get();
  if (s.muted && !s.music) return;
  audio();
  if (s.music && !s.muted) startMusic();
}

function ready() {
  const s = settings.get();
  if (s.muted || s.volume <= 0) return null;
  return audio();
}

const noiseBuffers = new WeakMap();

/** One second of white noise for a context (made once per context). */
function noiseOf(ac) {
  let buf = noiseBuffers.get(ac);
  if (!buf) {
    buf = ac.createBuffer(1, ac.sampleRate, ac.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    noiseBuffers.set(ac, buf);
  }
  return buf;
}

/** Filtered noise from `at` for `dur` seconds; `sweep` moves the filter to a frequency. */
function noise(ac, out, at, dur, { freq = 3000, q = 1, gain = 0.4, type = "bandpass", attack = 0.004, sweep = null, hold = 0 } = {}) {
  const src = ac.createBufferSource();
  src.buffer = noiseOf(ac);
  const filter = ac.createBiquadFilter();
  filter.type = type;
  filter.frequency.setValueAtTime(freq, at);
  if (sweep) filter.frequency.exponentialRampToValueAtTime(sweep, at + dur);
  filter.Q.value = q;
  const g = ac.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + attack);
  if (hold) g.gain.linearRampToValueAtTime(gain * 0.7, at + attack + (dur - attack) * hold);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(filter).connect(g).connect(out);
  src.start(at, Math.random() * 0.5, dur + 0.05);
}

function tone(ac, out, at, freq, dur, { type = "sine", gain = 0.2, attack = 0.01, filter, glide } = {}) {
  const osc = ac.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (glide) osc.frequency.exponentialRampToValueAtTime(glide, at + dur);
  const g = ac.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  let node = osc;
  if (filter) {
    const f = ac.createBiquadFilter();
    f.type = "lowpass";
    f.frequency.value = filter;
    node = osc.connect(f);
  }
  node.connect(g).connect(out);
  osc.start(at);
  osc.stop(at + dur + 0.05);
}

// The card sounds as voices: each draws itself into a context's `out` from time `t`,
// so the same voice plays live and can be rendered offline (see renderVoice).
const VOICES = {
  pop(ac, out, t) { // a reaction: two short rising notes
    tone(ac, out, t, 880, 0.09, { type: "sine", gain: 0.22, attack: 0.004 });
    tone(ac, out, t + 0.06, 1320, 0.08, { type: "sine", gain: 0.16, attack: 0.004 });
  },
  shuffle(ac, out, t) {
    for (let i = 0; i < 14; i++) noise(ac, out, t + i * 0.035 + Math.random() * 0.01, 0.03, { freq: 2500 + Math.random() * 2000, q: 0.8, gain: 0.18 });
  },
  snap(ac, out, t) {
    noise(ac, out, t, 0.06, { freq: 4200, q: 1.5, gain: 0.5 });
    noise(ac, out, t, 0.02, { freq: 1200, q: 0.7, gain: 0.3, type: "highpass" });
  },
  thud(ac, out, t) {
    tone(ac, out, t, 140, 0.25, { gain: 0.7, attack: 0.005, glide: 48 });
    noise(ac, out, t, 0.1, { freq: 400, q: 0.6, gain: 0.3, type: "lowpass" });
  },
  /** A card sliding over felt: soft, breathy noise whose colour falls as it slows. */
  slide(ac, out, t) {
    noise(ac, out, t, 0.3, { freq: 1600, sweep: 450, q: 0.6, gain: 0.3, attack: 0.04, hold: 0.6 });
    noise(ac, out, t + 0.02, 0.24, { freq: 800, sweep: 250, q: 0.4, gain: 0.14, type: "lowpass", attack: 0.05, hold: 0.5 });
  },
  /** A card turning over: a crisp flick of the edge, then the face landing. */
  flip(ac, out, t) {
    noise(ac, out, t, 0.018, { freq: 6500, q: 0.9, gain: 0.55, type: "highpass", attack: 0.001 });
    tone(ac, out, t, 2600, 0.03, { type: "triangle", gain: 0.12, attack: 0.001, glide: 1400 });
    noise(ac, out, t + 0.06, 0.025, { freq: 3000, q: 0.8, gain: 0.4, type: "highpass", attack: 0.001 });
  },
  fanfare(ac, out, t0) {
    const t = t0 + 0.05;
    const notes = [[523.25, 0, 0.16], [659.25, 0.16, 0.16], [783.99, 0.32, 0.16], [1046.5, 0.48, 0.7]];
    for (const [f, at, d] of notes) {
      tone(ac, out, t + at, f, d + 0.1, { type: "sawtooth", gain: 0.12, attack: 0.03, filter: 2200 });
      tone(ac, out, t + at, f / 2, d + 0.1, { type: "square", gain: 0.05, attack: 0.03, filter: 1200 });
    }
    for (const f of [523.25, 659.25, 783.99]) tone(ac, out, t + 0.48, f, 1.1, { type: "sawtooth", gain: 0.06, attack: 0.05, filter: 1800 });
  },
  /** A round or a game lost: two soft low notes falling, quiet beside the fanfare. */
  loss(ac, out, t0) {
    const t = t0 + 0.03;
    tone(ac, out, t, 392.0, 0.45, { type: "triangle", gain: 0.05, attack: 0.02, filter: 1400 });
    tone(ac, out, t + 0.32, 329.63, 0.7, { type: "triangle", gain: 0.045, attack: 0.02, filter: 1200 });
  },
};

export const SOUNDS = Object.keys(VOICES);

/** Play a card sound now (unless muted); tells the page which one, for captions and tests. */
function play(name, delay = 0) {
  if (!ready()) return;
  VOICES[name](ctx, master, ctx.currentTime + delay);
  document.dispatchEvent(new CustomEvent("ce-sound", { detail: { name } }));
}

export const shuffle = () => play("shuffle");
export const snap = () => play("snap");
export const thud = () => play("thud");
export const slide = (delay = 0) => play("slide", delay);
export const flip = (delay = 0) => play("flip", delay);
export const fanfare = () => play("fanfare");
export const pop = () => play("pop");
export const loss = () => play("loss");

/** A voice rendered offline (mono, 1.5 s): its samples, to look at what it sounds like. */
export async function renderVoice(name, seconds = 1.5) {
  const OAC = window.OfflineAudioContext || window.webkitOfflineAudioContext;
  const ac = new OAC(1, Math.round(44100 * seconds), 44100);
  VOICES[name](ac, ac.destination, 0);
  const buffer = await ac.startRendering();
  return buffer.getChannelData(0);
}

// Soft jazz piano: a ii-V-I-VI loop in C, voiced as rootless sevenths with a swung bass.
const CHORDS = [
  [50, [53, 57, 60, 64]], // Dm9
  [43, [53, 57, 59, 64]], // G13
  [48, [52, 55, 59, 62]], // Cmaj9
  [45, [52, 55, 58, 61]], // A7b9-ish
];
const midi = (n) => 440 * 2 ** ((n - 69) / 12);

function piano(at, note, dur, gain) {
  tone(ctx, musicGain, at, midi(note), dur, { type: "triangle", gain, attack: 0.008, filter: 1800 });
  tone(ctx, musicGain, at, midi(note) * 2, dur * 0.5, { type: "sine", gain: gain * 0.25, attack: 0.005 });
}

function startMusic() {
  if (musicTimer || !audio()) return;
  let bar = 0;
  let next = ctx.currentTime + 0.1;
  const beat = 0.75;
  const schedule = () => {
    while (next < ctx.currentTime + 2) {
      const [bass, voicing] = CHORDS[bar % CHORDS.length];
      piano(next, bass - 12, beat * 1.8, 0.09);
      piano(next + beat * 2, bass - 5, beat * 1.5, 0.07);
      for (const [i, n] of voicing.entries()) piano(next + beat * 0.66 + i * 0.02, n, beat * 1.2, 0.045);
      piano(next + beat * 2.66, voicing[1], beat, 0.035);
      piano(next + beat * 2.7, voicing[3], beat, 0.035);
      next += beat * 4;
      bar += 1;
    }
  };
  schedule();
  musicTimer = setInterval(schedule, 500);
}

function stopMusic() {
  if (musicTimer) clearInterval(musicTimer);
  musicTimer = null;
}
