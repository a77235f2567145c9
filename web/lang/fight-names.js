// A new fight's default name in each language (« Combat 1 », "Fight 1"), as the catalogues'
// `fightN` give it (tests/web/i18n-lazy.test.mjs checks they agree): how the list of fights
// knows a default name in any language, a catalogue not loaded too (web/infra/i18n.js
// `fightName`).
export const FIGHT_N = Object.freeze({
  fr: (n) => `Combat ${n}`,
  en: (n) => `Fight ${n}`,
});
