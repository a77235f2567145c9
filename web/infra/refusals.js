// Every refusal the page shows has one shape, whatever refused: the engine (a command, a
// save, a link), the page's own guards (half a character typed, a read-only tab, another
// fight opening, a file or a link it cannot read, a model's copies, a fight's name), the
// browser's storage (a write not done), a tap dropped from the queue, a fault of the
// engine, the game master's page (a player's message, on the player's phone):
//
//   { ok: false, error: { code, key, params, message } }
//
// `key` a reason of the engine's catalogues (engine/errors.py REASONS, engine/lang/*.json:
// the page's own reasons are there too), `code` the one it gives, `params` what its
// sentence names, `message` that sentence in French, as the engine's own. Each screen says
// it in one place, in the page's language, by `said`. No DOM here.
import { own } from "./dom.js";
import { clause, refusal, t } from "./i18n.js";
import fr from "../lang/fr.js";

// The page's own refusal: nothing was done.
export function refused(code, key, params = {}) {
  return { ok: false, error: { code, key, params, message: french(key, params) } };
}

// The page's refusal around another one (`inside`, {key, params}: the engine's), told whole
// inside it (`refused`; nothing when there is none).
export function around(code, key, inside) {
  return refused(code, key, { refused: inside ? { key: inside.key, params: inside.params ?? {} } : null });
}

// A file, a link, the saved fight not opened: the page's reason `key` around the engine's `error`.
export function unopened(key, error) {
  return around("unreadable", key, error);
}

// A reason's French sentence, its params filled in as the engine fills them (engine/errors.py
// `sentence`: another refusal told whole, another reason as a clause, a list joined; the
// page words them in its own labels: web/infra/i18n.js `reason`).
function french(key, params) {
  const sentence = own(fr.refusals, key) ?? key;
  return sentence.replace(/\{(\w+)\}/g, (_, name) => {
    const value = own(params, name);
    if (name === "refused" && value && typeof value === "object") return french(String(value.key), value.params ?? {});
    if (name === "why") return clause(french(String(value), {}));
    if (Array.isArray(value)) return value.join(", ");
    return String(value ?? "");
  });
}

// The reasons of a command's save not written.
export const SAVE = Object.freeze({ full: "storage_full", unavailable: "storage_unavailable", held: "held" });

// What a write to the browser's storage did ("ok", "full", "unavailable": web/infra/store.js;
// "held": not written, an unreadable save waits, web/infra/session.js `take`), as a
// refusal; null when it was written or there was nothing to write. `keys`: the reason of
// each status where it is said (a status it does not name is said as "unavailable"), or
// one reason for any status.
export function unwritten(status, keys = SAVE, params = {}) {
  if (status === null || status === undefined || status === "ok") return null;
  const key = typeof keys === "string" ? keys : own(keys, status) ?? keys.unavailable;
  return refused(status === "held" ? "held" : "storage", key, params);
}

// What the page says of an answer, in its language: "" when it was not refused, or when
// its refusal is said elsewhere: a fault of the engine (the engine's status and its
// reload, web/app.js) and a tap dropped after another was refused (that refusal says how
// many were dropped, `discarded`: web/infra/session.js `open`).
export function said(answer) {
  if (!answer || answer.ok !== false) return "";
  const code = answer.error?.code;
  if (code === "internal" || code === "discarded") return "";
  const why = refusal(answer.error);
  return answer.discarded ? t("queueStopped", why, answer.discarded) : why;
}
