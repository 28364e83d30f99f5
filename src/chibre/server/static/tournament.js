// The tournament page: with no id, the form that creates a tournament; with ?key= the
// organiser's page (entries, rounds, corrections, export), with ?player= a player's page
// (which sends the player to their seat when a round opens), with ?code= the join form and
// what spectators see. The state is asked for again every POLL ms: the standings are live.

import { applyI18n, colon, getLang, languageSelect, levelName, levelWord, t } from "./i18n.js";
import { linkRow } from "./links.js";

const $ = (id) => document.getElementById(id);
const POLL = 1500;
const params = new URLSearchParams(location.search);
const id = location.pathname.split("/")[2] || "";
const secret = ["key", "player", "code"].find((k) => params.get(k));
const query = secret ? `${secret}=${encodeURIComponent(params.get(secret))}` : "";
let last = null;
const KEPT = `chibre.tournament.${id}.me`; // the player's own link, kept once opened here

/** The player this browser entered in the tournament: {name, link}, or null. */
function kept() {
  try {
    const me = JSON.parse(localStorage.getItem(KEPT) || "null");
    return me && me.name && me.link ? me : null;
  } catch (e) {
    return null;
  }
}

function keep(me) {
  try {
    if (me) localStorage.setItem(KEPT, JSON.stringify(me));
    else localStorage.removeItem(KEPT);
  } catch (e) {
    /* no storage: nothing kept */
  }
}

/** A kept link that opens no player any more (the entry was removed) is forgotten. */
async function checkKept() {
  const me = kept();
  if (!me) return;
  const r = await fetch(`/api/tournaments/${id}${new URL(me.link, location.origin).search}`).catch(() => null);
  if (r && (r.status === 403 || r.status === 404)) keep(null);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function say(message) {
  $("message").hidden = !message;
  $("message").textContent = message ? t("tour_error", { message }) : "";
}

async function api(path, body, method) {
  const response = await fetch(path, {
    method: method || (body === undefined ? "GET" : "POST"),
    headers: { "Content-Type": "application/json", "Accept-Language": getLang() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

/** The answer to ``request()``, sent once: ``button`` is disabled until it comes, so a second
 * press (a double click) sends nothing. A refusal is said on the page (null). */
async function sendOnce(button, request) {
  if (button.disabled) return null;
  button.disabled = true;
  try {
    return await request();
  } catch (e) {
    say(e.message);
    return null;
  } finally {
    button.disabled = false;
  }
}

function submitButton(form) {
  return form.querySelector("button[type=submit]");
}

function qr(link) {
  const img = el("img", { class: "qr", alt: "" });
  img.src = `/qr.svg?text=${encodeURIComponent(new URL(link, location.origin).href)}`;
  return img;
}

function applyAll() {
  applyI18n();
}

// --- creating ----------------------------------------------------------------------------

async function showCreate() {
  const form = $("create-form");
  form.hidden = false;
  $("standings-box").hidden = true;
  const [{ presets }, { players }] = await Promise.all([api("/api/presets"), api("/api/players")]);
  form.preset.replaceChildren(...Object.keys(presets).map((p) => el("option", { value: p }, t(`preset_${p}`))));
  form.preset.value = "geneve-500";
  form.level.replaceChildren(...players.map((p) => el("option", { value: p }, levelWord(p))));
  form.level.value = "rule";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      name: form.name.value,
      format: form.format.value,
      preset: form.preset.value,
      options: { target: Number(form.target.value), weis: form.weis.checked },
      rounds: Number(form.rounds.value),
      scoring: form.scoring.value,
      level: form.level.value,
      auto: form.auto.checked,
      real_tables: Number(form.real_tables.value),
      hands: Number(form.hands.value),
      duplicate: form.duplicate.checked,
      move_limit: Number(form.move_limit.value),
    };
    if (form.grace.value) body.grace = Number(form.grace.value);
    if (form.first_chooser.value) body.options.first_chooser = form.first_chooser.value;
    const made = await sendOnce(submitButton(form), () => api("/api/tournaments", body));
    if (made) location.href = made.organiser;
  });
}

// --- showing ------------------------------------------------------------------------------

function entryItem(state, entry) {
  const who = entry.members.join(" & ");
  const kind = entry.kind === "human" ? "" : ` — ${t("tour_computer", { level: levelWord(entry.kind) })}`;
  const notes = [];
  if (entry.status === "withdrawn") notes.push(t("tour_withdrawn"));
  if (entry.since > 1) notes.push(t("tour_late", { n: entry.since }));
  const li = el("li", { "data-entry": entry.id, "data-place": `entry ${entry.id}` }, who + kind + (notes.length ? ` (${notes.join(", ")})` : ""));
  if (state.role === "organiser") {
    const act = (label, path, method, asked) => {
      const b = el("button", { class: "btn btn-small", type: "button" }, t(label));
      b.setAttribute("aria-label", t(`${label}_who`, { name: who })); // whose entry
      const send = () => change(b, `/api/tournaments/${id}/entries/${entry.id}${path}?${query}`, method);
      b.addEventListener("click", () => (asked ? confirmFirst(b, label, t(asked, { name: who }), send) : send()));
      return b;
    };
    if (entry.status === "withdrawn") li.append(act("tour_return", "/return"));
    else li.append(act("tour_withdraw", "/withdraw", undefined, "tour_confirm_withdraw"));
    li.append(act("tour_remove", "", "DELETE", "tour_confirm_remove"));
  }
  return li;
}

let confirmed = null; // what the confirmation's "yes" does
let asker = null; // the button that opened the confirmation, to go back to: focusMark()

/** Ask before ``then()``, as ``button`` wants: the dialog names the change (``label``) and
 * says what it does. */
function confirmFirst(button, label, text, then) {
  $("confirm-title").textContent = t(label);
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = t(label);
  confirmed = then;
  asker = focusMark(button);
  $("confirm-dialog").showModal();
}

// --- the keyboard's place ----------------------------------------------------------------
// The entries and the rounds are drawn anew with every state: the button the keyboard is on
// is found again by its place (data-place: an entry, a round, a round's table) and its words.

/** Where ``node`` is (drawn over since, maybe), to find it again; null outside a place. */
function focusMark(node) {
  const place = node.closest("[data-place]")?.dataset.place;
  if (!place) return null;
  const box = $(place.startsWith("entry") ? "entries" : "rounds");
  const at = [...box.querySelectorAll("[data-place]")].findIndex((p) => p.dataset.place === place);
  return { box, place, tag: node.tagName, text: node.textContent, at };
}

/** The focus back on what ``mark`` names; if it is gone, on the first control of its place, or
 * of the place now at its spot (the next entry after one removed), else on what its box
 * falls back to. */
function refocus(mark) {
  if (!mark) return;
  const controls = (place) => (place ? [...place.querySelectorAll("a, button, h3")] : []);
  const places = [...mark.box.querySelectorAll("[data-place]")];
  const same = places.find((p) => p.dataset.place === mark.place);
  const again =
    controls(same).find((c) => c.tagName === mark.tag && c.textContent === mark.text) ||
    controls(same || places[Math.min(mark.at, places.length - 1)])[0] ||
    (mark.box === $("entries") ? $("add-form").name : currentRound());
  again?.focus();
}

/** ``box`` drawn anew with ``children``, the keyboard kept where it was. */
function redraw(box, children) {
  const mark = box.contains(document.activeElement) ? focusMark(document.activeElement) : null;
  box.replaceChildren(...children);
  refocus(mark);
}

/** The heading of the round being played (the first drawn), where the focus goes when the
 * button that was on is gone: the next round drawn, a table's time called. */
function currentRound() {
  return $("next-round").hidden ? $("rounds").querySelector("h3") : $("next-round");
}

/** The organiser's change sent by ``button`` (once, however often pressed), then the new state;
 * the focus, lost while the button was disabled, back on it (or where it was: refocus()). */
async function change(button, path, method, body) {
  const mark = focusMark(button);
  await sendOnce(button, async () => {
    await api(path, body === undefined && method !== "DELETE" ? {} : body, method);
    say("");
    await refresh();
  });
  if (document.activeElement !== document.body) return;
  if (mark) refocus(mark);
  else if (!button.hidden) button.focus();
}

/** Whether a seat of a table is known by its level: a computer with no name of its own (one
 * that fills the table), as the table's page knows it. */
function levelNamed(s) {
  return s.computer && s.kind !== "human" && (!s.name || s.name === s.kind);
}

/** A seat's name: its player's; a computer that fills the table by its level, numbered by
 * its seat when two at the table share it — as the table's page and game sheet name it. */
function seatName(table, s) {
  if (!levelNamed(s)) return s.name;
  const twin = table.seats.some((o) => o.seat !== s.seat && o.kind === s.kind && levelNamed(o));
  return twin ? `${levelName(s.kind)} (${s.seat + 1})` : levelName(s.kind);
}

function tableCard(state, table, round) {
  const card = el("div", { class: "table-card", "data-table": String(table.table), "data-place": `round ${round} table ${table.table}` });
  const status = table.closed ? t("tour_closed") : table.done ? t("tour_over") : t("tour_playing");
  const kind = table.kind === "cards" ? t("tour_cards") : t("tour_online");
  const turned = table.turned ? ` · ${t("tour_turned")}` : "";
  card.append(el("h4", {}, `${t("tour_table", { n: table.table })} · ${kind}${turned} · ${status}`));
  const teams = [0, 1].map((team) => {
    const names = [table.seats[team], table.seats[team + 2]].map((s) => {
      const span = el("span", { class: `tour-seat${s.flagged ? " flagged" : ""}${s.computer ? " computer" : ""}`, "data-seat": String(s.seat) }, seatName(table, s));
      if (s.flagged) span.title = t("tour_replaced");
      return span;
    });
    const flags = [table.seats[team], table.seats[team + 2]].some((s) => s.flagged) ? ` ⚑ ${t("tour_replaced")}` : "";
    return el("p", { class: "team" }, names[0], " & ", names[1], ` — ${table.totals[team]}`, flags);
  });
  card.append(...teams, el("p", {}, t("tour_hands", { n: table.hands })));
  if (state.role === "organiser" && !table.done && table.kind) {
    // time called: a table that would not finish counts at the score it stands at
    const b = el("button", { class: "btn btn-small no-print", type: "button", "data-call-time": String(table.table) }, t("tour_call_time"));
    const send = () => change(b, `/api/tournaments/${id}/rounds/${round}/tables/${table.table}/close?${query}`);
    const [a, z] = table.totals;
    b.addEventListener("click", () => confirmFirst(b, "tour_call_time", t("tour_confirm_call_time", { n: table.table, a, b: z }), send));
    card.append(b);
  }
  if (table.watch) card.append(el("a", { href: table.watch, class: "no-print" }, t("tour_watch")));
  if (table.sheet) card.append(el("p", {}, el("a", { href: table.sheet }, t("tour_sheet")), " ", qr(table.sheet), el("span", { class: "short-link" }, table.sheet)));
  if (table.deals) {
    const seed = table.deals.seed ? ` · ${t("tour_seed")} ${table.deals.seed}` : "";
    card.append(el("p", { class: "deals" }, `${t("tour_deals")}${colon()} ${table.deals.commitment}${seed}`));
  }
  return card;
}

function standingsTable(state) {
  const swiss = state.format === "swiss";
  const head = ["tour_rank", "tour_player", "tour_score", "tour_points", "tour_diff", "tour_won", "tour_games"];
  if (swiss) head.push("tour_buchholz");
  const rows = state.standings.map((s) => {
    const out = s.status === "withdrawn";
    const name = out ? `${s.name} (${t("tour_withdrawn")})` : s.name;
    const cells = [s.rank, name, s.score, s.points, s.difference, s.won, s.games];
    if (swiss) cells.push(s.buchholz);
    const you = state.you && state.you.entry === s.entrant;
    const mark = [you ? "me" : "", out ? "out" : ""].join(" ").trim();
    return el("tr", { class: mark, "data-entrant": s.entrant }, ...cells.map((c) => el("td", {}, String(c))));
  });
  return [el("tr", {}, ...head.map((h) => el("th", {}, t(h)))), ...rows];
}

/** What breaks ties, in order: the format's tie-breaks, as chibre.tournament.plan ranks them. */
function ties(state) {
  const order = state.format === "swiss" ? ["buchholz", "difference"] : ["difference"];
  const named = order.map((k) => t(`tour_tie_${k}`)).reduce((a, b) => t("tour_tie_then", { a, b }));
  return t("tour_ties", { order: named });
}

/** How every table plays, and the time limits, in one line. */
function terms(state) {
  const parts = [state.hands ? t("tour_terms_passe", { n: state.hands }) : t("tour_terms_target", { target: state.rules.target })];
  if (state.duplicate) parts.push(t("tour_terms_duplicate"));
  parts.push(t("tour_terms_grace", { s: state.grace }));
  if (state.move_limit) parts.push(t("tour_terms_move", { s: state.move_limit }));
  return parts.join(" · ");
}

function render(state) {
  last = state;
  document.title = `Chibre — ${state.name}`;
  $("title").textContent = state.name;
  $("terms").hidden = false;
  $("terms").textContent = terms(state);
  const organiser = state.role === "organiser";
  $("links").hidden = !organiser;
  if (organiser) {
    $("join-link").href = state.join;
    $("join-link").textContent = new URL(state.join, location.origin).href;
    $("join-qr").src = `/qr.svg?text=${encodeURIComponent(new URL(state.join, location.origin).href)}`;
    $("organiser-row").hidden = false;
    $("organiser-link").href = state.organiser;
    $("organiser-link").textContent = new URL(state.organiser, location.origin).href;
    showPlayers(state.players);
  }
  const me = state.role === "spectator" ? kept() : null;
  $("known").hidden = !me; // back to the player's own page from the join link
  if (me) {
    $("known-text").textContent = t("tour_entered_as", { name: me.name });
    $("known-link").href = me.link;
  }
  $("join-form").hidden = state.role !== "spectator" || state.current >= state.planned;
  $("partner-row").hidden = state.format === "evening";
  $("entries-box").hidden = !organiser && state.role !== "spectator";
  $("add-form").hidden = !organiser;
  $("next-round").hidden = !organiser || !state.round_over || state.current >= state.planned;
  $("bye-rule").hidden = state.format !== "evening";
  $("add-form").partner.hidden = state.format === "evening";
  redraw($("entries"), state.entries.map((e) => entryItem(state, e)));
  redraw(
    $("rounds"),
    [...state.rounds].reverse().map((r) => // the current round first
      el("div", { class: `round panel-box${r.round === state.current ? " current" : ""}`, "data-round": String(r.round), "data-place": `round ${r.round}` },
        el("h3", { tabIndex: -1 }, t("tour_round", { n: r.round })),
        el("div", { class: "tour-tables" }, ...r.tables.map((table) => tableCard(state, table, r.round))),
      ),
    ),
  );
  $("standings-title").textContent = t(state.finished ? "tour_final" : "tour_standings");
  $("live-note").hidden = state.finished;
  $("standings").replaceChildren(...standingsTable(state));
  $("ties").textContent = ties(state);
  $("print-round").hidden = !state.rounds.length;
  $("exports").hidden = !organiser;
  const real = state.rounds.some((r) => r.tables.some((table) => table.kind === "cards"));
  $("correct-form").hidden = !organiser || !real;
  // a Schneider only where a game is won to a target and the rules count one (not in a Passe)
  $("correct-form").schneider.hidden = Boolean(state.hands) || !state.rules.striche.schneider;
  if (organiser) {
    $("export-csv").href = `/api/tournaments/${id}/export.csv?${query}`;
    $("export-json").href = `/api/tournaments/${id}/export.json?${query}`;
    $("audit-box").hidden = !state.audit.length;
    $("audit").replaceChildren(
      ...state.audit.map((a) => {
        const who = t(a.who === "organiser" ? "tour_by_organiser" : "tour_by_scorer");
        const when = new Date(a.at * 1000).toLocaleTimeString();
        const what = `${t("tour_round", { n: a.round })}, ${t("tour_table", { n: a.table })}${colon()} #${a.hands.join(", #")} → ${a.totals.join(":")}`;
        return el("li", { "data-who": a.who }, `${when} · ${who} · ${what}${a.reason ? ` (${a.reason})` : ""}`);
      }),
    );
  }
  showYou(state);
}

const playerRows = new Map(); // each player's link → its row, kept: an open QR code stays open

/** The organiser's list of the players' own links, each to copy or to show as a QR code. */
function showPlayers(players) {
  $("players-box").hidden = !players.length;
  const rows = players.map((p) => playerRows.get(p.link) || linkRow(p.name, p.link));
  playerRows.clear();
  players.forEach((p, n) => playerRows.set(p.link, rows[n]));
  const list = $("players-links");
  if (rows.length !== list.children.length || rows.some((row, n) => list.children[n] !== row)) {
    list.replaceChildren(...rows);
  }
}

/** The player's partner and opponents at their table, by name (from the round's draw). */
function company(state, where) {
  const round = state.rounds.find((r) => r.round === where.round);
  const table = round && round.tables.find((x) => x.table === where.table);
  if (!table) return "";
  const name = (n) => seatName(table, table.seats[(where.seat + n) % 4]);
  return t("tour_company", { partner: name(2), one: name(1), two: name(3) });
}

/** The player's place in the final ranking: rank, of how many, and score. */
function finalRank(state) {
  const mine = state.standings.find((s) => s.entrant === state.you.entry);
  if (!mine) return "";
  const unit = state.duplicate ? "tour_score_duplicate" : `tour_score_${state.scoring}`;
  const score = t(unit, { n: mine.score });
  return t("tour_final_rank", { rank: mine.rank, n: state.standings.length, score });
}

let ownRow = null; // the row of the player's own link, drawn once

/** The player's own link, shown and kept in this browser. */
function showOwn(name) {
  const link = `/tournament/${id}?${query}`;
  const before = kept();
  if (!before || before.link !== link || before.name !== name) keep({ name, link });
  if (!ownRow) $("you-link").replaceChildren((ownRow = linkRow(t("tour_your_link"), link)));
}

function showYou(state) {
  $("you").hidden = !state.you;
  if (!state.you) return;
  $("you-name").textContent = state.you.name;
  showOwn(state.you.name);
  const where = state.you.table;
  if (state.finished) {
    $("you-table").replaceChildren(`${t("tour_finished")} ${finalRank(state)}`);
    return;
  }
  if (!where || where.done) {
    $("you-table").replaceChildren(t("tour_wait"));
    return;
  }
  const text = t("tour_your_table", { round: where.round, table: where.table, seat: where.seat + 1 });
  const go = where.link || where.sheet;
  $("you-table").replaceChildren(
    text,
    el("br"),
    company(state, where),
    " ",
    go ? el("a", { href: go, id: "your-seat" }, t(where.link ? "tour_play" : "tour_sheet")) : "",
  );
  const sent = `chibre.tournament.${id}.sent`;
  if (where.link && sessionStorage.getItem(sent) !== String(where.round)) {
    sessionStorage.setItem(sent, String(where.round));
    location.href = where.link; // sent to the seat when the round opens
  }
}

let asked = 0; // the states asked for, numbered
let drawn = 0; // the number of the newest state drawn

async function refresh() {
  // a poll's answer may come after a newer one (asked after a change): never draw it over it
  const number = ++asked;
  try {
    const state = await api(`/api/tournaments/${id}?${query}`);
    if (number < drawn) return;
    drawn = number;
    render(state);
  } catch (e) {
    if (number >= drawn) say(e.message);
  }
}

function wire() {
  $("next-round").addEventListener("click", async () => {
    await change($("next-round"), `/api/tournaments/${id}/rounds?${query}`, "POST", {});
    if ($("next-round").hidden) currentRound().focus(); // on the round just drawn
  });
  // the whole page, or only the standings, or only the current round's draw (tournament.css)
  const print = (only) => {
    if (only) document.body.dataset.print = only;
    else delete document.body.dataset.print;
    window.print();
  };
  $("print").addEventListener("click", () => print());
  $("print-standings").addEventListener("click", () => print("standings"));
  $("print-round").addEventListener("click", () => print("round"));
  window.addEventListener("afterprint", () => delete document.body.dataset.print);
  $("confirm-dialog").addEventListener("close", () => refocus(asker));
  $("confirm-yes").addEventListener("click", () => {
    $("confirm-dialog").close();
    const then = confirmed;
    confirmed = null;
    if (then) then();
  });
  const add = $("add-form");
  add.kind.replaceChildren(el("option", { value: "human" }, t("tour_human")));
  api("/api/players").then(({ players }) =>
    add.kind.append(
      ...players.map((p) => el("option", { value: p }, t("tour_computer", { level: levelWord(p) }))),
    ),
  );
  add.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { name: add.name.value, kind: add.kind.value };
    if (last && last.format !== "evening") body.partner = add.partner.value;
    add.name.value = "";
    change(submitButton(add), `/api/tournaments/${id}/entries?${query}`, "POST", body);
  });
  const correct = $("correct-form");
  correct.addEventListener("submit", (event) => {
    event.preventDefault();
    const number = (name) => Number(correct[name].value);
    const body = { round: number("round"), table: number("table"), hand: number("hand") };
    // the trick points of the team entered or chosen; the rest is kept (no points: the
    // Schneider alone is corrected, the hand kept as entered)
    if (correct.points.value !== "") body.points = number("points");
    if (correct.team.value) body.team = number("team");
    if (correct.match.checked) body.match = true;
    // the organiser's word on the Schneider, where the tournament's rules have one
    if (!correct.schneider.hidden && correct.schneider.value) body.schneider = correct.schneider.value === "true";
    body.reason = correct.reason.value;
    change(submitButton(correct), `/api/tournaments/${id}/corrections?${query}`, "POST", body);
  });
  const join = $("join-form");
  join.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: join.name.value };
    if (last && last.format !== "evening") body.partner = join.partner.value;
    const entered = await sendOnce(submitButton(join), () =>
      api(`/api/tournaments/${id}/entries?${query}`, body),
    );
    if (entered) location.href = entered.links[0];
  });
}

$("tools").append(
  languageSelect(() => {
    playerRows.clear(); // drawn again in the new language
    ownRow = null;
    applyAll();
    if (last) render(last);
  }),
);
applyAll();
if (!id) {
  showCreate();
} else {
  wire();
  if (secret === "code") checkKept();
  refresh();
  setInterval(refresh, POLL);
}
