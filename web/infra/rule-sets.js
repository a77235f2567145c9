// The group's rule sets, each a name and a whole rules value (engine/regles.py, as set_rules
// takes it), kept with the fights and the models (IndexedDB where the fights are: store.js
// fightStorage), as the models are: read, changed by a function, written, then kept.
import { fightStorage } from "./store.js";

const KEY = "riposte.rulesets";

// What was kept, read leniently: anything not a named object of rules is left out (the
// engine checks the rules again when they are applied or tried).
function parse(text) {
  try {
    const list = JSON.parse(text ?? "[]");
    return Array.isArray(list)
      ? list.filter((s) => s && typeof s.name === "string" && s.regles && typeof s.regles === "object" && !Array.isArray(s.regles))
      : [];
  } catch {
    return [];
  }
}

export async function ruleSets() {
  return parse((await (await fightStorage()).get(KEY)).value);
}

let saving = Promise.resolve();

// The sets changed by `change(list) -> list` and written, one change after the other:
// resolves { stored: "ok", "full" or "unavailable", list: the sets kept }.
export function changeRuleSets(change) {
  const done = saving.then(async () => {
    const storage = await fightStorage();
    const before = parse((await storage.get(KEY)).value);
    const list = change(before);
    const stored = await storage.set(KEY, JSON.stringify(list));
    return { stored, list: stored === "ok" ? list : before };
  });
  saving = done.catch(() => null);
  return done;
}
