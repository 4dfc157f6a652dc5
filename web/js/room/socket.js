// The room page's WebSocket: `RoomSocket` (api.js) reconnects by itself and
// hands over the frames; this puts each frame into the room state and tells
// the page what to redraw, or that the room must be fetched (a gap).

import { RoomSocket } from "../api.js";

/** @typedef {import("./state.js").RoomState} RoomState */
/** @typedef {import("./state.js").Connection} Connection */
/** @typedef {import("./types.js").RoomEvent} RoomEvent */

/**
 * What the page redraws after a frame has been put into the state.
 * @typedef {object} RoomSocketHandlers
 * @property {(fresh: RoomEvent[], change: { newGame: boolean, moved: boolean, stale: boolean }) => void} onEvents
 *   a batch was applied; `fresh` are the events newer than the page, `stale` says the room must be fetched
 * @property {() => void} onPresence who is connected changed
 * @property {() => void} onSeatLost the stored seat token is not this room's
 * @property {(connection: Connection) => void} onConnection the socket opened or dropped
 */

/**
 * Opens the room's socket, from its first event (old events still start the
 * away countdowns), with this device's seat token if it holds one.
 * @param {RoomState} state
 * @param {RoomSocketHandlers} handlers
 * @returns {RoomSocket} closed by `close()`
 */
export function connectRoom(state, handlers) {
  return new RoomSocket(state.room.id, state.seat?.token ?? null, 0, {
    onEvents: (events) => {
      const { fresh, newGame, moved } = state.applyEvents(events, Date.now());
      const stale = state.isStale();
      if (fresh.length > 0 || stale) handlers.onEvents(fresh, { newGame, moved, stale });
    },
    onWelcome: (seats) => {
      if (state.confirmSeat(seats)) handlers.onSeatLost();
    },
    onPresence: (frame) => {
      state.applyPresence(frame);
      handlers.onPresence();
    },
    onState: (connection) => {
      state.setConnection(connection);
      handlers.onConnection(connection);
    },
  });
}
