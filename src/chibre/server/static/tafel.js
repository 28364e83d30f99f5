// The Jasstafel calculator: score sheets of games played with real cards, on a phone beside
// the cards. Talks to /api/sheets (chibre.server.sheets); the slate is drawn by the server
// (chibre.tafel) and shown as it comes. No build step, no network beyond this server.
// A sheet opens with its link, /tafel#ID.KEY; the links of "my sheets" are kept in this
// browser (localStorage), the server lists no sheets of its own accord.
// One hand is entered in a few taps: its contract (with its factor), the team that named it,
// a team's trick points on the pad (the other team gets 157 minus them), a match, the weis
// and the stöck.

import { applyI18n, getLang, languageSelect, t } from "./i18n.js";
import { contractIcon, factorOf, getDeck, hasDeckChoice, setDeck, suitName } from "./cards.js";

const $ = (sel) => document.querySelector(sel);
const HAND_POINTS = 157;
const GRIDS = ["none", "current", "published", "ascending", "french", "pique_double"];
const ORDERS = { "stoeck,weis,tricks": "order_swt", "weis,stoeck,tricks": "order_wst", "stoeck,tricks,weis": "order_stw" };
const BLOCKS = { stoeck: "stoeck", weis: "weis", tricks: "tricks" };
const CONTRACTS = ["D", "H", "S", "C", "O", "U"];

let sheet = null; // the sheet as the server counted it (with its id and key)
let editing = 0; // the hand being corrected (1-based), 0: a new hand
let presets = {};
let visit = 0; // counts the pages asked for (the list or a sheet)
const entry = { contract: "", chooser: 0, team: 0, points: "", match: false, stoeck: null, double: false };

// An answer is shown only while the page still asks for it: the last one asked for, and the
// link in the address bar still the one it was asked for by ("": the list). Going from one
// link to another fires hashchange after the address has changed, so the answer for the
// link left may come in between: it must neither show its sheet nor clear the new address.
function stillAsked(mine, link) {
  return mine === visit && location.hash.slice(1) === link;
}

// --- my sheets: their links, kept in this browser --------------------------------------------

const MINE = "tafel-sheets";

function mySheets() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && s.id && s.key) : [];
  } catch (e) {
    return [];
  }
}

function keepSheet(id, key) {
  const list = mySheets().filter((s) => s.id !== id);
  list.unshift({ id, key });
  localStorage.setItem(MINE, JSON.stringify(list));
}

function forgetSheet(id, key) {
  // with a key: only the link with that key (a wrong key forgets no right one)
  const list = mySheets().filter((s) => s.id !== id || (key !== undefined && s.key !== key));
  localStorage.setItem(MINE, JSON.stringify(list));
}

function linkOf(id, key) {
  return `#${id}.${key}`;
}

function sheetPath(rest = "") {
  return `/api/sheets/${encodeURIComponent(sheet.id)}${rest}?key=${encodeURIComponent(sheet.key)}`;
}

async function api(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const res = await fetch(path + sep + "lang=" + getLang(), {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) {
    const error = new Error(data.error || res.statusText);
    error.status = res.status;
    throw error;
  }
  return data;
}

// --- words of the page ---------------------------------------------------------------------

function teamName(i) {
  return sheet ? sheet.teams[i] : i ? "B" : "A";
}

function deck() {
  return hasDeckChoice() || !sheet ? getDeck() : sheet.rules.deck || "french";
}

function mapping() {
  return (sheet && sheet.rules.suit_mapping) || "swisslos";
}

function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A contract's short name: the suit in the deck shown ("Schellen", "cœur"), or Obenabe. */
function contractLabel(code) {
  const c = CONTRACTS.indexOf(code);
  if (c === 4) return t("obenabe");
  if (c === 5) return t("undenufe");
  return capital(suitName(c, deck(), mapping()));
}

function gridLabel(grid) {
  if (Array.isArray(grid)) return `${t("multipliers")} ${grid.join(" ")}`;
  return GRIDS.includes(grid) ? t(`grid_${grid}`) : String(grid);
}

function orderLabel(order) {
  if (ORDERS[order]) return t(ORDERS[order]);
  return String(order)
    .split(",")
    .map((b) => (BLOCKS[b] ? t(BLOCKS[b]) : b))
    .join(", ");
}

function endModeLabel(mode) {
  return t(mode === "end_of_hand" ? "end_of_hand" : "end_immediate");
}

function label() {
  applyI18n();
  document.title = t("tf_page_title");
  $("#form-title").textContent = editing ? t("tf_edit_hand", { n: editing }) : t("tf_new_hand");
  $("#submit").textContent = editing ? t("tf_save") : t("tf_write");
  for (const el of document.querySelectorAll(".team-name")) el.textContent = teamName(+el.closest("[data-team]").dataset.team);
  for (const box of document.querySelectorAll(".weis-team")) {
    const team = teamName(+box.dataset.team);
    box.querySelector("label").textContent = t("tf_weis_of", { team });
    box.querySelector(".weis-clear").setAttribute("aria-label", t("tf_weis_clear", { team }));
  }
  for (const b of document.querySelectorAll("#stoeck button")) b.textContent = t("tf_stoeck_of", { team: teamName(+b.dataset.team) });
  for (const b of document.querySelectorAll("[data-deck]")) b.setAttribute("aria-pressed", String(b.dataset.deck === deck()));
  fillHomeSelects();
  if (sheet) {
    drawContracts();
    drawEntry();
  }
}

function fillSelect(select, items) {
  const keep = select.value;
  select.replaceChildren(...items.map(([value, text]) => new Option(text, value)));
  if (items.some(([v]) => v === keep)) select.value = keep;
}

function fillHomeSelects() {
  fillSelect($("#new-multipliers"), GRIDS.map((g) => [g, t(`grid_${g}`)]));
  fillSelect($("#new-end-mode"), ["immediate", "end_of_hand"].map((m) => [m, endModeLabel(m)]));
  fillSelect($("#new-end-order"), Object.keys(ORDERS).map((o) => [o, orderLabel(o)]));
  const teams = [["", t("tf_nobody")], ["0", teamName(0)], ["1", teamName(1)]];
  for (const sel of document.querySelectorAll(".team-choice")) fillSelect(sel, teams);
  fillSelect($("#schneider"), [["", t("tf_nobody")], ["yes", t("tf_yes")], ["no", t("tf_no")]]);
}

function showError(message) {
  const el = $("#error");
  el.textContent = message || "";
  el.hidden = !message;
}

// --- the list of sheets and a new sheet ----------------------------------------------------

async function loadHome() {
  const mine = ++visit;
  $("#home").hidden = false;
  $("#sheet").hidden = true;
  sheet = null;
  label();
  const data = await api("GET", "/api/presets");
  if (!stillAsked(mine, "")) return;
  presets = data.presets;
  const select = $("#new-preset");
  if (!select.options.length) {
    for (const name of Object.keys(presets)) select.add(new Option(name, name));
    select.value = data.default;
    fillOptions();
  }
  const kept = mySheets().slice(0, 200); // the server answers for 200 sheets at once
  const keys = Object.fromEntries(kept.map((s) => [s.id, s.key]));
  const asked = kept.map((s) => `${s.id}.${s.key}`).join(",");
  const { sheets } = asked ? await api("GET", "/api/sheets?mine=" + encodeURIComponent(asked)) : { sheets: [] };
  if (!stillAsked(mine, "")) return;
  const list = $("#sheet-list");
  list.textContent = "";
  // a sheet deleted elsewhere (or a link that no longer opens) leaves the list
  const found = new Set(sheets.map((s) => s.id));
  for (const s of kept) if (!found.has(s.id)) forgetSheet(s.id);
  if (!sheets.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("tf_no_sheets");
    list.append(li);
  }
  for (const s of sheets) list.append(sheetItem(s, keys[s.id]));
}

function sheetItem(s, key) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = linkOf(s.id, key);
  const small = document.createElement("span");
  small.className = "muted";
  if (s.damaged) {
    a.textContent = s.id;
    small.textContent = s.error; // its row in the server's file cannot be read
  } else {
    a.textContent = s.name || s.teams.join(" – ");
    small.textContent = `${s.teams[0]} ${s.totals[0]} : ${s.totals[1]} ${s.teams[1]} · ${t("tf_hands", { n: s.hands })}`;
  }
  const del = button(t("tf_remove"), "btn btn-small delete", async () => {
    if (!confirm(t("tf_confirm_sheet"))) return;
    try {
      await api("DELETE", `/api/sheets/${encodeURIComponent(s.id)}?key=${encodeURIComponent(key)}`);
    } catch (e) {
      alert(e.message);
    }
    forgetSheet(s.id);
    loadHome();
  });
  const forget = button(t("tf_forget"), "btn btn-small forget", () => {
    forgetSheet(s.id);
    loadHome();
  });
  const what = document.createElement("div");
  what.className = "sheet-what";
  what.append(a, small);
  const actions = document.createElement("div");
  actions.className = "sheet-actions";
  actions.append(forget, del);
  li.append(what, actions);
  return li;
}

function button(text, className, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.textContent = text;
  b.onclick = onclick;
  return b;
}

function fillOptions() {
  const rules = presets[$("#new-preset").value];
  if (!rules) return;
  $("#new-target").value = rules.target;
  $("#new-multipliers").value = typeof rules.multipliers === "string" ? rules.multipliers : "none";
  $("#new-end-mode").value = rules.end_mode;
  $("#new-end-order").value = rules.end_order;
}

async function createSheet(ev) {
  ev.preventDefault();
  const preset = $("#new-preset").value;
  const base = presets[preset];
  const rules = {};
  const target = parseInt($("#new-target").value, 10);
  if (target && target !== base.target) rules.target = target;
  const grid = $("#new-multipliers").value;
  if (grid !== base.multipliers) rules.multipliers = grid;
  if ($("#new-end-mode").value !== base.end_mode) rules.end_mode = $("#new-end-mode").value;
  if ($("#new-end-order").value !== base.end_order) rules.end_order = $("#new-end-order").value;
  try {
    const extra = $("#new-options").value.trim();
    if (extra) Object.assign(rules, JSON.parse(extra));
    const view = await api("POST", "/api/sheets", {
      name: $("#new-name").value.trim(),
      teams: [$("#new-team0").value.trim() || "A", $("#new-team1").value.trim() || "B"],
      preset,
      rules,
    });
    keepSheet(view.id, view.key);
    location.hash = linkOf(view.id, view.key);
  } catch (e) {
    alert(e.message);
  }
}

async function importSheet() {
  const file = $("#import-file").files[0];
  if (!file) return;
  try {
    const view = await api("POST", "/api/sheets/import", JSON.parse(await file.text()));
    keepSheet(view.id, view.key);
    location.hash = linkOf(view.id, view.key);
  } catch (e) {
    alert(e.message);
  }
  $("#import-file").value = "";
}

// --- one sheet -----------------------------------------------------------------------------

async function openSheet(link) {
  const mine = ++visit;
  const dot = link.indexOf(".");
  const id = dot > 0 ? link.slice(0, dot) : link;
  const key = dot > 0 ? link.slice(dot + 1) : "";
  try {
    const view = await api("GET", `/api/sheets/${encodeURIComponent(id)}?key=${encodeURIComponent(key)}`);
    if (!stillAsked(mine, link)) return; // another link (or the list) was opened meanwhile
    keepSheet(view.id, view.key); // a link opened once is one of my sheets
    if (!sheet || sheet.id !== view.id) resetEntry(view);
    show(view);
  } catch (e) {
    if (e.status === 403 || e.status === 404) forgetSheet(id, key);
    if (!stillAsked(mine, link)) return;
    location.hash = "";
    alert(e.message);
  }
}

function show(view) {
  sheet = view;
  $("#home").hidden = true;
  $("#sheet").hidden = false;
  $("#sheet-name").textContent = view.name || `${view.teams[0]} – ${view.teams[1]}`;
  const r = view.rules;
  $("#sheet-rules").textContent = [
    t("tf_target_of", { n: r.target }),
    gridLabel(r.multipliers),
    endModeLabel(r.end_mode),
    orderLabel(r.end_order),
  ].join(" · ");
  for (const i of [0, 1]) {
    $("#team" + i + "-name").textContent = view.teams[i];
    $("#total" + i).textContent = view.totals[i];
  }
  $("#slate").innerHTML = view.svg;
  const won = $("#winner");
  won.hidden = view.winner < 0;
  won.textContent = view.winner < 0 ? "" : t("tf_wins", { team: view.teams[view.winner], n: view.decided_in });
  $("#export").href = sheetPath("/export");
  $("#share").href = "/tafel" + linkOf(view.id, view.key);
  drawHands(view.hands);
  $("#hand-form").hidden = view.winner >= 0 && !editing;
  label();
}

function drawHands(hands) {
  const list = $("#hands");
  list.textContent = "";
  for (const h of hands) {
    const li = document.createElement("li");
    li.className = "hand-row";
    li.dataset.number = h.number;
    const no = document.createElement("span");
    no.className = "hand-no";
    no.textContent = h.number;
    const what = document.createElement("span");
    what.className = "hand-contract";
    const c = CONTRACTS.indexOf(h.contract);
    what.append(contractIcon(c, deck(), mapping()));
    const name = document.createElement("span");
    name.textContent = `${contractLabel(h.contract)} ×${h.factor}` + (h.match !== null ? ` · ${t("match")}` : "");
    what.append(name);
    const points = document.createElement("span");
    points.className = "hand-points";
    points.textContent = `${h.points_written[0]} : ${h.points_written[1]}`;
    const totals = document.createElement("span");
    totals.className = "hand-totals";
    totals.textContent = `${h.totals[0]} : ${h.totals[1]}`;
    const actions = document.createElement("span");
    actions.className = "hand-actions no-print";
    actions.append(
      button(t("tf_edit"), "btn edit", () => startEdit(h)),
      button(t("tf_remove"), "btn delete", () => deleteHand(h.number)),
    );
    const first = document.createElement("div");
    first.className = "hand-line";
    first.append(what, points);
    const second = document.createElement("div");
    second.className = "hand-line";
    second.append(totals, actions);
    li.append(no, first, second);
    list.append(li);
  }
}

// --- the entry of a hand: taps ------------------------------------------------------------

function drawContracts() {
  const box = $("#contracts");
  box.textContent = "";
  for (const code of CONTRACTS) {
    const c = CONTRACTS.indexOf(code);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn contract";
    b.dataset.contract = code;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", String(entry.contract === code));
    const factor = factorOf(sheet.rules, c, entry.double);
    const name = document.createElement("span");
    name.className = "contract-name";
    name.textContent = contractLabel(code);
    const times = document.createElement("span");
    times.className = "factor";
    times.textContent = `×${factor}`;
    const meta = document.createElement("span");
    meta.className = "contract-meta";
    meta.append(contractIcon(c, deck(), mapping()), times);
    b.append(name, meta);
    b.onclick = () => {
      entry.contract = code;
      drawContracts();
    };
    box.append(b);
  }
  $("#double").hidden = sheet.rules.pique_double !== "choice";
  $("#double").setAttribute("aria-pressed", String(entry.double));
}

function drawEntry() {
  for (const b of document.querySelectorAll("#chooser button")) b.setAttribute("aria-checked", String(+b.dataset.team === entry.chooser));
  for (const b of document.querySelectorAll(".point-team")) b.setAttribute("aria-checked", String(+b.dataset.team === entry.team));
  const mine = entry.match ? HAND_POINTS : entry.points === "" ? null : +entry.points;
  const theirs = entry.match ? 0 : mine === null ? null : HAND_POINTS - mine;
  $(`#points${entry.team}`).textContent = mine === null ? "–" : mine;
  $(`#points${1 - entry.team}`).textContent = theirs === null ? "–" : theirs;
  $("#pad").classList.toggle("off", entry.match);
  for (const b of document.querySelectorAll("#pad button")) b.disabled = entry.match;
  $("#match").setAttribute("aria-pressed", String(entry.match));
  $("#match").textContent = t("tf_match_of", { team: teamName(entry.team) });
  for (const b of document.querySelectorAll("#stoeck button")) b.setAttribute("aria-pressed", String(+b.dataset.team === entry.stoeck));
}

function resetEntry(view) {
  // in the Schieber the turn to name the trump goes round the table: the teams alternate
  const last = view.hands[view.hands.length - 1];
  Object.assign(entry, { contract: "", points: "", match: false, stoeck: null, double: false });
  entry.chooser = last ? 1 - last.chooser : 0;
  entry.team = entry.chooser;
  $("#weis0").value = "";
  $("#weis1").value = "";
  for (const id of ["#first-out", "#berg-first", "#schneider"]) $(id).value = "";
  $("#moments").open = false;
}

function press(key) {
  if (entry.match) return;
  if (key === "C") entry.points = "";
  else if (key === "back") entry.points = entry.points.slice(0, -1);
  else if (entry.points.length < 3) entry.points = String(+(entry.points + key)); // no leading 0
  drawEntry();
}

function pickPointsTeam(team) {
  if (team === entry.team) return;
  // the same hand, told from the other team's side
  if (entry.points !== "" && +entry.points <= HAND_POINTS) entry.points = String(HAND_POINTS - +entry.points);
  entry.team = team;
  drawEntry();
}

function addWeis(team, value) {
  const input = $(`#weis${team}`);
  const now = input.value.trim();
  input.value = now ? `${now}, ${value}` : String(value);
}

function weisText(list) {
  return list.map((w) => (typeof w === "number" ? String(w) : w.cards)).join(", ");
}

function readWeis(text) {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? parseInt(s, 10) : s));
}

function readEntry() {
  const hand = {
    contract: entry.contract,
    chooser: entry.chooser,
    weis: [readWeis($("#weis0").value), readWeis($("#weis1").value)],
    stoeck: entry.stoeck,
    double: entry.double,
    first_out: $("#first-out").value === "" ? null : +$("#first-out").value,
    berg_first: $("#berg-first").value === "" ? null : +$("#berg-first").value,
    schneider: $("#schneider").value === "" ? null : $("#schneider").value === "yes",
  };
  if (entry.match) hand.match = entry.team;
  else {
    hand.points = entry.points === "" ? null : +entry.points;
    hand.team = entry.team;
  }
  return hand;
}

function startEdit(h) {
  editing = h.number;
  $("#hand-form").hidden = false;
  Object.assign(entry, {
    contract: h.contract,
    chooser: h.chooser,
    double: h.double,
    stoeck: h.stoeck,
    match: h.match !== null,
    team: h.match !== null ? h.match : h.team,
    points: h.match !== null || h.points === null ? "" : String(h.points),
  });
  $("#weis0").value = weisText(h.weis[0]);
  $("#weis1").value = weisText(h.weis[1]);
  $("#first-out").value = h.first_out === null ? "" : String(h.first_out);
  $("#berg-first").value = h.berg_first === null ? "" : String(h.berg_first);
  $("#schneider").value = h.schneider === null ? "" : h.schneider ? "yes" : "no";
  $("#cancel").hidden = false;
  showError("");
  label();
  $("#hand-form").scrollIntoView({ behavior: "instant", block: "start" });
}

function cancelEdit() {
  editing = 0;
  $("#cancel").hidden = true;
  showError("");
  if (sheet) {
    resetEntry(sheet);
    show(sheet);
  }
}

async function submitHand(ev) {
  ev.preventDefault();
  const submit = $("#submit");
  if (submit.disabled) return;
  submit.disabled = true; // one hand at a time: the form is cleared when the answer comes
  const mine = visit;
  try {
    const hand = readEntry();
    const view = editing
      ? await api("PUT", sheetPath(`/hands/${editing}`), hand)
      : await api("POST", sheetPath("/hands"), hand);
    if (mine !== visit) return; // written; the page shows another sheet by now
    editing = 0;
    $("#cancel").hidden = true;
    showError("");
    resetEntry(view);
    show(view);
  } catch (e) {
    if (mine !== visit) return;
    showError(e.message);
    // the sheet asks what it cannot read from the blocks: open those questions
    const asked = /\((first_out|berg_first|schneider)\)/.exec(e.message || "");
    if (asked) {
      $("#moments").open = true;
      $({ first_out: "#first-out", berg_first: "#berg-first", schneider: "#schneider" }[asked[1]]).focus();
    }
  } finally {
    submit.disabled = false;
  }
}

async function deleteHand(n) {
  if (!confirm(t("tf_confirm_delete", { n }))) return;
  const mine = visit;
  try {
    const view = await api("DELETE", sheetPath(`/hands/${n}`));
    if (mine === visit) show(view);
  } catch (e) {
    if (mine === visit) showError(e.message);
  }
}

// --- wiring --------------------------------------------------------------------------------

function route() {
  const id = location.hash.slice(1);
  if (id) openSheet(id);
  else loadHome();
}

$("#tools").append(
  languageSelect(() => {
    label();
    route();
  }),
);
for (const b of document.querySelectorAll("button[data-deck]")) {
  b.onclick = () => {
    setDeck(b.dataset.deck);
    if (sheet) show(sheet);
    else label();
  };
}
for (const b of document.querySelectorAll("#pad button")) b.onclick = () => press(b.dataset.key);
for (const b of document.querySelectorAll(".point-team")) b.onclick = () => pickPointsTeam(+b.dataset.team);
for (const b of document.querySelectorAll("#chooser button")) {
  b.onclick = () => {
    entry.chooser = +b.dataset.team;
    drawEntry();
  };
}
for (const b of document.querySelectorAll("#stoeck button")) {
  b.onclick = () => {
    entry.stoeck = entry.stoeck === +b.dataset.team ? null : +b.dataset.team;
    drawEntry();
  };
}
for (const box of document.querySelectorAll(".weis-team")) {
  const team = +box.dataset.team;
  for (const b of box.querySelectorAll("[data-weis]")) b.onclick = () => addWeis(team, +b.dataset.weis);
  box.querySelector(".weis-clear").onclick = () => {
    $(`#weis${team}`).value = "";
  };
}
$("#match").onclick = () => {
  entry.match = !entry.match;
  drawEntry();
};
$("#double").onclick = () => {
  entry.double = !entry.double;
  drawContracts();
};
// on a computer the digits may be typed as well (outside the text fields)
document.addEventListener("keydown", (ev) => {
  if (!sheet || $("#sheet").hidden || ev.target.closest("input, textarea, select")) return;
  if (/^[0-9]$/.test(ev.key)) press(ev.key);
  else if (ev.key === "Backspace") press("back");
  else return;
  ev.preventDefault();
});
$("#new-preset").onchange = fillOptions;
$("#new-form").onsubmit = createSheet;
$("#import-file").onchange = importSheet;
$("#hand-form").onsubmit = submitHand;
$("#cancel").onclick = cancelEdit;
$("#print").onclick = () => window.print();
window.addEventListener("hashchange", route);
label();
route();
