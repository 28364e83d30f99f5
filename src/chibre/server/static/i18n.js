// Every visible string of the table and the lobby, in French, German and English, from the
// one message catalogue the server and the terminal read too (GET /api/messages).
// t("key", {n: 3}) fills {n}, and takes "key_one" instead where the catalogue has it and the
// language says n in the singular (1; in French 0 and 1). applyI18n(root) fills elements
// marked data-i18n (text), data-i18n-title, data-i18n-aria, data-i18n-alt and
// data-i18n-placeholder, and writes the language's colon in those marked data-i18n-colon. The
// language is the browser's by default and is remembered once chosen.

const STRINGS = await loadCatalogue();

/** The message catalogue the server keeps (chibre/locale/*.json), shared with the Python
 * side: {lang: {key: text}}. */
async function loadCatalogue() {
  try {
    const r = await fetch("/api/messages");
    if (r.ok) return await r.json();
  } catch (e) {
    /* the server is away: the keys show until the page is reloaded */
  }
  return { en: {}, fr: {}, de: {} };
}

export const LANGS = ["fr", "de", "en"];
const KEY = "chibre.lang";
let current = null;

/** The language in use: the one chosen before, else the browser's, else English. */
export function getLang() {
  if (current) return current;
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch (e) {
    saved = null;
  }
  if (LANGS.includes(saved)) return (current = saved);
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return (current = short);
  }
  return (current = "en");
}

export function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  current = lang;
  try {
    localStorage.setItem(KEY, lang);
  } catch (e) {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = lang;
}

/** The string `key` in the current language, with {name} placeholders filled; for a count
 * {n} in the singular, `key_one` where there is one ("1 hand", "{n} hands"). */
export function t(key, vars = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const one = `${key}_one`;
  if ("n" in vars && one in table && new Intl.PluralRules(getLang()).select(Number(vars.n)) === "one") key = one;
  const text = table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

/** A computer seat named by its level ("medium", "mittel", "Zufallsjasser"): the pages' one
 * naming of it, the same as the server's (`chibre.server.views.level_name`) — a word that
 * reads as a player's name ("mit Zufallsjasser"). */
export function levelName(kind) {
  return t(`seat_name_${kind}`);
}

/** A computer level as the menus and a computer's badge say it ("Computer: Zufall"). */
export function levelWord(kind) {
  return t(`level_${kind}`);
}

/** A number as the page's language writes it in Switzerland (64,3 and 1 250 in French;
 * 64.3 and 1’250 in German), to a tenth at most. */
export function formatNumber(x) {
  const locale = { fr: "fr-CH", de: "de-CH" }[getLang()] || "en";
  return x.toLocaleString(locale, { maximumFractionDigits: 1 });
}

/** A colon as the page's language writes it (French: with a no-break space before, so that
 * a line never starts with it). */
export function colon() {
  return getLang() === "fr" ? "\u00a0:" : ":";
}

/** Two teams' points as the catalogue writes a score ("208\u00a0:\u00a063"): no-break spaces
 * around the colon, so that a line never breaks inside it. */
export function scoreText(a, b) {
  return `${a}\u00a0:\u00a0${b}`;
}

/** The keys of the catalogue that start with `prefix` (the quick reactions: "react."). */
export function keysOf(prefix) {
  return Object.keys(STRINGS.en || {}).filter((k) => k.startsWith(prefix));
}

/** Fill every element under `root` marked with data-i18n* attributes. */
export function applyI18n(root = document) {
  document.documentElement.lang = getLang();
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
  for (const el of root.querySelectorAll("[data-i18n-alt]")) el.alt = t(el.dataset.i18nAlt);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of root.querySelectorAll("[data-i18n-colon]")) el.textContent = colon();
}

/** ``select``'s options: the three languages, each in its own words; the page's chosen. */
export function fillLanguages(select) {
  select.replaceChildren();
  for (const [code, name] of [["fr", "Français"], ["de", "Deutsch"], ["en", "English"]]) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    select.append(o);
  }
  select.value = getLang();
}

/** A labelled <select> of the three languages that switches the page when changed. */
export function languageSelect(onChange) {
  const select = document.createElement("select");
  select.className = "lang-select";
  select.id = "lang-select";
  fillLanguages(select);
  select.addEventListener("change", () => {
    setLang(select.value);
    onChange(select.value);
  });
  const label = document.createElement("label");
  label.className = "tool-field";
  const word = document.createElement("span");
  word.dataset.i18n = "language";
  word.textContent = t("language");
  label.append(word, select);
  return label;
}
