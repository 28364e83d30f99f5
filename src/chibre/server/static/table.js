// The table: four seats round the felt (you at the bottom), the trick in the middle, your hand
// sorted by suit with only the legal cards playable, the contract and the score, and the
// replay of a finished game. One WebSocket per page (docs/table-protocol.md); it reconnects
// by itself with the same link.

import { applyI18n, colon, fillLanguages, getLang, keysOf, languageSelect, levelName, levelWord, scoreText, setLang, t } from "./i18n.js";
import {
  cardImage,
  cardName,
  contractIcon,
  contractName,
  factorOf,
  getDeck,
  hasDeckChoice,
  parseCode,
  setDeck,
  shortSwissRank,
  SUIT_SYMBOLS,
  sortHand,
  suitName,
} from "./cards.js";
import { holdSeat, linkRow, shareControl } from "./links.js";
import { Replay, weisWhy } from "./replay.js";

const $ = (id) => document.getElementById(id);
const POSITIONS = ["bottom", "right", "top", "left"];
const BLOCKS = ["stoeck", "weis", "tricks", "match"];

const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = params.get("seat");
const watch = params.get("watch");
const auth = token ? `token=${encodeURIComponent(token)}` : `watch=${encodeURIComponent(watch || "")}`;

function readPace() {
  let pace = params.get("pace");
  try {
    pace = pace ?? localStorage.getItem("chibre.pace");
  } catch (e) {
    /* no storage */
  }
  return pace === "0" ? 0 : 1;
}
const PACE = readPace();
const REVIEW = params.get("replay") === "1"; // a past game, from the lobby: no move to its rematch

/** The player's settings, kept in this browser: how long the hand's summary stays
 * ("click": until "continue", else seconds), the order of the hand ("trumps": trumps
 * first, "suit": a fixed suit order), two taps to play on a phone, a sound and a vibration
 * for "your turn", large cards. */
const SETTINGS_KEY = "chibre.settings";
const DEFAULTS = {
  summary: "click",
  sort: "trumps",
  twoTap: false,
  sound: false,
  large: false,
  mute: false,
};
const SUMMARY_CHOICES = ["click", "3", "6", "10"];
const SPECTATOR_SUMMARY_S = 6; // how long a spectator's summary stays when "click" is chosen
const REACTIONS = keysOf("react.").map((k) => k.slice("react.".length)); // as the server has them
function readSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch (e) {
    saved = {};
  }
  // the instant pace of tests and demonstrations: no summary to wait for, unless asked
  const base = PACE === 0 ? { ...DEFAULTS, summary: "0" } : DEFAULTS;
  return { ...base, ...saved };
}
const settings = readSettings();

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch (e) {
    /* private mode: for this page only */
  }
}

/** The settings dialog: each control shows and changes one setting, kept at once — the deck
 * and the language too, which a phone's top bar has no room for. */
function setUpSettings(onLanguage) {
  const summary = $("set-summary");
  const sort = $("set-sort");
  const deck = $("set-deck");
  const lang = $("set-lang");
  const fill = () => {
    deck.replaceChildren(
      ...["french", "swiss"].map((v) => {
        const o = el("option", "", t(v));
        o.value = v;
        return o;
      }),
    );
    deck.value = app.deck;
    fillLanguages(lang);
    summary.replaceChildren(
      ...SUMMARY_CHOICES.map((v) => {
        const o = el("option", "", v === "click" ? t("summary_click") : t("summary_s", { n: v }));
        o.value = v;
        return o;
      }),
    );
    sort.replaceChildren(
      ...["trumps", "suit"].map((v) => {
        const o = el("option", "", t(`sort_${v}`));
        o.value = v;
        return o;
      }),
    );
    summary.value = SUMMARY_CHOICES.includes(settings.summary) ? settings.summary : "click";
    sort.value = settings.sort;
  };
  fill();
  setUpSettings.fill = fill;
  deck.addEventListener("change", () => setDeckChoice(deck.value));
  lang.addEventListener("change", () => {
    setLang(lang.value);
    $("lang-select").value = lang.value;
    onLanguage();
  });
  summary.addEventListener("change", () => change("summary", summary.value));
  sort.addEventListener("change", () => change("sort", sort.value));
  for (const name of ["twoTap", "sound", "large", "mute"]) {
    const box = $(`set-${name}`);
    box.checked = Boolean(settings[name]);
    box.addEventListener("change", () => change(name, box.checked));
  }
  $("settings-btn").addEventListener("click", () => $("settings-dialog").showModal());
  applySettings();
}

function change(name, value) {
  settings[name] = value;
  saveSettings();
  applySettings();
  render();
}

function applySettings() {
  document.body.classList.toggle("large-cards", Boolean(settings.large));
}

/** "Your turn": a short tone and a vibration, when the player asked for them. */
function alertTurn() {
  if (!settings.sound) return;
  const root = $("table");
  root.dataset.alerts = String(Number(root.dataset.alerts || 0) + 1);
  try {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (Audio) {
      alertTurn.ctx = alertTurn.ctx || new Audio();
      const ctx = alertTurn.ctx;
      const tone = ctx.createOscillator();
      const gain = ctx.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
      tone.connect(gain).connect(ctx.destination);
      tone.start();
      tone.stop(ctx.currentTime + 0.25);
    }
  } catch (e) {
    /* no sound here */
  }
  navigator.vibrate?.(120);
}
const HOLD_MS = 1200 * PACE; // how long a finished trick stays on the felt

const app = {
  msg: null, // the latest state frame shown
  warned: null, // the move limit a screen reader was last told is running out
  reviewAsk: 0, // the latest request for the coach's review (an earlier one's answer is dropped)
  reviewLoaded: false, // the replay has asked once for a review made before
  deck: "french",
  queue: [],
  held: null, // {cards, leader, winner} of a trick just taken, shown for a moment
  holdTimer: null,
  breakdown: null, // the number of the hand whose breakdown is shown in the middle
  shownTrick: new Set(), // cards on the felt at the last drawing, to animate new ones
  pending: false, // an action sent, no answer yet
  announceWeis: true,
  declareStoeck: true,
  overShown: false,
  fair: null, // the table's summary: its committed deals, its tournament
  fairLoading: false,
  shareDrawn: "", // the share drawn in the end dialog and the replay (drawn again on a change)
  ws: null,
  retry: 0,
  closedForGood: false,
  nameAsked: false, // the player was asked for the name of their seat
  chosen: null, // the card raised by a first tap (two-tap play)
  leaving: false, // on the way to the rematch's table
  arrived: false, // the server let this link in (its first state came)
  seenSeats: new Set(), // the seats this page has seen someone at
  askedRematch: false, // this page asked for the rematch: it goes there as soon as it is ready
  next: null, // the rematch's table, once one is ready
  bubbles: new Map(), // seat -> {text, until}
  replay: null,
  links: null, // the invitation links, for seat 0
  summary: null, // the number of the hand whose summary holds the table until "continue"
  summaryTimer: null,
};

// --- helpers ----------------------------------------------------------------------------------

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function base() {
  const you = app.msg?.you;
  return you && you.seat !== null && you.seat !== undefined ? you.seat : 0;
}

function posOf(seat) {
  return POSITIONS[(seat - base() + 4) % 4];
}

function mySeat() {
  const you = app.msg?.you;
  return you && !you.spectator ? you.seat : null;
}

/** A seat's name, as the server's game sheet says it too (`chibre.server.views.seat_name`). */
function seatName(seat) {
  const seats = app.msg?.table?.seats || [];
  const s = seats[seat];
  const me = mySeat();
  if (seat === me) return s && s.name ? `${s.name} (${t("you")})` : t("you");
  if (s && s.name && s.name !== s.kind) return s.name;
  // a seat without a name of its own: a player is told where it sits
  if (me !== null) return t(["you", "right", "partner", "left"][(seat - me + 4) % 4]);
  if (!levelNamed(seat)) return t("seat_n", { n: seat + 1 });
  // a spectator: a computer by its level, as the lobby's placeholder says (numbered when two
  // seats would have the same name)
  const level = levelName(s.kind);
  const twin = seats.some((other, i) => i !== seat && other.kind === s.kind && levelNamed(i));
  return twin ? `${level} (${seat + 1})` : level;
}

/** Whether a spectator knows this seat by its level: a computer without a name of its own. */
function levelNamed(seat) {
  const s = app.msg?.table?.seats?.[seat];
  return mySeat() === null && Boolean(s) && s.kind !== "human" && (!s.name || s.name === s.kind);
}

/** Who writes the hand's weis: ours or theirs for a player, the team's names for others. */
function weisWriters(team) {
  const me = mySeat();
  if (me === null) return t("weis_written_by", { team: teamLabel(team) });
  return t(team === (me & 1) ? "weis_ours" : "weis_theirs");
}

function teamLabel(team) {
  const me = mySeat();
  if (me !== null) return team === (me & 1) ? t("we") : t("they");
  return `${seatName(team)} & ${seatName(team + 2)}`;
}

/** The teams as this page shows them: the viewer's own first (team 0 first for a spectator). */
function teamOrder() {
  const me = mySeat();
  return me === null ? [0, 1] : [me & 1, 1 - (me & 1)];
}

function mapping() {
  return app.msg?.view?.rules?.suit_mapping || "swisslos";
}

function img(code) {
  const i = cardImage(code, app.deck, mapping());
  if (code) i.dataset.card = code;
  return i;
}

function toast(text, kind = "info") {
  const box = $("banner");
  box.textContent = text;
  box.className = `banner banner-${kind}`;
  box.hidden = false;
  clearTimeout(toast.timer);
  if (kind !== "sticky") toast.timer = setTimeout(() => (box.hidden = true), 4000);
}

function unToast() {
  $("banner").hidden = true;
}

/** Why the card just tried cannot be played, said above the hand (where the player looks). */
function refuse(text) {
  const box = $("refusal");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(refuse.timer);
  refuse.timer = setTimeout(() => (box.hidden = true), 6000);
}

/** Why a card may not be played, from the server's reason (its catalogue key and the cards it
 * names), in the page's cards: "♥J" with the French deck, "Rosen Under" with the Swiss one. */
function illegalText(reason) {
  const swiss = app.deck === "swiss";
  const card = (code) =>
    swiss ? cardName(code, "swiss", mapping()) : SUIT_SYMBOLS[parseCode(code).suit] + code.slice(1);
  const fields = {};
  for (const [name, value] of Object.entries(reason)) {
    if (name === "suit") fields.suit = swiss ? suitName(value, "swiss", mapping()) : SUIT_SYMBOLS[value];
    else if (name === "held") fields.held = value.map(card).join(", ");
    else if (name !== "key") fields[name] = card(value);
  }
  return t(reason.key, fields);
}

/** A card of the hand that is not playable now was chosen: the server says why (in the
 * page's language), or the page says whose turn it is. */
function refusedCard(view, code) {
  if (view.phase === "play" && view.to_act === mySeat()) {
    sendAct({ kind: "play", card: code, weis: [], stoeck: false });
  } else if (view.phase === "play" && view.to_act >= 0) {
    refuse(t("turn_of", { name: seatName(view.to_act) }));
  }
}

// --- the connection ---------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const where = `${location.host}/ws/${encodeURIComponent(tableId)}?${auth}&lang=${getLang()}`;
  const ws = new WebSocket(`${scheme}://${where}`);
  app.ws = ws;
  ws.addEventListener("open", () => {
    app.retry = 0;
    unToast();
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (msg.type === "state") {
      if (!app.arrived) arrived();
      app.queue.push(msg);
      // the hand's summary holds nothing back while this player's clock runs: the move is
      // theirs (the summary stays on the felt until "Continue" or the first card)
      if (app.summary !== null && msg.table.move_until && msg.view?.to_act === mySeat()) {
        clearTimeout(app.summaryTimer);
        app.summary = null;
      }
      pump();
    } else if (msg.type === "reaction") {
      reacted(msg);
    } else if (msg.type === "error") {
      app.pending = false;
      app.askedRematch = false; // a rematch refused (or not yet possible) is not asked
      if (msg.code === "illegal" && msg.reason) refuse(illegalText(msg.reason));
      else if (msg.code === "illegal" || msg.code === "not_your_turn") refuse(msg.message);
      else if (msg.code === "bad_name") askName(msg.message);
      else toast(msg.message || msg.code, "error");
      if (msg.code === "bad_token") app.closedForGood = true;
      if (msg.code === "damaged") app.closedForGood = msg.message; // said instead of no_table
      render();
    }
  });
  ws.addEventListener("close", (event) => {
    if (app.ws !== ws) return;
    app.ws = null;
    app.pending = false;
    if (event.code === 4403 || app.closedForGood) {
      closed();
      return;
    }
    toast(t("reconnecting"), "sticky");
    $("table").dataset.connected = "false";
    const wait = Math.min(4000, 250 * 1.6 ** app.retry++);
    setTimeout(connect, wait);
  });
}

/** The server let this link in: the seat is kept in this browser (the first one it held at
 * this table: a friend's invitation tried here does not take its place), and what only a
 * real table has is asked for. */
function arrived() {
  app.arrived = true;
  if (token) holdSeat(tableId, `/t/${encodeURIComponent(tableId)}?seat=${encodeURIComponent(token)}`);
  loadInvites();
  loadDeals();
}

/** The link opens no table (or a damaged one): the felt says so, and nothing else shows. */
function closed() {
  app.closedForGood = app.closedForGood || true;
  unToast();
  app.msg = null; // a table shown before (a reconnection refused): it is gone, not frozen
  app.queue.length = 0;
  $("table").dataset.phase = "closed";
  render();
}

/** Why the table cannot be shown: the server's word for a damaged table, else a wrong link. */
function closedText() {
  return typeof app.closedForGood === "string" ? app.closedForGood : t("no_table");
}

function send(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return false;
  app.ws.send(JSON.stringify(message));
  return true;
}

/** A move chosen on the state shown: refused (``moved_on``) if the table has moved since —
 * the computer made it when the time per move ran out, say. */
function sendAct(action) {
  return send({ type: "act", action, seq: app.msg.seq });
}

function act(action) {
  if (app.pending || !sendAct(action)) return;
  app.pending = true;
  endHold();
  render();
  pump();
}

setInterval(() => send({ type: "ping" }), 25000);

// --- taking in the states, one after the other --------------------------------------------------

function pump() {
  while (!app.leaving && !app.holdTimer && app.summary === null && app.queue.length) {
    const msg = app.queue.shift();
    const prev = app.msg;
    app.msg = msg;
    app.pending = false;
    if (!prev && !hasDeckChoice() && msg.view?.rules?.deck) app.deck = msg.view.rules.deck;
    $("table").dataset.connected = "true";
    takeEvents(prev, msg);
    seatNotices(prev, msg);
    render();
    if (msg.table.next && !REVIEW && msg.table.next !== app.next) rematchReady(msg.table.next);
    // an invited friend names their seat on arriving (the host did in the lobby)
    const mine = mySeat() === null ? null : msg.table.seats[mySeat()];
    if (mine && mine.kind === "human" && mySeat() !== 0 && !mine.name && !app.nameAsked) askName("");
  }
}

function endHold() {
  if (app.holdTimer) clearTimeout(app.holdTimer);
  app.holdTimer = null;
  app.held = null;
}

/** Follow the events of a state: bubbles on the seats, the trick just taken, the breakdown. */
function takeEvents(prev, msg) {
  const view = msg.view;
  const events = msg.events || [];
  let cards = prev?.view ? [...prev.view.trick] : [];
  let leader = prev?.view ? prev.view.trick_leader : -1;
  let taken = null;
  for (const e of events) {
    switch (e.type) {
      case "HandStarted": // the last hand's breakdown stays until the first card
        cards = [];
        leader = e.chooser;
        break;
      case "CardPlayed":
        if (!cards.length) leader = e.seat;
        cards.push(e.card);
        if (app.breakdown !== null) app.breakdown = null;
        break;
      case "TrickTaken": {
        const known = view.tricks?.[e.number];
        taken = known && known.cards.length === 4 && view.hand_number === prev?.view?.hand_number
          ? { cards: known.cards, leader: known.leader, winner: e.winner }
          : { cards, leader, winner: e.winner };
        cards = [];
        break;
      }
      case "Chibred":
        bubble(e.seat, () => t("chibred"));
        break;
      case "ContractNamed":
        bubble(
          e.seat,
          () => contractName(e.contract, app.deck, mapping()) + (e.factor > 1 ? ` ×${e.factor}` : ""),
        );
        break;
      case "WeisAnnounced":
        bubble(e.seat, () => t("weis_n", { n: e.points }));
        break;
      case "WeisAdded":
        bubble(e.seat, () => (e.points > 0 ? t("weis_added_n", { n: e.points }) : t("weis_added")));
        break;
      case "StoeckDeclared":
        bubble(e.seat, () => t("declare_stoeck"));
        break;
      case "Thanked":
        bubble(e.seat, () => (e.seat === mySeat() ? t("thanked_you") : t("thanked", { name: seatName(e.seat) })), true);
        break;
      case "HandScored":
        if (view.last_hand) app.breakdown = view.last_hand.number;
        if (view.last_hand && msg.table.status !== "finished") holdSummary(view.last_hand.number);
        break;
      default:
        break;
    }
  }
  if (taken && taken.cards.length === 4 && HOLD_MS > 0) {
    app.held = taken;
    app.holdTimer = setTimeout(() => {
      app.holdTimer = null;
      app.held = null;
      render();
      pump();
    }, HOLD_MS);
  }
}

/** Say when a friend drops (the countdown runs on their plate), when the computer takes
 * their seat over, and when they are back. */
function seatNotices(prev, msg) {
  const me = mySeat();
  const open = me === null ? 0 : msg.table.seats[me].connections || 0;
  const openBefore = me === null || !prev ? 1 : prev.table.seats[me].connections || 0;
  if (open > 1 && openBefore <= 1) toast(t("seat_open_twice"), "info"); // a forwarded link?
  const seen = !prev; // the seats at the table when this page came are not news
  msg.table.seats.forEach((now, seat) => {
    const before = prev?.table.seats[seat];
    const known = app.seenSeats.has(seat);
    if (now.connected) app.seenSeats.add(seat);
    if (seen || now.kind !== "human" || seat === me || !before) return;
    const name = seatName(seat);
    if (before.connected && !now.connected && now.grace_until) {
      toast(t("dropped", { name, s: secondsLeft(now.grace_until) }), "info");
    } else if (!before.bot && now.bot) {
      toast(t("taken_over", { name }), "info");
    } else if (!before.connected && now.connected) {
      // back, if this page saw them at the table before; else come for the first time
      toast(t(known ? "is_back" : "has_joined", { name }), "info");
    }
  });
}

function secondsLeft(until) {
  return Math.max(0, Math.ceil(until - Date.now() / 1000));
}

/** The coach's hint for this seat's turn (tables with hints on): its best card or contract
 * and the reason, from this seat's observation only; the card is marked in the hand. */
async function askHint() {
  if (!token) return;
  $("hint-btn").disabled = true;
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hint?${auth}`, {
    headers: { "Accept-Language": getLang() },
  });
  const body = await r.json();
  $("hint-btn").disabled = false;
  if (!r.ok) {
    toast(body.error || String(r.status), "error");
    return;
  }
  app.hinted = body.best;
  $("hint-text").textContent = body.text;
  $("hint-text").dataset.best = body.best;
  for (const b of document.querySelectorAll("#hand [data-card]")) {
    b.classList.toggle("hinted", b.dataset.card === body.best);
  }
}

/** Show the replay of the finished game (set up by main). */
let openReplay = () => {};

/** The coach's review of this seat's game, in the page's language and deck. */
function reviewUrl() {
  const deck = encodeURIComponent(app.deck);
  return `/api/tables/${encodeURIComponent(tableId)}/review?${auth}&lang=${getLang()}&deck=${deck}`;
}

/** Started on the server ("Review this game"), its progress polled and shown in the replay's
 * bar, then every verdict beside its move. */
async function startReview() {
  $("rp-review-btn").hidden = true; // pressed once
  await openReplay();
  if (!app.replay || app.replay.review) return; // none, or shown already
  const ask = ++app.reviewAsk;
  await followReview(ask, await fetch(reviewUrl(), { method: "POST", headers: { "Accept-Language": getLang() } }));
}

/** The review as the server has it now (made before, or under way): shown, or followed to
 * its end; none yet leaves "Review this game" to press. */
async function loadReview() {
  const ask = ++app.reviewAsk;
  $("rp-review-btn").hidden = true;
  await followReview(ask, await fetch(reviewUrl(), { headers: { "Accept-Language": getLang() } }));
}

/** Follow one request for the review; a later one (another language, another deck, the
 * button) takes over from it. */
async function followReview(ask, r) {
  for (;;) {
    const body = await r.json();
    if (ask !== app.reviewAsk) return;
    if (!r.ok) {
      app.replay.setProgress("");
      $("rp-review-btn").hidden = false;
      toast(body.error || String(r.status), "error");
      return;
    }
    if (body.status === "done") {
      app.replay.setProgress(t("coach.done"));
      app.replay.setReview(body.review);
      return;
    }
    if (body.status === "none") {
      $("rp-review-btn").hidden = false; // not asked for yet
      return;
    }
    if (body.status === "failed") {
      app.replay.setProgress(t("coach.failed"));
      $("rp-review-btn").hidden = false;
      return;
    }
    app.replay.setProgress(t("coach.progress", { done: body.done, total: body.total || "…" }));
    await new Promise((resolve) => setTimeout(resolve, 700));
    if (ask !== app.reviewAsk) return;
    r = await fetch(reviewUrl(), { headers: { "Accept-Language": getLang() } });
  }
}

/** Another game at this table is ready: the page of the player who asked for it goes there;
 * the others (and a spectator, maybe still a hand behind) see the end first and go when
 * they choose. */
function rematchReady(next) {
  app.next = next;
  if (app.askedRematch) {
    goToRematch(next);
    return;
  }
  drawRematch();
  toast(t("rematch_ready"), "info");
}

/** The end dialog's rematch button: ask for one, or go to the one that is ready. */
function drawRematch() {
  const button = $("over-rematch");
  button.dataset.i18n = app.next ? "rematch_join" : "rematch";
  button.textContent = t(button.dataset.i18n);
  // a tournament's table has no rematch: its end dialog leads back to the tournament
  button.hidden = !app.next && (mySeat() === null || app.msg.table.rematch === false);
}

/** The game after this one at the same table: the same link with the new table's id. */
function goToRematch(next) {
  if (app.leaving) return;
  app.leaving = true;
  const key = token ? `seat=${encodeURIComponent(token)}` : `watch=${encodeURIComponent(watch)}`;
  location.href = `/t/${encodeURIComponent(next)}?${key}`;
}

/** Ask the player for the name of their seat, in a bar that does not stop the game (with
 * the server's reason when it refused one). */
function askName(error) {
  app.nameAsked = true;
  const input = $("name-input");
  let saved = "";
  try {
    saved = localStorage.getItem("chibre.name") || "";
  } catch (e) {
    saved = "";
  }
  const current = app.msg?.table?.seats?.[mySeat()]?.name || "";
  if (!error) input.value = current || saved;
  $("name-error").textContent = error && error[0].toUpperCase() + error.slice(1); // a sentence
  $("name-error").hidden = !error;
  $("name-form").hidden = false;
  if (error || app.msg?.table?.seats?.[mySeat()]?.name) input.focus();
}

function saveName(event) {
  event.preventDefault();
  const name = $("name-input").value.trim();
  try {
    localStorage.setItem("chibre.name", name);
  } catch (e) {
    /* no storage */
  }
  if (send({ type: "name", name })) $("name-form").hidden = true;
}

/** Quick reactions at a table with friends: a fixed set of phrases and emotes (nothing to
 * moderate), shown as a bubble at the seat; hidden for whoever muted them. The menu is a
 * menu to the keyboard too: the arrows go from one reaction to the next, Home and End to the
 * first and the last, Escape closes it. */
function setUpReactions() {
  const menu = $("react-menu");
  $("react-btn").addEventListener("click", () => showReactions(menu.hidden));
  menu.addEventListener("keydown", (event) => {
    const items = [...menu.querySelectorAll("button")];
    const at = items.indexOf(document.activeElement);
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (step) items[(at + step + items.length) % items.length].focus();
    else if (event.key === "Home") items[0].focus();
    else if (event.key === "End") items[items.length - 1].focus();
    else if (event.key === "Escape") showReactions(false);
    else {
      if (event.key === "Tab") showReactions(false); // Tab goes on from the menu's button
      return;
    }
    event.preventDefault();
    event.stopPropagation(); // not the hand's arrows
  });
  drawReactions();
}

/** The reactions' menu opened (the focus on its first reaction) or closed (back on its
 * button). */
function showReactions(open) {
  const menu = $("react-menu");
  menu.hidden = !open;
  $("react-btn").setAttribute("aria-expanded", String(open));
  (open ? menu.querySelector("button") : $("react-btn"))?.focus();
}

function drawReactions() {
  $("react-menu").replaceChildren(
    ...REACTIONS.map((id) => {
      const b = el("button", "btn btn-small", t(`react.${id}`));
      b.type = "button";
      b.tabIndex = -1;
      b.setAttribute("role", "menuitem");
      b.dataset.reaction = id;
      b.addEventListener("click", () => {
        send({ type: "react", reaction: id });
        showReactions(false);
      });
      return b;
    }),
  );
}

function friendsTable(msg) {
  return msg.you.seat !== null && !msg.you.spectator && msg.table.seats.filter((x) => x.kind === "human").length > 1;
}

function reacted(msg) {
  if (settings.mute && msg.seat !== mySeat()) return;
  bubble(msg.seat, () => t(`react.${msg.reaction}`));
  render();
}

/** The hand's summary stays in the middle until "continue" (or the delay of the settings);
 * the states that come meanwhile wait in the queue. */
function holdSummary(number) {
  if (settings.summary === "0") return;
  app.summary = number;
  clearTimeout(app.summaryTimer);
  // the players do not wait for a spectator: its summary goes on by itself, "click" or not
  const watching = mySeat() === null && settings.summary === "click";
  const seconds = watching ? SPECTATOR_SUMMARY_S : Number(settings.summary);
  if (seconds > 0) app.summaryTimer = setTimeout(goOn, seconds * 1000 + HOLD_MS);
}

function goOn() {
  clearTimeout(app.summaryTimer);
  app.summary = null;
  app.breakdown = null;
  render();
  pump();
}

/** A word said at a seat for a moment; `text` is a function, to follow the language. A screen
 * reader hears whose it is first, unless the words say it (``named``). */
function bubble(seat, text, named = false) {
  app.bubbles.set(seat, { text, until: Date.now() + 2600 });
  setTimeout(render, 2700);
  announce(named ? text() : `${seatName(seat)}${colon()} ${text()}`);
}

/** Said to a screen reader (a live region of its own): what the bubbles show, a clock
 * about to run out. */
function announce(text) {
  const box = $("announcer");
  box.append(el("p", "", text));
  while (box.children.length > 3) box.firstElementChild.remove();
}

// --- drawing ----------------------------------------------------------------------------------

function render() {
  const msg = app.msg;
  const root = $("table");
  for (const b of document.querySelectorAll("[data-deck]")) {
    if (b.tagName === "BUTTON") b.setAttribute("aria-pressed", String(b.dataset.deck === app.deck));
  }
  $("set-deck").value = app.deck;
  root.dataset.deck = app.deck;
  if (!msg) {
    const note = $("center-note");
    if (app.closedForGood) {  // a wrong link: say so where the game would be, and where to go
      const home = el("a", "btn btn-primary", t("new_table"));
      home.href = "/";
      showIn(note, el("p", "", closedText()), home);
    } else showIn(note, t("connecting"));
    return;
  }
  const view = msg.view;
  const me = mySeat();
  const myTurn = me !== null && view.to_act === me && (view.legal || []).length > 0;
  root.dataset.phase = view.phase;
  root.dataset.handNumber = String(view.hand_number);
  root.dataset.history = String((view.history || []).length);
  root.dataset.toAct = String(view.to_act);
  if (myTurn && root.dataset.myTurn !== "true") alertTurn();
  root.dataset.myTurn = String(myTurn);
  document.title = myTurn ? `● ${t("your_turn")} · ${t("app_title")}` : t("app_title");
  root.dataset.status = msg.table.status;
  $("react-btn").hidden = !friendsTable(msg);
  $("hint-row").hidden = !msg.table.hints;
  $("hint-btn").disabled = !myTurn;
  $("hint-btn").hidden = Boolean(msg.you.spectator);
  if (!myTurn && app.hinted !== undefined) {
    app.hinted = undefined; // a hint holds for the turn it was asked in
    $("hint-text").textContent = "";
  }
  root.dataset.spectator = String(Boolean(msg.you.spectator));
  $("spectator-badge").hidden = !msg.you.spectator;
  document.body.classList.toggle("is-spectator", Boolean(msg.you.spectator));
  for (let s = 0; s < 4; s++) drawSeat(s, view, msg.table.seats[s]);
  drawCenter(view, myTurn);
  drawControls(view, myTurn);
  drawHand(view, myTurn);
  drawSide(view);
  drawTally(view);
  // a summary held until "continue": the button takes the focus that the hand's cards, gone
  // now, would otherwise leave on nothing
  const active = document.activeElement;
  if (app.summary !== null && $("continue") && (!active || active === document.body)) {
    $("continue").focus({ preventScroll: true });
  }
  if (msg.table.status === "finished" && app.fair && !app.fair.finished && !app.fairLoading) loadDeals();
  if (msg.table.status === "finished" && !app.holdTimer) {
    if (REVIEW && !app.overShown) {
      app.overShown = true; // straight to the replay of the past game
      openReplay();
    } else gameOver(view);
  }
}

function playedCount(view, seat) {
  let n = 0;
  for (const trick of view.tricks || []) if (trick.cards.length > (seat - trick.leader + 4) % 4) n++;
  const k = (seat - view.trick_leader + 4) % 4;
  if ((view.trick || []).length > k) n++;
  return n;
}

function drawSeat(seat, view, info) {
  const box = $(`seat-${posOf(seat)}`);
  box.replaceChildren();
  box.dataset.seat = String(seat);
  box.classList.toggle("turn", view.to_act === seat && view.phase !== "over");
  box.classList.toggle("partner-team", (seat & 1) === (base() & 1));
  const plate = el("div", "plate");
  // on a phone a name or a level too long for the plate is cut: its title says it whole
  const name = el("span", "name", seatName(seat));
  name.title = name.textContent;
  plate.append(name);
  const bot = (text) => Object.assign(el("span", "chip chip-bot", text), { title: text });
  if (info) {
    if (info.kind !== "human") {
      if (!levelNamed(seat)) plate.append(bot(levelWord(info.kind)));
    } else if (info.bot) {
      plate.append(bot(t("computer_plays")));
    } else {
      const dot = el("span", `dot ${info.connected ? "on" : "off"}`);
      dot.title = info.connected ? t("online") : t("offline");
      dot.setAttribute("role", "img");
      dot.setAttribute("aria-label", dot.title);
      plate.append(dot);
      const moveUntil = app.msg?.table?.move_until; // the table's limit for this move, if it has one
      const until = !info.connected && info.grace_until ? info.grace_until : view.to_act === seat ? moveUntil : null;
      if (until) {
        const left = el("span", "chip chip-countdown", t("takes_over_in", { s: secondsLeft(until) }));
        left.setAttribute("role", "timer");
        left.dataset.until = String(until);
        plate.append(left);
      }
    }
    if (seat === mySeat() && info.kind === "human") {
      const edit = el("button", "btn-icon", "✎");
      edit.type = "button";
      edit.id = "change-name";
      edit.title = t("change_name");
      edit.setAttribute("aria-label", t("change_name"));
      edit.addEventListener("click", () => askName(""));
      plate.append(edit);
    }
  }
  if (view.dealer === seat) {
    const d = el("span", "chip chip-dealer", "D");
    d.title = t("dealer");
    d.setAttribute("role", "img");
    d.setAttribute("aria-label", t("dealer"));
    plate.append(d);
  }
  if (view.contract >= 0 && view.contract_seat === seat) {
    const c = el("span", "chip chip-contract");
    c.append(contractIcon(view.contract, app.deck, mapping()));
    c.title = contractName(view.contract, app.deck, mapping());
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", c.title);
    plate.append(c);
  }
  if (view.announced?.[seat] > 0) {
    plate.append(el("span", "chip chip-weis", t("weis_n", { n: view.announced[seat] })));
  }
  if (view.stoeck_seat === seat) plate.append(el("span", "chip chip-stoeck", t("declare_stoeck")));
  box.append(plate);
  const shown = (view.shown_weis || []).filter((w) => w.seat === seat);
  if (shown.length) {
    const row = el("div", "shown-weis");
    for (const w of shown) for (const c of w.cards) row.append(img(c));
    row.title = t("shown_weis");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", `${seatName(seat)}${colon()} ${t("shown_weis")}`);
    box.append(row);
  }
  if (seat !== mySeat() && view.hand_number >= 0 && view.phase !== "deal") {
    const left = Math.max(0, 9 - playedCount(view, seat));
    const fan = el("div", "backs");
    fan.setAttribute("aria-hidden", "true");
    for (let i = 0; i < left; i++) fan.append(img(null));
    box.append(fan);
  }
  const b = app.bubbles.get(seat);
  if (b && b.until > Date.now()) box.append(el("div", "bubble", b.text()));
}

function trickNode(cards, leader, winner, cls = "") {
  const wrap = el("div", `trick-cards ${cls}`);
  cards.forEach((code, i) => {
    const seat = (leader + i) % 4;
    const slot = el("div", `slot slot-${posOf(seat)}`);
    slot.dataset.seat = String(seat);
    slot.dataset.card = code;
    const image = img(code);
    image.alt = `${seatName(seat)}${colon()} ${image.alt}`; // who played it, for a screen reader
    if (winner === seat) slot.classList.add("winner");
    slot.style.zIndex = String(i + 1);
    slot.append(image);
    wrap.append(slot);
  });
  return wrap;
}

function drawCenter(view, myTurn) {
  const trick = $("trick");
  const note = $("center-note");
  let shown = [];
  if (app.held) {
    shown = app.held.cards;
    showIn(trick, trickNode(shown, app.held.leader, app.held.winner));
    showIn(note, t("won_trick", { name: seatName(app.held.winner) }));
  } else if (
    app.breakdown !== null &&
    view.last_hand?.number === app.breakdown &&
    !(view.trick || []).length
  ) {
    showIn(trick, breakdownNode(view.last_hand, true));
    showIn(note);
  } else {
    shown = view.trick || [];
    showIn(trick, trickNode(shown, view.trick_leader, -1));
    showIn(note, statusText(view, myTurn));
  }
  for (const slot of trick.querySelectorAll(".slot")) {
    if (!app.shownTrick.has(slot.dataset.card)) slot.classList.add("enter"); // comes in
  }
  app.shownTrick = new Set(shown);
}

const shownIn = new WeakMap(); // each live region's content as last written: showIn()

/** ``box`` showing ``nodes``, written only when they differ from what it was given last: a
 * live region says again whatever is written in it, the same words or not. */
function showIn(box, ...nodes) {
  const next = el("div");
  next.append(...nodes);
  if (shownIn.get(box) === next.innerHTML) return;
  shownIn.set(box, next.innerHTML);
  box.replaceChildren(...next.childNodes);
}

function statusText(view, myTurn) {
  if (app.msg.table.status === "finished") return t("game_over");
  if (view.phase === "deal") return t("waiting_deal");
  if (myTurn && view.phase === "contract" && view.chibres > 0) return t("choose_trump_chibred");
  if (myTurn) return view.phase === "contract" ? t("choose_trump") : t("your_turn");
  if (view.to_act < 0) return "";
  if (view.phase === "contract") {
    const me = mySeat();
    if (me !== null && view.to_act === ((me + 2) % 4) && view.chibres > 0) return t("partner_chooses");
    return t("chooses", { name: seatName(view.to_act) });
  }
  return t("turn_of", { name: seatName(view.to_act) });
}

function breakdownNode(last, withClose, title = t("hand_n", { n: last.number + 1 })) {
  const box = el("div", "breakdown");
  box.dataset.hand = String(last.number);
  const head = el("div", "breakdown-head");
  if (title) head.append(el("strong", "", title)); // none where a heading says it already
  if (last.contract >= 0) {
    head.append(contractIcon(last.contract, app.deck, mapping()));
    head.append(el("span", "", contractName(last.contract, app.deck, mapping())));
  }
  if (last.factor > 1) head.append(el("span", "factor", t("factor", { n: last.factor })));
  box.append(head);
  const table = el("table", "breakdown-table");
  const tr = el("tr");
  const order = teamOrder();
  tr.append(el("td"), ...order.map((team) => el("th", "", teamLabel(team)))); // a corner, no header
  const thead = el("thead");
  thead.append(tr);
  table.append(thead);
  const body = el("tbody");
  const labels = { stoeck: t("stoeck"), weis: t("weis"), tricks: t("tricks"), match: t("match") };
  for (const block of BLOCKS) {
    const row = el("tr");
    row.dataset.block = block;
    row.append(el("th", "", labels[block]));
    for (const team of order) row.append(el("td", "", String(last.teams[team][block] || 0)));
    if (last.teams[0][block] || last.teams[1][block] || block === "tricks") body.append(row);
  }
  const total = el("tr", "total-row");
  total.dataset.block = "total";
  total.append(el("th", "", t("total")));
  for (const team of order) total.append(el("td", "", String(last.teams[team].total)));
  body.append(total);
  table.append(body);
  box.append(table);
  if (withClose) {
    const held = app.summary === last.number;
    const close = el("button", `btn ${held ? "btn-primary" : "btn-small"}`, t(held ? "continue" : "close"));
    close.type = "button";
    close.id = "continue";
    close.addEventListener("click", () => (held ? goOn() : ((app.breakdown = null), render())));
    box.append(close);
  }
  return box;
}

function legalOf(view) {
  return mySeat() === null ? [] : view.legal || [];
}

function drawControls(view, myTurn) {
  const box = $("controls");
  // drawn again with each state: a control the keyboard is on keeps the focus if still there
  const on = box.contains(document.activeElement) ? controlKey(document.activeElement) : null;
  const before = new Set([...box.querySelectorAll("button")].map(controlKey));
  box.replaceChildren();
  drawControlsIn(box, view, myTurn);
  if (on) [...box.querySelectorAll("button, input")].find((b) => controlKey(b) === on)?.focus({ preventScroll: true });
  // not a live region (it would say every button again with each state): a new offer to
  // declare is said; the contracts are, by the middle's "Choose trump"
  for (const b of box.querySelectorAll(".btn-declare")) if (!before.has(controlKey(b))) announce(b.textContent);
}

/** What a control is, to find it again once drawn anew: its id, its data and its words. */
function controlKey(e) {
  return `${e.tagName}|${e.id}|${JSON.stringify(e.dataset)}|${e.textContent}`;
}

function drawControlsIn(box, view, myTurn) {
  const legal = legalOf(view);
  if (myTurn && view.phase === "contract") {
    const choices = legal.filter((a) => a.kind === "choose");
    for (const a of choices) {
      const b = el("button", "btn btn-contract");
      b.type = "button";
      b.dataset.contract = String(a.contract);
      b.dataset.double = String(Boolean(a.double));
      b.append(contractIcon(a.contract, app.deck, mapping()));
      let label = contractName(a.contract, app.deck, mapping());
      if (view.rules?.pique_double === "choice" && a.contract === 2) {
        label += ` · ${t(a.double ? "pique_double" : "pique_simple")}`;
      }
      b.append(el("span", "", label));
      const f = factorOf(view.rules, a.contract, a.double);
      if (f > 1 || Array.isArray(view.rules?.multipliers) || view.rules?.multipliers !== "none") {
        b.append(el("span", "factor", t("factor", { n: f })));
      }
      b.addEventListener("click", () => act(a));
      box.append(b);
    }
    const chibre = legal.find((a) => a.kind === "chibre");
    if (chibre) {
      const b = el("button", "btn btn-chibre", t("chibre_btn"));
      b.type = "button";
      b.dataset.kind = "chibre";
      b.addEventListener("click", () => act(chibre));
      box.append(b);
    }
  }
  if (myTurn && view.phase === "play") {
    const plays = legal.filter((a) => a.kind === "play");
    const withWeis = plays.find((a) => a.weis && a.weis.length);
    if (withWeis) {
      const label = el("label", "toggle");
      const input = el("input");
      input.type = "checkbox";
      input.id = "announce-weis";
      input.checked = app.announceWeis;
      input.addEventListener("change", () => (app.announceWeis = input.checked));
      label.title = withWeis.weis
        .map((w) => w.map((c) => cardName(c, app.deck, mapping())).join(", "))
        .join(" · ");
      label.append(input, el("span", "", t("announce_weis", { points: weisText(withWeis.weis) })));
      box.append(label);
    }
    if (plays.some((a) => a.stoeck)) {
      const label = el("label", "toggle");
      const input = el("input");
      input.type = "checkbox";
      input.id = "declare-stoeck";
      input.checked = app.declareStoeck;
      input.addEventListener("change", () => (app.declareStoeck = input.checked));
      label.append(input, el("span", "", t("declare_stoeck")));
      box.append(label);
    }
  }
  // declarations outside the card: weis after one's card at the first trick (or more weis
  // before the lead to the second), stöck — offered whether it is this seat's turn or not
  if (view.phase === "play") {
    for (const a of legal.filter((x) => x.kind === "declare")) {
      const text = a.weis.length
        ? t("declare_weis_now", { points: weisText(a.weis) })
        : t("declare_stoeck_now");
      const b = el("button", "btn btn-declare", text);
      b.type = "button";
      b.dataset.kind = "declare";
      b.dataset.stoeck = String(Boolean(a.stoeck));
      b.addEventListener("click", () => act(a));
      box.append(b);
    }
  }
  const canThank =
    mySeat() !== null &&
    view.rules?.claim === "thank" &&
    app.msg.table.status !== "finished" &&
    view.hand_number >= 0;
  if (canThank) {
    const b = el("button", "btn btn-thank", t("thank"));
    b.type = "button";
    b.dataset.kind = "thank";
    b.addEventListener("click", askThanks);
    box.append(b);
  }
}

/** Weis in a few signs: "♥ 6-7-8", "J ×4"; with the Swiss deck "Rosen 10-U-O", "U ×4". */
function weisText(weis) {
  const swiss = app.deck === "swiss";
  const rank = (code) => (swiss ? shortSwissRank(code) : code.slice(1));
  return weis
    .map((w) => {
      const cards = w.map(parseCode);
      if (cards.every((c) => c.suit === cards[0].suit)) {
        const suit = swiss ? suitName(cards[0].suit, "swiss", mapping()) : SUIT_SYMBOLS[cards[0].suit];
        return `${suit} ${w.map(rank).join("-")}`;
      }
      return `${rank(w[0])} ×${w.length}`;
    })
    .join(", ");
}

/** The legal play for `code` that matches the weis and stöck toggles (or the closest). */
function playFor(view, code) {
  const plays = legalOf(view).filter((a) => a.kind === "play" && a.card === code);
  if (!plays.length) return null;
  const wantWeis = app.announceWeis;
  const wantStoeck = app.declareStoeck;
  const score = (a) =>
    (Boolean(a.weis?.length) === wantWeis ? 2 : 0) + (Boolean(a.stoeck) === wantStoeck ? 1 : 0);
  return plays.reduce((best, a) => (score(a) > score(best) ? a : best), plays[0]);
}

function drawHand(view, myTurn) {
  const box = $("hand");
  const inHand = document.activeElement?.closest?.("#hand");
  const focused = inHand ? document.activeElement.dataset.card : null;
  const focusedAt = inHand ? Number(document.activeElement.dataset.index) : 0;
  box.replaceChildren();
  if (mySeat() === null) return;
  const codes = sortHand(view.hand || [], settings.sort === "suit" ? -1 : view.contract);
  const playable = new Set(
    myTurn && view.phase === "play" ? legalOf(view).filter((a) => a.kind === "play").map((a) => a.card) : [],
  );
  box.style.setProperty("--n", String(codes.length));
  codes.forEach((code, i) => {
    const b = el("button", "card");
    b.type = "button";
    b.dataset.card = code;
    b.dataset.index = String(i + 1);
    const legal = playable.has(code);
    b.classList.toggle("legal", legal);
    b.classList.toggle("chosen", legal && app.chosen === code);
    b.classList.toggle("hinted", app.hinted === code);
    b.classList.toggle("dimmed", myTurn && view.phase === "play" && !legal);
    const dimmed = myTurn && view.phase === "play" && !legal;
    const name = `${i + 1}${colon()} ${cardName(code, app.deck, mapping())}`;
    b.setAttribute("aria-label", dimmed ? `${name} (${t("not_playable")})` : name);
    b.append(img(code));
    b.addEventListener("click", () => {
      if (app.pending) return;
      if (!b.classList.contains("legal")) {
        refusedCard(app.msg.view, code);
        return;
      }
      $("refusal").hidden = true;
      if (settings.twoTap && app.chosen !== code) {
        app.chosen = code; // the first tap raises the card; the second plays it
        render();
        return;
      }
      app.chosen = null;
      const action = playFor(app.msg.view, code);
      if (action) act(action);
    });
    box.append(b);
  });
  if (!focused) return;
  // the card played leaves the hand: the keyboard stays on the card now in its place
  const cards = box.querySelectorAll("button.card");
  (box.querySelector(`[data-card="${focused}"]`) || cards[Math.min(focusedAt, cards.length) - 1])?.focus();
}

/** The contract with its multiplier, and both totals, in the felt's top corners: on a phone,
 * where the side panel lies below the felt, they stay in view (as in the Swiss apps). */
function drawTally(view) {
  const contract = $("tally-contract");
  contract.hidden = view.contract < 0;
  contract.replaceChildren();
  if (view.contract >= 0) {
    const name = contractName(view.contract, app.deck, mapping());
    contract.append(contractIcon(view.contract, app.deck, mapping()), el("span", "", name));
    if (view.factor > 1 || (view.rules || {}).multipliers !== "none") {
      contract.append(el("span", "factor", t("factor", { n: view.factor })));
    }
  }
  const score = $("tally-score");
  score.hidden = false;
  score.replaceChildren(
    ...teamOrder().map((team) => {
      const row = el("div", "tally-team");
      row.dataset.team = String(team);
      const label = el("span", "team", teamLabel(team));
      label.title = label.textContent; // a spectator's teams: cut short
      row.append(label, el("span", "total", String(view.totals[team])));
      return row;
    }),
  );
}

function drawSide(view) {
  const rules = view.rules || {};
  // score
  const score = $("score");
  score.replaceChildren();
  const order = teamOrder();
  for (const team of order) {
    const row = el("div", "score-row");
    row.dataset.team = String(team);
    const label = el("span", "team", teamLabel(team));
    const total = el("span", "total", String(view.totals[team]));
    total.dataset.total = String(view.totals[team]);
    const bar = el("div", "bar");
    const fill = el("div", "fill");
    const goal = app.fair?.passe ? 157 * app.fair.passe : rules.target || 1000;
    fill.style.width = `${Math.min(100, (100 * view.totals[team]) / goal)}%`;
    bar.append(fill);
    row.append(label, total, bar);
    if ((view.striche || [])[team]) {
      row.append(el("span", "striche", `${t("striche")}${colon()} ${view.striche[team]}`));
    }
    score.append(row);
  }
  const passe = app.fair?.passe; // a Passe of a fixed number of hands has no target
  score.append(el("div", "target", passe ? t("tour_passe_hands", { n: passe }) : t("of_target", { n: rules.target ?? "" })));
  // contract
  const c = $("contract");
  c.replaceChildren();
  if (view.contract >= 0) {
    const name = contractName(view.contract, app.deck, mapping());
    c.append(contractIcon(view.contract, app.deck, mapping()), el("span", "", name));
    if (view.factor > 1 || rules.multipliers !== "none") {
      c.append(el("span", "factor", t("factor", { n: view.factor })));
    }
    const by = seatName(view.contract_seat) + (view.chibres ? ` (${t("chibred")})` : "");
    c.append(el("span", "by", `· ${by}`));
  } else {
    c.textContent = "–";
  }
  const info = $("hand-info");
  info.replaceChildren();
  if (view.hand_number >= 0) {
    const line = el("div", "hand-line");
    line.append(el("span", "", `${t("this_hand")}${colon()} `));
    for (const team of order) line.append(el("span", "pts", `${teamLabel(team)} ${view.hand_points[team]}`));
    info.append(line);
    const weis = [];
    for (let s = 0; s < 4; s++) if (view.announced?.[s] > 0) weis.push(`${seatName(s)} ${view.announced[s]}`);
    // once compared (RULES.md §5), who writes them: the best weis' team, every weis of it
    if (view.weis_team >= 0) {
      // every weis of that team counts, not only the best each announced: say what it wrote,
      // and why its best beat the other team's (when both announced)
      const written = (view.credits || [])
        .filter((c) => c.block === "weis" && c.team === view.weis_team)
        .reduce((sum, c) => sum + c.points, 0);
      const why = weisWhy(view.weis_reason, view.contract, view.rules);
      weis.push(`${weisWriters(view.weis_team)} ${written}${why ? ` (${why})` : ""}`);
    }
    if (weis.length) info.append(el("div", "weis-line", `${t("weis")}${colon()} ${weis.join(" · ")}`));
    if (view.stoeck_seat >= 0) {
      info.append(el("div", "weis-line", `${t("stoeck")}${colon()} ${seatName(view.stoeck_seat)}`));
    }
  }
  const lastBtn = $("last-trick-btn");
  lastBtn.disabled = !(view.tricks || []).length;
  $("tricks-list").replaceChildren(
    ...(view.tricks || []).map((trick) => {
      const li = el("li");
      const cards = el("span", "mini-cards");
      trick.cards.forEach((code, i) => {
        const image = img(code);
        if ((trick.leader + i) % 4 === trick.winner) image.classList.add("won");
        cards.append(image);
      });
      li.append(cards, el("span", "", `${seatName(trick.winner)} · ${trick.points}`));
      return li;
    }),
  );
  // last hand
  const lh = view.deciding || view.last_hand;
  $("last-hand-box").hidden = !lh;
  if (lh) {
    const decided = view.deciding && view.winner >= 0; // a Passe is not decided: it ends
    const title = decided ? t("deciding_hand", { n: lh.number + 1 }) : t("hand_n", { n: lh.number + 1 });
    $("last-hand-title").textContent = title;
    $("last-hand").replaceChildren(breakdownNode(lh, false, ""));
    $("last-hand-box").dataset.deciding = String(Boolean(view.deciding));
  }
  // history
  const hist = view.history || [];
  const table = el("table", "history-table");
  const head = el("tr");
  head.append(el("th", "", "#"), el("th", "", teamLabel(order[0])), el("th", "", teamLabel(order[1])));
  table.append(head);
  const run = [0, 0];
  hist.forEach((h, i) => {
    run[0] += h[0];
    run[1] += h[1];
    const row = el("tr");
    row.append(el("td", "", String(i + 1)));
    for (const team of order) {
      const cell = el("td", "", `${h[team] >= 0 ? "+" : ""}${h[team]}`);
      cell.append(el("small", "", ` ${run[team]}`));
      row.append(cell);
    }
    table.append(row);
  });
  $("history").replaceChildren(table);
  drawTafel(hist, view.striche_kinds || [{}, {}], order);
  const finished = app.msg.table.status === "finished";
  $("record-box").hidden = !finished;
  // a game on committed deals: the record with them, which `chibre verify` checks
  const format = app.fair?.deals ? "json" : "text";
  const download = `/api/tables/${encodeURIComponent(tableId)}/record?format=${format}&${auth}`;
  for (const a of [$("download"), $("over-download")]) {
    a.href = download;
    a.setAttribute("download", `chibre-${tableId}.${format === "json" ? "json" : "txt"}`);
    a.dataset.i18n = format === "json" ? "record_verifiable" : "record_engine";
    a.textContent = t(a.dataset.i18n);
  }
  const sheet = `/api/tables/${encodeURIComponent(tableId)}/sheet?${auth}&lang=${getLang()}&deck=${app.deck}`;
  for (const a of [$("sheet-link"), $("over-sheet")]) a.href = sheet;
}

function gameOver(view) {
  if (app.overShown) return;
  app.overShown = true;
  drawOver(view);
  const dialog = $("over-dialog");
  if (!dialog.open) dialog.showModal();
}

/** The end dialog: who won, why (the target reached, and where; or the thanks, right or
 * wrong), the score, the Striche by kind and the deciding hand's breakdown. */
function drawOver(view) {
  const winner = view.winner;
  const me = mySeat();
  const passe = winner < 0; // a Passe of a fixed number of hands: no winner, the points count
  const who = passe
    ? t("tour_passe_over", { n: (view.deciding?.number ?? 0) + 1 })
    : me === null
      ? t("team_wins", { team: teamLabel(winner) })
      : t(winner === (me & 1) ? "we_win" : "they_win");
  const order = teamOrder();
  $("over-text").replaceChildren(
    el("strong", "over-who", who),
    el("span", "over-score", scoreText(view.totals[order[0]], view.totals[order[1]])),
  );
  $("over-reason").textContent = passe ? "" : overReason(view.deciding);
  drawRematch();
  $("over-striche").replaceChildren(...(hasStriche(view) ? [stricheTable(view, order)] : []));
  const d = view.deciding;
  const title = d && (passe ? t("hand_n", { n: d.number + 1 }) : t("deciding_hand", { n: d.number + 1 }));
  $("over-hand").replaceChildren(...(d ? [breakdownNode(d, false, title)] : []));
}

/** Whether the game has Striche to show: none in a Passe (it counts points), none where the
 * table's rules write none. */
function hasStriche(view) {
  return !app.fair?.passe && view.winner >= 0 && (view.striche || []).some(Boolean);
}

/** The Striche by kind (a row for each kind written) and their total, the teams in `order`. */
function stricheTable(view, order) {
  const kinds = view.striche_kinds || [{}, {}];
  const table = el("table", "striche-table");
  const head = el("tr");
  head.append(el("th", "", t("striche")), ...order.map((team) => el("th", "", teamLabel(team))));
  table.append(head);
  const names = ["sieg", "match", "kontermatsch", "bergpreis", "schneider"];
  for (const kind of names.filter((k) => order.some((team) => kinds[team]?.[k]))) {
    const row = el("tr");
    row.dataset.kind = kind;
    row.append(el("th", "", t(`strich_${kind}`)), ...order.map((team) => el("td", "", String(kinds[team]?.[kind] || 0))));
    table.append(row);
  }
  const total = el("tr", "total-row");
  total.append(el("th", "", t("total")), ...order.map((team) => el("td", "", String(view.striche[team]))));
  table.append(total);
  return table;
}

function overReason(d) {
  if (!d) return "";
  const me = mySeat();
  const teamWord = (team) => (me === null ? teamLabel(team) : t(team === (me & 1) ? "by_us" : "by_them"));
  if (d.reason === "thanked") {
    const team = d.seat & 1;
    const key = d.correct ? "reason_thanked_right" : "reason_thanked_wrong";
    return t(key, { name: seatName(d.seat), points: d.decided_at[team], target: d.target });
  }
  const team = app.msg.view.winner;
  if (d.complete && app.msg.view.rules?.end_mode === "end_of_hand") {
    return t("reason_hand", { target: d.target, team: teamWord(team), n: d.number + 1 });
  }
  return t("reason_trick", {
    target: d.target,
    team: teamWord(team),
    block: t(d.block),
    trick: Math.max(1, d.trick + 1),
    n: d.number + 1,
  });
}

/** Bedanken: said only after a confirmation that tells what the team has. */
function askThanks() {
  const view = app.msg.view;
  const team = mySeat() & 1;
  const points = view.totals[team];
  const target = view.rules?.target ?? 0;
  $("thank-text").textContent = t("thank_confirm", { points, target });
  $("thank-warning").hidden = points >= target;
  $("thank-dialog").showModal();
}

function showLastTrick() {
  const view = app.msg?.view;
  const last = view?.tricks?.[view.tricks.length - 1];
  if (!last) return;
  $("last-trick").replaceChildren(trickNode(last.cards, last.leader, last.winner, "static"));
  $("last-trick-note").textContent = `${t("won_trick", { name: seatName(last.winner) })} · ${last.points}`;
  $("last-trick-dialog").showModal();
}

async function loadInvites() {
  if (!token) return;
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}?${auth}`, {
      headers: { "Accept-Language": getLang() },
    });
    if (!r.ok) return;
    const summary = await r.json();
    app.links = summary.links || null;
    drawInvites();
  } catch (e) {
    /* the invitations are a convenience */
  }
}

/** The table's summary. A table that committed to its deals (a tournament's, or fair deals
 * asked for): the commitment shown from before the first card, the seed once revealed (a
 * duplicate round's when all its tables are over: asked again until then), and the way back
 * to the tournament. Every table: the replay's share once the game is over (at a shared-deal
 * table once the round is over too: asked again until then). */
async function loadDeals() {
  app.fairLoading = true;
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}?${auth}`, {
      headers: { "Accept-Language": getLang() },
    });
    if (!r.ok) return;
    app.fair = await r.json();
    drawDeals();
    drawShare();
    render();
    const later = (app.fair.deals && !app.fair.deals.seed) || app.fair.share_later;
    if (app.fair.finished && later) setTimeout(loadDeals, 3000);
    // the game ended while this was asked: its end (the seed, the share) asked for at once
    else if (!app.fair.finished && app.msg?.table?.status === "finished") setTimeout(loadDeals, 0);
  } catch (e) {
    /* shown once the table answers */
  } finally {
    app.fairLoading = false;
  }
}

function drawDeals() {
  const s = app.fair;
  if (!s) return;
  const lines = [];
  if (s.deals) {
    lines.push(el("p", "deals-commitment", t("tour_table_deals", { commitment: s.deals.commitment })));
    if (s.deals.seed) lines.push(el("p", "deals-seed", t("tour_table_seed", { seed: s.deals.seed })));
    else if (s.finished) lines.push(el("p", "deals-seed", t("tour_table_seed_later")));
  }
  const tour = s.tournament;
  const back = tour ? t("tour_back", { name: tour.name, round: tour.round, table: tour.table }) : "";
  if (tour) {
    const a = el("a", "tour-back", back);
    a.href = tour.link;
    lines.push(a);
  }
  $("deals-box").replaceChildren(...lines);
  $("deals-box").hidden = lines.length === 0;
  $("deals-box").dataset.answered = "true"; // the table said what it committed to, if anything
  $("over-tournament").hidden = !tour;
  if (tour) {
    $("over-tournament").href = tour.link;
    $("over-tournament").textContent = back;
  }
}

/** "Share the replay" in the end dialog and the replay's bar, once the game is over (the
 * summary's `share`: the spectators' link, never the seat's); at a shared-deal tournament
 * table, until the round is over at every table, the note that it is shared then. Drawn
 * again only when that changes (or the language): a link shown to select stays. */
function drawShare(again = false) {
  const s = app.fair;
  const drawn = s?.finished ? `${s.share || ""} ${Boolean(s.share_later)}` : "";
  if (drawn === app.shareDrawn && !again) return;
  app.shareDrawn = drawn;
  for (const id of ["over-share", "rp-share"]) {
    const control = drawn ? shareControl(s.share, s.share_later) : null;
    $(id).replaceChildren(...(control ? [control] : []));
    $(id).hidden = !control;
  }
}

function drawInvites() {
  const links = app.links;
  if (!links) return;
  const rows = [];
  for (const s of links.seats || []) {
    const where = ["seat_you", "seat_right", "seat_partner", "seat_left"][s.seat];
    rows.push(linkRow(t("invite_for", { seat: t(where) }), s.link));
  }
  if (links.watch) rows.push(linkRow(t("watch_link"), links.watch));
  $("invite-list").replaceChildren(...rows);
  $("invite-box").hidden = rows.length === 0;
}

// --- keyboard ---------------------------------------------------------------------------------

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!$("replay").hidden) {
    app.replay?.key(event);
    return;
  }
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  const typing = ["SELECT", "TEXTAREA"].includes(target?.tagName) || (target?.tagName === "INPUT" && target.type !== "checkbox");
  if (typing) return; // a box to tick (announce the weis) leaves the card keys to the hand
  const cards = [...$("hand").querySelectorAll("button.card")];
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const step = event.key === "ArrowLeft" ? -1 : 1;
    const next =
      i < 0
        ? cards.find((c) => c.classList.contains("legal")) || cards[0]
        : cards[(i + step + cards.length) % cards.length];
    next.focus();
    event.preventDefault();
    return;
  }
  // at the contract, as in the terminal: 1–7 the contracts in their order, 0 chibre
  const chibre = $("controls").querySelector("button.btn-chibre");
  if (event.key === "0" && chibre) {
    chibre.click();
    event.preventDefault();
    return;
  }
  if (/^[1-9]$/.test(event.key)) {
    const n = Number(event.key);
    const buttons = [...$("controls").querySelectorAll("button.btn-contract")];
    if (buttons.length) {
      buttons[n - 1]?.click();
    } else if (cards[n - 1]) {
      cards[n - 1].focus();
      cards[n - 1].click();
    }
    event.preventDefault();
  }
}

// --- start --------------------------------------------------------------------------------------

function setDeckChoice(deck) {
  app.deck = deck;
  setDeck(deck);
  render();
  app.replay?.render();
  if (app.replay?.review) loadReview(); // its lines in this deck
}

function main() {
  applyI18n();
  app.deck = getDeck();
  const onLanguage = () => {
    applyI18n();
    setUpSettings.fill();
    drawReactions();
    send({ type: "language", lang: getLang() }); // the server words its refusals in it
    drawInvites();
    drawDeals();
    drawShare(true);
    render();
    app.replay?.render();
    if (app.replay?.review) loadReview(); // its lines in this language
  };
  $("tools").append(languageSelect(onLanguage));
  for (const b of document.querySelectorAll("button[data-deck]")) {
    b.addEventListener("click", () => setDeckChoice(b.dataset.deck));
  }
  $("last-trick-btn").addEventListener("click", showLastTrick);
  setUpSettings(onLanguage);
  setUpReactions();
  $("thank-yes").addEventListener("click", () => {
    $("thank-dialog").close();
    act({ kind: "thank" });
  });
  $("tafel-enlarge").addEventListener("click", () => {
    $("tafel-big").setAttribute("src", $("tafel").getAttribute("src") || "");
    $("tafel-dialog").showModal();
  });
  openReplay = async () => {
    $("over-dialog").close();
    if (!app.replay) {
      const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record?format=json&${auth}`, {
        headers: { "Accept-Language": getLang() }, // a refusal in the page's language
      });
      const record = await r.json();
      if (!r.ok) {
        toast(record.error || String(r.status), "error");
        return;
      }
      app.replay = new Replay(record, {
        deck: () => app.deck,
        mapping,
        seatName,
        posOf,
        close: () => {
          $("replay").hidden = true;
          $("table").hidden = false;
        },
      });
    }
    $("table").hidden = true;
    $("replay").hidden = false;
    app.replay.render();
    $("rp-next").focus();
    if (!app.reviewLoaded) {
      app.reviewLoaded = true; // a review made before (from the lobby, another window) shows
      await loadReview();
    }
  };
  $("replay-btn").addEventListener("click", openReplay);
  // the end dialog again, once closed: its rematch and review with it
  $("result-btn").addEventListener("click", () => {
    drawOver(app.msg.view);
    $("over-dialog").showModal();
  });
  // opened by the end itself, the dialog has no button to give the focus back to: the one
  // that opens it again takes it
  $("over-dialog").addEventListener("close", () => {
    const on = document.activeElement;
    if (!on || on === document.body || $("over-dialog").contains(on)) $("result-btn").focus();
  });
  $("over-rematch").addEventListener("click", () => {
    if (app.next) goToRematch(app.next);
    else app.askedRematch = send({ type: "rematch" });
  });
  $("name-form").addEventListener("submit", saveName);
  // the countdowns (a dropped friend's seat, a move's time limit) tick in place: the page is
  // not redrawn, the focus stays where it is; ten seconds before the computer plays for this
  // player, a screen reader is told
  setInterval(() => {
    for (const chip of document.querySelectorAll(".chip-countdown[data-until]")) {
      const left = secondsLeft(Number(chip.dataset.until));
      chip.textContent = t("takes_over_in", { s: left });
      const mine = mySeat() !== null && chip.closest("#seat-bottom");
      if (mine && left <= 10 && app.warned !== chip.dataset.until) {
        app.warned = chip.dataset.until;
        announce(t("takes_over_in", { s: left }));
      }
    }
  }, 1000);
  $("over-replay").addEventListener("click", openReplay);
  $("over-review").addEventListener("click", startReview);
  $("rp-review-btn").addEventListener("click", startReview);
  $("hint-btn").addEventListener("click", askHint);
  document.addEventListener("keydown", onKey);
  render();
  if (!token && !watch) {
    closed();
    return;
  }
  connect();
}

main();

// The Jasstafel of this game, drawn by the server from the hand scores and the Striche
// (the same slate as the calculator's); fetched again only when it changes.
function drawTafel(hist, kinds, order) {
  $("tafel-box").hidden = hist.length === 0;
  if (!hist.length) return;
  const q = new URLSearchParams({ lang: getLang() });
  order.forEach((team, i) => {
    q.set(`team${i}`, hist.map((h) => h[team]).join(","));
    q.set(`label${i}`, teamLabel(team));
    const marks = Object.entries(kinds[team] || {}).map(([k, n]) => `${k}:${n}`);
    if (marks.length) q.set(`striche${i}`, marks.join(","));
  });
  const src = `/api/tafel.svg?${q}`;
  const img = $("tafel");
  if (img.getAttribute("src") !== src) img.setAttribute("src", src);
  if ($("tafel-dialog").open && $("tafel-big").getAttribute("src") !== src) $("tafel-big").setAttribute("src", src);
}
