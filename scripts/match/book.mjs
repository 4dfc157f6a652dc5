// Reads a book of openings, as openings.mjs writes it for match.mjs.
import { readFileSync } from "node:fs";

/** The openings of book `file`: one a line, its moves separated by spaces; `#` starts a comment. */
export function readBook(file) {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(/\s+/));
}
