// @ts-check
/**
 * Whole games from the usual start to checkmate by the first player, one per
 * variant: the games of `FULL_GAMES` in crates/server/tests/games.rs (each
 * checked with `koma status --variant V --moves "..."`, which answers
 * `{"result":"first","reason":"checkmate",...}`). What each shows in the
 * browser is noted beside it.
 */

/** @type {Record<string, {moves: string[], shows: string}>} */
export const GAMES = {
  shogi: {
    // 2d2c+ (a rook entering the camp) and 2c2b+ / 2f2g+ (pawns on the
    // second rank of the camp) may promote or not: the promotion question.
    // P*2c is Sente's drop, P*2f and P*1f Gote's.
    shows: "drops from both hands and the promotion question",
    moves: [
      "7g7f", "4a4b", "7i6h", "8b7b", "2g2f", "7a8b", "2f2e", "4b5b", "2e2d", "2c2d",
      "2h2d", "5a4b", "2d2c+", "5b5a", "2c2d", "1c1d", "P*2c", "2b1c", "2d1d", "4b5b",
      "3g3f", "P*2f", "1d2e", "3a3b", "2c2b+", "2f2g+", "2b3b", "2g1g", "2e2a", "P*1f",
      "2a1a", "1c2d", "3b3c", "4c4d", "1a2b", "5b4a", "2b2a", "4a5b", "2a3b", "5a4b",
      "3b4b",
    ],
  },
  minishogi: {
    // B*2c is Gote's drop; G*2a and B*4e Sente's; the gold on 2a mates.
    shows: "drops on the 5x5 board",
    moves: [
      "3e4d", "4a3b", "2e3d", "3a4b", "1e2e", "5a3a", "5d5c", "3a4a", "2e3e", "4a3a",
      "3d2e", "1a2b", "3e3d", "3a4a", "2e1d", "3b1d", "3d1d", "4b3a", "5c5b", "2a3b",
      "1d2d", "B*2c", "4e3d", "1b1c", "B*4e", "4a4d", "3d2c", "3b2c", "2d2c", "2b1a",
      "G*2a", "1a1b", "2c2b",
    ],
  },
  annan: {
    // 2g2c+ first: the pawn on 2g has the rook behind it, so it moves like a
    // rook (a pawn alone cannot go four squares; `koma moves` lists 2g2c for
    // annan and not for shogi) and may promote on 2c.
    shows: "a borrowed move, drops and promotions",
    moves: [
      "2g2c+", "2b3d", "6i7h", "5a6b", "3i3h", "7a7b", "P*2b", "8c8g+", "7g8g", "P*2g",
      "3h2g", "3a2b", "2c2b", "P*2f", "2g2f", "1a1b", "2b1b", "9a9b", "1b2a", "4a5b",
      "L*8e", "8b7d", "8e8a+", "7b8a", "P*2g", "9c9g", "9i9g", "9b9g+", "8i9g", "L*7e",
      "P*7f", "7e3e", "8h3c+", "3d1b", "S*8c", "3e3g+", "2i3g", "1c5g+", "8c7d+", "7c7d",
      "R*2b", "L*5f", "5i4h", "5g5h", "4g5h", "5f5h+", "4h5h", "1b5f", "2a6a", "6b6a",
      "G*5a", "5b5a", "N*7c", "6a7a", "N*8c",
    ],
  },
  xiangqi: {
    // g2g6 (ply 5): the red cannon jumps its own pawn on g3 to take the pawn
    // on g6; h7f7 (ply 34) is a black cannon capture.
    shows: "cannon captures",
    moves: [
      "b2e2", "h9g7", "h2g2", "i6i5", "g2g6", "c6c5", "h0g2", "h7h1", "a0a1", "h1h7",
      "i0h0", "a6a5", "h0h5", "c5c4", "c3c4", "d9e8", "h5i5", "g9i7", "c4c5", "b7b4",
      "a1h1", "b4b7", "h1h4", "a9a7", "c5c6", "a7a9", "c6d6", "b7e7", "d6e6", "e7f7",
      "e6e7", "a9a6", "e7f7", "h7f7", "g6h6", "f7d7", "i5c5", "d7c7", "c5b5", "b9a7",
      "b5b7", "a6c6", "c0a2", "e9d9", "h6h7", "e8f7", "h4d4", "c6d6", "d4d6", "c7d7",
      "d6d7",
    ],
  },
};
