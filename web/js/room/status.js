// The status panel: whose move it is (or, while an earlier position is
// reviewed, which one it is), the result, offers, the last refusal or
// failure (`[data-error]`) and the socket's connection.

import { sideName } from "../board.js";
import { el } from "../dom.js";
import { errorBox, showError } from "../errors.js";
import { t } from "../i18n.js";
import { positionAfter, resultElement } from "../moves.js";

/** @typedef {import("./state.js").RoomState} RoomState */

/**
 * @param {HTMLElement} box
 * @param {RoomState} state
 * @param {unknown} error the last refusal or failure, null for none
 * @param {number | null} reviewPly the ply under review, null for the live position
 */
export function renderStatus(box, state, error, reviewPly) {
  const room = state.room;
  const variant = room.variant;
  const status = el("p", { class: "status", "data-status": room.status });
  if (reviewPly !== null) {
    // The reviewed position's own values: whose move it was there, not now.
    const { sideToMove } = positionAfter(variant, room.start, room.moves, reviewPly);
    const side = sideName(variant, sideToMove);
    status.dataset.review = String(reviewPly);
    status.textContent = reviewPly === 0
      ? t("status.review_start", { side })
      : t("status.review", { n: reviewPly, total: room.moves.length, side });
  } else if (room.status === "waiting") {
    status.textContent = state.seat ? t("status.waiting_friend") : t("status.waiting");
  } else if (room.status === "playing") {
    const side = room.side_to_move;
    const seat = Object.values(room.seats).find((s) => s?.side === side);
    const mine = state.mySides();
    if (mine.includes(side)) {
      status.textContent = mine.length === 2
        ? t("status.to_move", { side: sideName(variant, side) })
        : t("status.your_move");
    } else if (seat?.computer || seat?.taken_over) {
      status.textContent = t("status.computer_thinking", { side: sideName(variant, side) });
    } else {
      status.textContent = t("status.to_move", { side: sideName(variant, side) });
    }
    if (room.in_check) status.textContent += ` ${t("status.check")}`;
  } else {
    status.textContent = t("status.finished");
  }
  /** @type {HTMLElement[]} */
  const nodes = [status];
  const result = room.result;
  if (room.status === "finished" && result?.result) {
    nodes.push(resultElement(variant, result.result, result.reason));
  }
  if (room.draw_offer && room.status === "playing") {
    nodes.push(el("p", { "data-draw-offer": room.draw_offer }, t("status.draw_offered", { side: sideName(variant, room.draw_offer) })));
  }
  if (room.draw_declined && room.status === "playing") {
    nodes.push(el("p", { "data-draw-declined": room.draw_declined }, t("status.draw_declined", { side: sideName(variant, room.draw_declined) })));
  }
  if (room.takeback_offer && room.status === "playing") {
    nodes.push(el("p", { "data-takeback-offer": room.takeback_offer }, t("status.takeback_offered")));
  }
  if (room.rematch_offer && room.status === "finished") {
    nodes.push(el("p", {}, t("status.rematch_offered")));
  }
  const connection = el("p", { class: "connection", "data-connection": state.connection }, t(`connection.${state.connection}`));
  const errorLine = errorBox();
  showError(errorLine, error);
  nodes.push(errorLine, connection);
  box.replaceChildren(...nodes);
}
