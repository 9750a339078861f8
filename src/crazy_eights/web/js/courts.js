// Court cards: kings, queens and jacks drawn as figures by our own code, in the style of
// each card face. Standard: the familiar double-headed portrait in red, blue and gold
// with black outlines. Vintage Victorian: the same portrait engraved in sepia inks inside
// a double frame. Modern Minimalist: one flat geometric bust in the suit's colour.
// Each suit gives the figure its own attribute (sword, axe, orb, flower, sceptre, pike),
// as a player expects: no two court cards of one rank look alike.
// The card is 100 x 140; the upper half of the portrait lies in x 17..83, y 17..70 and
// the lower half is the same drawing turned about the centre (50, 70).

const PALETTES = {
  standard: {
    line: "#1b1b1f", red: "#c8102e", blue: "#1f4e9c", gold: "#f2c12e", skin: "#fde3c6",
    white: "#fffdf7", grey: "#e6e2d8", brown: "#7a4a22", green: "#2f7d3a", frame: "#1b1b1f", width: 0.9,
  },
  victorian: {
    line: "#3b2a14", red: "#8e2a2a", blue: "#2e4a5e", gold: "#c49a45", skin: "#f1dcc0",
    white: "#f7efdc", grey: "#ddd2bc", brown: "#5c3b1c", green: "#4f6b3a", frame: "#8a6a35", width: 0.8,
  },
};

// robe, trim and panel colours per suit, so the four kings (queens, jacks) differ
const SUIT_COLORS = {
  S: ["blue", "gold", "red"],
  H: ["red", "gold", "blue"],
  D: ["gold", "red", "blue"],
  C: ["blue", "red", "gold"],
};

// what each figure holds
const ATTRIBUTE = {
  K: { S: "sword", H: "sword-behind", D: "axe", C: "orb" },
  Q: { S: "sceptre", H: "flower", D: "flower", C: "flower" },
  J: { S: "pike", H: "leaf", D: "axe", C: "pike" },
};

const f = (n) => Number(n.toFixed(2));

function shape(d, fill, p, extra = "") {
  return `<path d="${d}" fill="${fill}" stroke="${p.line}" stroke-width="${p.width}" stroke-linejoin="round" ${extra}/>`;
}

function line(d, p, width = p.width, color = p.line) {
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`;
}

/** The robe, collar and arm: the figure's shoulders down to the centre line. */
function robe(rank, suit, p) {
  const [main, trim, panel] = SUIT_COLORS[suit].map((k) => p[k]);
  const thin = `stroke-width="${f(p.width * 0.6)}"`;
  let out = shape("M26 70 L27 60 Q29 54.5 39 53 L61 53 Q71 54.5 73 60 L74 70 Z", main, p);
  // the centre panel with its pattern
  out += shape("M43.5 54 L56.5 54 L58 70 L42 70 Z", panel, p);
  for (let y = 57.5; y < 70; y += 4.5) out += shape(`M50 ${y - 2} L52.6 ${y + 0.3} L50 ${y + 2.6} L47.4 ${y + 0.3} Z`, trim, p, thin);
  // shoulder trims and the folds of the robe
  out += shape("M27.5 58.5 Q33 55.5 39.5 56.5 L39.5 59 Q33 58.2 27.2 61.5 Z", trim, p, thin);
  out += shape("M72.5 58.5 Q67 55.5 60.5 56.5 L60.5 59 Q67 58.2 72.8 61.5 Z", trim, p, thin);
  out += line("M30 69 Q31 65 35 63.5", p, f(p.width * 0.6)) + line("M70 69 Q69 65 65 63.5", p, f(p.width * 0.6));
  // the arm that holds the attribute, with its cuff
  out += shape("M62 58 Q70 59 69 65.5 L63.5 67 Q61 63 62 58 Z", main, p);
  out += shape("M69 64.5 L63.6 66 L64.2 68.2 L69.6 66.6 Z", trim, p, thin);
  // the collar: an ermine band for a king, a lace ruff for a queen, a plain band for a jack
  if (rank === "K") {
    out += shape("M38 51.5 Q50 57 62 51.5 L63 54.5 Q50 61 37 54.5 Z", p.white, p);
    for (const [x, y] of [[41.5, 55.2], [46, 57.1], [54, 57.1], [58.5, 55.2]]) out += `<circle cx="${x}" cy="${y}" r="0.7" fill="${p.line}"/>`;
  } else if (rank === "Q") {
    out += shape("M37 50.5 Q40.5 56 44 51.5 Q47 57 50 52 Q53 57 56 51.5 Q59.5 56 63 50.5 L62.5 53.5 Q50 60 37.5 53.5 Z", p.white, p);
  } else {
    out += shape("M39 51.5 Q50 56 61 51.5 L61.5 54 Q50 59 38.5 54 Z", p[trim === p.gold ? "red" : "gold"], p);
  }
  return out;
}

/** Hair (and a king's beard) behind and around the face. */
function hair(rank, p) {
  if (rank === "K") {
    return shape("M42 31 Q41 40 43 44 L45 41 L45 33 Z", p.grey, p) + shape("M58 31 Q59 40 57 44 L55 41 L55 33 Z", p.grey, p);
  }
  if (rank === "Q") {
    return shape("M42 29 Q37 38 39 47 Q42 46 44 44 L45 33 Z", p.brown, p) +
      shape("M58 29 Q63 38 61 47 Q58 46 56 44 L55 33 Z", p.brown, p);
  }
  return shape("M42.5 30 Q40 34 41.5 40 Q43 41 44.5 39 L45 32 Z", p.brown, p) + shape("M57.5 30 Q60 34 58.5 40 Q57 41 55.5 39 L55 32 Z", p.brown, p);
}

/** The face: eyes, brows, nose and mouth (and a king's beard). */
function features(rank, p) {
  let out = shape("M44 30 Q44 43 50 45 Q56 43 56 30 Q50 27 44 30 Z", p.skin, p);
  out += `<ellipse cx="47.3" cy="34.6" rx="0.9" ry="0.6" fill="${p.line}"/><ellipse cx="52.7" cy="34.6" rx="0.9" ry="0.6" fill="${p.line}"/>`;
  out += line("M46 33.2 Q47.3 32.4 48.6 33.1", p, 0.5) + line("M51.4 33.1 Q52.7 32.4 54 33.2", p, 0.5);
  out += line("M50 35 L49.2 38.6 L50.4 38.8", p, 0.5);
  if (rank === "K") {
    // moustache and a full beard
    out += shape("M44.5 39 Q47 38 50 40 Q53 38 55.5 39 Q57 44 53 48 Q50 50 47 48 Q43 44 44.5 39 Z", p.grey, p, `stroke-width="${p.width * 0.8}"`);
    out += line("M47.5 41.5 Q50 43 52.5 41.5", p, 0.5) + line("M48 45 L48.5 47.5M50 45.5 L50 48.5M52 45 L51.5 47.5", p, 0.35);
  } else {
    out += line(rank === "Q" ? "M48.2 41 Q50 42.2 51.8 41" : "M48.4 41.2 L51.6 41.2", p, 0.6, p.red);
    if (rank === "Q") out += `<circle cx="46.2" cy="38.4" r="1.1" fill="${p.red}" opacity="0.25"/><circle cx="53.8" cy="38.4" r="1.1" fill="${p.red}" opacity="0.25"/>`;
  }
  return out;
}

/** Crown, tiara or cap. */
function headwear(rank, suit, p) {
  const [, trim, panel] = SUIT_COLORS[suit].map((k) => p[k]);
  if (rank === "K") {
    let out = shape("M42.5 31 L41 20 L45 25 L47.5 18 L50 24 L52.5 18 L55 25 L59 20 L57.5 31 Z", p.gold, p);
    out += shape("M42.3 28 L57.7 28 L57.5 31.5 L42.5 31.5 Z", panel, p, `stroke-width="${p.width * 0.7}"`);
    for (const [x, y] of [[41, 19.5], [47.5, 17.5], [52.5, 17.5], [59, 19.5]]) out += `<circle cx="${x}" cy="${y}" r="1" fill="${p.white}" stroke="${p.line}" stroke-width="0.4"/>`;
    out += `<circle cx="50" cy="29.7" r="1" fill="${trim}" stroke="${p.line}" stroke-width="0.4"/>`;
    return out;
  }
  if (rank === "Q") {
    let out = shape("M43.5 30.5 Q43 26 44.5 23 L47 26.5 L50 21.5 L53 26.5 L55.5 23 Q57 26 56.5 30.5 Q50 28.5 43.5 30.5 Z", p.gold, p);
    for (const [x, y] of [[44.5, 22.3], [50, 20.6], [55.5, 22.3]]) out += `<circle cx="${x}" cy="${y}" r="1.1" fill="${panel}" stroke="${p.line}" stroke-width="0.4"/>`;
    return out;
  }
  // a jack's flat cap with a feather
  let out = shape("M39.5 30 Q41 22.5 50 22 Q59 22.5 60.5 30 Q50 27.5 39.5 30 Z", panel, p);
  out += shape("M39 30.5 Q50 26.5 61 30.5 L60.5 32 Q50 28.8 39.5 32 Z", trim, p, `stroke-width="${p.width * 0.7}"`);
  out += shape("M56 24 Q64 17 68 19 Q63 21 58.5 26 Z", p.white, p, `stroke-width="${p.width * 0.7}"`);
  out += line("M57 25 Q62 20.5 67 19.3", p, 0.4);
  return out;
}

/** The thing in the figure's hand, and the hand itself. */
function attribute(kind, p) {
  const hand = (x, y) => `<circle cx="${x}" cy="${y}" r="2.4" fill="${p.skin}" stroke="${p.line}" stroke-width="${p.width * 0.8}"/>`;
  switch (kind) {
    case "sword":
      return shape("M67.2 22 L68 19.5 L68.8 22 L69 55 L67 55 Z", p.white, p) + shape("M63.5 55 L72.5 55 L72.5 56.8 L63.5 56.8 Z", p.gold, p) +
        shape("M67.2 56.8 L68.8 56.8 L68.6 63 L67.4 63 Z", p.brown, p) + hand(68, 60);
    case "sword-behind":
      return shape("M35 22 L36.3 21 L63 51 L61.7 52 Z", p.white, p) + shape("M58.5 53.5 L63.8 47.6 L65 48.7 L59.7 54.6 Z", p.gold, p) + hand(64, 54);
    case "axe":
      return line("M34.5 31 L34.5 64", p, 1.8, p.brown) + line("M34.5 31 L34.5 64", p, 0.4) +
        shape("M34.5 32 Q27 34 27.5 40 Q31 38.5 34.5 40 Z", p.white, p) + hand(34.5, 60);
    case "orb":
      return `<circle cx="66" cy="55" r="4.2" fill="${p.gold}" stroke="${p.line}" stroke-width="${p.width}"/>` +
        line("M61.8 55 L70.2 55M66 50.8 L66 59.2", p, 0.5) + line("M66 50.8 L66 47.5M64.6 49 L67.4 49", p, 0.9) + hand(66, 61);
    case "sceptre":
      return line("M66 26 L66 62", p, 1.6, p.gold) + `<circle cx="66" cy="25" r="2.2" fill="${p.red}" stroke="${p.line}" stroke-width="0.6"/>` +
        shape("M63.5 28.5 L68.5 28.5 L66 31 Z", p.gold, p, 'stroke-width="0.5"') + hand(66, 58);
    case "flower": {
      let out = line("M64 58 Q65 50 66.5 44", p, 0.9, p.green) + shape("M64.8 51 Q61 49.5 60.5 46.5 Q64 47.5 64.8 51 Z", p.green, p, 'stroke-width="0.4"');
      for (let i = 0; i < 5; i++) {
        const a = (i / 5) * Math.PI * 2;
        out += `<circle cx="${f(66.5 + Math.cos(a) * 1.9)}" cy="${f(42.5 + Math.sin(a) * 1.9)}" r="1.6" fill="${p.red}" stroke="${p.line}" stroke-width="0.4"/>`;
      }
      return out + `<circle cx="66.5" cy="42.5" r="1.1" fill="${p.gold}"/>` + hand(64, 58);
    }
    case "pike":
      return line("M68 24 L68 63", p, 1.5, p.brown) + shape("M68 18.5 L70.2 25.5 L68 24.5 L65.8 25.5 Z", p.white, p, 'stroke-width="0.6"') +
        shape("M65 26.5 L71 26.5 L70 28.5 L66 28.5 Z", p.gold, p, 'stroke-width="0.5"') + hand(68, 61);
    case "leaf":
    default:
      return shape("M66 58 Q58 47 63 36 Q71 45 66 58 Z", p.green, p) + line("M66 57 Q63.5 47 63.2 37.5", p, 0.4) + hand(66, 58);
  }
}

/** The standard or Victorian double-headed portrait of a king, queen or jack. */
function portrait(rank, suit, suitColor, face, pip) {
  const p = PALETTES[face === "victorian" ? "victorian" : "standard"];
  const tint = face === "victorian" ? "#efe2c2" : "#fbf7ea";
  const kind = ATTRIBUTE[rank][suit];
  const behind = kind === "sword-behind" ? attribute(kind, p) : "";
  const front = kind === "sword-behind" ? "" : attribute(kind, p);
  const head = `<g transform="translate(50 31.5) scale(1.2) translate(-50 -31.5)">${hair(rank, p)}${features(rank, p)}${headwear(rank, suit, p)}</g>`;
  const shading = face === "victorian" ? engraving(p) : "";
  const half = `${behind}${robe(rank, suit, p)}${shading}${head}${front}${pip(suit, 29, 25, 9, suitColor)}`;
  let out = `<rect x="21" y="16" width="58" height="108" rx="2.5" fill="${tint}" stroke="${p.frame}" stroke-width="${face === "victorian" ? 1.1 : 0.8}"/>`;
  if (face === "victorian") out += `<rect x="23" y="18" width="54" height="104" rx="1.5" fill="none" stroke="${p.frame}" stroke-width="0.4"/>`;
  out += `<g>${half}</g><g transform="rotate(180 50 70)">${half}</g>`;
  out += `<line x1="21.5" y1="70" x2="78.5" y2="70" stroke="${p.frame}" stroke-width="${f(p.width * 0.8)}"/>`;
  return out;
}

/** A Victorian engraver's shading: fine fold lines over the robe. */
function engraving(p) {
  let out = "";
  for (let i = 0; i < 5; i++) out += line(`M${25 + i * 2.2} ${69} Q${27 + i * 2.5} ${62 - i} ${31 + i * 1.5} ${56 - i * 0.4}`, p, 0.3);
  for (let i = 0; i < 5; i++) out += line(`M${75 - i * 2.2} ${69} Q${73 - i * 2.5} ${62 - i} ${69 - i * 1.5} ${56 - i * 0.4}`, p, 0.3);
  return out;
}

/** The Modern Minimalist bust: flat shapes in the suit's colour, no outline. */
function minimalBust(rank, suit, color, pip) {
  const light = "#f7f7f4";
  let out = `<path d="M27 104 Q28 82 50 80 Q72 82 73 104 Z" fill="${color}"/>`;
  out += `<path d="M44 80.5 L50 90 L56 80.5 Z" fill="${light}"/>`;
  out += `<circle cx="50" cy="66" r="11" fill="${color}" opacity="0.18"/><circle cx="50" cy="66" r="11" fill="none" stroke="${color}" stroke-width="1.4"/>`;
  if (rank === "K") {
    out += `<path d="M38 55 L38 42 L44 49 L50 38 L56 49 L62 42 L62 55 Z" fill="${color}"/>`;
    out += `<path d="M42 70 Q50 86 58 70 Q50 75 42 70 Z" fill="${color}"/>`;
  } else if (rank === "Q") {
    out += `<path d="M40 56 Q40 46 44 44 L47 50 L50 42 L53 50 L56 44 Q60 46 60 56 Q50 52 40 56 Z" fill="${color}"/>`;
    out += `<path d="M39 60 Q36 74 40 82 L43 78 Q41 70 42 61 Z M61 60 Q64 74 60 82 L57 78 Q59 70 58 61 Z" fill="${color}"/>`;
  } else {
    out += `<path d="M36 58 Q38 45 50 44 Q62 45 64 58 Q50 53 36 58 Z" fill="${color}"/>`;
    out += `<path d="M59 48 Q68 38 74 40 Q67 43 61 51 Z" fill="${color}" opacity="0.6"/>`;
  }
  out += pip(suit, 50, 96, 10, light);
  // diamonds and clubs hold theirs in the other hand, so no two busts of a colour match
  const attr = minimalAttribute(ATTRIBUTE[rank][suit], color);
  return out + ("DC".includes(suit) ? `<g transform="translate(100 0) scale(-1 1)">${attr}</g>` : attr);
}

/** The figure's attribute as a flat shape beside the Minimalist bust. */
function minimalAttribute(kind, color) {
  const fill = `fill="${color}"`;
  switch (kind) {
    case "sword":
      return `<rect x="74" y="44" width="3" height="46" ${fill}/><rect x="70" y="86" width="11" height="3" ${fill}/>`;
    case "sword-behind":
      return `<path d="M24 40 L27 38 L78 100 L75 102 Z" ${fill} opacity="0.5"/>`;
    case "axe":
      return `<rect x="23" y="48" width="3" height="50" ${fill}/><path d="M26 50 Q36 55 26 66 Z" ${fill}/>`;
    case "orb":
      return `<circle cx="76" cy="86" r="6" ${fill}/><rect x="75" y="73" width="2" height="8" ${fill}/><rect x="72" y="75.5" width="8" height="2" ${fill}/>`;
    case "sceptre":
      return `<rect x="75" y="52" width="2.5" height="46" ${fill}/><circle cx="76.2" cy="49" r="4" ${fill}/>`;
    case "flower":
      return `<rect x="75.3" y="62" width="1.6" height="34" ${fill}/><circle cx="76" cy="58" r="5" fill="none" stroke="${color}" stroke-width="2.4"/><circle cx="76" cy="58" r="1.8" ${fill}/>`;
    case "pike":
      return `<rect x="75" y="46" width="2.5" height="52" ${fill}/><path d="M76.2 34 L80 46 L72.5 46 Z" ${fill}/>`;
    case "leaf":
    default:
      return `<path d="M76 98 Q64 78 76 56 Q88 78 76 98 Z" ${fill} opacity="0.7"/>`;
  }
}

/** A court card's picture (everything but the corners) for `face`. */
export function courtArt(rank, suit, color, face, pip) {
  if (face === "minimal") return minimalBust(rank, suit, color, pip);
  return portrait(rank, suit, color, face, pip);
}
