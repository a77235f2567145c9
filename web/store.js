// Autosave: the encounter is its resolved command log, kept in localStorage after every
// accepted command, in a versioned format. A save that cannot be read is kept aside.
const KEY = "riposte.encounter";
const ASIDE = "riposte.encounter.unreadable";
export const FORMAT = 1;

export function load() {
  let raw = null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    return { commands: [], error: "Le stockage du navigateur est indisponible : le combat ne sera pas sauvegardé." };
  }
  if (raw === null) return { commands: [] };
  try {
    const data = JSON.parse(raw);
    if (data?.format !== FORMAT || !Array.isArray(data.commands)) throw new Error("format");
    return { commands: data.commands, raw };
  } catch {
    keepAside(raw);
    return { commands: [], error: "La sauvegarde est illisible : elle est mise de côté, un nouveau combat commence." };
  }
}

function keepAside(raw) {
  try {
    localStorage.setItem(ASIDE, raw);
  } catch {
    /* nothing more to do: the message already says so */
  }
}

export function save(commands, { keepAside: aside } = {}) {
  try {
    if (aside) keepAside(aside);
    localStorage.setItem(KEY, JSON.stringify({ format: FORMAT, commands }));
    return true;
  } catch {
    return false;
  }
}
