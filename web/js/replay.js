// The replay page (`/replay`): a game record pasted or opened from a file
// (KIF, KI2, CSA, a position line, a xiangqi PGN) is read by the server
// (`POST /api/v1/records`) and shown on the board in review: the move list,
// stepping through it, the result, and the record's comments on the move
// shown. `/replay?room=<id>` opens a room's game, analysed through the room
// (so that its analysis is kept with the game); `&analyse=1` analyses it at once.

import { AnalysisPanel } from "./analysis.js";
import { ApiError, importRecord, recordUrl, request } from "./api.js";
import { Board, flipButton } from "./board.js";
import { el } from "./dom.js";
import { errorBox, showError } from "./errors.js";
import { t } from "./i18n.js";
import { VARIANTS } from "./lobby.js";
import { MoveList, notationList, positionAfter, resultElement, reviewPlyFor } from "./moves.js";
import { family } from "./pieces.js";
import { moveSquares } from "./position.js";
import { pieceLabels, shogiNotation } from "./storage.js";

/**
 * The game as `POST /api/v1/records` answers it.
 * @typedef {{ variant: string, start: string, moves: string[], notation: any,
 *   result: { result: string | null, reason: string | null },
 *   headers: Record<string, any>, start_comments: string[], comments: string[][] }} ImportedGame
 */

/** The header fields shown above the moves, in order. */
const HEADERS = ["first", "second", "event", "site", "start_time", "opening", "time_control"];

/**
 * A record file's text for the text area: UTF-8, else Shift_JIS (older KIF files).
 * @param {ArrayBuffer} bytes
 * @returns {string}
 */
function decode(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("shift_jis").decode(bytes);
  }
}

/** One open replay page. */
class ReplayPage {
  /** @param {HTMLElement} container */
  constructor(container) {
    this.container = container;
    /** @type {ImportedGame | null} */
    this.game = null;
    /** @type {number | null} the ply shown; null for the last position */
    this.reviewPly = null;
    /** The record text in the form, kept through a redraw. */
    this.text = "";
    /** @type {string} the variant asked for ("" to let the record say) */
    this.variant = "";
    /** @type {unknown} */
    this.error = null;
    /** Whether the board is turned, Gote/Black at the bottom. */
    this.flipped = false;
    /** @type {Board | null} */
    this.board = null;
    /** @type {MoveList | null} */
    this.moveList = null;
    /** @type {HTMLElement | null} the comments on the move shown */
    this.comments = null;
    /** @type {AnalysisPanel | null} the game's analysis, once a game is read */
    this.analysis = null;
    /** @type {string | null} the room whose game is shown, null for a record pasted or opened */
    this.room = null;
  }

  /** Draws the page; opens a room's record when the address names one. */
  start() {
    this.build();
    const query = new URLSearchParams(window.location.search);
    const room = query.get("room");
    if (room) this.loadRoom(room, query.get("analyse") === "1");
  }

  /**
   * Fetches a room's record as a position line and replays it.
   * @param {string} id
   * @param {boolean} analyse whether to analyse it at once
   */
  async loadRoom(id, analyse) {
    this.room = id;
    try {
      const response = await fetch(recordUrl(id, "sfen"), { cache: "no-store" });
      const text = await response.text();
      if (!response.ok) {
        let body = { code: `http-${response.status}`, message: text };
        try {
          body = JSON.parse(text);
        } catch {
          // Not the API's JSON: the text is the message.
        }
        throw new ApiError(response.status, body.code, body.message);
      }
      this.text = text;
      await this.read(text);
      if (analyse) await this.analysis?.run();
    } catch (err) {
      this.error = err;
      this.build();
    }
  }

  /**
   * Reads a record on the server and shows it from the start.
   * @param {string | ArrayBuffer} record
   */
  async read(record) {
    /** @type {Record<string, string>} */
    const query = {};
    if (this.variant) query.variant = this.variant;
    try {
      this.game = await importRecord(record, query);
      this.reviewPly = this.game && this.game.moves.length > 0 ? 0 : null;
      this.error = null;
      this.analysis?.stop();
      const game = this.game;
      const room = this.room;
      this.analysis = game && new AnalysisPanel(game.variant, {
        // A room's game through the room, which keeps the analysis with the game.
        start: () => room
          ? request("POST", `/rooms/${encodeURIComponent(room)}/analysis`)
          : request("POST", "/analysis", {
            body: { variant: game.variant, position: game.start, moves: game.moves },
          }),
        onReview: (ply) => this.review(ply),
        onChange: () => this.render(),
      });
    } catch (err) {
      this.game = null;
      this.error = err;
    }
    this.build();
  }

  /** Lays the page out: the import form, then the game when there is one. */
  build() {
    document.title = t("title.replay");
    const page = el("section", { class: "replay-page" });
    page.append(el("h1", {}, t("replay.title")), this.form());
    this.board = null;
    this.moveList = null;
    this.comments = null;
    const game = this.game;
    if (game) {
      const room = el("section", { class: `room replay ${family(game.variant)} ${game.variant}` });
      const main = el("div", { class: "room-main" });
      const holder = el("div");
      const tools = el("div", { class: "board-tools" });
      tools.append(flipButton(this.flipped, () => {
        this.flipped = !this.flipped;
        this.build();
      }));
      main.append(holder, tools);
      const side = el("aside", { class: "room-side", "aria-label": t("replay.panel") });
      const about = el("div", { class: "panel status-box" });
      about.append(...this.headerLines(game));
      if (game.result.result) about.append(resultElement(game.variant, game.result.result, game.result.reason));
      const moves = el("div", { class: "panel moves" });
      this.comments = el("section", { class: "panel record-comments", "data-comments": "", "aria-label": t("replay.comments") });
      side.append(about, moves);
      if (this.analysis) side.append(this.analysis.box);
      side.append(this.comments);
      room.append(main, side);
      page.append(room);
      const none = () => false;
      this.board = new Board(holder, game.variant, {
        onSquare: () => {},
        onHand: () => {},
        onDragStart: none,
        onHandDragStart: none,
        onDrop: () => {},
        onCancel: () => {},
      });
      this.moveList = new MoveList(moves, game.variant, {
        onReview: (ply) => this.review(ply),
        onNotation: () => this.render(),
        endLabel: t("replay.end"),
      });
    }
    this.container.replaceChildren(page);
    this.render();
  }

  /**
   * The import form: `form[data-import]` with `textarea[name=record]`, a file
   * input and the game choice for records that cannot name it.
   * @returns {HTMLFormElement}
   */
  form() {
    const form = el("form", { class: "panel import", "data-import": "" });
    const label = el("label", { for: "replay-record" }, t("replay.paste"));
    const text = el("textarea", {
      id: "replay-record",
      name: "record",
      rows: 8,
      spellcheck: "false",
      placeholder: "startpos moves 7g7f 3c3d …",
    });
    text.value = this.text;
    text.addEventListener("input", () => (this.text = text.value));
    const fileLabel = el("label", { for: "replay-file" }, t("replay.file"));
    const file = el("input", {
      type: "file",
      id: "replay-file",
      name: "file",
      accept: ".kif,.kifu,.ki2,.csa,.pgn,.txt,.sfen,.fen,text/plain",
    });
    file.addEventListener("change", async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      // The bytes as they are: the server reads Shift_JIS KIF files too.
      const bytes = await chosen.arrayBuffer();
      this.text = decode(bytes);
      this.room = null;
      await this.read(bytes);
    });
    const variant = el("select", { name: "variant", id: "replay-variant" });
    variant.append(new Option(t("replay.detect"), "", false, this.variant === ""));
    for (const v of VARIANTS) variant.append(new Option(t(`variant.${v}`), v, false, v === this.variant));
    variant.addEventListener("change", () => (this.variant = variant.value));
    const variantLabel = el("label", { for: variant.id }, t("setting.variant"));
    const submit = el("button", { type: "submit", class: "primary", "data-action": "import" }, t("replay.show"));
    const error = errorBox();
    showError(error, this.error);
    const row = el("div", { class: "import-line" });
    row.append(variantLabel, variant, fileLabel, file, submit);
    form.append(label, text, row, error);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.text = text.value;
      this.room = null;
      this.read(text.value);
    });
    return form;
  }

  /**
   * The players and the other header fields the record has.
   * @param {ImportedGame} game
   * @returns {HTMLElement[]}
   */
  headerLines(game) {
    const list = el("dl", { class: "record-headers" });
    for (const key of HEADERS) {
      const value = game.headers[key];
      if (typeof value !== "string" || value === "") continue;
      const name = key === "first" || key === "second"
        ? t(`side.${family(game.variant)}.${key}`)
        : t(`replay.header.${key}`);
      list.append(el("dt", {}, name), el("dd", {}, value));
    }
    const title = el("p", { class: "status" }, t("replay.game", { game: t(`variant.${game.variant}`), n: game.moves.length }));
    return [title, list];
  }

  /** @param {number | null} ply */
  review(ply) {
    if (!this.game) return;
    this.reviewPly = reviewPlyFor(ply, this.game.moves.length);
    this.render();
  }

  /** Draws the board and the move list at the ply shown. */
  render() {
    const game = this.game;
    if (!game || !this.board) return;
    const plies = this.reviewPly ?? game.moves.length;
    this.board.render({
      position: positionAfter(game.variant, game.start, game.moves, plies),
      orientation: this.flipped ? "second" : "first",
      labels: pieceLabels(),
      rankStyle: family(game.variant) === "shogi" ? shogiNotation() : "western",
      selected: null,
      targets: [],
      lastMove: plies > 0 ? moveSquares(game.moves[plies - 1]) : [],
      check: null,
      reviewPly: this.reviewPly,
      arrow: this.analysis?.arrow(plies) ?? null,
    });
    const firstMover = positionAfter(game.variant, game.start, [], 0).sideToMove;
    const marks = this.analysis?.marks(firstMover) ?? [];
    this.moveList?.render(game.moves, notationList(game.variant, game.notation), this.reviewPly, marks);
    this.analysis?.render(plies);
    this.renderComments(game, plies);
  }

  /**
   * The record's comments on the position shown: those before the first move
   * at the start, else those after the move that led to it.
   * @param {ImportedGame} game
   * @param {number} plies
   */
  renderComments(game, plies) {
    if (!this.comments) return;
    const lines = plies === 0 ? game.start_comments : game.comments[plies - 1] ?? [];
    this.comments.replaceChildren(...lines.map((line) => el("p", {}, line)));
    this.comments.hidden = lines.length === 0;
  }
}

/**
 * Opens the replay page in `container`.
 * @param {HTMLElement} container
 * @returns {{ stop: () => void, rerender: () => void }}
 */
export function renderReplay(container) {
  const page = new ReplayPage(container);
  page.start();
  return { stop: () => page.analysis?.stop(), rerender: () => page.build() };
}
