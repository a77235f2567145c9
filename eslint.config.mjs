// ESLint's flat config (`make lint`): the page's JavaScript (web/), the build's (tools/),
// the tests' (tests/) and the benchmark's (bench/), with ESLint's recommended rules and
// a few of our habits.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: [
      ".venv/", "_site/", "_site-test/", "build/", "mutants/", "node_modules/",
    ],
  },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": "error",
      // A rest sibling leaves out what it names (`const { actions, ...shown } = f`).
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none", ignoreRestSiblings: true }],
      "object-shorthand": "error",
      "prefer-template": "error",
    },
  },
  {
    // The page's modules, and the worker's (boot.mjs, snapshot.js: a worker has what they
    // use); the benchmark's floor page.
    files: ["web/**/*.js", "web/**/*.mjs", "bench/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // Run before the first paint as a classic script, not a module.
    files: ["web/boot/theme.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["tools/**/*.mjs", "tests/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    // Its functions run in Firefox's page (puppeteer's evaluate).
    files: ["tests/webkit_firefox/*.mjs"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
];
