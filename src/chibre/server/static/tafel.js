// The Jasstafel calculator: score sheets of games played with real cards.
// Talks to /api/sheets (chibre.server.sheets); the slate is drawn by the server
// (chibre.tafel) and shown as it comes. No build step, no network beyond this server.
// A sheet opens with its link, /tafel#ID.KEY; the links of "my sheets" are kept in this
// browser (localStorage), the server lists no sheets of its own accord.
"use strict";

const STRINGS = {
  en: {
    title: "Jasstafel", language: "Language", new_sheet: "New sheet", sheet_name: "Name",
    team_a: "Team A", team_b: "Team B", preset: "Rules", target: "Target",
    multipliers: "Multipliers", end_mode: "End of the game", end_immediate: "At once",
    end_of_hand: "At the end of the hand", end_order: "Counting order",
    create: "Start the sheet", sheets: "Sheets", import: "Import a sheet (JSON)",
    no_sheets: "No sheet yet.", open: "Open", remove: "Delete", new_hand: "Next hand",
    edit_hand: "Correct hand {n}", contract: "Contract", obenabe: "Obenabe",
    undenufe: "Undenufe", double: "double", chooser: "Named by", points: "Trick points",
    points_of: "of team", match: "Match (all nine tricks)", nobody: "—",
    weis_of: "Weis {team}", stoeck: "Stöck",
    both_out: "When the sheet asks: who got there first, Schneider?",
    first_out: "First to the target", berg_first: "First to half the target",
    schneider: "Schneider (losers under half the target when the game was won)",
    yes: "yes", no: "no",
    weis_hint: "Weis: values (20, 50, 100 …) or cards (♥6 ♥7 ♥8), separated by commas. Only the team with the best weis writes its weis.",
    write: "Write the hand", save: "Save the correction", cancel: "Cancel", totals: "Totals",
    export: "Export (JSON)", print: "Print", all_sheets: "All sheets", edit: "Correct",
    wins: "{team} wins in hand {n}", hands: "{n} hands", target_of: "to {n}",
    confirm_delete: "Delete hand {n}?", confirm_sheet: "Delete this sheet?",
    all_options: "All options (JSON)",
    all_options_hint: "Any option of the rules; these win over the form.",
    share: "Link to this sheet", share_hint: "Whoever has this link can read and write on the sheet.",
    forget: "Remove from the list",
  },
  fr: {
    title: "Jasstafel", language: "Langue", new_sheet: "Nouvelle feuille", sheet_name: "Nom",
    team_a: "Équipe A", team_b: "Équipe B", preset: "Règles", target: "Objectif",
    multipliers: "Multiplicateurs", end_mode: "Fin de partie", end_immediate: "Aussitôt",
    end_of_hand: "À la fin de la donne", end_order: "Ordre de comptage",
    create: "Commencer la feuille", sheets: "Feuilles", import: "Importer une feuille (JSON)",
    no_sheets: "Aucune feuille.", open: "Ouvrir", remove: "Supprimer",
    new_hand: "Donne suivante", edit_hand: "Corriger la donne {n}", contract: "Atout",
    obenabe: "Obenabe (de haut)", undenufe: "Undenufe (de bas)", double: "double",
    chooser: "Choisi par", points: "Points des plis", points_of: "de l’équipe",
    match: "Match (les neuf plis)", nobody: "—", weis_of: "Annonces {team}",
    stoeck: "Stöck",
    both_out: "Quand la feuille le demande : qui y est arrivé d’abord, Schneider ?",
    first_out: "Première à l’objectif", berg_first: "Première à la moitié",
    schneider: "Schneider (les perdants sous la moitié quand la partie a été gagnée)",
    yes: "oui", no: "non",
    weis_hint: "Annonces : valeurs (20, 50, 100 …) ou cartes (♥6 ♥7 ♥8), séparées par des virgules. Seule l’équipe qui a la meilleure annonce les écrit.",
    write: "Écrire la donne", save: "Enregistrer la correction", cancel: "Annuler",
    totals: "Totaux", export: "Exporter (JSON)", print: "Imprimer",
    all_sheets: "Toutes les feuilles", edit: "Corriger", wins: "{team} gagne à la donne {n}",
    hands: "{n} donnes", target_of: "en {n}", confirm_delete: "Supprimer la donne {n} ?",
    confirm_sheet: "Supprimer cette feuille ?", all_options: "Toutes les options (JSON)",
    all_options_hint: "N’importe quelle option des règles ; elles l’emportent sur le formulaire.",
    share: "Lien vers cette feuille", share_hint: "Qui a ce lien peut lire et écrire sur la feuille.",
    forget: "Retirer de la liste",
  },
  de: {
    title: "Jasstafel", language: "Sprache", new_sheet: "Neue Tafel", sheet_name: "Name",
    team_a: "Team A", team_b: "Team B", preset: "Regeln", target: "Ziel",
    multipliers: "Multiplikatoren", end_mode: "Spielende", end_immediate: "Sofort",
    end_of_hand: "Am Ende des Spiels", end_order: "Zählreihenfolge",
    create: "Tafel beginnen", sheets: "Tafeln", import: "Tafel importieren (JSON)",
    no_sheets: "Noch keine Tafel.", open: "Öffnen", remove: "Löschen",
    new_hand: "Nächstes Spiel", edit_hand: "Spiel {n} korrigieren", contract: "Trumpf",
    obenabe: "Obenabe", undenufe: "Undenufe", double: "doppelt", chooser: "Angesagt von",
    points: "Stichpunkte", points_of: "von Team", match: "Match (alle neun Stiche)",
    nobody: "—", weis_of: "Weis {team}", stoeck: "Stöck",
    both_out: "Wenn die Tafel fragt: wer zuerst, Schneider?", first_out: "Zuerst am Ziel",
    berg_first: "Zuerst über den Berg",
    schneider: "Schneider (Verlierer unter der Hälfte, als das Spiel gewonnen war)",
    yes: "ja", no: "nein",
    weis_hint: "Weis: Werte (20, 50, 100 …) oder Karten (♥6 ♥7 ♥8), mit Kommas getrennt. Nur das Team mit dem besten Weis schreibt seine Weise.",
    write: "Spiel schreiben", save: "Korrektur speichern", cancel: "Abbrechen",
    totals: "Total", export: "Exportieren (JSON)", print: "Drucken",
    all_sheets: "Alle Tafeln", edit: "Korrigieren", wins: "{team} gewinnt im Spiel {n}",
    hands: "{n} Spiele", target_of: "auf {n}", confirm_delete: "Spiel {n} löschen?",
    confirm_sheet: "Diese Tafel löschen?", all_options: "Alle Optionen (JSON)",
    all_options_hint: "Jede Option der Regeln; sie gehen dem Formular vor.",
    share: "Link zu dieser Tafel", share_hint: "Wer diesen Link hat, kann die Tafel lesen und beschreiben.",
    forget: "Aus der Liste entfernen",
  },
};

const CONTRACT_LABEL = { D: "♦", H: "♥", S: "♠", C: "♣", O: "Obenabe", U: "Undenufe" };
const $ = (sel) => document.querySelector(sel);
let lang = pickLang();
let sheet = null; // the sheet as the server counted it (with its id and key)
let editing = 0; // the hand being corrected (1-based), 0: a new hand
let presets = {};
let visit = 0; // counts the pages asked for (the list or a sheet)

// An answer is shown only while the page still asks for it: the last one asked for, and the
// link in the address bar still the one it was asked for by ("": the list). Going from one
// link to another fires hashchange after the address has changed, so the answer for the
// link left may come in between: it must neither show its sheet nor clear the new address.
function stillAsked(mine, link) {
  return mine === visit && location.hash.slice(1) === link;
}

function pickLang() {
  const saved = localStorage.getItem("tafel-lang");
  if (saved && STRINGS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "de"]) {
    const short = l.slice(0, 2).toLowerCase();
    if (STRINGS[short]) return short;
  }
  return "de";
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

function t(key, args = {}) {
  const s = (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in args ? args[k] : ""));
}

function teamName(i) {
  return sheet ? sheet.teams[i] : i ? "B" : "A";
}

function applyI18n() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) {
    const key = el.dataset.i18n;
    el.textContent = t(key, { team: el.dataset.team !== undefined ? teamName(+el.dataset.team) : "" });
  }
  $("#form-title").textContent = editing ? t("edit_hand", { n: editing }) : t("new_hand");
  $("#submit").textContent = editing ? t("save") : t("write");
}

async function api(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const res = await fetch(path + sep + "lang=" + lang, {
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
    li.textContent = t("no_sheets");
    list.append(li);
  }
  for (const s of sheets) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = linkOf(s.id, keys[s.id]);
    const small = document.createElement("span");
    small.className = "muted";
    if (s.damaged) {
      a.textContent = s.id + " ";
      small.textContent = s.error; // its row in the server's file cannot be read
    } else {
      a.textContent = (s.name || s.teams.join(" – ")) + " ";
      small.textContent = `${s.teams[0]} ${s.totals[0]} : ${s.totals[1]} ${s.teams[1]} · ${t("hands", { n: s.hands })}`;
    }
    const del = document.createElement("button");
    del.type = "button";
    del.className = "small delete";
    del.textContent = t("remove");
    del.onclick = async () => {
      if (!confirm(t("confirm_sheet"))) return;
      try {
        await api("DELETE", `/api/sheets/${encodeURIComponent(s.id)}?key=${encodeURIComponent(keys[s.id])}`);
      } catch (e) {
        alert(e.message);
      }
      forgetSheet(s.id);
      loadHome();
    };
    const forget = document.createElement("button");
    forget.type = "button";
    forget.className = "small forget";
    forget.textContent = t("forget");
    forget.onclick = () => {
      forgetSheet(s.id);
      loadHome();
    };
    li.append(a, small, forget, del);
    list.append(li);
  }
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
  const grid = typeof r.multipliers === "string" ? r.multipliers : r.multipliers.join(" ");
  $("#sheet-rules").textContent = `${t("target_of", { n: r.target })} · ${grid} · ${r.end_mode} · ${r.end_order}`;
  for (const i of [0, 1]) {
    $("#team" + i + "-name").textContent = view.teams[i];
    $("#total" + i).textContent = view.totals[i];
    document.querySelector("#hands th.t" + i).textContent = view.teams[i];
  }
  $("#slate").innerHTML = view.svg;
  const won = $("#winner");
  won.hidden = view.winner < 0;
  won.textContent = view.winner < 0 ? "" : t("wins", { team: view.teams[view.winner], n: view.decided_in });
  for (const sel of document.querySelectorAll(".team-select, #match, #stoeck, #first-out, #berg-first")) {
    const keep = sel.value;
    const blank = sel.classList.contains("team-select") ? [] : [["", "—"]];
    sel.textContent = "";
    for (const [v, label] of [...blank, ["0", view.teams[0]], ["1", view.teams[1]]]) sel.add(new Option(label, v));
    sel.value = keep;
    if (sel.selectedIndex < 0) sel.selectedIndex = 0;
  }
  const schneider = $("#schneider");
  const said = schneider.value;
  schneider.textContent = "";
  for (const [v, key] of [["", "nobody"], ["yes", "yes"], ["no", "no"]]) schneider.add(new Option(t(key), v));
  schneider.value = said;
  $("#double-box").hidden = r.pique_double !== "choice";
  $("#points").disabled = $("#match").value !== "";
  $("#export").href = sheetPath("/export");
  $("#share").href = "/tafel" + linkOf(view.id, view.key);
  const body = $("#hands tbody");
  body.textContent = "";
  for (const h of view.hands) {
    const tr = document.createElement("tr");
    const cells = [
      h.number,
      (CONTRACT_LABEL[h.contract] || h.contract) + (h.match !== null ? " · match" : ""),
      h.factor,
      h.points_written[0],
      h.points_written[1],
      `${h.totals[0]} : ${h.totals[1]}`,
    ];
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = c;
      tr.append(td);
    }
    const td = document.createElement("td");
    td.className = "no-print";
    const edit = document.createElement("button");
    edit.type = "button";
    edit.className = "small edit";
    edit.textContent = t("edit");
    edit.onclick = () => startEdit(h);
    const del = document.createElement("button");
    del.type = "button";
    del.className = "small delete";
    del.textContent = t("remove");
    del.onclick = () => deleteHand(h.number);
    td.append(edit, del);
    tr.append(td);
    body.append(tr);
  }
  $("#hand-form").hidden = view.winner >= 0 && !editing;
  applyI18n();
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

function readForm() {
  const hand = {
    contract: $("#contract").value,
    chooser: +$("#chooser").value,
    weis: [readWeis($("#weis0").value), readWeis($("#weis1").value)],
    stoeck: $("#stoeck").value === "" ? null : +$("#stoeck").value,
    double: $("#double").checked,
    first_out: $("#first-out").value === "" ? null : +$("#first-out").value,
    berg_first: $("#berg-first").value === "" ? null : +$("#berg-first").value,
    schneider: $("#schneider").value === "" ? null : $("#schneider").value === "yes",
  };
  if ($("#match").value !== "") {
    hand.match = +$("#match").value;
  } else {
    const raw = $("#points").value.trim();
    hand.points = raw === "" ? null : Number(raw);
    hand.team = +$("#points-team").value;
  }
  return hand;
}

function resetForm() {
  editing = 0;
  $("#hand-form").reset();
  $("#cancel").hidden = true;
  showError("");
  if (sheet) show(sheet);
}

function startEdit(h) {
  editing = h.number;
  $("#hand-form").hidden = false;
  $("#contract").value = h.contract;
  $("#double").checked = h.double;
  $("#chooser").value = String(h.chooser);
  $("#points").value = h.points === null ? "" : h.points;
  $("#points-team").value = String(h.team);
  $("#match").value = h.match === null ? "" : String(h.match);
  $("#weis0").value = weisText(h.weis[0]);
  $("#weis1").value = weisText(h.weis[1]);
  $("#stoeck").value = h.stoeck === null ? "" : String(h.stoeck);
  $("#first-out").value = h.first_out === null ? "" : String(h.first_out);
  $("#berg-first").value = h.berg_first === null ? "" : String(h.berg_first);
  $("#schneider").value = h.schneider === null ? "" : h.schneider ? "yes" : "no";
  $("#cancel").hidden = false;
  showError("");
  applyI18n();
  $("#hand-form").scrollIntoView({ behavior: "smooth", block: "start" });
}

async function submitHand(ev) {
  ev.preventDefault();
  const button = $("#submit");
  if (button.disabled) return;
  button.disabled = true; // one hand at a time: the form is cleared when the answer comes
  const mine = visit;
  try {
    const hand = readForm();
    const view = editing
      ? await api("PUT", sheetPath(`/hands/${editing}`), hand)
      : await api("POST", sheetPath("/hands"), hand);
    if (mine !== visit) return; // written; the page shows another sheet by now
    editing = 0;
    $("#hand-form").reset();
    $("#cancel").hidden = true;
    showError("");
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
    button.disabled = false;
  }
}

async function deleteHand(n) {
  if (!confirm(t("confirm_delete", { n }))) return;
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

$("#lang").value = lang;
$("#lang").onchange = () => {
  lang = $("#lang").value;
  localStorage.setItem("tafel-lang", lang);
  applyI18n();
  route();
};
$("#new-preset").onchange = fillOptions;
$("#new-form").onsubmit = createSheet;
$("#import-file").onchange = importSheet;
$("#hand-form").onsubmit = submitHand;
$("#cancel").onclick = resetForm;
$("#print").onclick = () => window.print();
$("#match").onchange = () => {
  $("#points").disabled = $("#match").value !== "";
};
window.addEventListener("hashchange", route);
applyI18n();
route();
