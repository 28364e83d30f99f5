// The lobby: play at once against the computer, or open a table of one's own (a preset, the
// main options, any option as JSON, each seat a friend or a computer level), then share the
// invitation links and go to the table as seat 0.

import { applyI18n, colon, formatNumber, getLang, languageSelect, levelName, levelWord, scoreText, t } from "./i18n.js";
import { getDeck, SUIT_SYMBOLS, setDeck, suitName } from "./cards.js";
import { heldSeats, holdSeat, linkRow, shareControl } from "./links.js";

const $ = (id) => document.getElementById(id);
const SEAT_LABELS = ["seat_you", "seat_right", "seat_partner", "seat_left"];
const GRIDS = ["none", "current", "published", "ascending", "french", "pique_double"];
const MOVE_LIMITS = ["0", "20", "30", "60", "120"]; // seconds a player has for a move
const MAX_TARGET = 10000;
const PIQUE_DOUBLE_TARGET = 1500; // pique double brings its grid and plays to 1500 (RULES.md §2, §7)
const FIELDS = [
  "target", "deck", "multipliers", "pique_double", "end_mode", "end_order", "claim",
  "weis", "stoeck", "auto_weis", "auto_stoeck",
];

let presets = {};
let defaults = {}; // every option's default (the rules without a preset)
let players = ["rule"];

function fillSelect(select, items, labels, titles) {
  const keep = select.value;
  select.replaceChildren(
    ...items.map((value) => {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = labels ? labels(value) : value;
      if (titles) o.title = titles(value);
      return o;
    }),
  );
  if (items.includes(keep)) select.value = keep;
}

function levelLabel(level) {
  return level === "human" ? t("human") : `${t("computer")}${colon()} ${levelWord(level)}`;
}

// One line on how each computer player plays, in the page's language (from /api/players).
let levelLines = {};
function levelTitle(level) {
  return (levelLines[level] || {})[getLang()] || "";
}

function defaultLevel() {
  return players.includes("medium") ? "medium" : players.includes("rule") ? "rule" : players[0];
}

function labelAll() {
  applyI18n();
  fillSelect($("preset"), Object.keys(presets), (name) => t(`preset_${name}`));
  fillSelect($("quick-level"), players, (l) => levelWord(l), levelTitle);
  fillSelect($("deck"), ["french", "swiss"], (d) => t(d));
  fillSelect($("deck-switch"), ["french", "swiss"], (d) => t(d));
  fillSelect($("multipliers"), GRIDS, (g) => t(`grid_${g}`));
  fillSelect($("pique_double"), ["off", "always", "choice"], (p) => t(`pd_${p}`));
  fillSelect($("end_mode"), ["immediate", "end_of_hand"], (m) =>
    t(m === "immediate" ? "end_immediate" : "end_of_hand"),
  );
  fillSelect($("claim"), ["auto", "thank"], (c) => t(`claim_${c}`));
  fillSelect($("move_limit"), MOVE_LIMITS, (secs) =>
    secs === "0" ? t("move_limit_none") : t("move_limit_s", { s: secs }),
  );
  for (let s = 1; s < 4; s++) {
    fillSelect($(`seat${s}`), ["human", ...players], levelLabel, levelTitle);
    nameField(s);
  }
  renderHistory();
}

/** Seats 1–3: a friend or a computer level each; a computer seat may be given a name (its
 * level's name otherwise), a friend chooses their own on opening the invitation. */
function buildSeats() {
  const box = $("seats");
  for (let s = 1; s < 4; s++) {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.dataset.i18n = SEAT_LABELS[s];
    const select = document.createElement("select");
    select.id = `seat${s}`;
    select.name = `seat${s}`;
    label.append(span, select);
    const name = document.createElement("input");
    name.id = `name${s}`;
    name.name = `name${s}`;
    name.maxLength = 40;
    name.className = "seat-name";
    name.dataset.i18nAria = "seat_name";
    select.addEventListener("change", () => nameField(s));
    const field = document.createElement("div");
    field.className = "seat-field";
    field.append(label, name);
    box.append(field);
  }
}

/** A seat's name field: shown for a computer, with its level as the placeholder. */
function nameField(s) {
  const kind = $(`seat${s}`).value;
  const field = $(`name${s}`);
  field.hidden = kind === "human";
  field.placeholder = kind === "human" ? "" : levelName(kind);
}

function names(seats) {
  const name = (s) => $(`name${s}`).value.trim() || null;
  return seats.map((kind, s) => (s === 0 ? name(0) : kind === "human" ? null : name(s)));
}

/** Put the values of preset `name` into the form. */
function showPreset(name) {
  const rules = presets[name] || {};
  $("preset-json").textContent = JSON.stringify(rules, null, 2);
  for (const f of FIELDS) {
    const el = $(f);
    if (!(f in rules)) continue;
    const v = rules[f];
    if (el.type === "checkbox") el.checked = Boolean(v);
    else if (f === "multipliers" && Array.isArray(v)) el.value = "none";
    else el.value = String(v);
  }
}

/** A field's value without pique double, as the form shows it: the preset's own, or the
 * rules' default where the preset itself plays pique double (its grid and 1500 come with it). */
function valueWithoutPique(f) {
  const rules = presets[$("preset").value] || {};
  const v = rules.pique_double && rules.pique_double !== "off" ? defaults[f] : rules[f];
  return f === "multipliers" && Array.isArray(v) ? "none" : String(v);
}

/** Keep the form to what the rules allow together, visibly: pique double comes with its grid
 * and its target of 1500 (and goes with them), a thanks needs the immediate end. */
function keepConsistent(changed) {
  const pd = $("pique_double");
  const grid = $("multipliers");
  if (changed === "multipliers") {
    if (grid.value === "pique_double" && pd.value === "off") pd.value = "always";
    else if (grid.value !== "pique_double" && pd.value !== "off") pd.value = "off";
  }
  if (changed === "pique_double" || changed === "multipliers") {
    const on = pd.value !== "off";
    if (on) {
      grid.value = "pique_double";
      if ($("target").value === valueWithoutPique("target")) $("target").value = String(PIQUE_DOUBLE_TARGET);
    } else {
      if (grid.value === "pique_double") grid.value = valueWithoutPique("multipliers");
      if ($("target").value === String(PIQUE_DOUBLE_TARGET)) $("target").value = valueWithoutPique("target");
    }
  }
  if (changed === "claim" && $("claim").value === "thank") $("end_mode").value = "immediate";
  if (changed === "end_mode" && $("end_mode").value !== "immediate") $("claim").value = "auto";
}

/** The options that differ from the preset, then the JSON editor's options over them. */
function chosenOptions() {
  const rules = presets[$("preset").value] || {};
  const options = {};
  for (const f of FIELDS) {
    const el = $(f);
    let v = el.type === "checkbox" ? el.checked : el.value;
    if (f === "target") v = Number.parseInt(String(v), 10);
    if (JSON.stringify(v) !== JSON.stringify(rules[f])) options[f] = v;
  }
  if ("pique_double" in options) {
    // pique double switched on or off brings or takes its grid and target: say them as shown
    options.multipliers = $("multipliers").value;
    options.target = Number.parseInt($("target").value, 10);
  }
  const target = options.target ?? 1;
  if (!Number.isInteger(target) || target < 1 || target > MAX_TARGET) {
    throw new Error(t("target_range", { max: formatNumber(MAX_TARGET) }));
  }
  const text = $("options-json").value;
  if (text.trim() && text.trim() !== "{}") {
    let extra;
    try {
      extra = JSON.parse(text);
    } catch (e) {
      const at = jsonFault(text, e.message);
      const said = at ? t("options_not_json_at", at) : t("options_not_json");
      throw new Error(`${t("all_options")}${colon()} ${said}`);
    }
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) {
      const said = t("options_not_object", { example: '{"target": 1000}' });
      throw new Error(`${t("all_options")}${colon()} ${said}`);
    }
    Object.assign(options, extra);
  }
  return options;
}

/** Where `text` stops being JSON, from the browser's parser's message (in English, never
 * shown): `{line, column}` counted from 1, or null where the message names no place. */
function jsonFault(text, message) {
  const at = /line (\d+) column (\d+)/.exec(message);
  if (at) return { line: Number(at[1]), column: Number(at[2]) };
  const position = /position (\d+)/.exec(message);
  if (!position) return null;
  const before = text.slice(0, Number(position[1]));
  return { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") };
}

async function createTable(body) {
  const r = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": getLang() },
    body: JSON.stringify(body),
  });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(answer.error || `${r.status}`);
  remember(answer);
  return answer;
}

function remember(answer) {
  const me = answer.seats.find((s) => s.seat === 0);
  if (me && me.link) holdSeat(answer.table, me.link);
}

let history = null; // the server's answer for the seats this browser holds

async function loadHistory() {
  const seats = heldSeats().map((x) => ({
    table: x.table,
    token: new URLSearchParams(x.link.split("?")[1] || "").get("seat") || "",
  }));
  if (!seats.some((x) => x.token)) return;
  const r = await fetch("/api/history", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": getLang() },
    body: JSON.stringify({ seats: seats.filter((x) => x.token) }),
  });
  if (r.ok) history = await r.json();
  renderHistory();
}

function someone(name, kind, fallback) {
  if (name && name !== kind) return name;
  return kind && kind !== "human" ? levelName(kind) : t(fallback);
}

/** This browser's games (result, date, partners, a link back) and the player's figures. */
function renderHistory() {
  const games = history?.games || [];
  $("recent-box").hidden = games.length === 0;
  if (!games.length) return;
  $("recent").replaceChildren(
    ...games.map((g) => {
      const li = document.createElement("li");
      li.dataset.table = g.table;
      const when = new Date(g.created * 1000).toLocaleString(document.documentElement.lang, {
        dateStyle: "medium",
        timeStyle: "short",
      });
      const result = g.finished ? t(g.won ? "won" : "lost") : t("playing");
      const a = document.createElement("a");
      a.href = g.finished ? `${g.link}&replay=1` : g.link;
      a.textContent = t(g.finished ? "replay" : "open_game");
      const text = document.createElement("span");
      text.className = `game-line ${g.finished ? (g.won ? "game-won" : "game-lost") : ""}`;
      text.textContent =
        `${when} · ${result}\u00a0${scoreText(g.points[0], g.points[1])} · ` +
        `${t("with_partner", { name: someone(g.partner, g.partner_kind, "partner") })} · ` +
        t("against", {
          a: someone(g.opponents[0], g.opponent_kinds[0], "right"),
          b: someone(g.opponents[1], g.opponent_kinds[1], "left"),
        });
      li.append(text, " ", a);
      // the replay to share: the spectators' link, not this seat's own (that one is the seat)
      const share = g.finished ? shareControl(g.share, g.share_later) : null;
      if (share) li.append(" ", share);
      return li;
    }),
  );
  const f = history.figures;
  const rows = [
    ["fig_games", t("n_of", { a: f.games_won, b: f.games })],
    ["fig_hands", t("n_of", { a: f.hands_won, b: f.hands })],
    ["fig_average", formatNumber(f.average)],
    ["fig_matches", String(f.matches)],
    ["fig_weis", `${formatNumber(f.weis)}\u00a0(${f.weis_hands})`],
    // each contract kept with its count on one line ("♠ 0", "Rosen 2"): the list breaks between them
    ["fig_contracts", f.contracts.map((n, c) => `${contractLabel(c)}\u00a0${n}`).join(" · ")],
    ["fig_chooser", formatNumber(f.chooser_average)],
  ];
  $("figures").replaceChildren(
    ...rows.flatMap(([key, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = t(key);
      const dd = document.createElement("dd");
      dd.dataset.figure = key;
      dd.textContent = value;
      return [dt, dd];
    }),
  );
}

/** A contract in the figures: its suit in the player's deck (♥, or Rosen), else its name. */
function contractLabel(c) {
  if (c >= 4) return t(c === 4 ? "obenabe" : "undenufe");
  return getDeck() === "swiss" ? suitName(c, "swiss") : SUIT_SYMBOLS[c];
}

function showInvites(answer) {
  const rows = [];
  for (const s of answer.seats) {
    if (s.seat !== 0 && s.kind === "human" && s.link) {
      rows.push(linkRow(t("invite_for", { seat: t(SEAT_LABELS[s.seat]) }), s.link));
    }
  }
  rows.push(linkRow(t("watch_link"), answer.watch));
  $("invite-list").replaceChildren(...rows);
  $("go-table").href = answer.seats.find((s) => s.seat === 0).link;
  $("invites").hidden = false;
  $("invites").scrollIntoView({ behavior: "smooth", block: "start" });
  $("go-table").focus({ preventScroll: true });
}

function showError(message) {
  const box = $("create-error");
  box.textContent = message ? `${t("error")}${colon()} ${message}` : "";
  box.hidden = !message;
}

async function main() {
  buildSeats();
  const deckSwitch = document.createElement("select");
  deckSwitch.className = "deck-select";
  deckSwitch.id = "deck-switch";
  const deckLabel = document.createElement("label");
  deckLabel.className = "tool-field";
  const deckWord = document.createElement("span");
  deckWord.dataset.i18n = "deck";
  deckLabel.append(deckWord, deckSwitch);
  $("tools").append(deckLabel, languageSelect(() => labelAll()));
  const [p, pl] = await Promise.all([
    fetch("/api/presets").then((r) => r.json()),
    fetch("/api/players").then((r) => r.json()),
  ]);
  presets = p.presets || {};
  defaults = p.options || {};
  loadHistory().catch(() => {
    /* the history is a convenience */
  });
  players = pl.players && pl.players.length ? pl.players : ["rule"];
  levelLines = pl.levels || {};
  labelAll();
  $("preset").value = p.default in presets ? p.default : Object.keys(presets)[0];
  showPreset($("preset").value);
  $("preset").addEventListener("change", () => showPreset($("preset").value));
  for (const f of ["pique_double", "multipliers", "claim", "end_mode"]) {
    $(f).addEventListener("change", () => keepConsistent(f));
  }
  $("quick-level").value = defaultLevel();
  for (let s = 1; s < 4; s++) {
    $(`seat${s}`).value = defaultLevel();
    nameField(s);
  }
  $("quick-level").addEventListener("change", () => {
    for (let s = 1; s < 4; s++) {
      $(`seat${s}`).value = $("quick-level").value;
      nameField(s);
    }
  });

  deckSwitch.value = getDeck();
  deckSwitch.addEventListener("change", () => {
    setDeck(deckSwitch.value);
    $("deck").value = deckSwitch.value;
  });

  $("play-now").addEventListener("click", async () => {
    const level = $("quick-level").value;
    $("play-now").disabled = true;
    try {
      const answer = await createTable({
        preset: p.default || "romand",
        options: {},
        seats: ["human", level, level, level],
        names: [$("name0").value.trim() || null, null, null, null],
      });
      location.href = answer.seats.find((s) => s.seat === 0).link;
    } catch (e) {
      $("play-now").disabled = false;
      showError(e.message);
    }
  });

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    let options;
    try {
      options = chosenOptions();
    } catch (e) {
      showError(e.message);
      return;
    }
    const seats = ["human", $("seat1").value, $("seat2").value, $("seat3").value];
    $("create").disabled = true;
    try {
      const answer = await createTable({
        preset: $("preset").value,
        options,
        seats,
        names: names(seats),
        hints: $("hints").checked,
        move_limit: Number($("move_limit").value),
        fair_deals: $("fair_deals").checked,
      });
      showInvites(answer);
    } catch (e) {
      showError(e.message);
    } finally {
      $("create").disabled = false;
    }
  });
  // the buttons wait in the page (disabled) until the rules and players they start from are in
  $("play-now").disabled = false;
  $("create").disabled = false;
}

main().catch((e) => showError(e.message));
