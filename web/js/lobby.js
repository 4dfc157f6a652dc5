// The home page: the four games, the new-game form with every house rule
// that applies to the chosen game, the lobby of rooms waiting for a player
// (live over the lobby WebSocket) and the win statistics per game.

import { lobbySocket, request } from "./api.js";
import { el } from "./dom.js";
import { errorBox, showError } from "./errors.js";
import { shownName, t, tn } from "./i18n.js";
import { keepPlayerCredential, playerCredential, playerName, setPlayerName, setRoomToken } from "./storage.js";

export const VARIANTS = ["shogi", "minishogi", "annan", "xiangqi"];

/**
 * A choice field of the form: its name (the API key), its values and which
 * games it applies to (all when `variants` is absent).
 * @typedef {object} SelectField
 * @property {string} name
 * @property {(string | number)[]} values
 * @property {string | number} initial
 * @property {string[]} [variants]
 * @property {(value: string | number) => string} label
 */

/** @param {number} seconds */
function duration(seconds) {
  if (seconds === 0) return t("setting.none");
  if (seconds < 60) return t("time.seconds", { n: seconds });
  if (seconds % 3600 === 0) return t("time.hours", { n: seconds / 3600 });
  return t("time.minutes", { n: seconds / 60 });
}

/** @returns {SelectField[]} the house rules offered as choices */
function selectFields() {
  return [
    {
      name: "time_per_move",
      values: [0, 10, 30, 60, 120, 300],
      initial: 0,
      label: (v) => duration(Number(v)),
    },
    {
      name: "main_time",
      values: [0, 60, 300, 600, 900, 1800, 3600],
      initial: 0,
      label: (v) => duration(Number(v)),
    },
    {
      name: "handicap",
      values: ["even", "lance", "bishop", "rook", "rook-lance", "two", "four", "six", "eight", "ten"],
      initial: "even",
      variants: ["shogi"],
      label: (v) => t(`handicap.${v}`),
    },
    {
      name: "impasse",
      values: ["24-point", "27-point", "off"],
      initial: "24-point",
      variants: ["shogi", "annan"],
      label: (v) => t(`impasse.${v}`),
    },
    {
      name: "annan_dead_piece",
      values: ["allowed-if-supported", "by-original-type", "always-allowed"],
      initial: "allowed-if-supported",
      variants: ["annan"],
      label: (v) => t(`annan_dead_piece.${v}`),
    },
    {
      name: "annan_setup",
      values: ["standard", "traditional"],
      initial: "standard",
      variants: ["annan"],
      label: (v) => t(`annan_setup.${v}`),
    },
  ];
}

/** The yes/no house rules: name, default, and the modes they apply to. */
const CHECKBOXES = [
  { name: "swap_first_player", initial: true, modes: ["computer", "local", "online"] },
  { name: "show_targets", initial: true, modes: ["computer", "local", "online"] },
  { name: "illegal_move_loses", initial: false, modes: ["computer", "local", "online"] },
  { name: "rated", initial: false, modes: ["online"] },
  { name: "chat", initial: true, modes: ["online"] },
];

/**
 * A labelled form row.
 * @param {string} name
 * @param {HTMLElement} control
 * @param {string} [hint]
 * @returns {HTMLElement}
 */
function row(name, control, hint) {
  const wrap = el("div", { class: "field", "data-field": name });
  const id = `field-${name}`;
  control.id = id;
  const label = el("label", { for: id }, t(`setting.${name}`));
  if (control instanceof HTMLInputElement && control.type === "checkbox") {
    wrap.classList.add("check");
    wrap.append(control, label);
  } else {
    wrap.append(label, control);
  }
  if (hint) {
    const small = el("small", { id: `${id}-hint` }, hint);
    control.setAttribute("aria-describedby", small.id);
    wrap.append(small);
  }
  return wrap;
}

/**
 * @param {string} name
 * @param {(string | number)[]} values
 * @param {string | number} initial
 * @param {(value: string | number) => string} label
 * @returns {HTMLSelectElement}
 */
function select(name, values, initial, label) {
  const control = el("select", { name });
  for (const value of values) control.append(new Option(label(value), String(value), false, value === initial));
  return control;
}

/**
 * The new-game form.
 * @returns {HTMLFormElement}
 */
function newGameForm() {
  const form = el("form", { class: "panel new-game", "data-new-game": "", novalidate: "" });
  form.append(el("h2", {}, t("home.new_game")));

  const variant = select("variant", VARIANTS, "shogi", (v) => t(`variant.${v}`));
  const mode = select("mode", ["computer", "local", "online"], "computer", (v) => t(`mode.${v}`));
  const level = select("level", [1, 2, 3, 4, 5, 6, 7, 8], 4, (v) => t("level.n", { n: v }));
  const seat = select("seat", ["first", "second"], "first", (v) => t(`seat_choice.${v}`));
  const name = el("input", { name: "name", maxlength: 40, autocomplete: "nickname", placeholder: t("home.name_placeholder") });
  name.value = playerName();
  form.append(
    row("variant", variant),
    row("mode", mode),
    row("level", level, t("setting.level_hint")),
    row("seat", seat),
    row("name", name),
  );

  const rules = el("fieldset");
  rules.append(el("legend", {}, t("home.house_rules")));
  for (const field of selectFields()) {
    const line = row(field.name, select(field.name, field.values, field.initial, field.label));
    if (field.variants) line.dataset.variants = field.variants.join(" ");
    rules.append(line);
  }
  const limit = el("input", { type: "number", name: "move_limit", min: 0, max: 10000, step: 1, inputmode: "numeric" });
  limit.value = "0";
  rules.append(row("move_limit", limit, t("setting.move_limit_hint")));
  for (const box of CHECKBOXES) {
    const input = el("input", { type: "checkbox", name: box.name });
    input.checked = box.initial;
    const line = row(box.name, input);
    line.dataset.modes = box.modes.join(" ");
    rules.append(line);
  }
  form.append(rules);

  const message = errorBox();
  const submit = el("button", { type: "submit", class: "primary", "data-action": "create" }, t("home.create"));
  form.append(message, submit);

  /** Shows the fields that apply to the chosen game and mode; hidden ones are not sent. */
  const update = () => {
    for (const line of Array.from(form.querySelectorAll(".field"))) {
      if (!(line instanceof HTMLElement)) continue;
      const variants = line.dataset.variants?.split(" ");
      const modes = line.dataset.modes?.split(" ");
      let shown = (!variants || variants.includes(variant.value))
        && (!modes || modes.includes(mode.value));
      if (line.dataset.field === "level") shown = mode.value === "computer";
      if (line.dataset.field === "seat") shown = mode.value !== "local";
      line.hidden = !shown;
      for (const control of Array.from(line.querySelectorAll("input, select"))) {
        if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) {
          control.disabled = !shown;
        }
      }
    }
  };
  variant.addEventListener("change", update);
  mode.addEventListener("change", update);
  update();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(message, null);
    /** @type {Record<string, unknown>} */
    const settings = {};
    for (const field of selectFields()) {
      const control = form.elements.namedItem(field.name);
      if (control instanceof HTMLSelectElement && !control.disabled) {
        settings[field.name] = typeof field.initial === "number" ? Number(control.value) : control.value;
      }
    }
    const limitValue = Number(limit.value || "0");
    if (!Number.isInteger(limitValue) || limitValue < 0) {
      showError(message, t("home.bad_move_limit"));
      limit.focus();
      return;
    }
    settings.move_limit = limitValue;
    for (const box of CHECKBOXES) {
      const control = form.elements.namedItem(box.name);
      if (control instanceof HTMLInputElement && !control.disabled) settings[box.name] = control.checked;
    }
    /** @type {Record<string, unknown>} */
    const body = {
      variant: variant.value,
      mode: mode.value,
      settings,
      ...playerCredential(),
    };
    if (mode.value === "computer") body.level = Number(level.value);
    if (mode.value !== "local") body.seat = seat.value;
    if (name.value.trim()) body.name = name.value.trim();
    setPlayerName(name.value);
    submit.disabled = true;
    try {
      const created = await request("POST", "/rooms", { body });
      keepPlayerCredential(created);
      setRoomToken(created.id, {
        token: created.token,
        seats: mode.value === "local" ? ["first", "second"] : [created.seat],
      });
      window.location.assign(`/rooms/${encodeURIComponent(created.id)}`);
    } catch (err) {
      showError(message, err);
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * The four games, each with its rules page and a button that picks it in
 * the form.
 * @param {HTMLFormElement} form
 * @returns {HTMLElement}
 */
function gameCards(form) {
  const list = el("ul", { class: "games" });
  for (const variant of VARIANTS) {
    const item = el("li", { class: `game-card ${variant}` });
    const play = el("button", { type: "button", class: "link-button" }, t("home.play_this"));
    play.addEventListener("click", () => {
      const choice = form.elements.namedItem("variant");
      if (choice instanceof HTMLSelectElement) {
        choice.value = variant;
        choice.dispatchEvent(new Event("change"));
        choice.focus();
      }
    });
    const links = el("p", { class: "links" });
    links.append(play, el("a", { href: `/rules/${variant}` }, t("home.rules_link")));
    item.append(el("h3", {}, t(`variant.${variant}`)), el("p", {}, t(`variant.${variant}.about`)), links);
    list.append(item);
  }
  return list;
}

/**
 * A room's clock in words, naming only the parts it has: "10 min + 30 s per
 * move", "30 s per move", "10 min per player", "No clock".
 * @param {number} main seconds of main time
 * @param {number} move seconds per move
 */
function clockText(main, move) {
  if (main && move) return t("lobby.clock", { main: duration(main), move: duration(move) });
  if (move) return t("lobby.clock_move", { move: duration(move) });
  if (main) return t("lobby.clock_main", { main: duration(main) });
  return t("lobby.no_clock");
}

/**
 * A lobby room's line: game, players and clock.
 * @param {any} room
 * @returns {HTMLLIElement}
 */
function lobbyRoom(room) {
  const item = el("li");
  const who = (room.players ?? []).filter(Boolean).map(shownName).join(", ") || t("lobby.someone");
  const clock = clockText(room.settings?.main_time ?? 0, room.settings?.time_per_move ?? 0);
  const link = el("a", { href: `/rooms/${encodeURIComponent(room.id)}`, "data-room-id": room.id },
    t("lobby.room", { game: t(`variant.${room.variant}`), who }));
  const detail = el("span", { class: "detail" }, room.settings?.rated ? `${clock} · ${t("lobby.rated")}` : clock);
  item.append(link, detail);
  return item;
}

/**
 * @param {HTMLElement} section
 * @param {any} lobby `{rooms, waiting, playing}`
 */
function showLobby(section, lobby) {
  const list = section.querySelector("[data-lobby-rooms]");
  const waiting = section.querySelector("[data-count=waiting]");
  const playing = section.querySelector("[data-count=playing]");
  if (waiting) waiting.textContent = tn("lobby.waiting", lobby.waiting ?? 0);
  if (playing) playing.textContent = tn("lobby.playing", lobby.playing ?? 0);
  if (!list) return;
  list.replaceChildren(...lobby.rooms.map(lobbyRoom));
  const empty = section.querySelector(".lobby-empty");
  if (empty instanceof HTMLElement) empty.hidden = lobby.rooms.length > 0;
}

/** @returns {HTMLElement} the lobby section, filled as data arrives */
function lobbySection() {
  const section = el("section", { class: "panel lobby", "aria-labelledby": "lobby-title" });
  const title = el("h2", { id: "lobby-title" }, t("lobby.title"));
  const counts = el("p", { class: "counts" });
  const waiting = el("span", { "data-count": "waiting" }, tn("lobby.waiting", 0));
  const playing = el("span", { "data-count": "playing" }, tn("lobby.playing", 0));
  counts.append(waiting, " · ", playing);
  const list = el("ul", { class: "lobby-rooms", "data-lobby-rooms": "", "aria-live": "polite" });
  const empty = el("p", { class: "lobby-empty" }, t("lobby.empty"));
  section.append(title, counts, list, empty);
  return section;
}

/** @returns {HTMLElement} the statistics table, filled when they arrive */
function statsSection() {
  const section = el("section", { class: "panel stats" });
  const title = el("h2", {}, t("stats.title"));
  const table = el("table", { "data-stats": "" });
  const head = table.createTHead().insertRow();
  for (const key of ["stats.game", "stats.games", "stats.first_wins", "stats.second_wins", "stats.draws"]) {
    head.append(el("th", { scope: "col" }, t(key)));
  }
  table.createTBody();
  section.append(title, table);
  return section;
}

/**
 * @param {HTMLElement} section
 * @param {any} stats `{variants: {shogi: {...}, ...}}`
 */
function showStats(section, stats) {
  const body = section.querySelector("tbody");
  if (!body) return;
  body.replaceChildren();
  for (const variant of VARIANTS) {
    const s = stats.variants?.[variant];
    if (!s) continue;
    const tr = body.insertRow();
    tr.dataset.statsVariant = variant;
    tr.append(el("th", { scope: "row" }, t(`variant.${variant}`)));
    const cells = [
      String(s.games),
      t("stats.cell", { n: s.first_wins, percent: s.first_wins_percent }),
      t("stats.cell", { n: s.second_wins, percent: s.second_wins_percent }),
      t("stats.cell", { n: s.draws, percent: s.draws_percent }),
    ];
    for (const text of cells) tr.insertCell().textContent = text;
  }
}

/**
 * Draws the home page into `container`; returns what stops its live parts.
 * @param {HTMLElement} container
 * @returns {() => void}
 */
export function renderHome(container) {
  document.title = t("title.home");
  const intro = el("section", { class: "intro" });
  const replay = el("p");
  replay.append(el("a", { href: "/replay" }, t("home.replay_link")), " · ", el("a", { href: "/games", "data-games-link": "" }, t("home.games_link")));
  intro.append(el("h1", {}, t("home.title")), el("p", {}, t("home.lead")), replay);
  const form = newGameForm();
  const lobby = lobbySection();
  const stats = statsSection();
  const columns = el("div", { class: "home-columns" });
  const side = el("div", { class: "home-side" });
  side.append(lobby, stats);
  columns.append(form, side);
  container.replaceChildren(intro, gameCards(form), columns);

  let stopped = false;
  request("GET", "/lobby").then((data) => !stopped && showLobby(lobby, data)).catch(() => {});
  request("GET", "/stats").then((data) => !stopped && showStats(stats, data)).catch(() => {
    stats.append(el("p", {}, t("stats.unavailable")));
  });
  const socket = lobbySocket((data) => showLobby(lobby, data));
  return () => {
    stopped = true;
    socket.close();
  };
}
