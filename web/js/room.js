// A room: play or watch one game. The server's room JSON is the truth (legal
// moves, clocks, seats); the page refetches it after every batch of events
// from the room WebSocket and draws it. Opening an invitation takes the free
// seat unless this device already holds one of the room's seats.

import { ApiError, RoomSocket, act, getRoom, recordUrl, request } from "./api.js";
import { Board, pieceSvg, sideName } from "./board.js";
import { t } from "./i18n.js";
import { errorBox, errorText, showError } from "./errors.js";
import { family, pieceName } from "./pieces.js";
import { MoveList, notationList, positionAfter, resultElement, resultText, reviewPlyFor } from "./moves.js";
import { kingSquare, moveSquares, opponent, parsePosition } from "./position.js";
import {
  pieceLabels,
  playerId,
  playerName,
  roomToken,
  setRoomToken,
  setPlayerName,
  shogiNotation,
} from "./storage.js";

/** @typedef {import("./position.js").Side} Side */
/** @typedef {import("./position.js").Position} Position */
/** @typedef {import("./storage.js").SeatToken} SeatToken */

/** The record formats each family can be downloaded in. */
const RECORD_FORMATS = {
  shogi: ["kif", "ki2", "csa", "sfen"],
  xiangqi: ["wxf", "iccs", "fen"],
};

/**
 * Milliseconds as a clock shows them: h:mm:ss, m:ss, or tenths under ten seconds.
 * @param {number} ms
 */
function clockText(ms) {
  const total = Math.max(0, ms);
  if (total < 10000) return (Math.floor(total / 100) / 10).toFixed(1);
  const seconds = Math.ceil(total / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * @param {string} tag
 * @param {Record<string, string>} [data] data-* attributes
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, data = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(data)) node.dataset[key] = value;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * @param {string} action the data-action
 * @param {string} label
 * @returns {HTMLButtonElement}
 */
function actionButton(action, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.action = action;
  button.textContent = label;
  return button;
}

/** One open room page. */
class RoomPage {
  /**
   * @param {HTMLElement} container
   * @param {string} id
   * @param {(text: string) => void} announce says a line to screen readers
   */
  constructor(container, id, announce) {
    this.container = container;
    this.id = id;
    this.announce = announce;
    /** @type {any} the latest room JSON */
    this.room = null;
    /** When `room` arrived (performance.now), for the clock countdown. */
    this.fetchedAt = 0;
    /** @type {SeatToken | null} */
    this.seat = roomToken(id);
    /** @type {string | null} a square, or "hand:<code>" */
    this.selected = null;
    /** @type {number | null} the ply under review, null for the live position */
    this.reviewPly = null;
    /** @type {Record<string, number>} seat name → when its away countdown ends (Date.now) */
    this.awayUntil = {};
    /** The event seq up to which events are old news (not announced). */
    this.quietUntil = 0;
    /** Refetches answer in order; an older answer arriving late is dropped. */
    this.fetchSerial = 0;
    /** @type {RoomSocket | null} */
    this.socket = null;
    /** @type {number | undefined} */
    this.ticker = undefined;
    /** @type {((promote: boolean | null) => void) | null} the open promotion question */
    this.promotionAnswer = null;
    this.connection = "reconnecting";
    /** @type {any} the latest presence frame of the room socket */
    this.presence = null;
    /** @type {unknown} the last refusal or failure shown in `[data-error]`, null for none */
    this.error = null;
  }

  async start() {
    this.container.replaceChildren(el("p", { loading: "" }, t("room.loading")));
    /** @type {any} */
    let room;
    try {
      room = await getRoom(this.id);
    } catch (err) {
      const text = err instanceof ApiError && err.code === "room-not-found"
        ? t("room.not_found")
        : t("room.load_failed", { reason: err instanceof ApiError ? errorText(err) : String(err) });
      const p = errorBox();
      showError(p, text);
      const home = document.createElement("a");
      home.href = "/";
      home.textContent = t("nav.home");
      this.container.replaceChildren(p, home);
      return;
    }
    if (!this.seat && room.mode === "online" && room.status === "waiting") {
      await this.join();
      room = await getRoom(this.id).catch(() => room);
    }
    this.quietUntil = room.last_seq;
    this.setRoom(room);
    this.build();
    this.socket = new RoomSocket(this.id, this.seat?.token ?? null, 0, {
      onEvents: (events) => this.onEvents(events),
      onWelcome: (seats) => this.onWelcome(seats),
      onPresence: (presence) => this.onPresence(presence),
      onState: (state) => {
        this.connection = state;
        // A dropped socket's presence is stale; the next socket sends a fresh frame.
        if (state === "reconnecting") this.presence = null;
        this.renderStatus();
        // This device's own seat now shows as connected; after a drop, clocks
        // and seats may also have changed without an event.
        if (state === "online") this.refresh();
      },
    });
    this.ticker = window.setInterval(() => this.tick(), 200);
  }

  /** Takes the free seat of an online room (the invitation's purpose). */
  async join() {
    /** @type {Record<string, string>} */
    const body = { player: playerId() };
    if (playerName()) body.name = playerName();
    try {
      const joined = await request("POST", `/rooms/${encodeURIComponent(this.id)}/join`, { body });
      this.seat = { token: joined.token, seats: [joined.seat] };
      setRoomToken(this.id, this.seat);
    } catch (err) {
      // No free seat (someone was quicker): this device watches.
      if (!(err instanceof ApiError && err.code === "no-free-seat")) {
        this.error = err;
      }
    }
  }

  /** @param {string[]} seats the seats the server says the token holds */
  onWelcome(seats) {
    if (this.seat && seats.length === 0) {
      // The stored token is not this room's any more (a different database).
      this.seat = null;
      this.render();
    }
  }

  /**
   * Who is connected now (sockets opening and closing are no events): the
   * seats' `connected` and `away`, and the number of spectators.
   * @param {any} presence `{seats: {first, second}, spectators}`
   */
  onPresence(presence) {
    this.presence = presence;
    if (!this.room) return;
    this.applyPresence(presence);
    if (!this.board) return;
    this.renderSeats();
    this.renderSpectators();
    this.tick();
  }

  /**
   * Puts a presence frame into the room JSON. The room sends a frame after
   * every change, in order, so a fetched room JSON is newer than the latest
   * frame only while the next frame is on its way: every fetched room gets
   * the latest frame too.
   * @param {any} presence
   */
  applyPresence(presence) {
    for (const name of ["first", "second"]) {
      const seat = this.room.seats[name];
      const now = presence.seats?.[name];
      if (!seat || !now) continue;
      seat.connected = Boolean(now.connected);
      seat.away = Boolean(now.away);
      if (!seat.away) {
        seat.taken_over = false;
        delete this.awayUntil[name];
      }
    }
    if (typeof presence.spectators === "number") this.room.spectators = presence.spectators;
  }

  /** @param {any[]} events a batch from the socket */
  async onEvents(events) {
    const now = Date.now();
    for (const event of events) {
      if (event.type === "away") {
        // Old events count from when they happened, new ones from now.
        const from = event.seq <= this.quietUntil ? event.at : now;
        this.awayUntil[event.seat] = from + event.grace_ms;
      } else if (event.type === "back" || event.type === "takeover") {
        delete this.awayUntil[event.seat];
      }
    }
    const fresh = events.filter((event) => event.seq > this.quietUntil);
    if (fresh.length === 0) return;
    await this.refresh();
    for (const event of fresh) this.announceEvent(event);
  }

  /** @param {any} event */
  announceEvent(event) {
    const variant = this.room.variant;
    if (event.type === "move") {
      this.announce(t("announce.move", {
        side: sideName(variant, event.side),
        move: this.moveText(event.ply - 1) ?? event.move,
      }));
    } else if (event.type === "end") {
      this.announce(this.resultText(event.result, event.reason));
    } else if (event.type === "draw_offered") {
      this.announce(t("announce.draw_offered", { side: sideName(variant, event.side) }));
    } else if (event.type === "seated") {
      this.announce(t("announce.seated", { name: event.name }));
    } else if (event.type === "new_game") {
      this.announce(t("announce.new_game"));
    }
  }

  async refresh() {
    const serial = ++this.fetchSerial;
    try {
      const room = await getRoom(this.id);
      if (serial !== this.fetchSerial) return;
      const newGame = this.room && room.game !== this.room.game;
      this.setRoom(room);
      if (newGame) {
        this.reviewPly = null;
        this.build();
      } else {
        this.render();
      }
    } catch {
      // The socket's next batch (or reconnection) fetches again.
    }
  }

  /** @param {any} room */
  setRoom(room) {
    const moved = this.room && room.moves.length !== this.room.moves.length;
    this.room = room;
    this.fetchedAt = performance.now();
    if (this.presence) this.applyPresence(this.presence);
    for (const [name, seat] of Object.entries(room.seats)) {
      if (!seat?.away) delete this.awayUntil[name];
    }
    if (moved) {
      this.selected = null;
      this.closePromotion();
    }
  }

  /** @returns {Side[]} the sides this device plays in the current game */
  mySides() {
    if (!this.seat || !this.room) return [];
    return this.seat.seats
      .map((name) => this.room.seats[name]?.side)
      .filter((side) => side === "first" || side === "second");
  }

  /** @returns {Side} the side drawn at the bottom */
  orientation() {
    const sides = this.mySides();
    return sides.length === 1 ? sides[0] : "first";
  }

  /** @returns {boolean} whether this device may move now */
  canMove() {
    return this.room.status === "playing"
      && this.reviewPly === null
      && this.mySides().includes(this.room.side_to_move);
  }

  /** @returns {Position} the live position */
  livePosition() {
    return parsePosition(this.room.variant, this.room.position);
  }

  /**
   * The position after `ply` moves from the start.
   * @param {number} ply
   * @returns {Position}
   */
  positionAt(ply) {
    return positionAfter(this.room.variant, this.room.start, this.room.moves, ply);
  }

  /** @returns {string[] | null} the move list in the chosen notation, if the server sent it */
  notationList() {
    return notationList(this.room.variant, this.room.notation);
  }

  /** @param {number} index @returns {string | null} */
  moveText(index) {
    return this.notationList()?.[index] ?? this.room.moves[index] ?? null;
  }

  // ---- Drawing ---------------------------------------------------------------

  /** Lays out the page once (and again after a language change or a new game). */
  build() {
    const room = this.room;
    document.title = t("title.room", { game: t(`variant.${room.variant}`) });
    const page = el("section", { roomId: room.id });
    page.className = `room ${family(room.variant)} ${room.variant}`;
    const main = el("div");
    main.className = "room-main";
    this.topSeat = el("div");
    this.topSeat.className = "seat-slot top";
    this.boardSlot = el("div");
    this.boardSlot.className = "board-slot";
    this.bottomSeat = el("div");
    this.bottomSeat.className = "seat-slot bottom";
    this.promotionSlot = el("div");
    this.promotionSlot.className = "promotion-slot";
    this.boardSlot.append(this.promotionSlot);
    main.append(this.topSeat, this.boardSlot, this.bottomSeat);

    const side = el("aside");
    side.className = "room-side";
    side.setAttribute("aria-label", t("room.panel"));
    this.statusBox = el("div");
    this.statusBox.className = "panel status-box";
    this.actionsBox = el("div");
    this.actionsBox.className = "panel actions";
    this.movesBox = el("div");
    this.movesBox.className = "panel moves";
    this.shareBox = el("div");
    this.shareBox.className = "panel share";
    side.append(this.statusBox, this.actionsBox, this.movesBox, this.shareBox);
    page.append(main, side);
    this.container.replaceChildren(page);

    const boardHolder = el("div");
    this.boardSlot.prepend(boardHolder);
    this.board = new Board(boardHolder, room.variant, {
      onSquare: (square) => this.onSquare(square),
      onHand: (code) => this.onHand(code),
      onDragStart: (square) => this.onDragStart(square),
      onHandDragStart: (code) => this.onHandDragStart(code),
      onDrop: (square) => this.onDrop(square),
      onCancel: () => this.cancel(),
    });
    this.buildMoves();
    this.buildShare();
    this.render();
  }

  render() {
    if (!this.board) return;
    // While the friend has not come, the invitation link is what matters most.
    this.container.querySelector(".room")?.classList.toggle("waiting", this.room.status === "waiting");
    this.renderBoard();
    this.renderSeats();
    this.renderStatus();
    this.renderActions();
    this.renderMoves();
    this.tick();
  }

  renderBoard() {
    const room = this.room;
    const review = this.reviewPly;
    const position = review === null ? this.livePosition() : this.positionAt(review);
    const plies = review ?? room.moves.length;
    const last = plies > 0 ? moveSquares(room.moves[plies - 1]) : [];
    const check = review === null && room.in_check
      ? kingSquare(position, room.side_to_move)
      : null;
    this.board?.render({
      position,
      orientation: this.orientation(),
      labels: pieceLabels(),
      rankStyle: family(room.variant) === "shogi" ? shogiNotation() : "western",
      selected: this.selected,
      targets: room.settings.show_targets ? this.targets() : [],
      lastMove: last,
      check,
      reviewPly: review,
    });
  }

  /** @returns {string[]} the legal destinations of the selection */
  targets() {
    const selected = this.selected;
    if (!selected || !this.canMove()) return [];
    /** @type {string[]} */
    const moves = this.room.legal_moves;
    const found = selected.startsWith("hand:")
      ? moves.filter((m) => m.startsWith(`${selected.slice(5)}*`))
      : moves.filter((m) => m[1] !== "*" && m.startsWith(selected));
    return [...new Set(found.map((m) => m.slice(2, 4)))];
  }

  renderSeats() {
    if (!this.topSeat || !this.bottomSeat) return;
    const bottomSide = this.orientation();
    const room = this.room;
    /** @param {Side} side */
    const seatNameOf = (side) =>
      ["first", "second"].find((name) => room.seats[name]?.side === side)
      ?? (room.seats.first ? "second" : "first");
    const bottomName = seatNameOf(bottomSide);
    const topName = bottomName === "first" ? "second" : "first";
    this.topSeat.replaceChildren(this.seatPanel(topName, opponent(bottomSide)));
    this.bottomSeat.replaceChildren(this.seatPanel(bottomName, bottomSide));
  }

  /**
   * A seat: who sits there, connection, away countdown, clock and impasse points.
   * @param {string} name the seat's name (first or second)
   * @param {Side} side the side it plays in this game
   * @returns {HTMLElement}
   */
  seatPanel(name, side) {
    const room = this.room;
    const seat = room.seats[name];
    const panel = el("div", { seat: name, side });
    panel.className = "seat";
    if (room.status === "playing" && room.side_to_move === side) panel.classList.add("to-move");
    panel.dataset.connected = String(Boolean(seat && (seat.computer || seat.connected)));
    const dot = el("span");
    dot.className = "dot";
    dot.setAttribute("aria-hidden", "true");
    const who = el("span");
    who.className = "who";
    const title = el("strong", {}, seat ? seat.name : t("seat.free"));
    const sub = el("span");
    sub.className = "sub";
    const parts = [sideName(room.variant, side)];
    if (seat?.computer) parts.push(room.level ? t("seat.computer_level", { n: room.level }) : t("seat.computer"));
    if (this.seat?.seats.includes(name)) parts.push(t("seat.you"));
    if (seat && !seat.computer) parts.push(seat.connected ? t("seat.connected") : t("seat.disconnected"));
    sub.textContent = parts.join(" · ");
    who.append(title, sub);
    panel.append(dot, who);
    if (seat?.away) {
      const away = el("span", {}, "");
      away.className = "away";
      panel.append(away);
      panel.dataset.away = "0";
    }
    if (room.impasse_points && family(room.variant) === "shogi") {
      const points = el("span", { impassePoints: side }, String(room.impasse_points[side] ?? 0));
      points.className = "impasse-points";
      points.title = t("impasse.points_title");
      points.setAttribute("aria-label", t("impasse.points", { n: room.impasse_points[side] ?? 0 }));
      panel.append(points);
    }
    if (room.clocks) {
      const clock = el("span", { clock: side });
      clock.className = "clock";
      clock.setAttribute("role", "timer");
      clock.setAttribute("aria-label", t("clock.label", { side: sideName(room.variant, side) }));
      panel.append(clock);
    }
    return panel;
  }

  /** Updates what changes by itself: clocks and away countdowns. */
  tick() {
    const room = this.room;
    if (!room) return;
    const clocks = room.clocks;
    if (clocks) {
      for (const side of ["first", "second"]) {
        const clock = this.container.querySelector(`[data-clock=${side}]`);
        if (!clock) continue;
        let ms;
        let running = false;
        if (clocks.running === side && clocks.remaining_ms !== null && room.status === "playing") {
          ms = clocks.remaining_ms - (performance.now() - this.fetchedAt);
          running = true;
        } else {
          const main = clocks.main_left_ms?.[side] ?? 0;
          ms = main > 0 ? main : clocks.time_per_move * 1000;
        }
        clock.textContent = clockText(ms);
        clock.classList.toggle("running", running);
        clock.classList.toggle("low", running && ms < 10000);
      }
    }
    for (const [name, until] of Object.entries(this.awayUntil)) {
      const panel = this.container.querySelector(`[data-seat=${name}]`);
      const away = panel?.querySelector(".away");
      if (!(panel instanceof HTMLElement) || !away) continue;
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      panel.dataset.away = String(left);
      away.textContent = t("seat.away", { n: left });
    }
    for (const panel of Array.from(this.container.querySelectorAll("[data-seat][data-away]"))) {
      const name = panel.getAttribute("data-seat") ?? "";
      const seat = this.room.seats[name];
      const away = panel.querySelector(".away");
      if (seat?.taken_over && away) away.textContent = t("seat.taken_over");
      else if (!(name in this.awayUntil) && away) away.textContent = t("seat.away_unknown");
    }
  }

  renderStatus() {
    const box = this.statusBox;
    if (!box) return;
    const room = this.room;
    const status = el("p", { status: room.status });
    status.className = "status";
    const variant = room.variant;
    if (room.status === "waiting") {
      status.textContent = this.seat ? t("status.waiting_friend") : t("status.waiting");
    } else if (room.status === "playing") {
      const side = room.side_to_move;
      const seat = Object.values(room.seats).find((s) => s?.side === side);
      if (this.canMove() || (this.mySides().includes(side) && this.reviewPly !== null)) {
        status.textContent = this.mySides().length === 2
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
    const nodes = [status];
    const result = room.result;
    if (room.status === "finished" && result?.result) {
      nodes.push(resultElement(room.variant, result.result, result.reason));
    }
    if (room.draw_offer && room.status === "playing") {
      nodes.push(el("p", { drawOffer: room.draw_offer }, t("status.draw_offered", { side: sideName(variant, room.draw_offer) })));
    }
    if (room.rematch_offer && room.status === "finished") {
      nodes.push(el("p", {}, t("status.rematch_offered")));
    }
    const connection = el("p", { connection: this.connection });
    connection.className = "connection";
    connection.textContent = t(`connection.${this.connection}`);
    const error = errorBox();
    showError(error, this.error);
    nodes.push(error, connection);
    box.replaceChildren(...nodes);
  }

  /**
   * "Sente wins by checkmate", "Draw by repetition".
   * @param {string} winner first, second or draw
   * @param {string | null} reason the API's code
   */
  resultText(winner, reason) {
    return resultText(this.room.variant, winner, reason);
  }

  renderActions() {
    const box = this.actionsBox;
    if (!box) return;
    const room = this.room;
    const mine = this.mySides();
    const playing = room.status === "playing";
    const buttons = [];
    if (mine.length > 0 && playing) {
      const resign = actionButton("resign", t("action.resign"));
      resign.addEventListener("click", () => this.act("resign"));
      buttons.push(resign);
      if (room.mode !== "local") {
        const offeredByOther = room.draw_offer && !mine.includes(room.draw_offer);
        if (offeredByOther) {
          const accept = actionButton("accept-draw", t("action.accept_draw"));
          accept.addEventListener("click", () => this.act("draw"));
          buttons.push(accept);
        } else {
          const offer = actionButton("draw", t("action.draw"));
          offer.disabled = Boolean(room.draw_offer);
          offer.addEventListener("click", () => this.act("draw"));
          buttons.push(offer);
        }
      }
      if (room.variant !== "minishogi" && room.variant !== "xiangqi"
        && room.settings.impasse !== "off") {
        const label = room.settings.impasse === "27-point" ? t("action.declare_impasse") : t("action.claim_impasse");
        const impasse = actionButton("impasse", label);
        impasse.addEventListener("click", () => this.act("impasse"));
        buttons.push(impasse);
      }
    }
    if (mine.length > 0 && room.status === "finished") {
      const otherAsked = room.rematch_offer && !(this.seat?.seats ?? []).includes(room.rematch_offer);
      const iAsked = room.rematch_offer && !otherAsked;
      const rematch = actionButton("rematch", otherAsked ? t("action.accept_rematch") : iAsked ? t("action.rematch_asked") : t("action.rematch"));
      rematch.disabled = Boolean(iAsked);
      rematch.addEventListener("click", () => this.act("rematch"));
      buttons.push(rematch);
    }
    box.hidden = buttons.length === 0;
    box.replaceChildren(...buttons);
  }

  buildMoves() {
    if (!this.movesBox) return;
    this.moveList = new MoveList(this.movesBox, this.room.variant, {
      onReview: (ply) => this.review(ply),
      onNotation: () => this.render(),
      endLabel: t("moves.live"),
    });
  }

  renderMoves() {
    this.moveList?.render(this.room.moves, this.notationList(), this.reviewPly);
  }

  /** @param {number | null} ply the position to show; null for the live one */
  review(ply) {
    this.reviewPly = reviewPlyFor(ply, this.room.moves.length);
    this.selected = null;
    this.closePromotion();
    this.render();
  }

  buildShare() {
    const box = this.shareBox;
    if (!box) return;
    const room = this.room;
    const label = document.createElement("label");
    label.htmlFor = "invite-url";
    label.textContent = room.mode === "online" ? t("share.invite") : t("share.watch");
    const input = document.createElement("input");
    input.id = "invite-url";
    input.readOnly = true;
    input.dataset.inviteUrl = "";
    input.value = `${location.origin}/rooms/${encodeURIComponent(room.id)}`;
    input.addEventListener("focus", () => input.select());
    const copy = actionButton("copy-invite", t("share.copy"));
    copy.addEventListener("click", async () => {
      input.select();
      let copied = false;
      try {
        await navigator.clipboard.writeText(input.value);
        copied = true;
      } catch {
        copied = document.execCommand?.("copy") ?? false;
      }
      copy.textContent = copied ? t("share.copied") : t("share.copy_failed");
      window.setTimeout(() => (copy.textContent = t("share.copy")), 2000);
    });
    const line = el("div");
    line.className = "invite-line";
    line.append(input, copy);

    const formats = RECORD_FORMATS[family(room.variant)];
    const format = document.createElement("select");
    format.name = "record-format";
    format.setAttribute("aria-label", t("record.format"));
    for (const f of formats) format.append(new Option(t(`record.${f}`), f));
    const download = document.createElement("a");
    download.dataset.action = "download-record";
    download.className = "button";
    download.textContent = t("record.download");
    const setHref = () => {
      download.href = recordUrl(room.id, format.value);
      download.download = `koma-${room.variant}-${room.id.slice(0, 8)}.${format.value === "iccs" || format.value === "wxf" ? "pgn" : format.value === "sfen" || format.value === "fen" ? "txt" : format.value}`;
    };
    format.addEventListener("change", setHref);
    setHref();
    const record = el("div");
    record.className = "record-line";
    record.append(format, download);
    const replay = document.createElement("a");
    replay.href = `/replay?room=${encodeURIComponent(room.id)}`;
    replay.dataset.action = "replay";
    replay.textContent = t("record.replay");
    const replayLine = el("p");
    replayLine.className = "replay-link";
    replayLine.append(replay);
    this.spectators = el("p", { spectators: "" });
    this.spectators.className = "note";
    const rules = document.createElement("a");
    rules.href = `/rules/${room.variant}`;
    rules.className = "rules-link";
    rules.textContent = t("nav.rules");
    const nodes = [label, line, record, replayLine, this.spectators];
    if (this.seat) nodes.push(this.renameForm());
    box.replaceChildren(...nodes, rules);
    this.renderSpectators();
  }

  /** Shows how many people watch, and whether this device only watches. */
  renderSpectators() {
    const box = this.spectators;
    if (!box) return;
    const count = this.room.spectators;
    box.dataset.spectators = String(count ?? "");
    const watching = this.seat ? "" : t("room.watching");
    box.textContent = typeof count === "number"
      ? [t("room.spectators", { n: count }), watching].filter(Boolean).join(" ")
      : watching;
  }

  /**
   * The form that changes this device's name in its seats (`PUT
   * /rooms/{id}/name`); the `renamed` event redraws the seats. On a device
   * holding both seats (a local room) `select[name=seat]` picks the seat.
   * @returns {HTMLFormElement}
   */
  renameForm() {
    const form = document.createElement("form");
    form.dataset.rename = "";
    form.className = "rename-line";
    const held = (this.seat?.seats ?? []).filter((name) => !this.room.seats[name]?.computer);
    const input = document.createElement("input");
    input.name = "name";
    input.id = "rename-name";
    input.maxLength = 40;
    input.setAttribute("autocomplete", "nickname");
    const label = document.createElement("label");
    label.htmlFor = input.id;
    label.textContent = t("room.your_name");
    const choice = document.createElement("select");
    choice.name = "seat";
    choice.setAttribute("aria-label", t("room.seat"));
    for (const name of held) {
      const side = this.room.seats[name]?.side ?? name;
      choice.append(new Option(sideName(this.room.variant, side), name));
    }
    const fill = () => (input.value = this.room.seats[choice.value]?.name ?? playerName());
    choice.addEventListener("change", fill);
    fill();
    const save = actionButton("rename", t("room.rename"));
    save.type = "submit";
    form.append(label);
    if (held.length > 1) form.append(choice);
    form.append(input, save);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name || !this.seat) return;
      /** @type {Record<string, string>} */
      const body = { name };
      if (held.length > 1) body.seat = choice.value;
      save.disabled = true;
      try {
        await request("PUT", `/rooms/${encodeURIComponent(this.id)}/name`, { token: this.seat.token, body });
        setPlayerName(name);
        this.error = null;
      } catch (err) {
        this.error = err;
      }
      save.disabled = false;
      await this.refresh();
    });
    return form;
  }

  // ---- Playing ---------------------------------------------------------------

  /** @param {string} square */
  onSquare(square) {
    if (this.promotionAnswer) return;
    if (this.reviewPly !== null) {
      this.review(null);
      return;
    }
    if (!this.canMove()) return;
    const piece = this.livePosition().board.get(square);
    const own = piece?.side === this.room.side_to_move;
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
    if (this.promotionAnswer || !this.canMove()) return;
    this.select(this.selected === `hand:${code}` ? null : `hand:${code}`);
  }

  /** @param {string} square @returns {boolean} */
  onDragStart(square) {
    if (!this.canMove() || this.promotionAnswer) return false;
    const piece = this.livePosition().board.get(square);
    if (piece?.side !== this.room.side_to_move) return false;
    this.select(square);
    return true;
  }

  /** @param {string} code @returns {boolean} */
  onHandDragStart(code) {
    if (!this.canMove() || this.promotionAnswer) return false;
    this.select(`hand:${code}`);
    return true;
  }

  /** @param {string} square */
  onDrop(square) {
    if (this.selected && this.selected !== square) this.tryMove(this.selected, square);
  }

  cancel() {
    if (this.promotionAnswer) this.closePromotion();
    else this.select(null);
  }

  /** @param {string | null} selection */
  select(selection) {
    this.selected = selection;
    this.renderBoard();
  }

  /**
   * Plays from the selection to `to` if it is legal; asks about promotion
   * only when both promoting and not promoting are legal.
   * @param {string} from a square or "hand:<code>"
   * @param {string} to
   */
  async tryMove(from, to) {
    const legal = this.room.legal_moves;
    if (from.startsWith("hand:")) {
      const drop = `${from.slice(5)}*${to}`;
      if (legal.includes(drop) || this.room.settings.illegal_move_loses) this.send(drop);
      else this.refuse();
      return;
    }
    const plain = `${from}${to}`;
    const promoted = `${plain}+`;
    const canPlain = legal.includes(plain);
    const canPromote = legal.includes(promoted);
    if (canPlain && canPromote) {
      const promote = await this.askPromotion(from, to);
      if (promote !== null) this.send(promote ? promoted : plain);
    } else if (canPromote) {
      this.send(promoted);
    } else if (canPlain || this.room.settings.illegal_move_loses) {
      this.send(plain);
    } else {
      this.refuse();
    }
  }

  refuse() {
    this.selected = null;
    this.error = t("room.illegal");
    this.render();
  }

  /**
   * The promotion question, over the board.
   * @param {string} from
   * @param {string} to
   * @returns {Promise<boolean | null>} null when cancelled
   */
  askPromotion(from, to) {
    const slot = this.promotionSlot;
    const piece = this.livePosition().board.get(from);
    if (!slot || !piece) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.promotionAnswer = resolve;
      const dialog = el("div", { promotion: "" });
      dialog.className = "promotion";
      dialog.setAttribute("role", "dialog");
      dialog.setAttribute("aria-modal", "true");
      dialog.setAttribute("aria-label", t("promotion.title", { square: to }));
      const question = el("p", {}, t("promotion.title", { square: to }));
      const choices = el("div");
      choices.className = "choices";
      for (const [answer, code] of [["yes", `+${piece.code}`], ["no", piece.code]]) {
        const button = el("button", { promote: answer });
        button.setAttribute("type", "button");
        const face = el("span");
        face.className = "piece";
        face.append(pieceSvg(this.room.variant, code, piece.side, pieceLabels()));
        const word = el("span", {}, t(`promotion.${answer}`));
        button.setAttribute("aria-label", `${t(`promotion.${answer}`)}: ${pieceName(this.room.variant, code)}`);
        button.append(face, word);
        button.addEventListener("click", () => this.closePromotion(answer === "yes"));
        choices.append(button);
      }
      dialog.append(question, choices);
      dialog.addEventListener("keydown", (event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          this.closePromotion();
        }
      });
      slot.replaceChildren(dialog);
      const first = dialog.querySelector("button");
      if (first instanceof HTMLElement) first.focus();
    });
  }

  /** @param {boolean | null} [answer] */
  closePromotion(answer = null) {
    const resolve = this.promotionAnswer;
    this.promotionAnswer = null;
    this.promotionSlot?.replaceChildren();
    if (resolve) {
      if (answer === null) this.select(null);
      resolve(answer);
      const square = this.container.querySelector(`[data-square][tabindex="0"]`);
      if (square instanceof HTMLElement) square.focus();
    }
  }

  /** @param {string} move */
  async send(move) {
    this.selected = null;
    this.error = null;
    this.renderBoard();
    await this.act("moves", { move });
  }

  /**
   * @param {string} action moves, resign, draw, impasse, rematch
   * @param {unknown} [body]
   */
  async act(action, body) {
    if (!this.seat) return;
    try {
      await act(this.id, action, this.seat.token, body);
      this.error = null;
    } catch (err) {
      this.error = err;
    }
    // The socket brings the event too; this keeps the page right while it reconnects.
    await this.refresh();
  }

  stop() {
    this.socket?.close();
    window.clearInterval(this.ticker);
  }
}

/**
 * Opens the room `id` in `container`; returns what stops its live parts.
 * @param {HTMLElement} container
 * @param {string} id
 * @param {(text: string) => void} announce
 * @returns {{ stop: () => void, rerender: () => void }}
 */
export function renderRoom(container, id, announce) {
  const page = new RoomPage(container, id, announce);
  page.start();
  return {
    stop: () => page.stop(),
    rerender: () => {
      if (page.room) page.build();
    },
  };
}
