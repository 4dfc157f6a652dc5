// The form that changes this device's name in its seats (`PUT
// /rooms/{id}/name`); the `renamed` event redraws the seats. On a device
// holding both seats (a local room) `select[name=seat]` picks the seat.

import { request } from "../api.js";
import { sideName } from "../board.js";
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { playerName, setPlayerName } from "../storage.js";

/** @typedef {import("./state.js").RoomState} RoomState */

/**
 * @param {RoomState} state
 * @param {(error: unknown) => void | Promise<void>} done after each try: the refusal or failure, null when renamed
 * @returns {HTMLFormElement}
 */
export function renameForm(state, done) {
  const room = state.room;
  const form = el("form", { class: "rename-line", "data-rename": "" });
  const held = state.heldSeats().filter((name) => !room.seats[name]?.computer);
  const input = el("input", { name: "name", id: "rename-name", maxlength: 40, autocomplete: "nickname" });
  const label = el("label", { for: input.id }, t("room.your_name"));
  const choice = el("select", { name: "seat", "aria-label": t("room.seat") });
  for (const name of held) {
    const side = room.seats[name]?.side ?? name;
    choice.append(new Option(sideName(room.variant, side), name));
  }
  // The room of the page now, not of when the form was drawn.
  const fill = () => (input.value = state.seatNamed(choice.value)?.name ?? playerName());
  choice.addEventListener("change", fill);
  fill();
  const save = el("button", { type: "submit", "data-action": "rename" }, t("room.rename"));
  form.append(label);
  if (held.length > 1) form.append(choice);
  form.append(input, save);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name || !state.seat) return;
    /** @type {Record<string, string>} */
    const body = { name };
    if (held.length > 1) body.seat = choice.value;
    save.disabled = true;
    /** @type {unknown} */
    let error = null;
    try {
      await request("PUT", `/rooms/${encodeURIComponent(room.id)}/name`, { token: state.seat.token, body });
      setPlayerName(name);
    } catch (err) {
      error = err;
    }
    save.disabled = false;
    await done(error);
  });
  return form;
}

