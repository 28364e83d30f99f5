// The coach's advice for a hand held at a real table (POST /api/advice): the player's nine
// cards, the dealer, the trump once named (and whether the chooser chibred) and the cards
// played so far; the answer is the contract or the card, with the reason and every option's
// value.

import { applyI18n, getLang, languageSelect, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

async function ask(event) {
  event.preventDefault();
  $("advice-error").hidden = true;
  $("ask").disabled = true;
  const trump = $("trump").value;
  const body = {
    hand: $("hand").value,
    dealer: Number($("dealer").value),
    trump: trump === "" ? null : Number(trump),
    chibred: $("chibred").checked,
    played: $("played").value,
  };
  const refused = (text) => {
    $("advice-error").textContent = text;
    $("advice-error").hidden = false;
    $("advice").hidden = true; // an earlier answer is not this hand's
  };
  try {
    let r;
    let answer;
    try {
      r = await fetch("/api/advice", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept-Language": getLang() },
        body: JSON.stringify(body),
      });
      answer = await r.json();
    } catch {
      refused(t("advise_offline")); // the coach thinks on the server
      return;
    }
    if (!r.ok) {
      refused(answer.error || String(r.status));
      if (answer.field && $(answer.field)) $(answer.field).focus();
      return;
    }
    $("advice-best").textContent = answer.text;
    $("advice").dataset.best = answer.best;
    $("advice-reason").textContent = answer.reason;
    $("advice-options").replaceChildren(
      ...answer.options.map(([label, value]) => {
        const row = document.createElement("tr");
        const name = document.createElement("td");
        name.textContent = label;
        const points = document.createElement("td");
        points.textContent = value.toFixed(1);
        row.append(name, points);
        return row;
      }),
    );
    $("advice").hidden = false;
  } finally {
    $("ask").disabled = false;
  }
}

applyI18n();
$("tools").append(languageSelect(() => applyI18n()));
$("advice-form").addEventListener("submit", ask);
$("ask").disabled = false; // until now the browser would have sent the form itself
