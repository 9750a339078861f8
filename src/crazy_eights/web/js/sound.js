// Every sound is synthesized with Web Audio: shuffle, snap, thud, fanfare, soft jazz piano.
import * as settings from "./settings.js";

let ctx = null;
let master = null;
let musicGain = null;
let musicTimer = null;
let noiseBuffer = null;

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
    noiseBuffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
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

function noise(at, dur, { freq = 3000, q = 1, gain = 0.4, type = "bandpass" } = {}) {
  const src = ctx.createBufferSource();
  src.buffer = noiseBuffer;
  const filter = ctx.createBiquadFilter();
  filter.type = type;
  filter.frequency.value = freq;
  filter.Q.value = q;
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + 0.004);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(filter).connect(g).connect(master);
  src.start(at, Math.random() * 0.5, dur + 0.05);
}

function tone(at, freq, dur, { type = "sine", gain = 0.2, attack = 0.01, out = master, filter } = {}) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = freq;
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  let node = osc;
  if (filter) {
    const f = ctx.createBiquadFilter();
    f.type = "lowpass";
    f.frequency.value = filter;
    node = osc.connect(f);
  }
  node.connect(g).connect(out);
  osc.start(at);
  osc.stop(at + dur + 0.05);
}

function ready() {
  const s = settings.get();
  if (s.muted || s.volume <= 0) return null;
  return audio();
}

export function shuffle() {
  if (!ready()) return;
  const t = ctx.currentTime;
  for (let i = 0; i < 14; i++) noise(t + i * 0.035 + Math.random() * 0.01, 0.03, { freq: 2500 + Math.random() * 2000, q: 0.8, gain: 0.18 });
}

export function snap() {
  if (!ready()) return;
  const t = ctx.currentTime;
  noise(t, 0.06, { freq: 4200, q: 1.5, gain: 0.5 });
  noise(t, 0.02, { freq: 1200, q: 0.7, gain: 0.3, type: "highpass" });
}

export function thud() {
  if (!ready()) return;
  const t = ctx.currentTime;
  const osc = ctx.createOscillator();
  osc.frequency.setValueAtTime(140, t);
  osc.frequency.exponentialRampToValueAtTime(48, t + 0.18);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(0.7, t + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
  osc.connect(g).connect(master);
  osc.start(t);
  osc.stop(t + 0.3);
  noise(t, 0.1, { freq: 400, q: 0.6, gain: 0.3, type: "lowpass" });
}

export function fanfare() {
  if (!ready()) return;
  const t = ctx.currentTime + 0.05;
  const notes = [[523.25, 0, 0.16], [659.25, 0.16, 0.16], [783.99, 0.32, 0.16], [1046.5, 0.48, 0.7]];
  for (const [f, at, d] of notes) {
    tone(t + at, f, d + 0.1, { type: "sawtooth", gain: 0.12, attack: 0.03, filter: 2200 });
    tone(t + at, f / 2, d + 0.1, { type: "square", gain: 0.05, attack: 0.03, filter: 1200 });
  }
  for (const f of [523.25, 659.25, 783.99]) tone(t + 0.48, f, 1.1, { type: "sawtooth", gain: 0.06, attack: 0.05, filter: 1800 });
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
  tone(at, midi(note), dur, { type: "triangle", gain, attack: 0.008, out: musicGain, filter: 1800 });
  tone(at, midi(note) * 2, dur * 0.5, { type: "sine", gain: gain * 0.25, attack: 0.005, out: musicGain });
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
