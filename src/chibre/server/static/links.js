// The invitation links (a friend's seat, the spectators' link) as rows to copy: the label, the
// whole address in a read-only field, and a copy button. Shared by the lobby and the table.

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
  b.addEventListener("click", async () => {
    await copyText(text);
    b.textContent = t("copied");
    setTimeout(() => (b.textContent = t("copy")), 1500);
  });
  return b;
}

// One row of the invitation list: `label`, then `link` made absolute (selected on focus) and
// its copy button.
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
  input.addEventListener("focus", () => input.select());
  li.append(name, input, copyButton(url));
  return li;
}
