// The actions panel: resign, draw, impasse and takeback while playing;
// rematch after the game. Only a device holding a seat sees it.

import { el } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("./state.js").RoomState} RoomState */
/** @typedef {"resign" | "draw" | "impasse" | "rematch" | "takeback" | "takeback/decline" | "chat"} Action the API's action paths */

/**
 * @param {HTMLElement} box
 * @param {RoomState} state
 * @param {(action: Action) => void} act
 */
export function renderActions(box, state, act) {
  const room = state.room;
  const mine = state.mySides();
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  /**
   * @param {string} name the `data-action`
   * @param {string} label
   * @param {Action} action
   * @param {boolean} [disabled]
   */
  const button = (name, label, action, disabled = false) => {
    const b = el("button", { type: "button", "data-action": name }, label);
    b.disabled = disabled;
    b.addEventListener("click", () => act(action));
    buttons.push(b);
  };
  if (mine.length > 0 && room.status === "playing") {
    button("resign", t("action.resign"), "resign");
    if (room.mode !== "local") {
      const offeredByOther = room.draw_offer && !mine.includes(room.draw_offer);
      if (offeredByOther) button("accept-draw", t("action.accept_draw"), "draw");
      else button("draw", t("action.draw"), "draw", Boolean(room.draw_offer));
    }
    if (room.variant !== "minishogi" && room.variant !== "xiangqi" && room.settings.impasse !== "off") {
      const label = room.settings.impasse === "27-point" ? t("action.declare_impasse") : t("action.claim_impasse");
      button("impasse", label, "impasse");
    }
    if (!room.settings.rated) takebackButtons(room, state.heldSeats(), button);
  }
  if (mine.length > 0 && room.status === "finished") {
    const otherAsked = room.rematch_offer && !state.heldSeats().includes(room.rematch_offer);
    const iAsked = Boolean(room.rematch_offer) && !otherAsked;
    const label = otherAsked ? t("action.accept_rematch") : iAsked ? t("action.rematch_asked") : t("action.rematch");
    button("rematch", label, "rematch", iAsked);
  }
  box.hidden = buttons.length === 0;
  box.replaceChildren(...buttons);
}

/**
 * Take back at once in local and computer rooms; online, ask, or answer the
 * opponent's asking. The server refuses what cannot be taken back.
 * @param {import("./types.js").Room} room
 * @param {import("./types.js").SeatName[]} held the seats this device holds
 * @param {(name: string, label: string, action: Action, disabled?: boolean) => void} button
 */
function takebackButtons(room, held, button) {
  const offer = room.takeback_offer;
  if (room.mode !== "online") {
    button("takeback", t("action.takeback"), "takeback", room.moves.length === 0);
  } else if (offer && !held.includes(offer)) {
    button("accept-takeback", t("action.accept_takeback"), "takeback");
    button("decline-takeback", t("action.decline_takeback"), "takeback/decline");
  } else {
    button("takeback", offer ? t("action.takeback_asked") : t("action.ask_takeback"), "takeback", Boolean(offer) || room.moves.length === 0);
  }
}
