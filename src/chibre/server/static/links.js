// The invitation links (a friend's seat, the spectators' link) as rows to copy: the label, the
// whole address in a read-only field, and a copy button; and the seats this browser holds
// (their links carry the tokens its games and figures are kept under). Shared by the lobby
// and the table.

import { t } from "./i18n.js";

// Put `text` on the clipboard; where the page may not (no secure context, no permission),
// through a hidden text field and the older copy command.
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const tmp = document.createElement("textarea");
    tmp.value = text;
    document.body.append(tmp);
    tmp.select();
    document.execCommand("copy");
    tmp.remove();
  }
}

// A button that copies `text`, saying so for a moment.
export function copyButton(text) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-small copy";
  b.textContent = t("copy");
  b.setAttribute("aria-live", "polite"); // "Copied" is announced
  b.addEventListener("click", async () => {
    await copyText(text);
    b.textContent = t("copied");
    setTimeout(() => (b.textContent = t("copy")), 1500);
  });
  return b;
}

// A button that shows the QR code of `url` under `row` (a friend at the same real table
// scans it from the host's screen), or hides it again.
function qrButton(url, label, row) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-small qr";
  b.textContent = t("qr_show");
  b.setAttribute("aria-expanded", "false");
  b.addEventListener("click", () => {
    let img = row.querySelector(".invite-qr");
    if (!img) {
      img = document.createElement("img");
      img.className = "invite-qr";
      img.alt = t("qr_of", { label });
      img.src = `/qr.svg?text=${encodeURIComponent(url)}`;
      row.append(img);
    } else img.hidden = !img.hidden;
    b.setAttribute("aria-expanded", String(!img.hidden));
  });
  return b;
}

// One row of the invitation list: `label`, then `link` made absolute (selected on focus), its
// copy button and its QR code.
export function linkRow(label, link) {
  const url = new URL(link, location.origin).href;
  const li = document.createElement("li");
  const name = document.createElement("span");
  name.className = "invite-label";
  name.textContent = label;
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = url;
  input.className = "invite-url";
  input.setAttribute("aria-label", label);
  input.addEventListener("focus", () => input.select());
  const buttons = document.createElement("span");
  buttons.className = "invite-buttons";
  buttons.append(copyButton(url), qrButton(url, label, li));
  li.append(name, input, buttons);
  return li;
}

// How long a status is left empty before it says again what it said (a screen reader reads a
// status when its text changes).
const ANNOUNCE_DELAY_MS = 100;

// "Share the replay" of a finished game: a button that copies `share` (the spectators' link
// with replay=1: it opens the replay read-only for anyone, never the seat), then says it was
// copied; where the clipboard is not available (no secure context, no permission), the link
// shown as text to select. Without a link: at a shared-deal tournament table (`later`) the
// note that it is shared once the round is over, else nothing (`null`).
export function shareControl(share, later) {
  const box = document.createElement("span");
  box.className = "share-replay";
  if (!share) {
    if (!later) return null;
    box.dataset.state = "later";
    box.textContent = t("share_later");
    return box;
  }
  const url = new URL(share, location.origin).href;
  box.dataset.state = "ready";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn btn-small share-button";
  button.textContent = t("share_replay");
  const said = document.createElement("span");
  said.className = "share-said";
  said.setAttribute("role", "status"); // "Link copied" is announced
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = url;
  input.className = "share-url";
  input.hidden = true;
  input.setAttribute("aria-label", t("share_link"));
  input.addEventListener("focus", () => input.select());
  // said so that a screen reader reads it at every press, the same text again too: the status
  // emptied first, written a moment later; then scrolled into view with the link (at the foot
  // of a dialog on a phone, they would lie below what the dialog shows)
  let pending = 0;
  const say = (text) => {
    clearTimeout(pending);
    said.textContent = "";
    pending = setTimeout(() => {
      said.textContent = text;
      box.scrollIntoView({ block: "nearest" });
    }, ANNOUNCE_DELAY_MS);
  };
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      input.hidden = true;
      say(t("share_copied"));
    } catch (e) {
      input.hidden = false;
      input.focus();
      say(t("share_select"));
    }
  });
  box.append(button, said, input);
  return box;
}

const SEATS_KEY = "chibre.tables";
const MAX_SEATS = 200;

/** The seats this browser holds, newest first: [{table, link, created}] (the links carry the
 * seat tokens that the server's history is kept under). */
export function heldSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && x.table && x.link) : [];
  } catch (e) {
    return [];
  }
}

/** Keep the seat link `link` of table `table` in this browser — unless it holds another seat
 * of that table already (its own: a friend's invitation opened here to try it stays theirs). */
export function holdSeat(table, link) {
  const held = heldSeats();
  const before = held.find((x) => x.table === table);
  if (before && before.link !== link) return;
  const list = held.filter((x) => x.table !== table);
  list.unshift({ table, link, created: Date.now() });
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify(list.slice(0, MAX_SEATS)));
  } catch (e) {
    /* no storage: nothing kept */
  }
}
