// The calculator's sheets in this browser (IndexedDB) and their synchronisation with the
// server, whose sheet is the record.
//
// Every change a scorer makes (a hand written, corrected or struck) is first kept here, in
// the outbox, with an id chosen here (the server's ``write=``), then sent, in order, as soon
// as the server can be reached. A change sent twice (its answer lost with the connection) is
// made once: the server knows its id. When the server's sheet has changed meanwhile (another
// device wrote on it), nothing is lost and nothing is doubled: a hand is written after the
// others and the page is told where it went; a correction of a hand changed meanwhile, or a
// hand the server refuses, is kept as a conflict and shown until the scorer settles it.
// The last sheet the server sent is kept too, so that the sheet opens without a connection.

const DB_NAME = "chibre-tafel";
const SHEETS = "sheets"; // {id, key, view}: the server's last answer for the sheet
const OUTBOX = "outbox"; // {write, sheet, key, kind: create|add|replace|delete, n, was, hand, expected, body, made}
const CONFLICTS = "conflicts"; // {write, sheet, conflict: moved|changed|refused, ...}

let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const d = request.result;
        d.createObjectStore(SHEETS, { keyPath: "id" });
        d.createObjectStore(OUTBOX, { keyPath: "write" }).createIndex("sheet", "sheet");
        d.createObjectStore(CONFLICTS, { keyPath: "write" }).createIndex("sheet", "sheet");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

async function run(store, mode, work) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(store, mode);
    const request = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(request ? request.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

const bySheet = (store, id) => run(store, "readonly", (s) => s.index("sheet").getAll(id));

/** A new id for a change: 128 random bits, URL-safe (no secure context needed). */
export function newWriteId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export const book = {
  saveView: (view) => run(SHEETS, "readwrite", (s) => s.put({ id: view.id, key: view.key, view })),
  view: async (id) => (await run(SHEETS, "readonly", (s) => s.get(id)))?.view ?? null,
  views: async () => (await run(SHEETS, "readonly", (s) => s.getAll())).map((r) => r.view),
  forget: (id) => run(SHEETS, "readwrite", (s) => s.delete(id)),
  /** The changes of sheet ``id`` not yet on the server, in the order they were made. */
  pending: async (id) => (await bySheet(OUTBOX, id)).sort((a, b) => a.made - b.made),
  keep: (change) => run(OUTBOX, "readwrite", (s) => s.put(change)),
  drop: (write) => run(OUTBOX, "readwrite", (s) => s.delete(write)),
  conflicts: async (id) => (await bySheet(CONFLICTS, id)).sort((a, b) => a.made - b.made),
  note: (conflict) => run(CONFLICTS, "readwrite", (s) => s.put(conflict)),
  settle: (write) => run(CONFLICTS, "readwrite", (s) => s.delete(write)),
};

let lastMade = 0;

/** A change of sheet ``view`` to keep and send: ``kind`` create (the sheet itself, begun
 * here with its id and key), add, replace or delete. */
export function change(view, kind, fields) {
  lastMade = Math.max(Date.now(), lastMade + 1); // strictly in the order made
  return { write: newWriteId(), sheet: view.id, key: view.key, kind, made: lastMade, ...fields };
}

/** A JSON request to the server; an error says its ``status`` (and the ``field`` the server
 * names: the field of the hand it concerns), or ``offline`` when the server could not
 * be reached at all. */
export async function api(method, path, body, lang) {
  const sep = path.includes("?") ? "&" : "?";
  let res;
  try {
    res = await fetch(path + sep + "lang=" + lang, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    const error = new Error(e.message);
    error.offline = true;
    throw error;
  }
  let data;
  try {
    data = await res.json();
  } catch (e) {
    data = {};
  }
  if (!res.ok) {
    const error = new Error(data.error || res.statusText);
    error.status = res.status;
    if (data.field) error.field = data.field;
    throw error;
  }
  return data;
}

function send(c, lang) {
  if (c.kind === "create") return api("POST", "/api/sheets", c.body, lang);
  const base = `/api/sheets/${encodeURIComponent(c.sheet)}/hands`;
  const query = `key=${encodeURIComponent(c.key)}&write=${c.write}` + (c.was ? `&was=${c.was}` : "");
  if (c.kind === "add") return api("POST", `${base}?${query}`, c.hand, lang);
  if (c.kind === "replace") return api("PUT", `${base}/${c.n}?${query}`, c.hand, lang);
  return api("DELETE", `${base}/${c.n}?${query}`, undefined, lang);
}

const running = new Map(); // sheet id -> the synchronisation under way

/**
 * Send the changes of sheet ``id`` kept here, in order, until none is left or the server
 * cannot be reached. Returns ``{view, offline, refused}``: the server's last answer (null if
 * none came), whether it could not be reached, and — for the change ``direct`` the scorer is
 * waiting for — the server's refusal (that change is then given back, not kept as a conflict).
 */
export function sync(id, lang, direct = null) {
  const previous = running.get(id) || Promise.resolve();
  const next = previous.then(() => syncNow(id, lang, direct));
  running.set(id, next.catch(() => undefined));
  return next;
}

async function syncNow(id, lang, direct) {
  const result = { view: null, offline: false, refused: null };
  for (;;) {
    const [c] = await book.pending(id);
    if (!c) return result;
    let view;
    try {
      view = await send(c, lang);
    } catch (e) {
      if (e.offline || e.status >= 500 || e.status === 429) {
        result.offline = true; // tried again later, as it is
        return result;
      }
      await book.drop(c.write);
      if (c.write === direct) {
        result.refused = e; // back to the form it came from
        return result;
      }
      const conflict = e.status === 409 ? "changed" : "refused";
      // kept with the field refused: a question the sheet asks is asked again when it is rewritten
      await book.note({ ...c, conflict, status: e.status, error: e.message, field: e.field });
      if (c.kind === "add") {
        // the hands entered after a refused one were counted on it: none is sent before the
        // scorer has written that one again; they wait, in order, each to be written again
        for (const later of await book.pending(id)) {
          if (later.kind !== "add") continue;
          await book.drop(later.write);
          await book.note({ ...later, conflict: "held", after: c.expected });
        }
      }
      continue;
    }
    await book.saveView(view);
    result.view = view;
    if (c.kind === "add" && view.written !== c.expected) {
      // another device wrote meanwhile: this hand, and those after it, moved down the sheet
      const moved = view.written - c.expected;
      await book.note({ ...c, conflict: "moved", n: view.written, made: Date.now() });
      for (const later of await book.pending(id)) {
        if (later.kind === "add" && later.write !== c.write) await book.keep({ ...later, expected: later.expected + moved });
      }
    }
    await book.drop(c.write);
  }
}
