// "My games" (`/games`): the rooms this device's player holds a seat in,
// newest first, with the opponent, the result and links to the room, its
// replay and its analysis. The list answers only the player's credential.

import { request } from "./api.js";
import { el } from "./dom.js";
import { errorBox, showError } from "./errors.js";
import { shownName, t } from "./i18n.js";
import { playerCredential } from "./storage.js";

/**
 * One room of the list, as `GET /api/v1/players/{id}/games` answers.
 * @typedef {object} PlayerGame
 * @property {string} room
 * @property {string} variant
 * @property {string} mode
 * @property {number} created_at unix milliseconds
 * @property {boolean} finished
 * @property {"first" | "second"} seat
 * @property {{ player: string, name: string | null, computer: boolean } | null} opponent
 * @property {"win" | "loss" | "draw" | null} result
 * @property {string | null} reason
 */

/** How many games one request asks for. */
const PAGE = 20;

/**
 * Draws the page into `main`.
 * @param {HTMLElement} main
 * @returns {{ stop: () => void, rerender: () => void }}
 */
export function renderGames(main) {
  /** @type {PlayerGame[]} */
  let games = [];
  let more = false;
  /** @type {unknown} */
  let error = null;
  const credential = playerCredential();

  const draw = () => {
    document.title = t("title.games");
    const section = el("section", { class: "games-page" });
    section.append(el("h1", {}, t("games.title")));
    const alert = errorBox();
    showError(alert, error);
    section.append(alert);
    if (games.length === 0) {
      section.append(el("p", { "data-games-empty": "" }, t("games.none")));
    } else {
      const list = el("ul", { class: "games-list", "data-games": "" });
      for (const game of games) list.append(row(game));
      section.append(list);
    }
    if (more) {
      const button = el("button", { type: "button", "data-action": "more-games" }, t("games.more"));
      button.addEventListener("click", () => load(games.length));
      section.append(button);
    }
    main.replaceChildren(section);
  };

  /** @param {number} offset */
  const load = async (offset) => {
    if (!credential) return;
    try {
      const path = `/players/${encodeURIComponent(credential.player)}/games?limit=${PAGE}&offset=${offset}`;
      /** @type {{ games: PlayerGame[], more: boolean }} */
      const page = await request("GET", path, { token: credential.player_secret });
      games = offset === 0 ? page.games : [...games, ...page.games];
      more = page.more;
      error = null;
    } catch (err) {
      error = err;
    }
    draw();
  };

  draw();
  load(0);
  return { stop: () => {}, rerender: draw };
}

/**
 * One game: when, what, against whom, how it stands, and its links.
 * @param {PlayerGame} game
 */
function row(game) {
  const item = el("li", { "data-game": game.room, "data-result": game.result ?? "" });
  const when = new Date(game.created_at).toLocaleString();
  const opponent = !game.opponent
    ? t("games.no_opponent")
    : game.opponent.computer ? t("seat.computer") : shownName(game.opponent.name ?? "");
  const standing = game.finished && game.result
    ? `${t(`games.${game.result}`)} (${game.reason ? t(`reason.${game.reason}`) : ""})`
    : game.finished ? t("status.finished") : t("games.running");
  item.append(
    el("span", { class: "games-when" }, when),
    el("span", { class: "games-variant" }, t(`variant.${game.variant}`)),
    el("span", { class: "games-opponent" }, t("games.against", { name: opponent })),
    el("span", { class: "games-standing" }, standing),
  );
  const room = encodeURIComponent(game.room);
  const links = el("span", { class: "games-links" });
  links.append(
    el("a", { href: `/rooms/${room}`, "data-link": "room" }, t("games.open_room")),
    el("a", { href: `/replay?room=${room}`, "data-link": "replay" }, t("games.replay")),
    el("a", { href: `/replay?room=${room}&analyse=1`, "data-link": "analysis" }, t("games.analyse")),
  );
  item.append(links);
  return item;
}
