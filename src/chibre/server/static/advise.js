// The coach's advice for a hand held at a real table (POST /api/advice): the player's nine
// cards, the dealer, the trump once named (and whether the chooser chibred) and the cards
// played so far; the answer is the contract or the card, with the reason and every option's
// value.

import { applyI18n, getLang, languageSelect } from "./i18n.js";

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
  try {
    const r = await fetch("/api/advice", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": getLang() },
      body: JSON.stringify(body),
    });
    const answer = await r.json();
    if (!r.ok) {
      $("advice-error").textContent = answer.error || String(r.status);
      $("advice-error").hidden = false;
      if (answer.field && $(answer.field)) $(answer.field).focus();
      $("advice").hidden = true;
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
