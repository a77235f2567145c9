// A command to the engine, sent the same way from every screen. Accepted: the session
// takes the new board and writes its save, the message line says if the write failed,
// and the live region says what happened. Refused: nothing changes; `tell` shows why.
import { turnText } from "../views/labels.js";
import { isolate, own } from "./dom.js";
import { actionName, refusal, t } from "./i18n.js";

export function commands({ session, status }) {
  async function send(command) {
    const answer = await session.call({ op: "apply", command });
    if (!answer.ok) return answer;
    answer.stored = session.take(answer); // what the write of the save did (Session.take)
    status.report(answer.stored, "");
    const board = session.board;
    const taken = answer.events.find((e) => e.type === "action_taken");
    status.announce(taken ? `${t("announceAction", isolate(own(board.combatants, taken.actor)?.name ?? taken.actor), paidLine(board, taken))} ${turnText(board)}` : turnText(board));
    return answer;
  }

  async function tell(command) {
    const answer = await send(command);
    if (!answer.ok) status.message(answer.discarded ? t("queueStopped", refusal(answer.error), answer.discarded) : refusal(answer.error));
    return answer;
  }

  return { send, tell };
}

// What the live region says after an action: its name and what it cost.
function paidLine(board, taken) {
  const paid = taken.pays === "espoir" ? t("costHope") : `${t("costPi", taken.cost)} (${taken.pi_before} → ${taken.pi_after})`;
  return `${actionName(taken.action, own(board.catalogue, taken.action)?.name)}, ${paid}`;
}
