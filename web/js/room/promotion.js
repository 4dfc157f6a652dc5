// The promotion question, over the board: asked only when both promoting and
// not promoting are legal.

import { pieceSvg } from "../board.js";
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { pieceName } from "../pieces.js";
import { pieceLabels } from "../storage.js";

/** @typedef {import("../position.js").Piece} Piece */

export class PromotionDialog {
  /** @param {HTMLElement} slot where the dialog opens */
  constructor(slot) {
    this.slot = slot;
    /** @type {((promote: boolean | null) => void) | null} the open question's answer */
    this.answer = null;
  }

  /** Whether a question is open. */
  get open() {
    return this.answer !== null;
  }

  /**
   * Asks whether `piece` promotes on `to`.
   * @param {string} variant
   * @param {Piece} piece
   * @param {string} to
   * @param {(answer: boolean | null) => void} onChoice a button (true, false) or Escape (null) was chosen;
   *   the caller closes the question with `close`
   * @returns {Promise<boolean | null>} the answer `close` gives
   */
  ask(variant, piece, to, onChoice) {
    return new Promise((resolve) => {
      this.answer = resolve;
      const title = t("promotion.title", { square: to });
      const dialog = el("div", {
        class: "promotion",
        "data-promotion": "",
        role: "dialog",
        "aria-modal": "true",
        "aria-label": title,
      });
      const choices = el("div", { class: "choices" });
      for (const [answer, code] of [["yes", `+${piece.code}`], ["no", piece.code]]) {
        const word = t(`promotion.${answer}`);
        const button = el("button", {
          "data-promote": answer,
          type: "button",
          "aria-label": `${word}: ${pieceName(variant, code)}`,
        });
        const face = el("span", { class: "piece" });
        face.append(pieceSvg(variant, code, piece.side, pieceLabels()));
        button.append(face, el("span", {}, word));
        button.addEventListener("click", () => onChoice(answer === "yes"));
        choices.append(button);
      }
      dialog.append(el("p", {}, title), choices);
      dialog.addEventListener("keydown", (event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onChoice(null);
        }
      });
      this.slot.replaceChildren(dialog);
      const first = dialog.querySelector("button");
      if (first instanceof HTMLElement) first.focus();
    });
  }

  /**
   * Closes the question, answering it.
   * @param {boolean | null} [answer] null: cancelled
   * @returns {boolean} whether a question was open
   */
  close(answer = null) {
    const resolve = this.answer;
    this.answer = null;
    this.slot.replaceChildren();
    resolve?.(answer);
    return resolve !== null;
  }
}
