// The replay of a finished game, move by move, from its record (GET /api/tables/{id}/record
// ?format=json): every hand is shown face up, the tricks are played again one card at a time.

import { colon, formatNumber, t } from "./i18n.js";
import { cardImage, cardName, contractIcon, contractName, sortHand, trickWinner } from "./cards.js";

const CONTRACTS = ["diamonds", "hearts", "spades", "clubs", "obenabe", "undenufe"];
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The SVG namespace, as the HTML parser gives it to an <svg> element. */
function svgNamespace() {
  const holder = document.createElement("div");
  holder.innerHTML = "<svg></svg>";
  return holder.firstElementChild.namespaceURI;
}

/** Why the team that writes the weis won them (`weis_reason` of the VIEW and of the record's
 * scores, RULES.md §5), in a few words; "" when nothing was compared. The top card that wins is
 * the lower one in Undenufe under `undenufe_low_weis`. */
export function weisWhy(reason, contract, rules) {
  switch (reason) {
    case "points":
      return t("weis_why_points");
    case "cards":
      return t("weis_why_cards");
    case "top":
      return contract === 5 && rules?.undenufe_low_weis ? t("weis_why_lower") : t("weis_why_higher");
    case "trump":
      return t("weis_why_trump");
    case "order":
      return t("weis_why_order");
    default:
      return "";
  }
}

export class Replay {
  /** `record`: the JSON record; `hooks`: deck(), mapping(), seatName(s), posOf(s), close(). */
  constructor(record, hooks) {
    this.record = record;
    this.hooks = hooks;
    this.hand = 0;
    this.move = 0;
    this.review = null; // the coach's review, once the server has made it
    this.byMove = new Map();
    $("rp-start").addEventListener("click", () => this.go(this.hand, 0));
    $("rp-prev").addEventListener("click", () => this.step(-1));
    $("rp-next").addEventListener("click", () => this.step(1));
    $("rp-end").addEventListener("click", () => this.go(this.hand, this.moves()));
    $("rp-back").addEventListener("click", () => hooks.close());
    $("rp-hand").addEventListener("change", () => this.go(Number($("rp-hand").value), 0));
  }

  /** The coach's review (GET /api/tables/{id}/review): each assessment shown at its move. */
  setReview(review) {
    this.review = review;
    this.byMove = new Map();
    for (const a of review.assessments) {
      const key = `${a.hand}:${a.move}`;
      if (!this.byMove.has(key)) this.byMove.set(key, []);
      this.byMove.get(key).push(a);
    }
    $("replay").dataset.reviewed = "1";
    this.render();
    this.renderSummary();
  }

  /** The review in figures, per seat reviewed — decisions, points lost per hand, accuracy —
   * and its biggest mistakes, each a button to its move. */
  renderSummary() {
    const box = $("rp-summary");
    box.hidden = !this.review;
    if (!this.review) return;
    box.replaceChildren(
      ...this.review.summaries.map((s) => {
        const part = el("div", "rp-summary-seat");
        part.dataset.seat = String(s.seat);
        part.append(
          el("p", "", t("coach.summary", {
            seat: this.hooks.seatName(s.seat),
            n: s.decisions,
            lost: formatNumber(s.lost_per_hand),
            accuracy: Math.round(100 * s.accuracy),
          })),
        );
        const mistakes = s.biggest
          .map((entry) => this.review.assessments.find((a) => a.entry === entry && a.seat === s.seat))
          .filter(Boolean);
        if (!mistakes.length) {
          part.append(el("p", "", t("coach.no_mistake")));
          return part;
        }
        const list = el("div", "rp-mistakes");
        list.append(el("span", "", `${t("coach.biggest")}${colon()}`));
        for (const a of mistakes) {
          const go = el("button", "btn btn-small", `${t("hand_n", { n: a.hand + 1 })} · ${a.head}`);
          go.type = "button";
          go.dataset.hand = String(a.hand);
          go.addEventListener("click", () => this.go(a.hand, a.move + 1));
          list.append(go);
        }
        part.append(list);
        return part;
      }),
    );
  }

  /** The review's progress, in the bar. */
  setProgress(text) {
    $("rp-review").textContent = text;
  }

  moves(hand = this.hand) {
    return this.record.hands[hand]?.actions?.length ?? 0;
  }

  go(hand, move) {
    const hands = this.record.hands.length;
    this.hand = Math.max(0, Math.min(hands - 1, hand));
    this.move = Math.max(0, Math.min(this.moves(), move));
    this.render();
  }

  step(delta) {
    const move = this.move + delta;
    if (move > this.moves() && this.hand < this.record.hands.length - 1) this.go(this.hand + 1, 0);
    else if (move < 0 && this.hand > 0) this.go(this.hand - 1, this.moves(this.hand - 1));
    else this.go(this.hand, move);
  }

  key(event) {
    const keys = {
      ArrowRight: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      Home: () => this.go(this.hand, 0),
      End: () => this.go(this.hand, this.moves()),
      PageDown: () => this.go(this.hand + 1, 0),
      PageUp: () => this.go(this.hand - 1, 0),
      Escape: () => this.hooks.close(),
    };
    if (keys[event.key] && !(event.target && event.target.tagName === "SELECT")) {
      keys[event.key]();
      event.preventDefault();
    }
  }

  /** The position after `this.move` actions of the hand. */
  position() {
    const hand = this.record.hands[this.hand];
    const held = hand.cards.map((cards) => new Set(cards));
    let contract = -1;
    let contractSeat = -1;
    let trick = [];
    let leader = -1;
    let last = "";
    let winner = -1;
    let played = 0;
    let chibred = false;
    const won = [0, 0];
    hand.actions.slice(0, this.move).forEach((a) => {
      if (a.declare) {
        // weis or stöck declared outside a card: the trick on the table stays as it is
        const said = [a.weis && a.weis.length ? t("weis") : "", a.stoeck ? t("stoeck") : ""];
        last = `${this.hooks.seatName(a.seat)}${colon()} ${said.filter(Boolean).join(" · ")}`;
        return;
      }
      winner = -1;
      if (a.card) {
        if (trick.length === 4) trick = [];
        if (!trick.length) leader = a.seat;
        held[a.seat].delete(a.card);
        trick.push(a.card);
        played += 1;
        last = `${this.hooks.seatName(a.seat)}${colon()} ${cardName(a.card, this.hooks.deck(), this.hooks.mapping())}`;
        if (a.stoeck) last += ` · ${t("stoeck")}`;
        if (a.weis && a.weis.length) last += ` · ${t("weis")}`;
        if (trick.length === 4) {
          winner = trickWinner(trick, leader, contract);
          won[winner & 1] += 1;
        }
      } else if (a.contract !== undefined) {
        contract = CONTRACTS.indexOf(a.contract);
        contractSeat = a.seat;
        const name = contractName(contract, this.hooks.deck(), this.hooks.mapping());
        last = `${this.hooks.seatName(a.seat)}${colon()} ${name}`;
      } else if (a.chibre) {
        chibred = true;
        last = `${this.hooks.seatName(a.seat)}${colon()} ${t("chibred")}`;
      } else if (a.thank) {
        last = t("thanked", { name: this.hooks.seatName(a.seat) });
      }
    });
    return { hand, held, contract, contractSeat, chibred, trick, leader, last, winner, won, played };
  }

  /** The teams as the page shows them, the bottom seat's first, each named by its seats. */
  teams() {
    const first = [0, 1, 2, 3].find((s) => this.hooks.posOf(s) === "bottom") ?? 0;
    return [first & 1, 1 - (first & 1)].map((team) => ({
      team,
      name: `${this.hooks.seatName(team)} & ${this.hooks.seatName(team + 2)}`,
    }));
  }

  /** The hand's score as the table wrote it (the record's `scores`): each weis written from
   * the move the table showed it (`move`: once the first trick is taken, or when declared
   * later), with its cards; the stöck from the move they were declared (`stoeck_move`); the
   * tricks won so far; at the hand's end every block, the hand's total and the running
   * totals, the match, and whether the game was decided in it. */
  renderScore(p) {
    const box = $("rp-score");
    box.replaceChildren();
    const score = this.record.scores?.[this.hand];
    const deck = this.hooks.deck();
    const mapping = this.hooks.mapping();
    const over = this.move === this.moves();
    const shown = score ? score.weis.filter((w) => w.move <= this.move) : [];
    if (shown.length) {
      const line = el("div", "rp-weis");
      line.append(el("span", "", `${t("weis")}${colon()}`));
      for (const w of shown) {
        const item = el("span", "rp-weis-item");
        item.append(el("span", "", this.hooks.seatName(w.seat)));
        for (const code of w.cards) item.append(cardImage(code, deck, mapping));
        item.append(el("span", "", String(w.points)));
        line.append(item);
      }
      const why = weisWhy(score.weis_reason, p.contract, this.record.rules);
      if (why) line.append(el("span", "rp-weis-why", `(${why})`));
      box.append(line);
    }
    if (score && score.stoeck >= 0 && score.stoeck_move <= this.move) {
      box.append(el("div", "rp-stoeck", `${t("stoeck")}${colon()} ${this.hooks.seatName(score.stoeck)}`));
    }
    const teams = this.teams();
    const table = el("table", "rp-score-table");
    const head = el("tr");
    head.append(el("th", "", t("this_hand")), ...teams.map((x) => el("th", "", x.name)));
    table.append(head);
    const row = (label, values, cls = "") => {
      const tr = el("tr", cls);
      tr.append(el("th", "", label), ...values.map((v) => el("td", "", String(v))));
      table.append(tr);
    };
    row(t("tricks_won"), teams.map((x) => p.won[x.team]));
    if (over && score) {
      for (const block of ["stoeck", "weis", "tricks", "match"]) {
        const values = teams.map((x) => score.teams[x.team][block]);
        if (block === "tricks" || values.some(Boolean)) row(t(block), values);
      }
      row(t("total"), teams.map((x) => score.teams[x.team].total), "rp-total"); // ×factor already
      row(t("sheet_running"), teams.map((x) => score.totals[x.team]), "rp-running");
    }
    box.append(table);
    if (over && score) {
      const said = [];
      if (score.match >= 0) said.push(`${t("match")}${colon()} ${teams.find((x) => x.team === score.match).name}`);
      if (score.decided) said.push(t(said.length ? "rp_decided" : "rp_decided_alone")); // starts the line: capitalised
      if (said.length) box.append(el("p", "rp-said", said.join(" · ")));
    }
  }

  /** The record's incidents (a foreign bot's decision the fallback made) of the move shown:
   * each names the record's entry `at` it concerns (a hand's deal is one entry, then its moves). */
  incidents() {
    let start = 0;
    for (let h = 0; h < this.hand; h++) start += 1 + this.moves(h);
    return (this.record.incidents ?? []).filter((i) => i.at - start === this.move);
  }

  render() {
    if (!this.record.hands.length) return;
    const deck = this.hooks.deck();
    const mapping = this.hooks.mapping();
    const p = this.position();
    const select = $("rp-hand");
    if (select.options.length !== this.record.hands.length) {
      select.replaceChildren(
        ...this.record.hands.map((_, i) => {
          const o = el("option", "", t("hand_n", { n: i + 1 }));
          o.value = String(i);
          return o;
        }),
      );
    }
    for (const [i, o] of [...select.options].entries()) o.textContent = t("hand_n", { n: i + 1 });
    select.value = String(this.hand);
    $("rp-where").textContent = this.move === 0
      ? t("deal_shown")
      : t("move_n", { n: this.move, total: this.moves() });
    $("replay").dataset.hand = String(this.hand);
    $("replay").dataset.move = String(this.move);
    for (let seat = 0; seat < 4; seat++) {
      const pos = this.hooks.posOf(seat);
      const box = $(`rp-${pos}`);
      box.replaceChildren();
      const plate = el("div", "plate");
      plate.append(el("span", "name", this.hooks.seatName(seat)));
      if (p.hand.dealer === seat) plate.append(el("span", "chip chip-dealer", "D"));
      if (p.contractSeat === seat && p.contract >= 0) {
        const chip = el("span", "chip chip-contract");
        chip.append(contractIcon(p.contract, deck, mapping));
        plate.append(chip);
      }
      const cards = el("div", "rp-cards");
      for (const code of sortHand([...p.held[seat]], p.contract)) {
        const image = cardImage(code, deck, mapping);
        image.dataset.card = code;
        cards.append(image);
      }
      box.append(plate, cards);
    }
    const trick = $("rp-trick");
    trick.replaceChildren();
    const wrap = el("div", "trick-cards");
    p.trick.forEach((code, i) => {
      const seat = (p.leader + i) % 4;
      const slot = el("div", `slot slot-${this.hooks.posOf(seat)}`);
      if (seat === p.winner) slot.classList.add("winner");
      const image = cardImage(code, deck, mapping);
      image.dataset.card = code;
      slot.append(image);
      wrap.append(slot);
    });
    trick.append(wrap);
    const note = $("rp-note");
    note.replaceChildren();
    if (p.contract >= 0) {
      const line = el("div", "rp-contract");
      const factor = this.record.scores?.[this.hand]?.factor ?? 1;
      const name = contractName(p.contract, deck, mapping) + (factor > 1 ? ` ×${factor}` : "") +
        ` · ${this.hooks.seatName(p.contractSeat)}${p.chibred ? t("rp_after_chibre") : ""}`;
      line.append(contractIcon(p.contract, deck, mapping), el("span", "", name));
      note.append(line);
    }
    note.append(el("div", "", p.last));
    for (const i of this.incidents()) {
      const kind = t(`protocols.kind.${i.kind}`);
      const said = t("protocols.incident", { name: this.hooks.seatName(i.seat), kind, seconds: i.seconds.toFixed(1) });
      const line = el("div", "rp-incident", said);
      line.title = i.detail;
      note.append(line);
    }
    this.renderScore(p);
    this.renderReview();
  }

  /** The coach's word on the move just shown: its verdict on the card, the better card
   * highlighted in the hand it was in, and the graph of the expected score over the hand. */
  renderReview() {
    const box = $("rp-coach");
    box.replaceChildren();
    $("rp-graph").replaceChildren();
    if (!this.review) return;
    for (const a of this.byMove.get(`${this.hand}:${this.move - 1}`) || []) {
      const line = el("div", `coach-line coach-${a.verdict_key}`);
      line.dataset.verdict = a.verdict;
      line.textContent = a.text;
      box.append(line);
      if (a.kind !== "card") continue;
      const played = $("rp-trick").querySelector(`img[data-card="${a.taken}"]`);
      if (played) {
        played.parentElement.dataset.verdict = a.verdict;
        played.parentElement.classList.add(`coach-${a.verdict_key}`);
      }
      if (a.best !== a.taken && a.verdict_key !== "good") {
        const seatBox = $(`rp-${this.hooks.posOf(a.seat)}`);
        seatBox.querySelector(`img[data-card="${a.best}"]`)?.classList.add("coach-best");
      }
    }
    this.renderGraph();
  }

  renderGraph() {
    const shown = this.review.assessments.filter((a) => a.hand === this.hand && a.expected !== null);
    if (!shown.length) return;
    const NS = svgNamespace();
    const w = 260;
    const h = 90;
    const total = Math.max(1, this.moves());
    const top = Math.max(157, ...shown.map((a) => a.expected));
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("class", "coach-graph");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("coach.expected"));
    const title = document.createElementNS(NS, "title");
    title.textContent = t("coach.expected");
    svg.append(title);
    const x = (move) => 4 + ((w - 8) * move) / total;
    const y = (v) => h - 4 - ((h - 8) * Math.max(0, v)) / top;
    for (const seat of [...new Set(shown.map((a) => a.seat))]) {
      const mine = shown.filter((a) => a.seat === seat);
      const line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", mine.map((a) => `${x(a.move)},${y(a.expected)}`).join(" "));
      line.setAttribute("class", `coach-curve coach-seat-${seat}`);
      svg.append(line);
      for (const a of mine) {
        const dot = document.createElementNS(NS, "circle");
        dot.setAttribute("cx", String(x(a.move)));
        dot.setAttribute("cy", String(y(a.expected)));
        dot.setAttribute("r", a.move === this.move - 1 ? "4" : "2.5");
        dot.setAttribute("class", `coach-dot coach-${a.verdict_key}`);
        svg.append(dot);
      }
    }
    const now = document.createElementNS(NS, "line");
    now.setAttribute("x1", String(x(this.move)));
    now.setAttribute("x2", String(x(this.move)));
    now.setAttribute("y1", "0");
    now.setAttribute("y2", String(h));
    now.setAttribute("class", "coach-now");
    svg.append(now);
    $("rp-graph").append(el("div", "coach-graph-title", t("coach.expected")), svg);
  }
}
