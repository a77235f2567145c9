// A command to the engine, sent the same way from every screen. Accepted: the session
// takes the new board and writes its save, the message line says if the write failed,
// and the live region says what happened. Refused (by the engine, by the page before it
// is sent, or dropped, web/infra/refusals.js): nothing changes; `tell` shows why.
import { spoken } from "../views/spoken.js";
import { wellFormed } from "./dom.js";
import { refused } from "./refusals.js";

export function commands({ session, status }) {
  async function send(command) {
    const half = halves(command);
    if (half.length) return { ...refused("bad_value", half[0].key, half[0].params), fields: half };
    const answer = await session.ask({ op: "apply", command });
    return answer.ok ? took(answer) : answer;
  }

  // An answer that changed the fight (a command, or a player's play the engine applied:
  // web/live/host.js): the session takes it, and the write and the action are said.
  function took(answer) {
    answer.stored = session.take(answer); // what the write of the save did (Session.take)
    status.report(answer.stored, "");
    status.announce(spoken(session.board, answer));
    return answer;
  }

  async function tell(command) {
    const answer = await send(command);
    status.refused(answer);
    return answer;
  }

  return { send, tell, took };
}

// The texts of a command (or a sheet) that hold half a character, as the engine's field
// errors: { field, key: "half_character", params: { field } }, the field by its path
// ("name", "weapons[0].name", "skills.arc"). Refused where typed, never sent.
export function halves(value, path = "") {
  const at = (key) => (path ? `${path}.${key}` : key);
  const half = (field) => ({ field, key: "half_character", params: { field } });
  if (typeof value === "string") return wellFormed(value) ? [] : [half(path)];
  if (Array.isArray(value)) return value.flatMap((item, i) => halves(item, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => [...(wellFormed(key) ? [] : [half(at(key))]), ...halves(item, at(key))]);
  }
  return [];
}
