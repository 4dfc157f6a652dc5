// Lints the page scripts for what the type check lets through: a bare `status`,
// `name` or `event` type-checks as the window's own property, so a missing
// declaration reads the window's instead of failing.
import confusingBrowserGlobals from "confusing-browser-globals";

export default [
  {
    files: ["web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "no-restricted-globals": ["error", ...confusingBrowserGlobals],
    },
  },
];
