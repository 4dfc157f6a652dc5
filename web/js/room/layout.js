// The room page's frame: the board between the two seats, and beside it the
// panels (status, moves, actions, sharing). The views draw into its slots.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { family } from "../pieces.js";

/** @typedef {import("./types.js").Room} Room */

/**
 * The slots of the page.
 * @typedef {object} RoomLayout
 * @property {HTMLElement} page the `section.room`
 * @property {HTMLElement} topSeat
 * @property {HTMLElement} bottomSeat
 * @property {HTMLElement} board where the board goes
 * @property {HTMLElement} promotion where the promotion question opens, over the board
 * @property {HTMLElement} tools the buttons under the board (flip)
 * @property {HTMLElement} status
 * @property {HTMLElement} actions
 * @property {HTMLElement} chat the quick chat
 * @property {HTMLElement} moves
 * @property {HTMLElement} share
 */

/**
 * Lays out the page in `container`, replacing what was there.
 * @param {HTMLElement} container
 * @param {Room} room
 * @returns {RoomLayout}
 */
export function layout(container, room) {
  document.title = t("title.room", { game: t(`variant.${room.variant}`) });
  const slots = {
    page: el("section", { class: `room ${family(room.variant)} ${room.variant}`, "data-room-id": room.id }),
    topSeat: el("div", { class: "seat-slot top" }),
    bottomSeat: el("div", { class: "seat-slot bottom" }),
    board: el("div"),
    promotion: el("div", { class: "promotion-slot" }),
    tools: el("div", { class: "board-tools" }),
    status: el("div", { class: "panel status-box" }),
    actions: el("div", { class: "panel actions" }),
    chat: el("section", { class: "panel chat", "aria-label": t("chat.title") }),
    moves: el("div", { class: "panel moves" }),
    share: el("div", { class: "panel share" }),
  };
  const boardSlot = el("div", { class: "board-slot" });
  boardSlot.append(slots.board, slots.promotion);
  const main = el("div", { class: "room-main" });
  main.append(slots.topSeat, boardSlot, slots.bottomSeat, slots.tools);
  const side = el("aside", { class: "room-side", "aria-label": t("room.panel") });
  // The move list comes before the actions, so that Resign is not the next
  // Tab stop after the board.
  side.append(slots.status, slots.moves, slots.actions, slots.chat, slots.share);
  slots.page.append(main, side);
  container.replaceChildren(slots.page);
  return slots;
}
