// Errors the player sees: the API's refusals in the player's words, with the
// server's own message beside them, in one `[data-error]` alert per page part.

import { ApiError } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

/**
 * An API error in the player's words: the code's text when there is one,
 * else the server's message.
 * @param {ApiError} err
 * @returns {string}
 */
export function errorText(err) {
  const key = `error.${err.code}`;
  const text = t(key, { message: err.message });
  return text === key ? err.message || err.code : text;
}

/**
 * An empty `[data-error]` alert, hidden until `showError` fills it.
 * @returns {HTMLElement}
 */
export function errorBox() {
  const box = el("p", { class: "message error", "data-error": "", role: "alert" });
  box.hidden = true;
  return box;
}

/**
 * Shows `err` in `box` (or hides the box for null): the text for its code
 * and, when the server said more, the server's message; `data-code` is the
 * API's code ("too-many", "nifu", "network" ...).
 * @param {HTMLElement} box
 * @param {unknown} err an ApiError, any other error, or a message; null clears
 */
export function showError(box, err) {
  box.replaceChildren();
  box.hidden = err === null || err === "";
  if (box.hidden) {
    box.dataset.error = "";
    return;
  }
  if (err instanceof ApiError) {
    box.dataset.error = err.code;
    const text = errorText(err);
    box.append(text);
    if (err.message && !text.includes(err.message)) {
      box.append(" ", el("span", { class: "detail" }, err.message));
    }
  } else {
    box.dataset.error = "error";
    box.textContent = String(err);
  }
}
