// The Jasstafel calculator: score sheets of games played with real cards, on a phone beside
// the cards. Talks to /api/sheets (chibre.server.sheets); the slate is drawn by the server
// (chibre.tafel) and shown as it comes. No build step, no network beyond this server.
// A sheet opens with its link, /tafel#ID.KEY; the links of "my sheets" are kept in this
// browser (localStorage), the server lists no sheets of its own accord.
// One hand is entered in a few taps: its contract (with its factor), the team that named it,
// a team's trick points on the pad (the other team gets 157 minus them), a match, the weis
// and the stöck. Every change is kept in this browser first and sent when the server can be
// reached (tafel-sync.js); until then its row says so. The service worker (/tafel-sw.js)
// keeps the page, so that it opens without a connection.

import { applyI18n, colon, getLang, languageSelect, t } from "./i18n.js";
import { contractIcon, factorOf, getDeck, hasDeckChoice, setDeck, suitName } from "./cards.js";
import { api as request, book, change, newWriteId, sync } from "./tafel-sync.js";

const $ = (sel) => document.querySelector(sel);
const HAND_POINTS = 157;
const GRIDS = ["none", "current", "published", "ascending", "french", "pique_double"];
const ORDERS = { "stoeck,weis,tricks": "order_swt", "weis,stoeck,tricks": "order_wst", "stoeck,tricks,weis": "order_stw" };
const BLOCKS = { stoeck: "stoeck", weis: "weis", tricks: "tricks" };
const CONTRACTS = ["D", "H", "S", "C", "O", "U"];

let sheet = null; // the sheet as the server counted it (with its id and key)
let editing = null; // the hand being corrected: {n, stamp} on the server, {n, write} kept here
let pending = []; // the changes of the sheet not yet on the server, in order
let conflicts = []; // what the server could not take as it was, until the scorer settles it
let offline = false; // the server could not be reached the last time it was asked
let presets = {};
let presetsIn; // called once the presets are in: from the server, or as kept here when offline
const presetsArrived = new Promise((resolve) => (presetsIn = resolve));
let visit = 0; // counts the pages asked for (the list or a sheet)
let entryFocus = false; // a sheet just begun: the keyboard goes to its entry once it is shown
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

function api(method, path, body) {
  return request(method, path, body, getLang());
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
  $("#form-title").textContent = editing ? t("tf_edit_hand", { n: editing.n }) : t("tf_new_hand");
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

// the refusals of the sheets' routes that the page can say in its own words, by status
const REFUSALS = { 403: "tf_wrong_link", 404: "tf_no_such_sheet", 413: "tf_too_large", 503: "tf_store_down" };

/** What to tell the scorer of a request that failed, in the page's language where the page
 * knows the refusal (a wrong link, a sheet gone, the server unreachable or its store
 * unavailable); the rules' own refusals (400) as the server words them, in the language the
 * page asked for. */
function refusal(e) {
  if (e.offline) return t("tf_no_server");
  return REFUSALS[e.status] ? t(REFUSALS[e.status]) : e.message;
}

/** The moments the sheet cannot read from the blocks, by the hand's field that says each: a
 * refusal naming one of them (``field``) for a hand that left it unsaid is the sheet's
 * question, asked on the form; said, and refused, it is an error at that field. */
const QUESTIONS = { first_out: "#first-out", berg_first: "#berg-first", schneider: "#schneider" };

function question(e, hand) {
  const asked = Object.keys(QUESTIONS).includes(e.field) && (!hand || hand[e.field] == null);
  return asked ? e.field : "";
}

/** Open the question ``field`` below the entry, saying it in the page's own words. */
function ask(field) {
  showError(t(`tf_ask_${field}`));
  $("#moments").open = true;
  $(QUESTIONS[field]).focus();
}

function showError(message, where = "#error") {
  if (where === "#error") showFieldError("");
  const el = $(where);
  el.textContent = message || "";
  el.hidden = !message;
}

/** Where the page says a refusal of a hand's field (the sheets API's ``field``: "points",
 * "stoeck", "weis[1]" for the second team's weis …): the element it is said after and the
 * control the focus goes to; null for a field the form has no control for (the Passe). */
function fieldPlace(field) {
  const name = String(field || "").replace(/\[.*$/, "");
  if (QUESTIONS[name]) return { after: $(QUESTIONS[name]).closest("label"), focus: $(QUESTIONS[name]), moment: true };
  if (name === "weis") {
    const team = /^weis\[([01])\]/.exec(field);
    const i = team ? +team[1] : $("#weis0").value.trim() || !$("#weis1").value.trim() ? 0 : 1;
    return { after: $(`#weis${i}`), focus: $(`#weis${i}`) };
  }
  const places = {
    contract: ["#contracts", "#contracts [tabindex='0']"],
    double: ["#double", "#double"],
    chooser: ["#chooser", "#chooser [aria-checked='true']"],
    points: [".point-teams", ".point-team[aria-checked='true']"],
    team: [".point-teams", ".point-team[aria-checked='true']"],
    match: ["#match", "#match"],
    stoeck: ["#stoeck", "#stoeck [aria-pressed='true']"],
  };
  const place = places[name];
  if (!place || $(place[0]).hidden) return null;
  return { after: $(place[0]), focus: $(place[1]) || $(place[0]).querySelector("button") || $(place[0]) };
}

/** Say ``message`` beside the hand's ``field`` and put the focus there (``focus`` false: the
 * scorer is still typing in it); a field the form has no control for: below the entry. "":
 * the field's refusal is gone. */
function showFieldError(message, field = "", focus = true) {
  const el = $("#field-error");
  for (const marked of document.querySelectorAll("[aria-invalid]")) {
    marked.removeAttribute("aria-invalid");
    marked.removeAttribute("aria-describedby");
  }
  el.textContent = "";
  el.hidden = true;
  delete el.dataset.field;
  if (!message) return;
  const place = fieldPlace(field);
  if (!place) {
    showError(message);
    return;
  }
  showError("");
  if (place.moment) $("#moments").open = true;
  place.after.after(el);
  el.textContent = message;
  el.hidden = false;
  el.dataset.field = field;
  place.focus.setAttribute("aria-invalid", "true");
  place.focus.setAttribute("aria-describedby", "field-error");
  if (focus) place.focus.focus();
}

/** A refusal of the server (or of the page's own checks) said where it belongs: at the
 * field it names, else below the entry. */
function showRefusal(e) {
  if (e.field && e.status === 400) showFieldError(refusal(e), e.field);
  else showError(refusal(e));
}

// --- the list of sheets and a new sheet ----------------------------------------------------

async function loadHome() {
  const mine = ++visit;
  $("#home").hidden = false;
  $("#sheet").hidden = true;
  sheet = null;
  label();
  const kept = mySheets().slice(0, 200); // the server answers for 200 sheets at once
  const keys = Object.fromEntries(kept.map((s) => [s.id, s.key]));
  let sheets;
  try {
    const data = await api("GET", "/api/presets");
    if (!stillAsked(mine, "")) return;
    localStorage.setItem(PRESETS, JSON.stringify(data)); // for a sheet begun offline
    fillPresets(data);
    presetsIn();
    const asked = kept.map((s) => `${s.id}.${s.key}`).join(",");
    sheets = asked ? (await api("GET", "/api/sheets?mine=" + encodeURIComponent(asked))).sheets : [];
    // a sheet deleted elsewhere (or a link that no longer opens) leaves the list
    const found = new Set(sheets.map((s) => s.id));
    for (const s of kept) if (!found.has(s.id)) forgetSheet(s.id);
  } catch (e) {
    if (!e.offline) throw e;
    fillPresets(JSON.parse(localStorage.getItem(PRESETS) || "null"));
    presetsIn();
    // no connection: the sheets kept in this browser, as the server last sent them
    sheets = (await book.views()).filter((v) => keys[v.id] === v.key).map((v) => ({ ...v, hands: v.hands.length }));
  }
  if (!stillAsked(mine, "")) return;
  const list = $("#sheet-list");
  list.textContent = "";
  if (!sheets.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("tf_no_sheets");
    list.append(li);
  }
  for (const s of sheets) list.append(sheetItem(s, keys[s.id]));
}

const PRESETS = "tafel-presets";

function fillPresets(data) {
  if (!data) return;
  presets = data.presets;
  const select = $("#new-preset");
  if (!select.options.length) {
    for (const name of Object.keys(presets)) select.add(new Option(t(`preset_${name}`), name));
    select.value = data.default;
    fillOptions();
  }
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
      alert(refusal(e));
      if (e.status !== 403 && e.status !== 404) return; // still there: still listed
    }
    forgetSheet(s.id);
    await book.forget(s.id);
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
  const button = $("#create");
  if (button.disabled) return; // pressed again while the sheet is being begun: one sheet
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    entryFocus = (await beginSheet()) === true; // the keyboard goes to its entry once shown
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

/** The sheet the form asks for, begun here and sent to the server; true once it is. */
async function beginSheet() {
  await presetsArrived; // a sheet begun as the page opens waits for the rules it starts from
  const preset = $("#new-preset").value;
  const base = presets[preset];
  if (!base) return alert(t("tf_no_server")); // never online here: no rules to start from
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
  } catch (e) {
    return alert(e.message);
  }
  // the page chooses the sheet's id and key, so that it can be begun without a connection
  const body = {
    name: $("#new-name").value.trim(),
    teams: [$("#new-team0").value.trim() || "A", $("#new-team1").value.trim() || "B"],
    preset,
    rules,
    id: newWriteId().slice(0, 16),
    key: newWriteId(),
  };
  const view = beginView(body, { ...base, ...rules });
  const made = change(view, "create", { body });
  await book.saveView(view);
  await book.keep(made);
  const result = await sync(view.id, getLang(), made.write);
  if (result.refused) {
    await book.forget(view.id);
    return alert(refusal(result.refused));
  }
  keepSheet(view.id, view.key);
  location.hash = linkOf(view.id, view.key);
  return true;
}

/** A sheet begun here, as the page shows it until the server has counted it. */
function beginView(body, rules) {
  return {
    id: body.id,
    key: body.key,
    link: "/tafel" + linkOf(body.id, body.key),
    name: body.name,
    teams: body.teams,
    target: rules.target,
    hands: [],
    totals: [0, 0],
    winner: -1,
    decided_in: 0,
    marks: {},
    striche: [0, 0],
    rules,
    svg: "",
  };
}

async function importSheet() {
  const file = $("#import-file").files[0];
  if (!file) return;
  try {
    const view = await api("POST", "/api/sheets/import", JSON.parse(await file.text()));
    keepSheet(view.id, view.key);
    location.hash = linkOf(view.id, view.key);
  } catch (e) {
    alert(refusal(e));
  }
  $("#import-file").value = "";
}

// --- one sheet -----------------------------------------------------------------------------

async function openSheet(link) {
  const mine = ++visit;
  const dot = link.indexOf(".");
  const id = dot > 0 ? link.slice(0, dot) : link;
  const key = dot > 0 ? link.slice(dot + 1) : "";
  let view;
  try {
    view = await api("GET", `/api/sheets/${encodeURIComponent(id)}?key=${encodeURIComponent(key)}`);
    offline = false;
    await book.saveView(view);
  } catch (e) {
    // without a connection as the server last sent it; a sheet begun here as it was begun
    const begun = (await book.pending(id)).some((c) => c.kind === "create");
    if (e.offline || begun) view = await book.view(id);
    if (!view || view.key !== key) {
      if (e.status === 403 || e.status === 404) forgetSheet(id, key);
      if (!stillAsked(mine, link)) return;
      location.hash = "";
      alert(e.offline ? t("tf_offline_open") : refusal(e));
      return;
    }
    offline = Boolean(e.offline);
  }
  if (!stillAsked(mine, link)) return; // another link (or the list) was opened meanwhile
  keepSheet(view.id, view.key); // a link opened once is one of my sheets
  const other = !sheet || sheet.id !== view.id;
  await loadLocal(view.id);
  if (!stillAsked(mine, link)) return;
  if (other) {
    editing = null;
    resetEntry(view);
    $("#qr").hidden = true;
    $("#show-qr").setAttribute("aria-expanded", "false");
  }
  show(view);
  if (pending.length && !offline) syncSheet();
}

/** The changes and conflicts of sheet ``id`` kept in this browser. */
async function loadLocal(id) {
  [pending, conflicts] = await Promise.all([book.pending(id), book.conflicts(id)]);
}

/** Send what this browser keeps of the sheet; then show the sheet as the server has it. */
async function syncSheet(direct = null) {
  if (!sheet) return {};
  const id = sheet.id;
  const mine = visit;
  drawSync(true);
  const result = await sync(id, getLang(), direct);
  offline = result.offline;
  if (mine !== visit || !sheet || sheet.id !== id) return result;
  await loadLocal(id);
  if (mine === visit) show(result.view || sheet);
  return result;
}

function sheetChanged(was, now) {
  const look = (v) => JSON.stringify([v.name, v.teams, v.totals, v.hands.map((h) => h.stamp)]);
  return !was || look(was) !== look(now);
}

/** The sheet again from the server (another device may have written on it). */
async function refreshSheet() {
  if (!sheet || pending.length) return;
  const mine = visit;
  try {
    const view = await api("GET", sheetPath());
    offline = false;
    await book.saveView(view);
    if (mine === visit && !pending.length && sheetChanged(sheet, view)) show(view);
  } catch (e) {
    offline = Boolean(e.offline);
    drawSync(false);
  }
}

function show(view) {
  sheet = view;
  showError("", "#list-error");
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
  drawSync(false);
  drawConflicts();
  $("#hand-form").hidden = view.winner >= 0 && !editing;
  label();
  if (entryFocus) {
    entryFocus = false;
    focusEntry();
  }
}

function drawSync(sending) {
  const el = $("#sync");
  el.classList.toggle("pending", pending.length > 0);
  if (!pending.length) el.textContent = offline ? t("tf_offline") : t("tf_saved");
  else if (sending && !offline) el.textContent = t("tf_syncing");
  else el.textContent = t("tf_unsaved", { n: pending.length }) + (offline ? ` — ${t("tf_offline")}` : "");
}

/** A hand told in a line: "Rosen ×2, A 98 : 59 B" or "Obenabe ×3, Match A". */
function handText(hand) {
  const c = CONTRACTS.indexOf(hand.contract);
  const what = `${contractLabel(hand.contract)} ×${factorOf(sheet.rules, c, hand.double)}`;
  if (hand.match !== undefined && hand.match !== null) return `${what}, ${t("match")} ${teamName(hand.match)}`;
  const mine = hand.points ?? 0;
  const [a, b] = hand.team ? [HAND_POINTS - mine, mine] : [mine, HAND_POINTS - mine];
  return `${what}, ${teamName(0)} ${a} : ${b} ${teamName(1)}`;
}

function drawConflicts() {
  const list = $("#conflicts");
  list.textContent = "";
  for (const c of conflicts) {
    const li = document.createElement("li");
    li.className = `conflict ${c.conflict}`;
    const p = document.createElement("p");
    if (c.conflict === "moved") {
      p.textContent = t("tf_conflict_moved", { was: c.expected, n: c.n });
    } else if (c.conflict === "held") {
      p.textContent = t("tf_conflict_held", { what: handText(c.hand), n: c.after });
    } else if (c.conflict === "changed") {
      p.textContent = t("tf_conflict_changed", { n: c.n, what: c.hand ? handText(c.hand) : t("tf_remove") });
    } else {
      const what = c.kind === "create" ? t("tf_new_sheet") : c.hand ? handText(c.hand) : t("tf_hand_n", { n: c.n });
      p.textContent = t("tf_conflict_refused", { what, error: refusal({ status: c.status, message: c.error }) });
    }
    const buttons = document.createElement("div");
    buttons.className = "buttons";
    if (c.conflict !== "moved" && c.hand) {
      buttons.append(
        button(t("tf_rewrite"), "btn rewrite", async () => {
          await book.settle(c.write);
          await loadLocal(sheet.id);
          editing = null;
          fillEntry(c.hand);
          show(sheet);
          $("#hand-form").scrollIntoView({ behavior: "instant", block: "start" });
          // the sheet's question, or its refusal at its field, kept with the refusal
          if (question(c, c.hand)) ask(question(c, c.hand));
          else if (c.conflict === "refused") showRefusal({ status: c.status, message: c.error, field: c.field });
        }),
      );
    }
    buttons.append(
      button(t("tf_dismiss"), "btn settle", async () => {
        await book.settle(c.write);
        await loadLocal(sheet.id);
        show(sheet);
      }),
    );
    li.append(p, buttons);
    list.append(li);
  }
}

function drawHands(hands) {
  const list = $("#hands");
  list.textContent = "";
  const changed = new Map(pending.filter((c) => c.kind !== "add").map((c) => [c.n, c]));
  for (const h of hands) {
    const waiting = changed.get(h.number);
    const li = handRow(h.number, h.contract, `×${h.factor}` + (h.match !== null ? ` · ${t("match")}` : ""));
    li.querySelector(".hand-points").textContent = `${h.points_written[0]} : ${h.points_written[1]}`;
    li.querySelector(".hand-totals").textContent = `${h.totals[0]} : ${h.totals[1]}`;
    if (waiting) {
      li.classList.add("pending", waiting.kind);
      mark(li, waiting.kind === "delete" ? `${t("tf_remove")}${colon()} ${t("tf_unsaved_mark")}` : `${handText(waiting.hand)}${colon()} ${t("tf_unsaved_mark")}`);
    }
    if (!waiting || waiting.kind === "replace") {
      li.querySelector(".hand-actions").append(
        button(t("tf_edit"), "btn edit", () => startEdit({ n: h.number, stamp: h.stamp }, waiting ? waiting.hand : h)),
        button(t("tf_remove"), "btn delete", () => deleteHand({ n: h.number, stamp: h.stamp })),
      );
    }
    list.append(li);
  }
  for (const c of pending.filter((p) => p.kind === "add")) {
    // a hand kept here only: its points as entered, its total once the server has counted it
    const hand = c.hand;
    const factor = factorOf(sheet.rules, CONTRACTS.indexOf(hand.contract), hand.double);
    const li = handRow(c.expected, hand.contract, `×${factor}` + (hand.match != null ? ` · ${t("match")}` : ""));
    li.classList.add("pending", "add");
    // the trick points (a match: 257) times the factor; weis and stöck once counted
    const taken = hand.match != null ? [hand.match ? 0 : 257, hand.match ? 257 : 0] : null;
    const a = taken ? taken[0] : hand.team ? HAND_POINTS - hand.points : hand.points;
    const b = taken ? taken[1] : HAND_POINTS - a;
    li.querySelector(".hand-points").textContent = `${a * factor} : ${b * factor}`;
    li.querySelector(".hand-totals").textContent = "…";
    mark(li, t("tf_unsaved_mark"));
    li.querySelector(".hand-actions").append(
      button(t("tf_edit"), "btn edit", () => startEdit({ n: c.expected, write: c.write }, hand)),
      button(t("tf_remove"), "btn delete", () => deleteHand({ n: c.expected, write: c.write })),
    );
    list.append(li);
  }
}

function handRow(number, contract, times) {
  const li = document.createElement("li");
  li.className = "hand-row";
  li.dataset.number = number;
  const no = document.createElement("span");
  no.className = "hand-no";
  no.textContent = number;
  const what = document.createElement("span");
  what.className = "hand-contract";
  what.append(contractIcon(CONTRACTS.indexOf(contract), deck(), mapping()));
  const name = document.createElement("span");
  name.textContent = `${contractLabel(contract)} ${times}`;
  what.append(name);
  const points = document.createElement("span");
  points.className = "hand-points";
  const totals = document.createElement("span");
  totals.className = "hand-totals";
  const actions = document.createElement("span");
  actions.className = "hand-actions no-print";
  const first = document.createElement("div");
  first.className = "hand-line";
  first.append(what, points);
  const second = document.createElement("div");
  second.className = "hand-line";
  second.append(totals, actions);
  li.append(no, first, second);
  return li;
}

function mark(li, text) {
  const note = document.createElement("span");
  note.className = "pending-mark";
  note.textContent = text;
  li.append(note);
}

// --- the entry of a hand: taps ------------------------------------------------------------

function drawContracts() {
  const box = $("#contracts");
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.contract : null;
  box.textContent = "";
  for (const code of CONTRACTS) {
    const c = CONTRACTS.indexOf(code);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn contract";
    b.dataset.contract = code;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", String(entry.contract === code));
    b.tabIndex = (entry.contract ? entry.contract === code : c === 0) ? 0 : -1; // one Tab stop
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
    b.onclick = () => pickContract(code);
    box.append(b);
  }
  // drawn again (a tap, a language, the sheet again from the server): the focus stays
  if (focused) box.querySelector(`[data-contract="${focused}"]`).focus({ preventScroll: true });
  $("#double").hidden = sheet.rules.pique_double !== "choice";
  $("#double").setAttribute("aria-pressed", String(entry.double));
}

/** The contract chosen (a tap, Space, or an arrow in the group), the focus kept on it. */
function pickContract(code) {
  entry.contract = code;
  drawContracts();
  $(`#contracts [data-contract="${code}"]`).focus({ preventScroll: true });
}

/** The arrows move the choice within the contracts, as in any group of radio buttons. */
function contractKeys(event) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  const at = Math.max(0, CONTRACTS.indexOf(entry.contract));
  pickContract(CONTRACTS[(at + step + CONTRACTS.length) % CONTRACTS.length]);
}

/** The entry's first field, for the keyboard, once a sheet is begun or a hand written. */
function focusEntry() {
  $("#contracts [tabindex='0']")?.focus({ preventScroll: true });
}

function drawEntry() {
  for (const b of document.querySelectorAll("#chooser button")) b.setAttribute("aria-checked", String(+b.dataset.team === entry.chooser));
  for (const b of document.querySelectorAll(".point-team")) b.setAttribute("aria-checked", String(+b.dataset.team === entry.team));
  const mine = entry.match ? HAND_POINTS : entry.points === "" ? null : +entry.points;
  const theirs = entry.match ? 0 : mine === null || mine > HAND_POINTS ? null : HAND_POINTS - mine;
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
  const adds = pending.filter((c) => c.kind === "add");
  const last = adds.length ? adds[adds.length - 1].hand : view.hands[view.hands.length - 1];
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
  // points no hand has are said at once, beside them, and unsaid once mended
  const over = +entry.points > HAND_POINTS;
  if (over) showFieldError(t("sheet.bad.points_range", { most: HAND_POINTS, points: entry.points }), "points", false);
  else if ($("#field-error").dataset.field === "points") showFieldError("");
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

/** The weis of a team as the field shows them: values, and cards as the server wrote them
 * or (a hand kept in this browser) as they were typed. */
function weisText(list) {
  return list.map((w) => (typeof w === "object" ? w.cards : String(w))).join(", ");
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

function fillEntry(h) {
  const match = h.match !== undefined && h.match !== null;
  Object.assign(entry, {
    contract: h.contract,
    chooser: h.chooser,
    double: Boolean(h.double),
    stoeck: h.stoeck ?? null,
    match,
    team: match ? h.match : h.team,
    points: match || h.points === null || h.points === undefined ? "" : String(h.points),
  });
  $("#weis0").value = weisText(h.weis[0]);
  $("#weis1").value = weisText(h.weis[1]);
  $("#first-out").value = h.first_out == null ? "" : String(h.first_out);
  $("#berg-first").value = h.berg_first == null ? "" : String(h.berg_first);
  $("#schneider").value = h.schneider == null ? "" : h.schneider ? "yes" : "no";
}

function startEdit(which, h) {
  editing = which;
  $("#hand-form").hidden = false;
  fillEntry(h);
  $("#cancel").hidden = false;
  showError("");
  label();
  $("#hand-form").scrollIntoView({ behavior: "instant", block: "start" });
}

function cancelEdit() {
  editing = null;
  $("#cancel").hidden = true;
  showError("");
  if (sheet) {
    resetEntry(sheet);
    show(sheet);
  }
}

/** The change the form makes: a new hand, or the correction of the hand being corrected
 * (the one kept here, or the server's, sent with the stamp of the hand the scorer saw); and
 * the change it replaces in the outbox, if any. */
function changeOf(hand) {
  if (editing && editing.write) {
    const kept = pending.find((c) => c.write === editing.write);
    if (kept) return [{ ...kept, hand }, kept];
  }
  if (editing) {
    const kept = pending.find((c) => c.kind === "replace" && c.n === editing.n);
    if (kept) return [{ ...kept, hand }, kept];
    return [change(sheet, "replace", { n: editing.n, was: editing.stamp, hand }), null];
  }
  const struck = pending.filter((c) => c.kind === "delete").length;
  const added = pending.filter((c) => c.kind === "add").length;
  return [change(sheet, "add", { hand, expected: sheet.hands.length - struck + added + 1 }), null];
}

/** What the page can tell at once of a hand the rules would refuse — offline too — and the
 * field it concerns: what is missing in the page's own words, a refusal of the sheet in the
 * sheet's (the same keys as the server's; what is missing first, then the server's order;
 * the server checks the rest). */
function entryProblem(hand) {
  if (!hand.contract) return { field: "contract", message: t("tf_need_contract") };
  if (!entry.match && entry.points === "") return { field: "points", message: t("tf_need_points") };
  const spades = sheet.rules.pique_double === "choice" && hand.contract === "S";
  if (hand.double && !spades) return { field: "double", message: t("sheet.bad.double_spades_only") };
  if (!entry.match && +entry.points > HAND_POINTS) {
    return { field: "points", message: t("sheet.bad.points_range", { most: HAND_POINTS, points: entry.points }) };
  }
  const values = [20, 50, 100, 150, 200, ...(sheet.rules.big_sequences ? [250, 300] : [])];
  for (const team of [0, 1]) {
    const odd = hand.weis[team].find((w) => typeof w === "number" && !values.includes(w));
    if (odd !== undefined) {
      return { field: `weis[${team}]`, message: t("sheet.bad.weis_value", { points: odd, values: values.join(", ") }) };
    }
  }
  const [ours, theirs] = hand.weis;
  if ((ours.length || theirs.length) && !sheet.rules.weis) return { field: "weis", message: t("sheet.bad.weis_off") };
  if (ours.length && theirs.length) return { field: "weis", message: t("sheet.bad.weis_one_team") };
  if (hand.stoeck !== null && !sheet.rules.stoeck) return { field: "stoeck", message: t("sheet.bad.stoeck_off") };
  if (hand.stoeck !== null && (hand.contract === "O" || hand.contract === "U")) {
    return { field: "stoeck", message: t("sheet.bad.stoeck_trumpless") };
  }
  return null;
}

async function submitHand(ev) {
  ev.preventDefault();
  const submit = $("#submit");
  if (submit.disabled || !sheet) return;
  const hand = readEntry();
  const problem = entryProblem(hand);
  if (problem) {
    showFieldError(problem.message, problem.field);
    return;
  }
  submit.disabled = true; // one hand at a time
  const mine = visit;
  try {
    const [made, replaced] = changeOf(hand);
    await book.keep(made); // kept in this browser before anything is sent
    await loadLocal(sheet.id);
    const result = await syncSheet(made.write);
    if (mine !== visit) return; // kept; the page shows another sheet by now
    if (result.refused) {
      if (replaced) await book.keep(replaced); // the hand as it was before this correction
      await loadLocal(sheet.id);
      show(sheet);
      // the sheet asks what it cannot read from the blocks: open that question; any other
      // refusal is said at the field it names
      const asked = question(result.refused, hand);
      if (asked) ask(asked);
      else showRefusal(result.refused);
      return;
    }
    // written on the server, or kept here until it can be reached
    editing = null;
    $("#cancel").hidden = true;
    showError("");
    resetEntry(sheet);
    show(sheet);
    focusEntry(); // the next hand
  } finally {
    submit.disabled = false;
  }
}

async function deleteHand(which) {
  if (!confirm(t("tf_confirm_delete", { n: which.n }))) return;
  const mine = visit;
  let direct = null;
  if (which.write) {
    await book.drop(which.write); // a hand never sent: struck here
  } else {
    // a correction still waiting for this hand is struck with it
    for (const c of pending.filter((c) => c.kind === "replace" && c.n === which.n)) await book.drop(c.write);
    direct = change(sheet, "delete", { n: which.n, was: which.stamp });
    await book.keep(direct);
  }
  await loadLocal(sheet.id);
  const result = await syncSheet(direct && direct.write);
  if (mine !== visit) return;
  show(sheet);
  // said beside the list of hands: the entry form is hidden once the game is won
  showError(result.refused ? refusal(result.refused) : "", "#list-error");
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
// the button waits in the page (disabled) until the form is this script's: before, the browser
// would send the form itself and open the page again, empty
$("#contracts").addEventListener("keydown", contractKeys);
$("#create").disabled = false;
$("#import-file").onchange = importSheet;
$("#hand-form").onsubmit = submitHand;
$("#cancel").onclick = cancelEdit;
$("#print").onclick = () => window.print();
$("#show-qr").onclick = () => {
  // the sheet's link as a QR code, drawn by this server: a second phone scans it
  const open = $("#qr").hidden;
  $("#qr").hidden = !open;
  $("#show-qr").setAttribute("aria-expanded", String(open));
  if (open && sheet) {
    const link = location.origin + "/tafel" + linkOf(sheet.id, sheet.key);
    $("#qr-img").src = "/qr.svg?text=" + encodeURIComponent(link);
    $("#qr-img").alt = t("tf_qr");
    $("#qr").scrollIntoView({ behavior: "instant", block: "nearest" });
  }
};
window.addEventListener("hashchange", route);
// back online: what was kept here goes to the server; the sheet is read again now and then,
// so that a second phone follows what the first one writes
window.addEventListener("online", () => {
  if (sheet) syncSheet();
});
let ticks = 0;
setInterval(() => {
  ticks += 1;
  if (!sheet || document.hidden || $("#submit").disabled) return;
  if (pending.length) syncSheet();
  else if (!editing && ticks % 3 === 0) refreshSheet();
}, 5000);
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/tafel-sw.js", { scope: "/tafel" }).catch(() => undefined);
}
let installPrompt = null;
window.addEventListener("beforeinstallprompt", (ev) => {
  ev.preventDefault();
  installPrompt = ev;
  $("#install").hidden = false;
});
$("#install").onclick = async () => {
  if (!installPrompt) return;
  installPrompt.prompt();
  installPrompt = null;
  $("#install").hidden = true;
};
label();
route();
