// French labels for the engine's ids (the engine's own messages are already French).
export const CHARACTERISTICS = {
  melee: "Mêlée", tir: "Tir", lancer: "Lancer", derobee: "Dérobée", vue: "Vue",
  charisme: "Charisme", intelligence: "Intelligence",
};
export const SKILLS = {
  corps_a_corps: "Corps-à-corps", course: "Course", discretion: "Discrétion", esquive: "Esquive",
  vigilance: "Vigilance", art_de_la_guerre: "Art de la guerre", acrobatie: "Acrobatie",
};
export const KINDS = { melee: "Mêlée", bow: "Arc", thrown: "Arme de jet", shield: "Bouclier" };
export const POSTURES = { debout: "debout", a_genoux: "à genoux", a_terre: "à terre" };
export const CATEGORIES = {
  gratuite: "Actions gratuites", simple: "Actions simples", complexe: "Actions complexes",
  interruption: "Interruptions",
};
export const SIDES = { pj: "PJ", pnj: "PNJ" };

export function skillLabel(name) {
  return SKILLS[name] ?? name;
}

export function costLabel(verdict) {
  if (verdict.pays === "espoir") return "1 point d'Espoir";
  return `${verdict.cost} P.I.`;
}

// "Mêlée 7 / Épée 3, charge +4, difficulté 2" (D14: the engine names the test).
export function testLabel(test) {
  const parts = [];
  const left = test.characteristic ? `${CHARACTERISTICS[test.characteristic] ?? test.characteristic} ${test.characteristic_value}` : "";
  const right = test.skill ? `${skillLabel(test.skill)} ${test.skill_level}` : "";
  parts.push([left, right].filter(Boolean).join(" / "));
  for (const m of test.modifiers) parts.push(`${m.label} ${m.value > 0 ? "+" : "−"}${Math.abs(m.value)}`);
  if (test.difficulty !== null && test.difficulty !== undefined) parts.push(`difficulté ${test.difficulty}`);
  return (test.label ? `${test.label} : ` : "") + parts.join(", ");
}
