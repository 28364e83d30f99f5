// Cards in the page: codes such as "H10", their names in both decks and three languages, the
// deck the player likes (remembered), the order of a hand, and the contracts with their
// multipliers. Card pictures come from the server: /cards/{deck}/{code}.svg.

import { getLang, t } from "./i18n.js";

export const SUIT_LETTERS = ["D", "H", "S", "C"];
export const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUIT_SYMBOLS = ["♦", "♥", "♠", "♣"];

const FRENCH_SUITS = {
  fr: ["carreau", "cœur", "pique", "trèfle"],
  de: ["Karo", "Herz", "Pik", "Kreuz"],
  en: ["diamonds", "hearts", "spades", "clubs"],
};
const FRENCH_RANKS = {
  fr: ["six", "sept", "huit", "neuf", "dix", "valet", "dame", "roi", "as"],
  de: ["Sechs", "Sieben", "Acht", "Neun", "Zehn", "Bube", "Dame", "König", "Ass"],
  en: ["six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"],
};
const SWISS_SUITS = {
  fr: { Schellen: "grelots", Rosen: "roses", Schilten: "écus", Eicheln: "glands" },
  de: { Schellen: "Schellen", Rosen: "Rosen", Schilten: "Schilten", Eicheln: "Eicheln" },
  en: { Schellen: "bells", Rosen: "roses", Schilten: "shields", Eicheln: "acorns" },
};
const SWISS_RANKS = {
  fr: ["six", "sept", "huit", "neuf", "banneret", "under", "ober", "roi", "as"],
  de: ["Sechs", "Sieben", "Acht", "Neun", "Banner", "Under", "Ober", "König", "Ass"],
  en: ["six", "seven", "eight", "nine", "banner", "under", "ober", "king", "ace"],
};
// Swiss suit -> French suit number (RULES.md §1); the table's rules say which one.
export const SUIT_MAPPINGS = {
  swisslos: { Rosen: 1, Eicheln: 0, Schilten: 2, Schellen: 3 },
  books: { Schellen: 1, Schilten: 0, Eicheln: 2, Rosen: 3 },
  printed: { Schellen: 0, Schilten: 2, Eicheln: 3, Rosen: 1 },
  parlett: { Eicheln: 3, Rosen: 2, Schilten: 1, Schellen: 0 },
};
export const GRIDS = {
  none: [1, 1, 1, 1, 1, 1],
  current: [1, 1, 2, 2, 3, 4],
  published: [1, 1, 2, 2, 3, 3],
  ascending: [1, 2, 4, 3, 5, 6],
  french: [1, 1, 2, 2, 3, 3],
  pique_double: [1, 1, 2, 1, 1, 1],
};

const DECK_KEY = "chibre.deck";

/** The deck the player draws the cards with: "french" or "swiss". */
export function getDeck(fallback = "french") {
  try {
    const d = localStorage.getItem(DECK_KEY);
    if (d === "french" || d === "swiss") return d;
  } catch (e) {
    /* no storage */
  }
  return fallback === "swiss" ? "swiss" : "french";
}

/** Whether the player has chosen a deck before (else the table's own deck is used). */
export function hasDeckChoice() {
  try {
    return ["french", "swiss"].includes(localStorage.getItem(DECK_KEY));
  } catch (e) {
    return false;
  }
}

export function setDeck(deck) {
  try {
    localStorage.setItem(DECK_KEY, deck);
  } catch (e) {
    /* no storage */
  }
}

/** The picture of a card; a Swiss table with another suit correspondence than Swisslos
 * asks for its own drawing (?mapping=…). */
export function cardUrl(code, deck, mapping = "swisslos") {
  const own = deck === "swiss" && code && mapping !== "swisslos" ? `?mapping=${mapping}` : "";
  return `/cards/${deck}/${code ?? "back"}.svg${own}`;
}

export function parseCode(code) {
  return { suit: SUIT_LETTERS.indexOf(code[0]), rank: RANKS.indexOf(code.slice(1)) };
}

function swissSuit(suit, mapping) {
  const m = SUIT_MAPPINGS[mapping] || SUIT_MAPPINGS.swisslos;
  return Object.keys(m).find((k) => m[k] === suit);
}

/** The name of a suit (0..3) in the current language and `deck`. */
export function suitName(suit, deck, mapping = "swisslos") {
  const lang = getLang();
  if (deck === "swiss") return SWISS_SUITS[lang][swissSuit(suit, mapping)];
  return FRENCH_SUITS[lang][suit];
}

/** A card's full name: "dame de cœur", "Rosen Ober", "ace of spades". */
export function cardName(code, deck, mapping = "swisslos") {
  const lang = getLang();
  const { suit, rank } = parseCode(code);
  const s = suitName(suit, deck, mapping);
  const r = (deck === "swiss" ? SWISS_RANKS : FRENCH_RANKS)[lang][rank];
  if (lang === "fr") return `${r} ${/^[aeéiou]/.test(s) ? "d’" : "de "}${s}`;
  if (lang === "de") return deck === "swiss" ? `${s} ${r}` : `${s}-${r}`;
  return `${r} of ${s}`;
}

/** A card's rank in a Swiss deck's short signs: 6…10, U (Under), O (Ober), K (König; R for
 * the roi in French), A. */
export function shortSwissRank(code) {
  const rank = code.slice(1);
  if (rank === "J") return "U";
  if (rank === "Q") return "O";
  if (rank === "K" && getLang() === "fr") return "R";
  return rank;
}

/** An <img> of a card. */
export function cardImage(code, deck, mapping = "swisslos") {
  const img = document.createElement("img");
  img.className = "card-img";
  img.src = cardUrl(code, deck, mapping);
  img.alt = code ? cardName(code, deck, mapping) : "";
  img.draggable = false;
  img.decoding = "async";
  return img;
}

/** Strength of a card in a trick (higher wins), given the contract and the led suit. */
export function strength(code, contract, ledSuit) {
  const { suit, rank } = parseCode(code);
  if (contract >= 0 && contract < 4 && suit === contract) {
    return 100 + [0, 1, 2, 7, 3, 8, 4, 5, 6][rank]; // J > 9 > A > K > Q > 10 > 8 > 7 > 6
  }
  if (suit !== ledSuit) return -1;
  return contract === 5 ? 8 - rank : rank;
}

/** The seat that takes a complete trick led by `leader`. */
export function trickWinner(cards, leader, contract) {
  const led = parseCode(cards[0]).suit;
  let best = 0;
  cards.forEach((c, i) => {
    if (strength(c, contract, led) > strength(cards[best], contract, led)) best = i;
  });
  return (leader + best) % 4;
}

/** A hand in playing order: trump first, suits alternating in colour, high to low. */
export function sortHand(codes, contract = -1) {
  let suits = [2, 1, 3, 0]; // ♠ ♥ ♣ ♦: black, red, black, red
  if (contract >= 0 && contract < 4) {
    const present = new Set(codes.map((c) => parseCode(c).suit));
    const rest = suits.filter((s) => s !== contract && present.has(s));
    // keep colours alternating after the trump where the suits allow it
    const reds = rest.filter((s) => s < 2);
    const blacks = rest.filter((s) => s >= 2);
    const order = [contract];
    let wantRed = contract >= 2;
    while (reds.length || blacks.length) {
      const pool = (wantRed ? reds : blacks).length ? (wantRed ? reds : blacks) : wantRed ? blacks : reds;
      order.push(pool.shift());
      wantRed = !wantRed;
    }
    suits = order;
  }
  const key = (code) => {
    const { suit, rank } = parseCode(code);
    const within =
      suit === contract ? -strength(code, contract, suit) : contract === 5 ? rank : 8 - rank;
    return suits.indexOf(suit) * 100 + within;
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

/** The factor of a contract under the table's rules (the pique double asks `double`). */
export function factorOf(rules, contract, double = false) {
  if (!rules) return 1;
  if (rules.pique_double === "choice" && contract === 2) return double ? 2 : 1;
  const grid = Array.isArray(rules.multipliers)
    ? rules.multipliers
    : GRIDS[rules.multipliers] || GRIDS.none;
  return grid[contract] ?? 1;
}

/** The contract's name: "Trump hearts", "Atout cœur", "Trumpf Rosen", "Obenabe". */
export function contractName(contract, deck, mapping = "swisslos") {
  if (contract === 4) return t("obenabe");
  if (contract === 5) return t("undenufe");
  return t("trump", { name: suitName(contract, deck, mapping) });
}

/** A small picture for a contract: the suit's ace, or an arrow for Obenabe / Undenufe. */
export function contractIcon(contract, deck, mapping = "swisslos") {
  if (contract >= 0 && contract < 4) {
    const img = cardImage(`${SUIT_LETTERS[contract]}A`, deck, mapping);
    img.className = "contract-icon";
    img.alt = "";
    return img;
  }
  const span = document.createElement("span");
  span.className = "contract-arrow";
  span.textContent = contract === 4 ? "▼" : "▲";
  span.setAttribute("aria-hidden", "true");
  return span;
}
