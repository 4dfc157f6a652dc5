// The game's sounds: a move, a capture, check, low time and the end, made
// with WebAudio (no files to fetch). Muting is remembered per device.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { positionAfter } from "./moves.js";
import { setSoundsMuted, soundsMuted } from "./storage.js";

/** @typedef {"move" | "capture" | "check" | "low-time" | "end"} Sound */
/** @typedef {import("./room/types.js").Room} Room */
/** @typedef {import("./room/types.js").RoomEvent} RoomEvent */

/** Each sound's notes: frequency (Hz), start and length (seconds). */
const NOTES = {
  move: [[520, 0, 0.06]],
  capture: [[330, 0, 0.05], [220, 0.05, 0.09]],
  check: [[880, 0, 0.08], [880, 0.13, 0.08]],
  "low-time": [[660, 0, 0.05], [660, 0.1, 0.05]],
  end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.25]],
};

/** @type {AudioContext | null} made at the first sound, then kept */
let audio = null;

/**
 * Plays `sound` unless this device muted the sounds. The last sound played
 * is left in `<body data-sound>`.
 * @param {Sound} sound
 */
export function playSound(sound) {
  if (soundsMuted()) return;
  document.body.dataset.sound = sound;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [frequency, start, length] of NOTES[sound]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = frequency;
      // A short fade out, so that no note ends in a click.
      volume.gain.setValueAtTime(0.15, now + start);
      volume.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(now + start);
      tone.stop(now + start + length);
    }
  } catch {
    // No audio on this device: the game goes on in silence.
  }
}

/**
 * The sound a batch of fresh events makes: the end, else check, a capture or
 * a move for the last move in it; null when nothing moved.
 * @param {Room} room the room after the events
 * @param {RoomEvent[]} events
 * @returns {Sound | null}
 */
export function soundOf(room, events) {
  if (events.some((event) => event.type === "end")) return "end";
  const move = events.filter((event) => event.type === "move").at(-1);
  if (!move || move.type !== "move" || room.moves.length !== move.ply) return null;
  if (room.in_check) return "check";
  if (move.move[1] === "*") return "move";
  const before = positionAfter(room.variant, room.start, room.moves, move.ply - 1);
  return before.board.has(move.move.slice(2, 4)) ? "capture" : "move";
}

/** The button that mutes and unmutes the sounds on this device. */
export function muteButton() {
  const button = el("button", { type: "button", "data-action": "mute" });
  const show = () => {
    const muted = soundsMuted();
    button.setAttribute("aria-pressed", String(muted));
    button.textContent = muted ? t("sound.unmute") : t("sound.mute");
  };
  button.addEventListener("click", () => {
    setSoundsMuted(!soundsMuted());
    show();
  });
  show();
  return button;
}
