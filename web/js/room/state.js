// What the room page knows of its room: the room JSON as fetched once and
// kept up to date by the socket's events, with the latest presence frame put
// in, the away countdowns and quick-chat phrases the events tell of, this
// device's seat, whether it flipped the board, and the socket's connection.
// No DOM: the controller feeds it (the fetched room, the socket's frames) and
// the views read it.
//
// Every live event carries `after`, what the room shows after it, and a move
// its notation: `applyEvents` puts them into the room, in `seq` order. An
// event the page cannot apply (a gap in `seq`, or an old event read back
// from the store, which has no `after`) waits in `pending` and marks the
// room stale: the controller fetches the room once and `setRoom` applies
// what waited on top of it.

import { parsePosition } from "../position.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").RoomEvent} RoomEvent */
/** @typedef {import("./types.js").PresenceFrame} PresenceFrame */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").SeatName} SeatName */
/** @typedef {import("./types.js").Phrase} Phrase */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("../position.js").Position} Position */
/** @typedef {import("../storage.js").SeatToken} SeatToken */
/** @typedef {"online" | "reconnecting"} Connection */

/** How many quick-chat phrases the page keeps. */
const CHAT_LINES = 6;

/** How many events wait for a refetch at most; the fetched room holds the ones dropped. */
const PENDING_EVENTS = 64;

/** Both seat names, in order. */
const SEAT_NAMES = /** @type {const} */ (["first", "second"]);

/**
 * @param {string} name
 * @returns {name is SeatName}
 */
function isSeatName(name) {
  return name === "first" || name === "second";
}

export class RoomState {
  /**
   * @param {Room} room the room as first fetched
   * @param {SeatToken | null} seat this device's seat token, if it holds one
   */
  constructor(room, seat) {
    /** @type {Room} */
    this.room = room;
    /** When `room` arrived (performance.now), for the clock countdown. */
    this.fetchedAt = performance.now();
    this.seat = seat;
    /** @type {PresenceFrame | null} the latest presence frame of the socket now open */
    this.presence = null;
    /** @type {Partial<Record<SeatName, number>>} when each away seat's countdown ends (Date.now) */
    this.awayUntil = {};
    /** The event seq up to which events are old news (not announced). */
    this.quietUntil = room.last_seq;
    /** @type {Connection} */
    this.connection = "reconnecting";
    /** Whether this device turned the board from its usual side. */
    this.flipped = false;
    /** @type {{ seat: SeatName, phrase: Phrase }[]} the quick-chat phrases heard on this page, oldest first */
    this.chat = [];
    /** @type {RoomEvent[]} events newer than `room` that cannot be applied yet, in `seq` order */
    this.pending = [];
  }

  /** @returns {boolean} whether events wait that only a fetched room lets the page apply */
  isStale() {
    return this.pending.length > 0;
  }

  /**
   * Takes a freshly fetched room JSON, unless the page already holds a newer
   * one, then applies the events that waited for it.
   * @param {Room} room
   * @returns {{ newGame: boolean, moved: boolean }} whether a new game began, and whether the move count changed
   */
  setRoom(room) {
    const before = this.room;
    if (room.last_seq >= before.last_seq) {
      this.room = room;
      this.fetchedAt = performance.now();
      // The room sends a presence frame after every change, in order, so a
      // fetched room is newer than the latest frame only while the next frame
      // is on its way: every fetched room gets the latest frame too.
      if (this.presence) this.putPresence(this.presence);
    }
    this.applyPending();
    for (const name of SEAT_NAMES) {
      if (!this.room.seats[name]?.away) delete this.awayUntil[name];
    }
    return this.changeSince(before);
  }

  /**
   * @param {Room} before the room as it was
   * @returns {{ newGame: boolean, moved: boolean }} what changed since
   */
  changeSince(before) {
    return {
      newGame: this.room.game !== before.game,
      moved: this.room.moves.length !== before.moves.length || this.room.position !== before.position,
    };
  }

  /**
   * Who is connected now (sockets opening and closing are no events): the
   * seats' `connected` and `away`, and the number of spectators.
   * @param {PresenceFrame} frame
   */
  applyPresence(frame) {
    this.presence = frame;
    this.putPresence(frame);
  }

  /**
   * Puts a presence frame into the room JSON.
   * @param {PresenceFrame} frame
   */
  putPresence(frame) {
    for (const name of SEAT_NAMES) {
      const seat = this.room.seats[name];
      const now = frame.seats?.[name];
      if (!seat || !now) continue;
      seat.connected = Boolean(now.connected);
      seat.away = Boolean(now.away);
      if (!seat.away) {
        seat.taken_over = false;
        delete this.awayUntil[name];
      }
    }
    if (typeof frame.spectators === "number") this.room.spectators = frame.spectators;
  }

  /**
   * Applies a batch of events from the socket: to the room, and to the away
   * countdowns and the quick chat.
   * @param {RoomEvent[]} events
   * @param {number} now Date.now() when the batch arrived
   * @returns {{ fresh: RoomEvent[], newGame: boolean, moved: boolean }} the fresh events (newer than
   *   the room first fetched), and what they changed
   */
  applyEvents(events, now) {
    const before = this.room;
    const fresh = events.filter((event) => this.noteEvent(event, now));
    for (const event of events) {
      if (event.seq > this.room.last_seq && !this.pending.some((waiting) => waiting.seq === event.seq)) {
        this.pending.push(event);
      }
    }
    this.pending.sort((a, b) => a.seq - b.seq);
    this.pending = this.pending.slice(-PENDING_EVENTS);
    this.applyPending();
    return { fresh, ...this.changeSince(before) };
  }

  /**
   * Applies the waiting events that follow the room without a gap and carry
   * what they changed; forgets the ones the room already holds.
   */
  applyPending() {
    this.pending = this.pending.filter((event) => event.seq > this.room.last_seq);
    while (this.pending.length > 0) {
      const next = this.pending[0];
      if (next.seq !== this.room.last_seq + 1 || !next.after) return;
      this.pending.shift();
      this.applyChange(next);
    }
  }

  /**
   * Puts what one event changed into the room: its moves (the event extends
   * or cuts the list) and everything else from `after`.
   * @param {RoomEvent} event the event following the room's last, with `after`
   */
  applyChange(event) {
    const { after } = event;
    if (!after) return;
    const room = this.room;
    /** @type {Record<string, string[]>} */
    const lists = { ...room.notation };
    let moves = room.moves;
    if (event.type === "move") {
      moves = [...moves, event.move];
      /** @type {Record<string, string>} */
      const texts = /** @type {any} */ (event.notation ?? {});
      for (const format of Object.keys(lists)) lists[format] = [...lists[format], texts[format] ?? event.move];
    } else if (event.type === "taken_back") {
      moves = moves.slice(0, event.ply);
      for (const format of Object.keys(lists)) lists[format] = lists[format].slice(0, event.ply);
    } else if (event.type === "new_game") {
      moves = [];
      for (const format of Object.keys(lists)) lists[format] = [];
    }
    this.room = { ...room, ...after, moves, notation: /** @type {any} */ (lists), last_seq: event.seq };
    this.fetchedAt = performance.now();
    if (this.presence) this.putPresence(this.presence);
  }

  /**
   * Notes what one event means besides the room: the away countdowns and
   * the quick chat.
   * @param {RoomEvent} event
   * @param {number} now
   * @returns {boolean} whether the event is fresh
   */
  noteEvent(event, now) {
    const fresh = event.seq > this.quietUntil;
    if (event.type === "away") {
      // Old events count from when they happened, new ones from now.
      this.awayUntil[event.seat] = (fresh ? now : event.at) + event.grace_ms;
    } else if (event.type === "back" || event.type === "takeover") {
      delete this.awayUntil[event.seat];
    } else if (event.type === "chat") {
      this.chat = [...this.chat, { seat: event.seat, phrase: event.phrase }].slice(-CHAT_LINES);
    }
    return fresh;
  }

  /**
   * The socket's connection changed. A dropped socket's presence is stale;
   * the next socket sends a fresh frame.
   * @param {Connection} connection
   */
  setConnection(connection) {
    this.connection = connection;
    if (connection === "reconnecting") this.presence = null;
  }

  /**
   * The seats the server says this device's token holds. None while a token
   * is stored means the token is not this room's any more (a different
   * database): this device only watches.
   * @param {string[]} seats
   * @returns {boolean} whether the seat was forgotten
   */
  confirmSeat(seats) {
    if (!this.seat || seats.length > 0) return false;
    this.seat = null;
    return true;
  }

  /** @returns {SeatName[]} the seats this device holds */
  heldSeats() {
    return (this.seat?.seats ?? []).filter(isSeatName);
  }

  /**
   * @param {string} name
   * @returns {Seat | null} who sits in seat `name`
   */
  seatNamed(name) {
    return isSeatName(name) ? this.room.seats[name] : null;
  }

  /**
   * @param {Side} side
   * @returns {SeatName} the seat playing `side` in this game (a free seat's
   *   name when nobody plays it yet)
   */
  seatPlaying(side) {
    return SEAT_NAMES.find((name) => this.room.seats[name]?.side === side)
      ?? (this.room.seats.first ? "second" : "first");
  }

  /** @returns {Side[]} the sides this device plays in the current game */
  mySides() {
    return this.heldSeats()
      .map((name) => this.room.seats[name]?.side)
      .filter((side) => side === "first" || side === "second");
  }

  /** @returns {Side} the side drawn at the bottom: the player's own, unless flipped */
  orientation() {
    const sides = this.mySides();
    const usual = sides.length === 1 ? sides[0] : "first";
    return this.flipped ? (usual === "first" ? "second" : "first") : usual;
  }

  /** @returns {boolean} whether this device is to move in the live position */
  isMyTurn() {
    return this.room.status === "playing" && this.mySides().includes(this.room.side_to_move);
  }

  /** @returns {Position} the live position */
  livePosition() {
    return parsePosition(this.room.variant, this.room.position);
  }

  /**
   * The legal destinations of a selection, from the server's legal moves.
   * @param {string} selection a square, or "hand:<code>"
   * @returns {string[]}
   */
  targets(selection) {
    const moves = this.room.legal_moves;
    const found = selection.startsWith("hand:")
      ? moves.filter((m) => m.startsWith(`${selection.slice(5)}*`))
      : moves.filter((m) => m[1] !== "*" && m.startsWith(selection));
    return [...new Set(found.map((m) => m.slice(2, 4)))];
  }
}
