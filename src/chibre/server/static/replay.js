// The replay of a finished game, move by move, from its record (GET /api/tables/{id}/record
// ?format=json): every hand is shown face up, the tricks are played again one card at a time.

import { t } from "./i18n.js";
import { cardImage, cardName, contractIcon, contractName, sortHand, trickWinner } from "./cards.js";

const CONTRACTS = ["diamonds", "hearts", "spades", "clubs", "obenabe", "undenufe"];
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export class Replay {
  /** `record`: the JSON record; `hooks`: deck(), mapping(), seatName(s), posOf(s), history(),
   * close(). */
  constructor(record, hooks) {
    this.record = record;
    this.hooks = hooks;
    this.hand = 0;
    this.move = 0;
    $("rp-start").addEventListener("click", () => this.go(this.hand, 0));
    $("rp-prev").addEventListener("click", () => this.step(-1));
    $("rp-next").addEventListener("click", () => this.step(1));
    $("rp-end").addEventListener("click", () => this.go(this.hand, this.moves()));
    $("rp-back").addEventListener("click", () => hooks.close());
    $("rp-hand").addEventListener("change", () => this.go(Number($("rp-hand").value), 0));
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
    const won = [0, 0];
    hand.actions.slice(0, this.move).forEach((a) => {
      if (a.declare) {
        // weis or stöck declared outside a card: the trick on the table stays as it is
        const said = [a.weis && a.weis.length ? t("weis") : "", a.stoeck ? t("stoeck") : ""];
        last = `${this.hooks.seatName(a.seat)}: ${said.filter(Boolean).join(" · ")}`;
        return;
      }
      winner = -1;
      if (a.card) {
        if (trick.length === 4) trick = [];
        if (!trick.length) leader = a.seat;
        held[a.seat].delete(a.card);
        trick.push(a.card);
        last = `${this.hooks.seatName(a.seat)}: ${cardName(a.card, this.hooks.deck(), this.hooks.mapping())}`;
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
        last = `${this.hooks.seatName(a.seat)}: ${name}`;
      } else if (a.chibre) {
        last = `${this.hooks.seatName(a.seat)}: ${t("chibred")}`;
      } else if (a.thank) {
        last = t("thanked", { name: this.hooks.seatName(a.seat) });
      }
    });
    return { hand, held, contract, contractSeat, trick, leader, last, winner, won };
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
      line.append(contractIcon(p.contract, deck, mapping), el("span", "", contractName(p.contract, deck, mapping)));
      note.append(line);
    }
    note.append(el("div", "", p.last));
    note.append(el("div", "", `${t("tricks")}: ${p.won[0]} : ${p.won[1]}`));
    for (const i of this.incidents()) {
      const kind = t(`protocols.kind.${i.kind}`);
      const said = t("protocols.incident", { name: this.hooks.seatName(i.seat), kind, seconds: i.seconds.toFixed(1) });
      const line = el("div", "rp-incident", said);
      line.title = i.detail;
      note.append(line);
    }
    const points = this.hooks.history()[this.hand];
    if (this.move === this.moves() && points) note.append(el("strong", "", `${points[0]} : ${points[1]}`));
  }
}
