// The server's HTTP API (`/api/v1`) and its WebSockets. A socket that drops
// reconnects by itself with a growing pause; the room socket asks for the
// events after the last one it saw (`since`), so nothing is missed or seen
// twice.

const BASE = "/api/v1";

/** @typedef {import("./room/types.js").Room} Room */
/** @typedef {import("./room/types.js").RoomEvent} RoomEvent */
/** @typedef {import("./room/types.js").PresenceFrame} PresenceFrame */
/** @typedef {import("./room/types.js").SeatName} SeatName */

/** An error answer of the API: `{code, message}` and the HTTP status. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code e.g. "no-free-seat", "nifu"; "network" when no answer came
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * One API call; resolves to the JSON answer, rejects with an ApiError. A
 * room that is moving between the nodes of a cluster is asked again.
 * @param {string} method
 * @param {string} path under /api/v1
 * @param {{ token?: string, body?: unknown }} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, options = {}) {
  for (const pause of ROOM_MOVING_PAUSES_MS) {
    try {
      return await requestOnce(method, path, options);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "room-moving") throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  return requestOnce(method, path, options);
}

/**
 * The pauses before asking again while a room passes from one node of a
 * cluster to another (503 `room-moving`): nothing was done, and the new
 * owner plays it within seconds (a lease lapses in ten).
 */
const ROOM_MOVING_PAUSES_MS = [500, 1000, 2000, 3000, 4000, 4000];

/**
 * One API call, as `request` without its retries.
 * @param {string} method
 * @param {string} path under /api/v1
 * @param {{ token?: string, body?: unknown }} options
 * @returns {Promise<any>}
 */
async function requestOnce(method, path, options) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: "no-store",
    });
  } catch {
    throw networkError();
  }
  return answer(response);
}

/**
 * No answer came. The browser's words for it ("TypeError: Failed to fetch")
 * are no server's message and tell a player nothing, so there is none.
 * @returns {ApiError}
 */
function networkError() {
  return new ApiError(0, "network", "");
}

/** @param {string} id @returns {Promise<Room>} the room JSON */
export function getRoom(id) {
  return request("GET", `/rooms/${encodeURIComponent(id)}`);
}

/**
 * @param {string} id
 * @param {string} action moves, resign, draw, impasse, rematch, takeback, takeback/decline
 * @param {string} token
 * @param {unknown} [body]
 */
export function act(id, action, token, body) {
  return request("POST", `/rooms/${encodeURIComponent(id)}/${action}`, { token, body });
}

/**
 * The address of a room's record in `format` (kif, ki2, csa, sfen, fen, wxf, iccs).
 * @param {string} id
 * @param {string} format
 */
export function recordUrl(id, format) {
  return `${BASE}/rooms/${encodeURIComponent(id)}/record?format=${format}`;
}

/** @param {string} path under /api/v1 */
function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${BASE}${path}`;
}

/**
 * The pause before the n-th reconnection attempt: 0.5 s doubling to 10 s, with jitter.
 * @param {number} attempt
 */
function backoff(attempt) {
  const base = Math.min(10000, 500 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

/**
 * A WebSocket that comes back after it drops, until `close()`.
 * `onState` hears "online" once a socket opens and "reconnecting" when it drops.
 */
export class ReconnectingSocket {
  /**
   * @param {() => string} url asked again before every connection
   * @param {{ onMessage: (frame: any) => void, onState?: (state: "online" | "reconnecting") => void }} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.attempt = 0;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.keepAlive = undefined;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.handlers.onState?.("online");
      // Idle proxies close quiet connections; a ping keeps this one alive.
      this.keepAlive = window.setInterval(() => this.send({ type: "ping" }), 25000);
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      this.handlers.onMessage(frame);
    });
    socket.addEventListener("close", () => {
      window.clearInterval(this.keepAlive);
      if (this.closed || this.socket !== socket) return;
      this.handlers.onState?.("reconnecting");
      this.timer = window.setTimeout(() => this.connect(), backoff(this.attempt++));
    });
  }

  /** @param {unknown} frame sent as JSON if the socket is open */
  send(frame) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  close() {
    this.closed = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.keepAlive);
    this.socket?.close();
  }
}

/**
 * The events of a room: each batch (the frames that arrive together) is
 * handed over at once, so the page draws once per batch.
 */
export class RoomSocket {
  /**
   * @param {string} roomId
   * @param {string | null} token the seat token; none to watch
   * @param {number} since the last event already known
   * @param {{ onEvents: (events: RoomEvent[]) => void, onWelcome?: (seats: SeatName[]) => void, onPresence?: (presence: PresenceFrame) => void, onState?: (state: "online" | "reconnecting") => void }} handlers
   *   onWelcome hears the seats the token holds; onPresence the unnumbered presence frames
   */
  constructor(roomId, token, since, handlers) {
    this.last = since;
    /** @type {RoomEvent[]} */
    this.batch = [];
    /** @type {number | undefined} */
    this.flushTimer = undefined;
    const path = `/rooms/${encodeURIComponent(roomId)}/ws`;
    this.socket = new ReconnectingSocket(
      () => {
        const query = new URLSearchParams({ since: String(this.last) });
        if (token) query.set("token", token);
        return socketUrl(`${path}?${query}`);
      },
      {
        onState: handlers.onState,
        onMessage: (frame) => {
          if (frame.type === "welcome") {
            handlers.onWelcome?.(frame.seats ?? []);
          } else if (frame.type === "presence") {
            handlers.onPresence?.(frame);
          } else if (typeof frame.seq === "number") {
            if (frame.seq <= this.last) return;
            this.last = frame.seq;
            this.batch.push(frame);
            window.clearTimeout(this.flushTimer);
            this.flushTimer = window.setTimeout(() => {
              const events = this.batch;
              this.batch = [];
              handlers.onEvents(events);
            }, 40);
          }
        },
      },
    );
  }

  close() {
    window.clearTimeout(this.flushTimer);
    this.socket.close();
  }
}

/**
 * Reads a game record (KIF, KI2, CSA, a position line, a xiangqi PGN) on the
 * server: resolves to `{variant, start, moves, notation, result, headers}`.
 * The bytes go as they are, so a Shift_JIS KIF file is read right.
 * @param {string | ArrayBuffer} record
 * @param {Record<string, string>} [query] `variant` and house rules
 * @returns {Promise<any>}
 */
export async function importRecord(record, query = {}) {
  const search = new URLSearchParams(query).toString();
  let response;
  try {
    response = await fetch(`${BASE}/records${search ? `?${search}` : ""}`, {
      method: "POST",
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      body: record,
    });
  } catch {
    throw networkError();
  }
  return answer(response);
}

/**
 * The JSON of an answer, or its error as an ApiError.
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function answer(response) {
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A non-JSON answer (a proxy's error page) is reported as text below.
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      json?.code ?? "http-" + response.status,
      json?.message ?? text,
    );
  }
  return json;
}

/**
 * The lobby, live: `onLobby` gets `{rooms, waiting, playing}` on connecting
 * and after every change.
 * @param {(lobby: any) => void} onLobby
 * @returns {ReconnectingSocket}
 */
export function lobbySocket(onLobby) {
  return new ReconnectingSocket(() => socketUrl("/lobby/ws"), {
    onMessage: (frame) => {
      if (Array.isArray(frame.rooms)) onLobby(frame);
    },
  });
}
