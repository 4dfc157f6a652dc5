// The actions panel: draw, impasse, takeback, analysis and resign while playing;
// rematch after the game. Only a device holding a seat sees it. Resigning asks
// first, in the panel itself: one slip of a finger or of the Tab key must not
// end a game.

import { el } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("./state.js").RoomState} RoomState */
/** @typedef {"resign" | "draw" | "impasse" | "rematch" | "takeback" | "takeback/decline" | "chat" | "analysis/agree"} Action the API's action paths */

/**
 * @param {HTMLElement} box
 * @param {RoomState} state
 * @param {(action: Action) => void} act
 */
export function renderActions(box, state, act) {
  const room = state.room;
  const mine = state.mySides();
  const playing = mine.length > 0 && room.status === "playing";
  // The question stays open across redraws (the opponent may move meanwhile).
  if (!playing) delete box.dataset.asking;
  if (box.dataset.asking === "resign") {
    confirmResign(box, state, act, box.contains(document.activeElement));
    return;
  }
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  /**
   * @param {string} name the `data-action`
   * @param {string} label
   * @param {() => void} onClick
   * @param {boolean} [disabled]
   */
  const button = (name, label, onClick, disabled = false) => {
    const b = el("button", { type: "button", "data-action": name }, label);
    b.disabled = disabled;
    b.addEventListener("click", onClick);
    buttons.push(b);
  };
  if (playing) {
    if (room.mode !== "local") {
      const offeredByOther = room.draw_offer && !mine.includes(room.draw_offer);
      // A declined offer waits for the next move before it is made again.
      const declined = room.draw_declined !== null && !mine.includes(room.draw_declined);
      if (offeredByOther) button("accept-draw", t("action.accept_draw"), () => act("draw"));
      else button("draw", t("action.draw"), () => act("draw"), Boolean(room.draw_offer) || declined);
    }
    if (room.variant !== "minishogi" && room.variant !== "xiangqi" && room.settings.impasse !== "off") {
      const label = room.settings.impasse === "27-point" ? t("action.declare_impasse") : t("action.claim_impasse");
      button("impasse", label, () => act("impasse"));
    }
    if (!room.settings.rated) takebackButtons(room, state.heldSeats(), button, act);
    if (!room.settings.rated && !room.analysable) analysisButton(room, state.heldSeats(), button, act);
    button("resign", t("action.resign"), () => {
      box.dataset.asking = "resign";
      confirmResign(box, state, act, true);
    });
  }
  if (mine.length > 0 && room.status === "finished") {
    const otherAsked = room.rematch_offer && !state.heldSeats().includes(room.rematch_offer);
    const iAsked = Boolean(room.rematch_offer) && !otherAsked;
    const label = otherAsked ? t("action.accept_rematch") : iAsked ? t("action.rematch_asked") : t("action.rematch");
    button("rematch", label, () => act("rematch"), iAsked);
  }
  box.hidden = buttons.length === 0;
  box.replaceChildren(...buttons);
}

/**
 * Asks whether to resign: `[data-confirm=resign]` with a button that resigns
 * and one (focused, the safe answer; Escape too) that goes back to the game.
 * @param {HTMLElement} box
 * @param {RoomState} state
 * @param {(action: Action) => void} act
 * @param {boolean} focus whether the question takes the focus (it was asked, or had it)
 */
function confirmResign(box, state, act, focus) {
  const question = el("div", { class: "confirm", role: "group", "data-confirm": "resign" });
  const text = el("p", { id: "confirm-resign" }, t("action.resign_confirm"));
  question.setAttribute("aria-labelledby", "confirm-resign");
  const yes = el("button", { type: "button", class: "danger", "data-action": "confirm-resign" }, t("action.resign_yes"));
  const no = el("button", { type: "button", "data-action": "cancel-resign" }, t("action.resign_no"));
  const close = () => {
    delete box.dataset.asking;
    renderActions(box, state, act);
    const resign = box.querySelector("[data-action=resign]");
    if (resign instanceof HTMLElement) resign.focus();
  };
  yes.addEventListener("click", () => {
    delete box.dataset.asking;
    act("resign");
  });
  no.addEventListener("click", close);
  question.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    close();
  });
  question.append(text, yes, no);
  box.hidden = false;
  box.replaceChildren(question);
  if (focus) no.focus();
}

/**
 * Analyse the game being played: at once in local and computer rooms; online,
 * ask, or agree to the opponent's asking (both must agree).
 * @param {import("./types.js").Room} room
 * @param {import("./types.js").SeatName[]} held the seats this device holds
 * @param {(name: string, label: string, onClick: () => void, disabled?: boolean) => void} button
 * @param {(action: Action) => void} act
 */
function analysisButton(room, held, button, act) {
  const offer = room.analysis_offer;
  const agree = () => act("analysis/agree");
  if (room.mode !== "online") button("analyse-now", t("action.analyse_now"), agree);
  else if (offer && !held.includes(offer)) button("accept-analysis", t("action.accept_analysis"), agree);
  else button("ask-analysis", offer ? t("action.analysis_asked") : t("action.ask_analysis"), agree, Boolean(offer));
}

/**
 * Take back at once in local and computer rooms; online, ask, or answer the
 * opponent's asking. The server refuses what cannot be taken back.
 * @param {import("./types.js").Room} room
 * @param {import("./types.js").SeatName[]} held the seats this device holds
 * @param {(name: string, label: string, onClick: () => void, disabled?: boolean) => void} button
 * @param {(action: Action) => void} act
 */
function takebackButtons(room, held, button, act) {
  const offer = room.takeback_offer;
  if (room.mode !== "online") {
    button("takeback", t("action.takeback"), () => act("takeback"), room.moves.length === 0);
  } else if (offer && !held.includes(offer)) {
    button("accept-takeback", t("action.accept_takeback"), () => act("takeback"));
    button("decline-takeback", t("action.decline_takeback"), () => act("takeback/decline"));
  } else {
    button("takeback", offer ? t("action.takeback_asked") : t("action.ask_takeback"), () => act("takeback"), Boolean(offer) || room.moves.length === 0);
  }
}
