// The room's board: draws the position shown (live, or an earlier one under
// review) and turns clicks, drags and keys into moves. A move is checked
// against the server's legal moves only; promotion is asked about when both
// promoting and not promoting are legal.

import { Board } from "../board.js";
import { positionAfter } from "../moves.js";
import { family } from "../pieces.js";
import { kingSquare, moveSquares } from "../position.js";
import { pieceLabels, shogiNotation } from "../storage.js";
import { PromotionDialog } from "./promotion.js";

/** @typedef {import("./state.js").RoomState} RoomState */

/**
 * What the board asks of the page.
 * @typedef {object} PlayHandlers
 * @property {() => number | null} reviewPly the ply under review, null for the live position
 * @property {(ply: number | null) => void} review show another ply (null: the live position)
 * @property {(ply: number) => string[] | null} arrow the squares of the analysis's best move after that many moves
 * @property {(move: string) => void} play play a move (USI/ICCS)
 * @property {() => void} refuse say the move tried is illegal
 */

export class PlayBoard {
  /**
   * @param {HTMLElement} holder where the board goes
   * @param {HTMLElement} promotionSlot where the promotion question opens
   * @param {RoomState} state
   * @param {PlayHandlers} page
   * @param {string | null} [selected] the selection, kept when the page is drawn anew
   */
  constructor(holder, promotionSlot, state, page, selected = null) {
    this.holder = holder;
    this.state = state;
    this.page = page;
    /** @type {string | null} a square, or "hand:<code>" */
    this.selected = selected;
    this.promotion = new PromotionDialog(promotionSlot);
    this.board = new Board(holder, state.room.variant, {
      onSquare: (square) => this.onSquare(square),
      onHand: (code) => this.onHand(code),
      onDragStart: (square) => this.onDragStart(square),
      onHandDragStart: (code) => this.onHandDragStart(code),
      onDrop: (square) => this.onDrop(square),
      onCancel: () => this.cancel(),
    });
  }

  /** @returns {boolean} whether this device may move now */
  canMove() {
    return this.state.isMyTurn() && this.page.reviewPly() === null;
  }

  render() {
    const room = this.state.room;
    const review = this.page.reviewPly();
    const position = review === null
      ? this.state.livePosition()
      : positionAfter(room.variant, room.start, room.moves, review);
    const plies = review ?? room.moves.length;
    const check = review === null && room.in_check ? kingSquare(position, room.side_to_move) : null;
    const targets = room.settings.show_targets && this.selected && this.canMove()
      ? this.state.targets(this.selected)
      : [];
    this.board.render({
      position,
      orientation: this.state.orientation(),
      labels: pieceLabels(),
      rankStyle: family(room.variant) === "shogi" ? shogiNotation() : "western",
      selected: this.selected,
      targets,
      lastMove: plies > 0 ? moveSquares(room.moves[plies - 1]) : [],
      check,
      reviewPly: review,
      arrow: this.page.arrow(plies),
    });
  }

  /** Drops the selection and any open promotion question (the position changed). */
  forget() {
    this.selected = null;
    this.closePromotion();
  }

  /** @param {string} square */
  onSquare(square) {
    if (this.promotion.open) return;
    if (this.page.reviewPly() !== null) {
      this.page.review(null);
      return;
    }
    if (!this.canMove()) return;
    const piece = this.state.livePosition().board.get(square);
    const own = piece?.side === this.state.room.side_to_move;
    if (this.selected === square) {
      this.select(null);
    } else if (own) {
      this.select(square);
    } else if (this.selected) {
      this.tryMove(this.selected, square);
    }
  }

  /** @param {string} code */
  onHand(code) {
    if (this.promotion.open || !this.canMove()) return;
    this.select(this.selected === `hand:${code}` ? null : `hand:${code}`);
  }

  /** @param {string} square @returns {boolean} */
  onDragStart(square) {
    if (!this.canMove() || this.promotion.open) return false;
    const piece = this.state.livePosition().board.get(square);
    if (piece?.side !== this.state.room.side_to_move) return false;
    this.select(square);
    return true;
  }

  /** @param {string} code @returns {boolean} */
  onHandDragStart(code) {
    if (!this.canMove() || this.promotion.open) return false;
    this.select(`hand:${code}`);
    return true;
  }

  /** @param {string} square */
  onDrop(square) {
    if (this.selected && this.selected !== square) this.tryMove(this.selected, square);
  }

  cancel() {
    if (this.promotion.open) this.closePromotion();
    else this.select(null);
  }

  /** @param {string | null} selection */
  select(selection) {
    this.selected = selection;
    this.render();
  }

  /**
   * Plays from the selection to `to` if it is legal (or if illegal moves are
   * played and lose); asks about promotion only when both are legal.
   * @param {string} from a square or "hand:<code>"
   * @param {string} to
   */
  async tryMove(from, to) {
    const room = this.state.room;
    const legal = room.legal_moves;
    const anyMove = room.settings.illegal_move_loses;
    if (from.startsWith("hand:")) {
      const drop = `${from.slice(5)}*${to}`;
      if (legal.includes(drop) || anyMove) this.play(drop);
      else this.refuse();
      return;
    }
    const plain = `${from}${to}`;
    const promoted = `${plain}+`;
    const canPlain = legal.includes(plain);
    const canPromote = legal.includes(promoted);
    if (canPlain && canPromote) {
      const promote = await this.askPromotion(from, to);
      if (promote !== null) this.play(promote ? promoted : plain);
    } else if (canPromote) {
      this.play(promoted);
    } else if (canPlain || anyMove) {
      this.play(plain);
    } else {
      this.refuse();
    }
  }

  /** @param {string} move */
  play(move) {
    this.selected = null;
    this.render();
    this.page.play(move);
  }

  refuse() {
    this.selected = null;
    this.page.refuse();
  }

  /**
   * @param {string} from
   * @param {string} to
   * @returns {Promise<boolean | null>} null when cancelled
   */
  askPromotion(from, to) {
    const piece = this.state.livePosition().board.get(from);
    if (!piece) return Promise.resolve(null);
    return this.promotion.ask(this.state.room.variant, piece, to, (answer) => this.closePromotion(answer));
  }

  /**
   * Closes the promotion question, if one is open, and gives the board the
   * focus back; cancelling drops the selection too.
   * @param {boolean | null} [answer]
   */
  closePromotion(answer = null) {
    if (!this.promotion.close(answer)) return;
    if (answer === null) this.select(null);
    const square = this.holder.querySelector(`[data-square][tabindex="0"]`);
    if (square instanceof HTMLElement) square.focus();
  }
}
