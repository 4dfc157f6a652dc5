// What this device remembers in localStorage: the seat tokens of its rooms
// (the only proof of a seat, so a reload or a reopened invitation gets the
// seat back), its anonymous player id with the secret that proves it, its
// name, and the display choices.
// Storage may be unavailable (private mode, blocked cookies): every read then
// answers the default and every write is dropped, and the page still works
// for this visit.

const PREFIX = "koma.";

/**
 * @param {string} key
 * @returns {string | null}
 */
function read(key) {
  try {
    return window.localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string | null} value null removes the key
 */
function write(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(PREFIX + key);
    else window.localStorage.setItem(PREFIX + key, value);
  } catch {
    // Nothing to do: the choice lasts for this page only.
  }
}

/**
 * A seat held by this device: the token and the seats it holds (both in a
 * local room).
 * @typedef {{ token: string, seats: string[] }} SeatToken
 */

/**
 * @param {string} roomId
 * @returns {SeatToken | null}
 */
export function roomToken(roomId) {
  const text = read(`room.${roomId}`);
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    if (typeof value.token === "string" && Array.isArray(value.seats)) return value;
  } catch {
    // A damaged entry counts as none.
  }
  return null;
}

/**
 * @param {string} roomId
 * @param {SeatToken} seat
 */
export function setRoomToken(roomId, seat) {
  write(`room.${roomId}`, JSON.stringify(seat));
}

/**
 * This device's anonymous player: the public id and the secret that proves
 * it, both issued by the server with the device's first room.
 * @typedef {{ player: string, player_secret: string }} PlayerCredential
 */

/**
 * The device's player, or null before its first room (or when only an id
 * from before credentials is stored: the server then issues a new player).
 * @returns {PlayerCredential | null}
 */
export function playerCredential() {
  const player = read("player");
  const secret = read("player.secret");
  return player && secret ? { player, player_secret: secret } : null;
}

/**
 * Keeps the player the server issued (a create or join reply with a
 * `player_secret`); replies without one name the player already kept.
 * @param {{ player?: string, player_secret?: string }} reply
 */
export function keepPlayerCredential(reply) {
  if (reply.player && reply.player_secret) {
    write("player", reply.player);
    write("player.secret", reply.player_secret);
  }
}

/** @returns {string} the display name, "" when none was given */
export function playerName() {
  return read("name") ?? "";
}

/** @param {string} name */
export function setPlayerName(name) {
  write("name", name.trim() || null);
}

/** @returns {string | null} the chosen language, null before any choice */
export function storedLanguage() {
  return read("language");
}

/** @param {string} lang */
export function storeLanguage(lang) {
  write("language", lang);
}

/** @returns {"traditional" | "letters"} how pieces are labelled */
export function pieceLabels() {
  return read("pieces") === "letters" ? "letters" : "traditional";
}

/** @param {"traditional" | "letters"} labels */
export function setPieceLabels(labels) {
  write("pieces", labels);
}

/** @returns {"japanese" | "western"} the move notation for the shogi family */
export function shogiNotation() {
  return read("notation") === "western" ? "western" : "japanese";
}

/** @param {"japanese" | "western"} notation */
export function setShogiNotation(notation) {
  write("notation", notation);
}

/**
 * The move notation for xiangqi: the one chosen, else Chinese for a page in
 * Chinese and WXF for the others.
 * @param {string} lang the page's language
 * @returns {"wxf" | "chinese"}
 */
export function xiangqiNotation(lang) {
  const chosen = read("notation.xiangqi");
  if (chosen === "wxf" || chosen === "chinese") return chosen;
  return lang === "zh" ? "chinese" : "wxf";
}

/** @param {"wxf" | "chinese"} notation */
export function setXiangqiNotation(notation) {
  write("notation.xiangqi", notation);
}

/** @returns {boolean} whether this device muted the game's sounds */
export function soundsMuted() {
  return read("muted") === "true";
}

/** @param {boolean} muted */
export function setSoundsMuted(muted) {
  write("muted", muted ? "true" : null);
}
