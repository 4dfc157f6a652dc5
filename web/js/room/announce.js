// What screen readers hear of the room's fresh events: moves, the end,
// offers, arrivals, a new game.

import { sideName } from "../board.js";
import { shownName, t } from "../i18n.js";
import { notationList, resultText } from "../moves.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").RoomEvent} RoomEvent */

/**
 * The line read for `event`, or null for an event not read aloud.
 * @param {Room} room the room after the event
 * @param {RoomEvent} event
 * @returns {string | null}
 */
export function eventText(room, event) {
  const variant = room.variant;
  switch (event.type) {
    case "move": {
      const index = event.ply - 1;
      const move = notationList(variant, room.notation)?.[index] ?? room.moves[index] ?? event.move;
      return t("announce.move", { side: sideName(variant, event.side), move });
    }
    case "end":
      return resultText(variant, event.result, event.reason);
    case "draw_offered":
      return t("announce.draw_offered", { side: sideName(variant, event.side) });
    case "draw_declined":
      return t("status.draw_declined", { side: sideName(variant, event.side) });
    case "takeback_offered":
      return t("status.takeback_offered");
    case "takeback_declined":
      return t("announce.takeback_declined");
    case "taken_back":
      return t("announce.taken_back");
    case "seated":
      return t("announce.seated", { name: shownName(event.name) });
    case "new_game":
      return t("announce.new_game");
    default:
      return null;
  }
}
