// A room: play or watch one game. The server's room JSON is the truth (legal
// moves, clocks, seats): the page fetches it once, then applies the events of
// the room WebSocket to it (each carries what it changed) and draws it. It
// fetches the room again only on a gap in the events and when the socket
// reopens. Opening an invitation takes the free seat unless this device
// already holds one of the room's seats.
//
// This is the page's controller: `room/state.js` holds what the page knows,
// `room/socket.js` feeds it from the socket, and the views under `room/` draw
// it into the slots of `room/layout.js`.

import { AnalysisPanel } from "./analysis.js";
import { ApiError, act, getRoom, request } from "./api.js";
import { flipButton } from "./board.js";
import { muteButton, playSound, soundOf } from "./sounds.js";
import { el } from "./dom.js";
import { errorBox, errorText, showError } from "./errors.js";
import { t } from "./i18n.js";
import { MoveList, notationList, positionAfter, reviewPlyFor } from "./moves.js";
import { keepPlayerCredential, playerCredential, playerName, roomToken, setRoomToken } from "./storage.js";
import { renderActions } from "./room/actions.js";
import { renderChat } from "./room/chat.js";
import { eventText } from "./room/announce.js";
import { runningLeft, tickClocks } from "./room/clocks.js";
import { layout } from "./room/layout.js";
import { PlayBoard } from "./room/play.js";
import { renameForm } from "./room/rename.js";
import { renderSeats, tickAway } from "./room/seats.js";
import { renderInviteLabel, renderShare, renderSpectators } from "./room/share.js";
import { RoomState } from "./room/state.js";
import { connectRoom } from "./room/socket.js";
import { renderStatus } from "./room/status.js";

/** @typedef {import("./room/types.js").Room} Room */
/** @typedef {import("./room/types.js").RoomEvent} RoomEvent */
/** @typedef {import("./room/actions.js").Action} Action */
/** @typedef {import("./room/layout.js").RoomLayout} RoomLayout */
/** @typedef {import("./storage.js").SeatToken} SeatToken */

/**
 * A move that got no answer: its text, number and game, and the failure shown.
 * @typedef {{ move: string, ply: number, game: number, error: ApiError }} Unanswered
 */

/** The last seconds of a player's clock, when the low-time sound plays. */
const LOW_TIME_MS = 10_000;

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
    /** @type {RoomState | null} null until the room is loaded */
    this.state = null;
    /** @type {number | null} the ply under review, null for the live position */
    this.reviewPly = null;
    /** @type {unknown} the last refusal or failure shown in `[data-error]`, null for none */
    this.error = null;
    /** @type {RoomLayout | null} */
    this.slots = null;
    /** @type {PlayBoard | null} */
    this.play = null;
    /** @type {MoveList | null} */
    this.moveList = null;
    /** @type {AnalysisPanel | null} the finished game's analysis */
    this.analysis = null;
    /** The game `analysis` is of: its number, and its length while it is played. */
    this.analysedGame = "";
    /** @type {number | null} the move count of the turn the low-time sound last played on */
    this.lowTimeTurn = null;
    /** @type {import("./api.js").RoomSocket | null} */
    this.socket = null;
    /** @type {number | undefined} */
    this.ticker = undefined;
    this.stopped = false;
    /** Whether the socket has been open once: opening again means events may have been missed. */
    this.opened = false;
    /** Whether a fetch of the room is under way. */
    this.fetching = false;
    /** @type {Unanswered | null} the last move that got no answer, until the room shows its fate */
    this.unanswered = null;
  }

  async start() {
    this.container.replaceChildren(el("p", { "data-loading": "" }, t("room.loading")));
    /** @type {Room} */
    let room;
    try {
      room = await getRoom(this.id);
    } catch (err) {
      const text = err instanceof ApiError && err.code === "room-not-found"
        ? t("room.not_found")
        : t("room.load_failed", { reason: err instanceof ApiError ? errorText(err) : String(err) });
      const p = errorBox();
      showError(p, text);
      this.container.replaceChildren(p, el("a", { href: "/" }, t("nav.home")));
      return;
    }
    let seat = roomToken(this.id);
    if (!seat && room.mode === "online" && room.status === "waiting") {
      seat = await this.join();
      const before = room;
      room = await getRoom(this.id).catch(() => before);
    }
    if (this.stopped) return;
    const state = new RoomState(room, seat);
    this.state = state;
    this.build();
    this.socket = connectRoom(state, {
      onEvents: (fresh, change) => this.onEvents(fresh, change),
      onPresence: () => this.onPresence(),
      onSeatLost: () => this.render(),
      onConnection: (connection) => {
        // The status says whether the page is connected; the seats, whether anyone's connection is known.
        this.render();
        // After a drop, clocks and seats may have changed without an event.
        if (connection === "online" && this.opened) this.refresh();
        if (connection === "online") this.opened = true;
      },
    });
    this.ticker = window.setInterval(() => this.tick(), 200);
  }

  /**
   * Takes the free seat of an online room (the invitation's purpose).
   * @returns {Promise<SeatToken | null>} the seat, or null when none was free
   */
  async join() {
    /** @type {Record<string, string>} */
    const body = { ...playerCredential() };
    if (playerName()) body.name = playerName();
    try {
      const joined = await request("POST", `/rooms/${encodeURIComponent(this.id)}/join`, { body });
      keepPlayerCredential(joined);
      /** @type {SeatToken} */
      const seat = { token: joined.token, seats: [joined.seat] };
      setRoomToken(this.id, seat);
      return seat;
    } catch (err) {
      // No free seat (someone was quicker): this device watches.
      if (!(err instanceof ApiError && err.code === "no-free-seat")) this.error = err;
      return null;
    }
  }

  /**
   * Draws what a batch of events changed, or fetches the room when the batch
   * could not be applied; then announces the fresh events.
   * @param {RoomEvent[]} fresh
   * @param {{ newGame: boolean, moved: boolean, stale: boolean }} change
   */
  async onEvents(fresh, change) {
    if (change.stale) {
      await this.refresh();
    } else {
      this.redraw(change);
    }
    const state = this.state;
    if (!state) return;
    for (const event of fresh) {
      const text = eventText(state.room, event);
      if (text) this.announce(text);
    }
    const sound = soundOf(state.room, fresh);
    if (sound) playSound(sound);
  }

  /**
   * Draws the room after it changed.
   * @param {{ newGame: boolean, moved: boolean }} change
   */
  redraw({ newGame, moved }) {
    this.settleUnanswered();
    if (moved) this.play?.forget();
    if (newGame) {
      this.reviewPly = null;
      this.build();
    } else {
      this.render();
    }
  }

  onPresence() {
    const { state, slots } = this;
    if (!state || !slots) return;
    renderSeats({ top: slots.topSeat, bottom: slots.bottomSeat }, state, this.reviewPly);
    renderSpectators(slots.share, state);
    this.tick();
  }

  /** Fetches the room (one fetch at a time; a stale room fetches again) and draws it. */
  async refresh() {
    const state = this.state;
    if (!state || this.fetching) return;
    this.fetching = true;
    try {
      const held = state.room.last_seq;
      const room = await getRoom(this.id);
      this.fetching = false;
      if (this.stopped) return;
      this.redraw(state.setRoom(room));
      // Events that came during the fetch, beyond it and past a gap: once more.
      if (state.isStale() && state.room.last_seq > held) await this.refresh();
    } catch {
      // The socket's next batch (or reconnection) fetches again.
      this.fetching = false;
    }
  }

  /** Lays out the page (again after a language change or a new game) and draws it. */
  build() {
    const state = this.state;
    if (!state) return;
    const selected = this.play?.selected ?? null;
    this.play?.forget();
    const slots = layout(this.container, state.room);
    this.slots = slots;
    this.play = new PlayBoard(slots.board, slots.promotion, state, {
      reviewPly: () => this.reviewPly,
      review: (ply) => this.review(ply),
      arrow: (ply) => this.analysis?.arrow(ply) ?? null,
      play: (move) => this.send(move),
      refuse: () => {
        this.error = t("room.illegal");
        this.render();
      },
    }, selected);
    this.moveList = new MoveList(slots.moves, state.room.variant, {
      onReview: (ply) => this.review(ply),
      onNotation: () => this.render(),
      endLabel: t("moves.live"),
    });
    const rename = state.seat
      ? renameForm(state, (error) => {
        // The `renamed` event brings the new name.
        this.error = error;
        this.render();
      })
      : null;
    renderShare(slots.share, state, rename);
    slots.tools.replaceChildren(flipButton(state.flipped, () => {
      state.flipped = !state.flipped;
      this.build();
    }), muteButton());
    this.render();
  }

  render() {
    const { state, slots } = this;
    if (!state || !slots) return;
    const room = state.room;
    // While the friend has not come, the invitation link is what matters most.
    slots.page.classList.toggle("waiting", room.status === "waiting");
    this.placeAnalysis(slots);
    this.play?.render();
    renderSeats({ top: slots.topSeat, bottom: slots.bottomSeat }, state, this.reviewPly);
    renderStatus(slots.status, state, this.error, this.reviewPly);
    renderActions(slots.actions, state, (action) => this.act(action));
    renderInviteLabel(slots.share, state);
    renderChat(slots.chat, state, (phrase) => this.act("chat", { phrase }));
    const firstMover = positionAfter(room.variant, room.start, [], 0).sideToMove;
    const marks = this.analysis?.marks(firstMover) ?? [];
    this.moveList?.render(room.moves, notationList(room.variant, room.notation), this.reviewPly, marks);
    this.analysis?.render(this.reviewPly ?? room.moves.length);
    this.tick();
  }

  /**
   * Offers the analysis once the game is over, or while it is played when
   * both seats agreed (of the moves so far: a new move offers it afresh),
   * below the moves.
   * @param {RoomLayout} slots
   */
  placeAnalysis(slots) {
    const room = this.state?.room;
    if (!room) return;
    if (!room.analysable) {
      this.analysis?.stop();
      this.analysis?.box.remove();
      this.analysis = null;
      return;
    }
    const game = room.status === "finished" ? `${room.game}` : `${room.game}:${room.moves.length}`;
    if (!this.analysis || this.analysedGame !== game) {
      this.analysis?.stop();
      this.analysis?.box.remove();
      this.analysis = new AnalysisPanel(room.variant, {
        start: () => request("POST", `/rooms/${encodeURIComponent(this.id)}/analysis`),
        onReview: (ply) => this.review(ply),
        onChange: () => this.render(),
      });
      this.analysedGame = game;
    }
    if (!slots.page.contains(this.analysis.box)) slots.moves.after(this.analysis.box);
  }

  /** Updates what changes by itself: clocks and away countdowns. */
  tick() {
    if (!this.state) return;
    tickClocks(this.container, this.state);
    tickAway(this.container, this.state);
    this.warnLowTime(this.state);
  }

  /**
   * Sounds once per turn when this device's clock is in its last 10 seconds.
   * @param {RoomState} state
   */
  warnLowTime(state) {
    const left = runningLeft(state);
    const turn = state.room.moves.length;
    if (left === null || left > LOW_TIME_MS || !state.isMyTurn() || this.lowTimeTurn === turn) return;
    this.lowTimeTurn = turn;
    playSound("low-time");
  }

  /** @param {number | null} ply the position to show; null for the live one */
  review(ply) {
    if (!this.state) return;
    this.reviewPly = reviewPlyFor(ply, this.state.room.moves.length);
    this.play?.forget();
    this.render();
  }

  /**
   * Plays a move. One that got no answer (the connection failed on the way)
   * may have been stored all the same, so it is never sent again by itself:
   * in the position found after reconnecting, the same move text could be
   * legal and be played twice. The player sees the failure at once; the
   * room's events (the reopened socket asks for those after the last it
   * saw, and fetches the room) show whether the move was stored, and if so
   * the failure goes away (`settleUnanswered`). If not, it stays, and the
   * player plays again.
   * @param {string} move
   */
  async send(move) {
    const room = this.state?.room;
    if (!room) return;
    this.error = null;
    const sent = { move, ply: room.moves.length + 1, game: room.game };
    const error = await this.act("moves", { move });
    if (error instanceof ApiError && error.code === "network") {
      this.unanswered = { ...sent, error };
      if (this.settleUnanswered()) this.render();
    }
  }

  /**
   * Once the room has as many moves as the unanswered move's number (or a
   * new game began), its fate is known: stored, its failure is not shown.
   * @returns {boolean} whether the failure shown went away
   */
  settleUnanswered() {
    const sent = this.unanswered;
    const room = this.state?.room;
    if (!sent || !room) return false;
    const sameGame = room.game === sent.game;
    if (sameGame && room.moves.length < sent.ply) return false;
    this.unanswered = null;
    if (!sameGame || room.moves[sent.ply - 1] !== sent.move || this.error !== sent.error) return false;
    this.error = null;
    return true;
  }

  /**
   * Does an action of this device's seat, over the room's socket when it is
   * open, and shows its refusal or failure.
   * @param {"moves" | Action} action
   * @param {Record<string, unknown>} [body]
   * @returns {Promise<unknown>} the refusal or failure shown, or null
   */
  async act(action, body) {
    const seat = this.state?.seat;
    if (!seat) return null;
    try {
      await act(this.id, action, seat.token, body, this.socket);
      this.error = null;
    } catch (err) {
      this.error = err;
    }
    // The socket brings the change; while it reconnects, its reopening fetches the room.
    this.render();
    return this.error;
  }

  stop() {
    this.stopped = true;
    this.analysis?.stop();
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
    rerender: () => page.build(),
  };
}
