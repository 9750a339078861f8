// "How to play", one source for every ruleset: the page, the table's "?" and the
// create-table form all read the texts below; the settings part is built from the
// server's own list of settings (GET /api/rulesets) so it always matches the tables.
import { cardName, cardSVG } from "./cards.js";

export const RULESET_TITLES = {
  classic: "Classic",
  ultimate: "Ultimate",
  countdown: "Countdown",
  cycles: "Cycles",
};

export const RULESET_BLURB = {
  classic: "The card-room standard: match the suit or rank, eights are wild; the winner scores what is left in the other hands.",
  ultimate: "Action cards: twos stack draw penalties, queens skip, aces reverse. Low score wins.",
  countdown: "Your number is your hand size and your own wild rank; get it down to zero.",
  cycles: "A trick-taking shedding game with jokers: follow the lead suit, win cycles, empty your hand.",
};

export const SECTIONS = {
  classic: [
    ["Goal", "Be the first to get rid of every card in your hand. In a match, the winner of each round scores the cards left in the other hands, and the first player to reach the target wins."],
    ["Deal", "One pack of 52. With two players each gets 7 cards, with three to five players each gets 5. The top card of the stock starts the discard pile (an eight is buried and another card turned)."],
    ["Your turn", "Play one card that matches the top card of the discard pile by suit or by rank. Cards you can play glow."],
    ["Eights are wild", "An eight can be played on anything. When you play it you name the suit the next player must follow. The named suit is shown beside the discard pile."],
    ["Drawing", "If you cannot play, or would rather not, click the stock to draw. The table's draw policy says what happens next."],
    ["Last card", "When your play leaves you one card, press Last Card (or type \u201clast card\u201d in chat) before you play it. Forgetting costs two cards."],
    ["Scoring", "Eights 50, K Q J 10 each 10, an ace 1 (or 11), other cards their number."],
    ["Blockade", "When the stock is empty and nobody can play, the round is blocked. The player with the fewest points in hand wins it (on a tie, the fewest cards) and scores the points left in the other hands, as if they had gone out."],
  ],
  ultimate: [
    ["Goal", "Go out first. Everyone else scores penalty points for the cards they still hold; when a player reaches the target, the lowest total wins the match."],
    ["Deal", "One pack for up to five players, two packs for six to eight. 7 cards each for two players, 5 for more."],
    ["Your turn", "Match the top card by suit or rank, or play an eight and name a suit. If you cannot or will not play, draw one card; drawing ends your turn."],
    ["Twos", "A two makes the next player draw two cards, unless they play a two of their own: then the draw grows by two for the next player. An eight cannot answer a pending draw."],
    ["Queens and aces", "A queen skips the next player. An ace reverses the direction of play."],
    ["Starter eight", "If the first card turned is an eight, the dealer names its suit."],
    ["Last card", "Press Last Card as you play your second-to-last card, or draw two."],
    ["Blockade", "If even a reshuffle leaves nothing to draw and nobody can play, the round is blocked. The player with the fewest points in hand wins it (on a tie, the fewest cards); everyone else scores their hand as penalty points."],
  ],
  countdown: [
    ["Goal", "Everyone starts with a number (8). It is both the number of cards you are dealt and your personal wild rank. Win a round and your number goes down by one; win a round while your number is 1 and you win the game."],
    ["Your turn", "Match the suit or rank of the top card, or play your own wild rank (shown on your panel) and name a suit. Someone else's wild rank is an ordinary card for you."],
    ["After a wild", "The next player must follow the named suit or play their own wild."],
    ["Drawing", "You may draw instead of playing. You keep drawing, one card at a time, until you play a card."],
    ["No points", "Rounds score nothing: only the numbers count."],
    ["Blockade", "If nobody can play or draw, the round is blocked: nobody wins it, no number changes, and the next dealer deals the same numbers again."],
  ],
  cycles: [
    ["Goal", "Empty your hand, or hold the lowest hand value when the cycle limit runs out."],
    ["Deck", "52 cards plus three jokers: the black joker (fits spades and clubs), the red joker (hearts and diamonds) and the Joker (fits anything, and beats everything)."],
    ["Cycles", "A cycle is a lead card and one card from every other player. Follow the lead suit, or play a joker that fits it. The highest card by power wins the cycle; its player leads the next one. Every card of a completed cycle leaves the game."],
    ["The host", "The table itself is the host: it leads the first cycle from the stock. Beat the host's card to take the lead."],
    ["No fitting card", "If you cannot follow you draw until you can, and must play that card. If the stock is empty you pick up the whole cycle."],
    ["Last card", "Call last card with the play that leaves you one card. Forgetting: you pick up the cycle and three cards. Calling falsely reveals how many cards of the lead suit you hold."],
    ["Jokers", "A joker can never be your last card."],
  ],
};

/** An example turn per ruleset, drawn with our own cards: the card on the table, your
 * hand with the cards you may play raised, and what it shows. Examples for the reader,
 * written out by hand: the table itself always plays the server's legal moves. */
export const EXAMPLES = {
  classic: { table: "7H", label: "On the pile", hand: ["7S", "KH", "8C", "3D"], may: ["7S", "KH", "8C"],
    text: "The seven of hearts is on the pile: the seven of spades matches its rank, the king of hearts its suit, and the eight is wild. The three of diamonds must wait." },
  ultimate: { table: "2S", label: "A two is pending", hand: ["2H", "8C", "5S", "QD"], may: ["2H"],
    text: "The two of spades makes you draw two, unless you play a two of your own (the two of hearts): then the next player faces four. The eight cannot answer a pending draw." },
  countdown: { table: "9D", label: "On the pile", hand: ["3C", "9S", "KH"], may: ["3C", "9S"],
    text: "Your number is 3, so threes are your wild cards: the three of clubs fits anything. The nine of spades matches the rank; the king of hearts fits nothing." },
  cycles: { table: "5H", label: "The lead", hand: ["9H", "RJ", "KS", "BJ"], may: ["9H", "RJ"],
    text: "The cycle was led with the five of hearts: follow with a heart, or the red joker, which fits hearts and diamonds. The black joker only fits spades and clubs." },
};

/** The example turn of a ruleset as a figure (null when it has none). */
export function exampleTurn(ruleset) {
  const ex = EXAMPLES[ruleset];
  if (!ex) return null;
  const card = (c, cls) => {
    const box = document.createElement("span");
    box.className = `example-card ${cls}`;
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", `${cardName(c)}${cls === "may" ? ", may be played" : ""}`);
    box.innerHTML = cardSVG(c, { label: false });
    return box;
  };
  const fig = document.createElement("figure");
  fig.className = "example-turn";
  const pile = document.createElement("div");
  pile.className = "example-pile";
  const cap = document.createElement("span");
  cap.textContent = ex.label;
  pile.append(cap, card(ex.table, "top"));
  const hand = document.createElement("div");
  hand.className = "example-hand";
  const mine = document.createElement("span");
  mine.textContent = "Your hand";
  hand.append(mine, ...ex.hand.map((c) => card(c, ex.may.includes(c) ? "may" : "not")));
  const text = document.createElement("figcaption");
  text.textContent = ex.text;
  const row = document.createElement("div");
  row.className = "example-row";
  row.append(pile, hand);
  fig.append(row, text);
  return fig;
}

/** Strategy, in four techniques (our words for seed 001's section 2.4). The ids are the
 * ones the game analysis names (`technique` of a marked move), and each section's
 * element id is `technique-<id>`, so an analysis links straight to it. */
export const STRATEGY = [
  ["wilds", "Keep your wild cards", "A wild card fits anything, so it is worth most when nothing else does. When a natural card of the right suit or rank will do, play that and keep the wild for the turn you are stuck, or for going out at the end without being blocked."],
  ["voids", "Remember who could not follow", "When an opponent draws, note the suit that was asked for: they hold none of it. Steer play back to that suit, with a matching card or by naming it with a wild card, and they will have to draw again."],
  ["diversity", "Keep your hand varied", "Cards of many suits and ranks give you a play whatever the table asks for. Prefer plays that keep every suit in your hand, and when you name a suit, name one you hold plenty of."],
  ["high_cards", "Shed heavy cards early", "When points count, the cards left in your hand when someone goes out score against you. Get rid of tens and face cards while you can, rather than small cards, so a sudden finish costs you little."],
];

/** The rulesets whose tables the techniques apply to (wild cards, a suit to follow). */
export const STRATEGY_RULESETS = ["classic", "ultimate", "countdown"];

export const TECHNIQUE_TITLES = Object.fromEntries(STRATEGY.map(([id, title]) => [id, title]));

/** Longer explanations of each setting, shown with the server's own short help. */
export const SETTING_TEXT = {
  players: "How many seats the table has. Empty seats can be left open for people or filled with bots.",
  hand_size: "How many cards each player is dealt.",
  packs: "One or two 52-card packs; identical cards of two packs are interchangeable.",
  voluntary_draw: "Whether you may draw from the stock even when you could play.",
  draw_policy: "What drawing does: one card (and maybe play it), until you find a playable card, or one card that ends your turn.",
  stock_empty: "When the stock runs out: play is blocked (you pass), or the discards are reshuffled into a new stock.",
  action_cards: "Special powers for 2 (draw two), Q (skip) and A (reverse).",
  last_card: "Manual: you must press Last Card. Auto: the table calls it for you. Off: no call at all.",
  ace_points: "What an ace left in a hand is worth at the end of a round.",
  mode: "A single round, or a match of rounds up to the target.",
  target: "The score that ends a match.",
  start: "The number everyone starts with in countdown.",
  cycle_limit: "How many cycles are played at most before the game ends.",
  turn_timer: "Seconds you have for each move before the table moves for you.",
};

export const SETTING_LABELS = {
  players: "Players",
  hand_size: "Hand size",
  packs: "Packs",
  voluntary_draw: "Voluntary draw",
  draw_policy: "Draw policy",
  stock_empty: "Empty stock",
  action_cards: "Action cards",
  last_card: "Last-card call",
  ace_points: "Ace points",
  mode: "Game length",
  target: "Match target",
  start: "Starting number",
  cycle_limit: "Cycle limit",
  turn_timer: "Turn timer (s)",
};

/** Each setting's values in words (How to play never shows a raw value such as
 * `until_playable`); a value not listed reads as itself ("on", "off", a number). */
export const VALUE_WORDS = {
  hand_size: { auto: "7 cards for two players, else 5" },
  packs: { auto: "two packs from six players", 1: "one pack", 2: "two packs" },
  draw_policy: {
    single: "draw one card, and you may play it",
    until_playable: "draw until you hold a card you can play",
    single_then_pass: "draw one card, and your turn ends",
    until_play: "draw one card at a time until you play",
  },
  stock_empty: { block: "play is blocked (you pass)", reshuffle: "the discards are shuffled into a new stock" },
  last_card: { manual: "you press Last card", auto: "called for you", off: "no call" },
  ace_points: { 1: "1 point", 11: "11 points" },
  mode: { single: "a single round", match: "a match up to the target" },
};

export function valueLabel(value, setting = null) {
  const words = setting && VALUE_WORDS[setting] && VALUE_WORDS[setting][String(value)];
  if (words) return words;
  if (value === true) return "on";
  if (value === false) return "off";
  return String(value).replaceAll("_", " ");
}

/** The "How to play" article for a ruleset as a DOM node; `rules` marks a table's values. */
export function howToPlay(ruleset, settingsInfo, rules = null) {
  const art = document.createElement("article");
  art.className = "howto";
  const h = document.createElement("h2");
  h.textContent = `How to play ${RULESET_TITLES[ruleset] || ruleset}`;
  art.append(h);
  const blurb = document.createElement("p");
  blurb.className = "lead";
  blurb.textContent = RULESET_BLURB[ruleset] || "";
  art.append(blurb);
  for (const [title, text] of SECTIONS[ruleset] || []) {
    const sec = document.createElement("section");
    const h3 = document.createElement("h3");
    h3.textContent = title;
    const p = document.createElement("p");
    p.textContent = text;
    sec.append(h3, p);
    art.append(sec);
  }
  const example = exampleTurn(ruleset);
  if (example) {
    const h3 = document.createElement("h3");
    h3.textContent = "An example turn";
    art.append(h3, example);
  }
  if (STRATEGY_RULESETS.includes(ruleset)) {
    const h3 = document.createElement("h3");
    h3.textContent = "Strategy";
    art.append(h3);
    STRATEGY.forEach(([id, title, text], i) => {
      const sec = document.createElement("section");
      sec.className = "technique";
      sec.id = `technique-${id}`;
      const h4 = document.createElement("h4");
      h4.textContent = `${i + 1}. ${title}`;
      const p = document.createElement("p");
      p.textContent = text;
      sec.append(h4, p);
      art.append(sec);
    });
  }
  if (settingsInfo) {
    const h3 = document.createElement("h3");
    h3.textContent = rules ? "This table's settings" : "Table settings";
    const dl = document.createElement("dl");
    dl.className = "settings-list";
    for (const [name, info] of Object.entries(settingsInfo)) {
      const dt = document.createElement("dt");
      dt.textContent = SETTING_LABELS[name] || name;
      const dd = document.createElement("dd");
      const shown = rules && name in rules ? rules[name] : info.default;
      const allowed = info.choices ? info.choices.map((c) => valueLabel(c, name)).join("; ") : info.range ? `${info.range[0]} to ${info.range[1]}` : "";
      dd.innerHTML = "";
      const b = document.createElement("strong");
      b.textContent = `${rules ? "Here" : "Default"}: ${valueLabel(shown, name)}`;
      const span = document.createElement("span");
      // the server's short help names raw values; our words replace it where we have them
      const help = info.help && !VALUE_WORDS[name] ? ` \u2014 ${info.help}.` : "";
      span.textContent = ` (choices: ${allowed}). ${SETTING_TEXT[name] || ""}${help}`;
      dd.append(b, span);
      dl.append(dt, dd);
    }
    art.append(h3, dl);
  }
  art.append(friendsHelp());
  const keys = document.createElement("section");
  keys.innerHTML = `<h3>Controls</h3><p>Click a glowing card to play it, double-click it, or drag it onto the discard pile. Click or drag the stock to draw. Keyboard: <kbd>\u2190</kbd>/<kbd>\u2192</kbd> choose a card, <kbd>Enter</kbd> play it, <kbd>D</kbd> draw, <kbd>P</kbd> pass, <kbd>L</kbd> last card, <kbd>S</kbd>/<kbd>H</kbd>/<kbd>D</kbd>/<kbd>C</kbd> pick a suit.</p>`;
  art.append(keys);
  return art;
}

/** The player's guide to friends, invitations and challenges, notices, presence,
 * blocking, reactions and reporting: one paragraph each. */
export const FRIENDS_HELP = [
  ["Adding a friend", "Click a player's name at a table, in the lobby, in a replay or on a profile and choose Add friend, or type their account name under Friends in the lobby. They see your request as a notice on whatever page they are, and in their friends panel, and accept or decline it; you can cancel it until then. If they had already asked you, you are friends at once. A request nobody answers goes away after 30 days. You can have 200 friends and 20 requests waiting at a time."],
  ["Guests", "Guests can't have friends: register to add friends. Registering (Profile, then Keep your record) keeps every game you played as a guest."],
  ["Refusing requests", "Tick Refuse all friend requests under Friends and nobody can send you one; you can still ask others yourself."],
  ["Blocking", "Click a name and choose Block to keep someone away: they can't send you friend requests, their chat is hidden from you (from your next visit to a table), and quick play never seats you with them (you get bots instead). Blocking also ends a friendship. Unblock them under Friends in the lobby."],
  ["Reactions", "At a table, the buttons under the chat send a reaction (thumbs up, well played, oops, hurry up, thanks, wow, sad, laugh). It shows for a few seconds as a bubble on your panel on everyone's screen, with a short sound when sounds are on. You can send 3 in 10 seconds. Settings has Show reactions (off mutes everyone) and Show spectators' reactions (off at first); click a name and choose Mute reactions to mute one person."],
  ["Inviting a friend", "Press Play beside a friend in the lobby and choose Invite to a new table (or to an open table where you sit), or press Invite a friend while you wait at a table. A seat is held for them for a minute: everyone sees it held and nobody else can take it. They get a notice with Join and Decline on whatever page they are, even at a table, and a count on the menu. If you invite several friends to the last seat, the first to join takes it and the others' invitations go away. An invitation nobody answers ends after a minute and the seat is free again."],
  ["Challenges", "Press Play beside a friend, pick the ruleset, the number of players and the length, and press Challenge. When they accept you both sit at a new table, bots take the other seats, and both browsers go there. A challenge stays open for a minute."],
  ["Play again", "At the end of a game, Play again makes the same table again. The other players' seats are held for them for a minute, and the table is not listed in the lobby meanwhile, so no stranger takes them."],
  ["Notices", "Invitations, challenges and friend requests show at the top right of any page. In Settings you can also be told when a friend comes online (off at first), and get them as browser notifications while the tab is hidden (the browser asks you first). People you blocked can't invite or challenge you."],
  ["Reporting", "If someone is abusive in the chat, cheats or colludes, stalls on purpose or has an offensive name, click their name and choose Report: pick the reason, add a few words if you like, and send it. Reported from a table, the table, its recent chat and its replay go with it, so you don't need to copy anything. A moderator reads every report and may mute the person's chat for a while or ban them; you can also Block them at once. Guests may report too; please don't report someone just for winning."],
  ["Who is online", "Beside each friend the lobby shows online, playing (with Watch, to look on at a public table), in the queue, away (nothing done for 5 minutes) or offline with when they were last seen. It changes as it happens. Tick Appear offline and your friends see you offline whatever you do."],
];

function friendsHelp() {
  const sec = document.createElement("section");
  sec.className = "friends-help";
  sec.id = "friends";
  const h3 = document.createElement("h3");
  h3.textContent = "Friends, invitations, reactions and reporting";
  sec.append(h3);
  for (const [title, text] of FRIENDS_HELP) {
    const h4 = document.createElement("h4");
    h4.textContent = title;
    const p = document.createElement("p");
    p.textContent = text;
    sec.append(h4, p);
  }
  return sec;
}
