// Quick chat: a fixed set of phrases the seated players of an online room
// send by id, each shown in the reader's own language; no free text.

import { el } from "../dom.js";
import { shownName, t } from "../i18n.js";

/** @typedef {import("./state.js").RoomState} RoomState */
/** @typedef {import("./types.js").Phrase} Phrase */

/** The phrases, in the order offered. */
export const PHRASES = /** @type {const} */ ([
  "hello", "good_luck", "have_fun", "please_wait", "oops", "nice_move", "well_played", "good_game", "thank_you", "rematch",
]);

/**
 * Draws the phrases heard and, for a seated device, the buttons that send
 * them; hidden where there is no chat (local and computer rooms, `chat` off).
 * @param {HTMLElement} box
 * @param {RoomState} state
 * @param {(phrase: Phrase) => void} send
 */
export function renderChat(box, state, send) {
  const room = state.room;
  box.hidden = room.mode !== "online" || !room.settings.chat;
  if (box.hidden) return;
  const lines = el("ul", { class: "chat-lines", "data-chat": "", "aria-live": "polite" });
  for (const { seat, phrase } of state.chat) {
    const name = shownName(room.seats[seat]?.name ?? "");
    lines.append(el("li", { "data-chat-line": phrase }, `${name}: ${t(`chat.${phrase}`)}`));
  }
  const nodes = [el("h2", {}, t("chat.title")), lines];
  if (state.heldSeats().length > 0) {
    const buttons = el("div", { class: "chat-phrases" });
    for (const phrase of PHRASES) {
      const button = el("button", { type: "button", "data-phrase": phrase }, t(`chat.${phrase}`));
      button.addEventListener("click", () => send(phrase));
      buttons.append(button);
    }
    nodes.push(buttons);
  }
  box.replaceChildren(...nodes);
}
