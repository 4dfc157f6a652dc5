// The home page: the four games, the new-game form with every house rule
// that applies to the chosen game, the lobby of rooms waiting for a player
// (live over the lobby WebSocket) and the win statistics per game.

import { lobbySocket, request } from "./api.js";
import { errorBox, showError } from "./errors.js";
import { t } from "./i18n.js";
import { playerId, playerName, setPlayerName, setRoomToken } from "./storage.js";

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
];

/**
 * A labelled form row.
 * @param {string} name
 * @param {HTMLElement} control
 * @param {string} [hint]
 * @returns {HTMLElement}
 */
function row(name, control, hint) {
  const wrap = document.createElement("div");
  wrap.className = "field";
  wrap.dataset.field = name;
  const label = document.createElement("label");
  const id = `field-${name}`;
  control.id = id;
  label.htmlFor = id;
  label.textContent = t(`setting.${name}`);
  if (control instanceof HTMLInputElement && control.type === "checkbox") {
    wrap.classList.add("check");
    wrap.append(control, label);
  } else {
    wrap.append(label, control);
  }
  if (hint) {
    const small = document.createElement("small");
    small.textContent = hint;
    small.id = `${id}-hint`;
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
  const el = document.createElement("select");
  el.name = name;
  for (const value of values) {
    const option = new Option(label(value), String(value), false, value === initial);
    el.append(option);
  }
  return el;
}

/**
 * The new-game form.
 * @returns {HTMLFormElement}
 */
function newGameForm() {
  const form = document.createElement("form");
  form.dataset.newGame = "";
  form.className = "panel new-game";
  form.noValidate = true;
  const title = document.createElement("h2");
  title.textContent = t("home.new_game");
  form.append(title);

  const variant = select("variant", VARIANTS, "shogi", (v) => t(`variant.${v}`));
  const mode = select("mode", ["computer", "local", "online"], "computer", (v) => t(`mode.${v}`));
  const level = select("level", [1, 2, 3, 4, 5, 6, 7, 8], 4, (v) => t("level.n", { n: v }));
  const seat = select("seat", ["first", "second"], "first", (v) => t(`seat_choice.${v}`));
  const name = document.createElement("input");
  name.name = "name";
  name.maxLength = 40;
  name.setAttribute("autocomplete", "nickname");
  name.value = playerName();
  name.placeholder = t("home.name_placeholder");
  form.append(
    row("variant", variant),
    row("mode", mode),
    row("level", level, t("setting.level_hint")),
    row("seat", seat),
    row("name", name),
  );

  const rules = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = t("home.house_rules");
  rules.append(legend);
  for (const field of selectFields()) {
    const el = row(field.name, select(field.name, field.values, field.initial, field.label));
    if (field.variants) el.dataset.variants = field.variants.join(" ");
    rules.append(el);
  }
  const limit = document.createElement("input");
  limit.type = "number";
  limit.name = "move_limit";
  limit.min = "0";
  limit.max = "10000";
  limit.step = "1";
  limit.value = "0";
  limit.inputMode = "numeric";
  rules.append(row("move_limit", limit, t("setting.move_limit_hint")));
  for (const box of CHECKBOXES) {
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = box.name;
    input.checked = box.initial;
    const el = row(box.name, input);
    el.dataset.modes = box.modes.join(" ");
    rules.append(el);
  }
  form.append(rules);

  const message = errorBox();
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.dataset.action = "create";
  submit.className = "primary";
  submit.textContent = t("home.create");
  form.append(message, submit);

  /** Shows the fields that apply to the chosen game and mode; hidden ones are not sent. */
  const update = () => {
    for (const el of Array.from(form.querySelectorAll(".field"))) {
      if (!(el instanceof HTMLElement)) continue;
      const variants = el.dataset.variants?.split(" ");
      const modes = el.dataset.modes?.split(" ");
      let shown = (!variants || variants.includes(variant.value))
        && (!modes || modes.includes(mode.value));
      if (el.dataset.field === "level") shown = mode.value === "computer";
      if (el.dataset.field === "seat") shown = mode.value !== "local";
      el.hidden = !shown;
      for (const control of Array.from(el.querySelectorAll("input, select"))) {
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
      const el = form.elements.namedItem(field.name);
      if (el instanceof HTMLSelectElement && !el.disabled) {
        settings[field.name] = typeof field.initial === "number" ? Number(el.value) : el.value;
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
      const el = form.elements.namedItem(box.name);
      if (el instanceof HTMLInputElement && !el.disabled) settings[box.name] = el.checked;
    }
    /** @type {Record<string, unknown>} */
    const body = {
      variant: variant.value,
      mode: mode.value,
      settings,
      player: playerId(),
    };
    if (mode.value === "computer") body.level = Number(level.value);
    if (mode.value !== "local") body.seat = seat.value;
    if (name.value.trim()) body.name = name.value.trim();
    setPlayerName(name.value);
    submit.disabled = true;
    try {
      const created = await request("POST", "/rooms", { body });
      setRoomToken(created.id, {
        token: created.token,
        seats: mode.value === "local" ? ["first", "second"] : [created.seat],
      });
      location.assign(`/rooms/${encodeURIComponent(created.id)}`);
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
  const list = document.createElement("ul");
  list.className = "games";
  for (const variant of VARIANTS) {
    const item = document.createElement("li");
    item.className = `game-card ${variant}`;
    const title = document.createElement("h3");
    title.textContent = t(`variant.${variant}`);
    const text = document.createElement("p");
    text.textContent = t(`variant.${variant}.about`);
    const play = document.createElement("button");
    play.type = "button";
    play.className = "link-button";
    play.textContent = t("home.play_this");
    play.addEventListener("click", () => {
      const el = form.elements.namedItem("variant");
      if (el instanceof HTMLSelectElement) {
        el.value = variant;
        el.dispatchEvent(new Event("change"));
        el.focus();
      }
    });
    const rules = document.createElement("a");
    rules.href = `/rules/${variant}`;
    rules.textContent = t("home.rules_link");
    const links = document.createElement("p");
    links.className = "links";
    links.append(play, rules);
    item.append(title, text, links);
    list.append(item);
  }
  return list;
}

/**
 * A lobby room's line: game, players and clock.
 * @param {any} room
 * @returns {HTMLLIElement}
 */
function lobbyRoom(room) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = `/rooms/${encodeURIComponent(room.id)}`;
  link.dataset.roomId = room.id;
  const who = (room.players ?? []).filter(Boolean).join(", ") || t("lobby.someone");
  const clock = room.settings?.time_per_move || room.settings?.main_time
    ? t("lobby.clock", {
        main: duration(room.settings.main_time ?? 0),
        move: duration(room.settings.time_per_move ?? 0),
      })
    : t("lobby.no_clock");
  link.textContent = t("lobby.room", { game: t(`variant.${room.variant}`), who });
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = room.settings?.rated ? `${clock} · ${t("lobby.rated")}` : clock;
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
  if (waiting) waiting.textContent = String(lobby.waiting ?? 0);
  if (playing) playing.textContent = String(lobby.playing ?? 0);
  if (!list) return;
  list.replaceChildren(...lobby.rooms.map(lobbyRoom));
  const empty = section.querySelector(".lobby-empty");
  if (empty instanceof HTMLElement) empty.hidden = lobby.rooms.length > 0;
}

/** @returns {HTMLElement} the lobby section, filled as data arrives */
function lobbySection() {
  const section = document.createElement("section");
  section.className = "panel lobby";
  section.setAttribute("aria-labelledby", "lobby-title");
  const title = document.createElement("h2");
  title.id = "lobby-title";
  title.textContent = t("lobby.title");
  const counts = document.createElement("p");
  counts.className = "counts";
  const waiting = document.createElement("span");
  waiting.dataset.count = "waiting";
  waiting.textContent = "0";
  const playing = document.createElement("span");
  playing.dataset.count = "playing";
  playing.textContent = "0";
  const [before, middle, after] = t("lobby.counts").split(/\{waiting\}|\{playing\}/);
  counts.append(before ?? "", waiting, middle ?? "", playing, after ?? "");
  const list = document.createElement("ul");
  list.dataset.lobbyRooms = "";
  list.className = "lobby-rooms";
  list.setAttribute("aria-live", "polite");
  const empty = document.createElement("p");
  empty.className = "lobby-empty";
  empty.textContent = t("lobby.empty");
  section.append(title, counts, list, empty);
  return section;
}

/** @returns {HTMLElement} the statistics table, filled when they arrive */
function statsSection() {
  const section = document.createElement("section");
  section.className = "panel stats";
  const title = document.createElement("h2");
  title.textContent = t("stats.title");
  const table = document.createElement("table");
  table.dataset.stats = "";
  const head = table.createTHead().insertRow();
  for (const key of ["stats.game", "stats.games", "stats.first_wins", "stats.second_wins", "stats.draws"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(key);
    head.append(th);
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
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(`variant.${variant}`);
    tr.append(th);
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
  const intro = document.createElement("section");
  intro.className = "intro";
  const h1 = document.createElement("h1");
  h1.textContent = t("home.title");
  const lead = document.createElement("p");
  lead.textContent = t("home.lead");
  const replay = document.createElement("p");
  const link = document.createElement("a");
  link.href = "/replay";
  link.textContent = t("home.replay_link");
  replay.append(link);
  intro.append(h1, lead, replay);
  const form = newGameForm();
  const lobby = lobbySection();
  const stats = statsSection();
  const columns = document.createElement("div");
  columns.className = "home-columns";
  const side = document.createElement("div");
  side.className = "home-side";
  side.append(lobby, stats);
  columns.append(form, side);
  container.replaceChildren(intro, gameCards(form), columns);

  let stopped = false;
  request("GET", "/lobby").then((data) => !stopped && showLobby(lobby, data)).catch(() => {});
  request("GET", "/stats").then((data) => !stopped && showStats(stats, data)).catch(() => {
    stats.append(Object.assign(document.createElement("p"), { textContent: t("stats.unavailable") }));
  });
  const socket = lobbySocket((data) => showLobby(lobby, data));
  return () => {
    stopped = true;
    socket.close();
  };
}
