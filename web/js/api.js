// The server's HTTP API (`/api/v1`) and its WebSockets. A socket that drops
// reconnects by itself with a growing pause; the room socket asks for the
// events after the last one it saw (`since`), so nothing is missed or seen
// twice. A seat's actions go over the room socket while it is open (one
// connection per player, no request per move), by HTTP otherwise.

const BASE = "/api/v1";

/** @typedef {import("./room/types.js").Room} Room */
/** @typedef {import("./room/types.js").RoomEvent} RoomEvent */
/** @typedef {import("./room/types.js").PresenceFrame} PresenceFrame */
/** @typedef {import("./room/types.js").SeatName} SeatName */

/** An error answer of the API: `{code, message}` and the HTTP status. */
export class ApiError extends Error {
  /**
   * @param {number} status 0 when no HTTP answer came (a socket's error frame, or no answer at all)
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
 * The socket frame's `type` of each action path that has one.
 * @type {Record<string, string>}
 */
const FRAME_TYPES = {
  moves: "move",
  resign: "resign",
  draw: "draw",
  impasse: "impasse",
  rematch: "rematch",
  takeback: "takeback",
  "takeback/decline": "decline_takeback",
  "analysis/agree": "agree_analysis",
  chat: "chat",
};

/**
 * A seat's action: over the room's socket when it is open (the socket holds
 * the seat's token), else by HTTP. A socket's `room-moving` (nothing was
 * done) goes again by HTTP, which asks until the room has settled.
 * @param {string} id
 * @param {string} action moves, resign, draw, impasse, rematch, takeback, takeback/decline, analysis/agree, chat
 * @param {string} token
 * @param {Record<string, unknown>} [body]
 * @param {RoomSocket | null} [socket] the room's socket, opened with `token`
 */
export async function act(id, action, token, body, socket = null) {
  const type = FRAME_TYPES[action];
  const reply = type ? socket?.act(type, body ?? {}) : null;
  if (reply) {
    try {
      return await reply;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "room-moving") throw err;
    }
  }
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

  /** @returns {boolean} whether a socket is open now */
  isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** @param {unknown} frame sent as JSON if the socket is open */
  send(frame) {
    if (this.isOpen()) this.socket?.send(JSON.stringify(frame));
  }

  /** Closes the socket open now (it seems dead); another follows, as after a drop. */
  restart() {
    this.socket?.close();
  }

  close() {
    this.closed = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.keepAlive);
    this.socket?.close();
  }
}

/**
 * How long an action waits for its reply on the socket. The server answers
 * a request within 15 s or says it timed out; a socket silent for longer
 * than this is taken for dead and opened again.
 */
const SOCKET_REPLY_MS = 10_000;

/**
 * The events of a room: each batch (the frames that arrive together) is
 * handed over at once, so the page draws once per batch. The seat's actions
 * go out on it too (`act`), each answered by the `ack` or `error` frame
 * with its `request_id`.
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
    /** The `request_id` of the next action. */
    this.nextRequest = 1;
    /** @type {Map<number, { resolve: (reply: any) => void, reject: (err: ApiError) => void, timer: number }>} the actions sent and not answered */
    this.waiting = new Map();
    const path = `/rooms/${encodeURIComponent(roomId)}/ws`;
    this.socket = new ReconnectingSocket(
      () => {
        const query = new URLSearchParams({ since: String(this.last) });
        if (token) query.set("token", token);
        return socketUrl(`${path}?${query}`);
      },
      {
        onState: (state) => {
          if (state === "reconnecting") this.dropWaiting();
          handlers.onState?.(state);
        },
        onMessage: (frame) => {
          if ((frame.type === "ack" || frame.type === "error") && this.waiting.has(frame.request_id)) {
            this.answer(frame);
          } else if (frame.type === "welcome") {
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

  /**
   * Sends an action of the socket's seat: resolves to its `ack` (the HTTP
   * answer's fields), rejects with the `error` frame's code and message as an
   * ApiError (as HTTP would), or with `network` when the socket drops or
   * stays silent before the reply. A dropped action is never sent again: it
   * may have been done (the room's events tell), and sent again in a changed
   * position it could be done twice.
   * @param {string} type the frame's type (`move`, `resign` ...)
   * @param {Record<string, unknown>} fields the rest of the frame (`move`, `phrase`)
   * @returns {Promise<any> | null} null when the socket is not open (nothing was sent)
   */
  act(type, fields) {
    if (!this.socket.isOpen()) return null;
    const id = this.nextRequest++;
    return new Promise((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.settle(id)?.reject(networkError());
        this.socket.restart();
      }, SOCKET_REPLY_MS);
      this.waiting.set(id, { resolve, reject, timer });
      this.socket.send({ ...fields, type, request_id: id });
    });
  }

  /**
   * Forgets a waiting action.
   * @param {number} id
   */
  settle(id) {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    window.clearTimeout(waiting?.timer);
    return waiting;
  }

  /**
   * Settles an action with its reply frame.
   * @param {{ type: string, request_id: number, code?: string, message?: string }} frame
   */
  answer(frame) {
    const waiting = this.settle(frame.request_id);
    if (frame.type === "ack") waiting?.resolve(frame);
    else waiting?.reject(new ApiError(0, frame.code ?? "error", frame.message ?? ""));
  }

  /** The socket dropped: the actions waiting for a reply got none. */
  dropWaiting() {
    for (const id of [...this.waiting.keys()]) this.settle(id)?.reject(networkError());
  }

  close() {
    window.clearTimeout(this.flushTimer);
    this.dropWaiting();
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
