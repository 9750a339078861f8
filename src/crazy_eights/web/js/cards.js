// Playing cards drawn as SVG by our own code: three faces, optional four-colour deck.
// Card text follows RULES.md G1: rank then suit ("7H", "TD", "8S"), jokers "BJ", "RJ", "JK".
import { courtArt } from "./courts.js";

export const SUITS = ["S", "H", "D", "C"];
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const JOKER_NAMES = { BJ: "black joker", RJ: "red joker", JK: "Joker" };
export const RANK_ORDER = "A23456789TJQK";

const SUIT_PATHS = {
  H: "M50 90C22 68 4 50 10 30C16 12 40 8 50 28C60 8 84 12 90 30C96 50 78 68 50 90Z",
  D: "M50 4L86 50L50 96L14 50Z",
  S: "M50 6C74 30 96 44 90 64C85 80 64 82 54 68C56 82 62 90 70 96H30C38 90 44 82 46 68C36 82 15 80 10 64C4 44 26 30 50 6Z",
  C: "M50 8A19 19 0 0 1 66 38A19 19 0 1 1 56 70C57 82 62 90 70 96H30C38 90 43 82 44 70A19 19 0 1 1 34 38A19 19 0 0 1 50 8Z",
};

export function isJoker(card) {
  return card === "BJ" || card === "RJ" || card === "JK";
}

export function rankOf(card) {
  return isJoker(card) ? card : card[0];
}

export function suitOf(card) {
  return isJoker(card) ? null : card[1];
}

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** A card's name for screen readers: "seven of hearts". */
export function cardName(card) {
  if (!card) return "no card";
  if (isJoker(card)) return JOKER_NAMES[card];
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

export function suitColor(suit, fourColor) {
  if (fourColor) return { S: "#1b1b1f", H: "#c8102e", D: "#1f5fbf", C: "#177a3a" }[suit];
  return suit === "H" || suit === "D" ? "#c8102e" : "#1b1b1f";
}

/** A suit symbol as an SVG fragment, centred on (x, y), `size` wide. */
export function pip(suit, x, y, size, color, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATHS[suit]}" fill="${color}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}"/>`;
}

/** A stand-alone suit icon (for the declared-suit indicator, the suit picker). */
export function suitIcon(suit, { fourColor = false, size = 40 } = {}) {
  return `<svg viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true" focusable="false">${pip(suit, 50, 50, 96, suitColor(suit, fourColor))}</svg>`;
}

const PIPS = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[34, 30], [66, 30], [34, 110], [66, 110]],
  5: [[34, 30], [66, 30], [50, 70], [34, 110], [66, 110]],
  6: [[34, 30], [66, 30], [34, 70], [66, 70], [34, 110], [66, 110]],
  7: [[34, 30], [66, 30], [50, 50], [34, 70], [66, 70], [34, 110], [66, 110]],
  8: [[34, 30], [66, 30], [50, 50], [34, 70], [66, 70], [50, 90], [34, 110], [66, 110]],
  9: [[34, 30], [66, 30], [34, 56], [66, 56], [50, 70], [34, 84], [66, 84], [34, 110], [66, 110]],
  T: [[34, 30], [66, 30], [50, 43], [34, 56], [66, 56], [34, 84], [66, 84], [50, 97], [34, 110], [66, 110]],
};

const FACES = {
  standard: { bg: "#ffffff", edge: "#c9c9c9", font: "Georgia, 'DejaVu Serif', serif", weight: 700 },
  minimal: { bg: "#f7f7f4", edge: "#d8d8d0", font: "'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif", weight: 600 },
  victorian: { bg: "#f4ead2", edge: "#8a6a35", font: "'Times New Roman', 'DejaVu Serif', serif", weight: 700 },
  // unlocked by an achievement (server/achievements.py): gold and black, stepped corners
  deco: { bg: "#fbf6ea", edge: "#1d1d1d", font: "'Century Gothic', Futura, 'DejaVu Sans', sans-serif", weight: 600 },
};

function corners(rank, suit, color, face) {
  const f = FACES[face];
  const label = rankLabel(rank);
  const size = face === "minimal" ? 20 : 17;
  const one = `<text x="11" y="${face === "minimal" ? 24 : 22}" text-anchor="middle" font-family="${f.font}" font-weight="${f.weight}" font-size="${label.length > 1 ? size - 3 : size}" fill="${color}" ${label.length > 1 ? 'letter-spacing="-1.5"' : ""}>${label}</text>${pip(suit, 11, face === "minimal" ? 35 : 32, 11, color)}`;
  return `<g>${one}</g><g transform="rotate(180 50 70)">${one}</g>`;
}

function victorianBorder() {
  return `<rect x="4" y="4" width="92" height="132" rx="6" fill="none" stroke="#8a6a35" stroke-width="1.4"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="4" fill="none" stroke="#8a6a35" stroke-width="0.6" stroke-dasharray="2 1.5"/>` +
    [[7, 7], [93, 7], [7, 133], [93, 133]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.2" fill="#8a6a35"/>`).join("");
}

function decoBorder() {
  const gold = "#b8892b";
  // stepped ornaments at the middle of each edge, clear of the corner indices
  const step = (x, y, r) => `<path d="M-9 0H-5V-3H-2V-5H2V-3H5V0H9" fill="none" stroke="${gold}" stroke-width="1.2" transform="translate(${x} ${y}) rotate(${r})"/>`;
  return `<rect x="3.5" y="3.5" width="93" height="133" rx="5" fill="none" stroke="#1d1d1d" stroke-width="1.6"/>` +
    `<rect x="6.5" y="6.5" width="87" height="127" rx="3" fill="none" stroke="${gold}" stroke-width="0.7"/>` +
    step(50, 12, 0) + step(50, 128, 180) + step(12, 70, -90) + step(88, 70, 90);
}

function decoFan(cx, cy, r) {
  return `<g stroke="#b8892b" stroke-width="0.8" opacity="0.8">` + Array.from({ length: 11 }, (_, i) => {
    const a = Math.PI * (1 + i / 10);
    return `<line x1="${cx}" y1="${cy}" x2="${(cx + r * Math.cos(a)).toFixed(1)}" y2="${(cy + r * Math.sin(a)).toFixed(1)}"/>`;
  }).join("") + `</g>`;
}

function jokerArt(card, face, fourColor) {
  const color = card === "RJ" ? "#c8102e" : card === "BJ" ? "#1b1b1f" : "#6b2fb3";
  const f = FACES[face];
  const star = "M50 30L57 50L78 50L61 62L67 82L50 70L33 82L39 62L22 50L43 50Z";
  return `<path d="${star}" fill="${color}" opacity="0.9"/>` +
    `<text x="50" y="106" text-anchor="middle" font-family="${f.font}" font-weight="700" font-size="13" letter-spacing="2" fill="${color}">JOKER</text>` +
    `<text x="11" y="22" text-anchor="middle" font-family="${f.font}" font-weight="700" font-size="12" fill="${color}">${card === "JK" ? "J" : card[0]}</text>` +
    (fourColor ? "" : "");
}

/** The face of `card` as an SVG string. */
export function cardSVG(card, { face = "standard", fourColor = false, label = true } = {}) {
  const f = FACES[face] || FACES.standard;
  face = FACES[face] ? face : "standard";
  const aria = label ? `role="img" aria-label="${cardName(card)}"` : `aria-hidden="true"`;
  let body = `<rect x="0.5" y="0.5" width="99" height="139" rx="8" fill="${f.bg}" stroke="${f.edge}"/>`;
  if (face === "victorian") body += victorianBorder();
  if (face === "deco") body += decoBorder();
  if (isJoker(card)) {
    body += jokerArt(card, face, fourColor);
  } else {
    const rank = card[0];
    const suit = card[1];
    const color = suitColor(suit, fourColor);
    body += corners(rank, suit, color, face);
    if ("JQK".includes(rank)) {
      body += courtArt(rank, suit, color, face, pip);
    } else if (face === "minimal") {
      body += `<text x="50" y="88" text-anchor="middle" font-family="${f.font}" font-weight="300" font-size="46" fill="${color}">${rankLabel(rank)}</text>`;
      body += pip(suit, 50, 108, 16, color);
      body += `<line x1="30" y1="122" x2="70" y2="122" stroke="${color}" stroke-width="1" opacity="0.4"/>`;
    } else if (rank === "A") {
      if (face === "deco") body += decoFan(50, 92, 44);
      body += pip(suit, 50, 70, face === "victorian" ? 40 : 46, color);
      if (face === "victorian") body += `<circle cx="50" cy="70" r="30" fill="none" stroke="#8a6a35" stroke-width="0.8"/>`;
    } else {
      for (const [x, y] of PIPS[rank]) body += pip(suit, x, y, 17, color, y > 72);
    }
  }
  return `<svg class="card-svg" viewBox="0 0 100 140" ${aria} focusable="false">${body}</svg>`;
}

/** The card backs: "classic" (everyone's; its colour follows the felt theme through
 * CSS variables) and the ones an achievement unlocks (server/achievements.py). */
export const BACKS = ["classic", "lattice", "sunburst", "compass", "tartan"];

function classicBack() {
  return `<rect x="6" y="6" width="88" height="128" rx="5" fill="var(--back, #8c1c2c)"/>` +
    `<g stroke="var(--back-line, rgba(255,255,255,.35))" stroke-width="1.2" fill="none">` +
    Array.from({ length: 9 }, (_, i) => `<path d="M${6 + i * 11} 6L${6 + i * 11 - 60} 134M${6 + i * 11} 6L${6 + i * 11 + 60} 134"/>`).join("") +
    `</g><rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="rgba(255,255,255,.6)" stroke-width="2"/>` +
    `<circle cx="50" cy="70" r="14" fill="var(--back, #8c1c2c)" stroke="rgba(255,255,255,.7)" stroke-width="2"/>` +
    `<text x="50" y="76" text-anchor="middle" font-family="Georgia, serif" font-weight="700" font-size="17" fill="#fff">8</text>`;
}

function latticeBack() {
  const cells = [];
  for (let y = 6; y < 134; y += 16) for (let x = 6; x < 94; x += 16) cells.push(`<path d="M${x + 8} ${y}L${x + 16} ${y + 8}L${x + 8} ${y + 16}L${x} ${y + 8}Z"/>`);
  return `<clipPath id="lattice-clip"><rect x="6" y="6" width="88" height="128" rx="5"/></clipPath>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="#14233f"/>` +
    `<g fill="none" stroke="#d4a93c" stroke-width="1.1" clip-path="url(#lattice-clip)">${cells.join("")}</g>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="#d4a93c" stroke-width="2.4"/>` +
    `<path d="M50 52L64 70L50 88L36 70Z" fill="#14233f" stroke="#f1d27a" stroke-width="2"/>`;
}

function sunburstBack() {
  const rays = Array.from({ length: 24 }, (_, i) => {
    const a = (i / 24) * 2 * Math.PI, b = ((i + 0.5) / 24) * 2 * Math.PI;
    const p = (t) => `${(50 + 120 * Math.cos(t)).toFixed(1)} ${(70 + 120 * Math.sin(t)).toFixed(1)}`;
    return `<path d="M50 70L${p(a)}L${p(b)}Z"/>`;
  }).join("");
  return `<clipPath id="sun-clip"><rect x="6" y="6" width="88" height="128" rx="5"/></clipPath>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="#e0641b"/>` +
    `<g clip-path="url(#sun-clip)" fill="#f6b233">${rays}</g>` +
    `<circle cx="50" cy="70" r="16" fill="#fde7a1" stroke="#b8420f" stroke-width="2"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="#b8420f" stroke-width="2"/>`;
}

function compassBack() {
  const point = (a, long, w, fill) => {
    const t = (a * Math.PI) / 180, n = (d, r) => `${(50 + r * Math.cos(t + d)).toFixed(1)} ${(70 + r * Math.sin(t + d)).toFixed(1)}`;
    return `<path d="M50 70L${n(-w, 8)}L${n(0, long)}L${n(w, 8)}Z" fill="${fill}"/>`;
  };
  return `<rect x="6" y="6" width="88" height="128" rx="5" fill="#0f4c4a"/>` +
    `<circle cx="50" cy="70" r="36" fill="none" stroke="#cfe8dc" stroke-width="1"/><circle cx="50" cy="70" r="30" fill="none" stroke="#cfe8dc" stroke-width="0.6" stroke-dasharray="2 2"/>` +
    [45, 135, 225, 315].map((a) => point(a, 24, 0.5, "#8fc1ad")).join("") +
    [0, 90, 180, 270].map((a) => point(a - 90, 40, 0.35, "#f2efe2")).join("") +
    `<circle cx="50" cy="70" r="3" fill="#0f4c4a" stroke="#f2efe2"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="#cfe8dc" stroke-width="2"/>`;
}

function tartanBack() {
  const bands = (horizontal) => [14, 38, 62, 86, 110].map((p, i) => horizontal
    ? `<rect x="6" y="${p}" width="88" height="${i % 2 ? 4 : 10}" fill="${i % 2 ? "#f0c94b" : "#1d3b2a"}" opacity=".75"/>`
    : p < 94 ? `<rect x="${p}" y="6" width="${i % 2 ? 4 : 10}" height="128" fill="${i % 2 ? "#f0c94b" : "#1d3b2a"}" opacity=".6"/>` : "").join("");
  return `<rect x="6" y="6" width="88" height="128" rx="5" fill="#a3202a"/>` + bands(true) + bands(false) +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="#1d3b2a" stroke-width="2.4"/>`;
}

const BACK_ART = { classic: classicBack, lattice: latticeBack, sunburst: sunburstBack, compass: compassBack, tartan: tartanBack };

/** A card back: `back` names one of BACKS; without it, the one the settings chose
 * (settings.js puts it on the document as `data-back`). */
export function backSVG({ label = false, back = null } = {}) {
  const aria = label ? `role="img" aria-label="face-down card"` : `aria-hidden="true"`;
  const name = back || document.documentElement.dataset.back || "classic";
  const art = BACK_ART[name] || BACK_ART.classic;
  return `<svg class="card-svg back back-${BACK_ART[name] ? name : "classic"}" viewBox="0 0 100 140" ${aria} focusable="false">` +
    `<rect x="0.5" y="0.5" width="99" height="139" rx="8" fill="#fdfdfd" stroke="#bbb"/>${art()}</svg>`;
}

/** Sort a hand (card text list) by suit or by rank, for display only. */
export function sortHand(hand, mode) {
  const key = (c) => {
    if (isJoker(c)) return [9, "BJRJJK".indexOf(c)];
    const r = RANK_ORDER.indexOf(c[0]);
    const s = "SHCD".indexOf(c[1]);
    return mode === "rank" ? [r, s] : [s, r];
  };
  return [...hand].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}
