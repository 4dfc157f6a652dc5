// The room's JSON as the server sends it: the room (`GET /api/v1/rooms/{id}`,
// built in crates/server/src/room/view.rs) and the frames of the room
// WebSocket (`/api/v1/rooms/{id}/ws`: crates/server/src/event.rs for the
// numbered events, crates/server/src/ws.rs for the rest). JSDoc only, in one
// place, so the page's modules and the server's schema can be checked against
// each other (crates/server/tests/web_types.rs holds these typedefs to the
// server's OpenAPI document); `null` in a type is a `null` the server sends,
// never a missing key.
// The names are the OpenAPI schemas' (`GET /api/v1/openapi.json`) where one
// exists: Room, Settings, Seat, Clocks, Result, Notation, Side, Variant, Mode,
// Status, After (`Room` is `RoomFields & After`, as the server's room flattens
// in its `after`); `RoomEvent` is `Event`, `PresenceFrame` is `Presence`,
// `Joined` is `Seated`, and `WelcomeFrame` and `PongFrame` are branches of
// `SocketFrame`.
// An analysis (`GET /api/v1/analysis/{id}`, crates/server/src/analysis/view.rs)
// is here too: `Analysis` is `AnalysisView`, `AnalysedPly` is `PlyView`,
// `Score` is `ScoreView`.

/** @typedef {"first" | "second"} Side a side of the game (Sente/Gote, Red/Black) */
/**
 * A seat of the room, named by the side it plays in the room's first game;
 * after a swapped rematch seat `first` plays side `second`.
 * @typedef {"first" | "second"} SeatName
 */

/**
 * A quick-chat phrase's id; the page shows it in the reader's language.
 * @typedef {"hello" | "good_luck" | "have_fun" | "please_wait" | "oops" | "nice_move" | "well_played"
 *   | "good_game" | "thank_you" | "rematch"} Phrase
 */
/** @typedef {"shogi" | "minishogi" | "annan" | "xiangqi"} Variant */
/** @typedef {"online" | "local" | "computer"} Mode */
/** @typedef {"waiting" | "playing" | "finished"} Status waiting: a seat is free; finished: the game has an outcome */
/**
 * Why a game ended (`EndReason::code` of the rules crate).
 * @typedef {"checkmate" | "no-legal-moves" | "repetition" | "perpetual-check" | "perpetual-chase" | "impasse" | "move-limit" | "sixty-move-rule" | "insufficient-material" | "illegal-move" | "resignation" | "timeout" | "agreement"} EndReason
 */

/**
 * The house rules of a room (crates/server/src/room_settings.rs), every key present.
 * @typedef {object} Settings
 * @property {number} time_per_move seconds per move, 0 for no clock; after main time, the byoyomi
 * @property {number} main_time seconds each player has for the whole game, 0 for none
 * @property {boolean} swap_first_player
 * @property {boolean} show_targets the page marks the selected piece's legal targets
 * @property {boolean} rated
 * @property {boolean} chat the seated players of an online room may send quick-chat phrases
 * @property {"24-point" | "27-point" | "off"} impasse
 * @property {"standard" | "traditional"} annan_setup
 * @property {"allowed-if-supported" | "by-original-type" | "always-allowed"} annan_dead_piece
 * @property {number} move_limit moves before a draw, 0 for none
 * @property {boolean} illegal_move_loses an illegal move is played and loses
 * @property {"even" | "lance" | "bishop" | "rook" | "rook-lance" | "two" | "four" | "six" | "eight" | "ten"} handicap
 */

/**
 * Who sits in a seat.
 * @typedef {object} Seat
 * @property {Side} side the side the seat plays in the current game
 * @property {string} player the player's anonymous id
 * @property {string} name the display name
 * @property {boolean} computer the computer's seat
 * @property {boolean} connected a socket holding the seat's token is open
 * @property {boolean} away the player is gone from the game being played: the grace countdown runs, or the computer took over
 * @property {boolean} taken_over the computer plays for the away player
 */

/**
 * The seats by name; null for a free seat.
 * @typedef {{ first: Seat | null, second: Seat | null }} Seats
 */

/**
 * The clocks of a room that has one.
 * @typedef {object} Clocks
 * @property {number} time_per_move seconds, as in the settings
 * @property {number} main_time seconds, as in the settings
 * @property {{ first: number, second: number }} main_left_ms each side's main time left, in ms (the running side's as of now)
 * @property {Side | null} running the side whose clock runs; null before the first move and after the end
 * @property {number | null} remaining_ms the running side's time left for this move, in ms; null when none runs
 * @property {{ first: number, second: number } | null} final_left_ms each side's time left when the game ended (main
 *   time, or the time per move once that was gone; 0 for a loss on time), in ms; null while playing
 */

/**
 * The game's outcome so far.
 * @typedef {object} Result
 * @property {Side | "draw" | null} result the winner, "draw", or null while the game goes on
 * @property {EndReason | null} reason null while the game goes on
 * @property {Side} side_to_move
 * @property {boolean} in_check
 */

/**
 * The moves as players write them: shogi-family games in both notations,
 * xiangqi in WXF and Chinese.
 * @typedef {{ japanese: string[], western: string[] } | { wxf: string[], chinese: string[] }} Notation
 */

/**
 * The room JSON of `GET /api/v1/rooms/{id}`: what an event can change, which
 * each live event brings as its `after`, and the rest.
 * @typedef {RoomFields & After} Room
 */

/**
 * The fields of the room JSON that are not `After`'s.
 * @typedef {object} RoomFields
 * @property {string} id
 * @property {Variant} variant
 * @property {Mode} mode
 * @property {number} level the computer's level (1-8) in a computer room, else 0
 * @property {Settings} settings
 * @property {string} start the start position, SFEN or FEN
 * @property {string[]} moves the game's moves, USI (shogi family) or ICCS (xiangqi)
 * @property {Notation} notation
 * @property {number} spectators open sockets holding no seat
 * @property {number} last_seq the last event's seq, 0 before any
 */

/**
 * A score from the first player's view: centipawns, or mate in N plies (N > 0:
 * the first player mates; 0 where the game is over with a winner).
 * @typedef {{ cp: number } | { mate: number }} Score
 */

/**
 * One position's verdict: no `best` where the game is over, and `result` only there.
 * `pv_notation` is `pv` as players write it.
 * @typedef {{ ply: number, score: Score, best?: string, pv: string[], pv_notation?: Notation,
 *   result?: "first" | "second" | "draw" }} AnalysedPly
 */

/**
 * An analysis as it stands: the positions analysed so far, from the start.
 * @typedef {{ status: "queued" | "running" | "done" | "failed", positions: number, plies: AnalysedPly[] }} Analysis
 */

/** @typedef {{ id: string }} AnalysisStarted the answer to starting an analysis */

/**
 * The answer of `POST /api/v1/rooms/{id}/join`.
 * `player_secret` comes only with a player the server has just issued.
 * @typedef {{ seat: SeatName, token: string, player: string, player_secret?: string }} Joined
 */

/**
 * One move as players write it: the entry it adds to each list of `Notation`.
 * @typedef {{ japanese: string, western: string } | { wxf: string, chinese: string }} MoveNotation
 */

/**
 * What the room shows after an event: the fields of `Room` an event can
 * change, besides `moves`, `notation` (the event extends or cuts them) and
 * `spectators` (presence frames).
 * @typedef {object} After
 * @property {Status} status
 * @property {string} position the current position, SFEN or FEN
 * @property {string[]} legal_moves what the side to move may play now, as `moves` writes them
 * @property {Side} side_to_move
 * @property {boolean} in_check
 * @property {{ first: number, second: number } | null} impasse_points each side's points in shogi and annan, else null
 * @property {Result} result
 * @property {Clocks | null} clocks null without a clock
 * @property {Seats} seats
 * @property {Side | null} draw_offer the side that offered a draw
 * @property {Side | null} draw_declined the side that declined a draw since the last move (the computer, by its evaluation)
 * @property {SeatName | null} rematch_offer the seat that asked for another game
 * @property {SeatName | null} takeback_offer the seat that asked to take back a move (online)
 * @property {SeatName | null} analysis_offer the seat that asked to analyse the game while it is played
 * @property {boolean} analysable whether the game may be analysed now: over, or both seats agreed
 * @property {number} game the game's number in the room, from 1
 */

/**
 * What every numbered event carries. Sent live, an event carries `after`
 * (and a move its `notation`); read back from the store, neither.
 * @typedef {object} EventBase
 * @property {number} seq 1, 2, 3 ... in the room
 * @property {number} at when it happened, unix milliseconds
 * @property {MoveNotation} [notation] a live move as players write it
 * @property {After} [after] what the room shows after a live event
 */

/**
 * What happened, by `type`.
 * @typedef {{ type: "seated", seat: SeatName, player: string, name: string, computer: boolean }
 *   | { type: "move", ply: number, side: Side, move: string, computer: boolean }
 *   | { type: "draw_offered", side: Side }
 *   | { type: "draw_declined", side: Side }
 *   | { type: "end", result: Side | "draw", reason: EndReason, by: Side | null }
 *   | { type: "rematch_offered", seat: SeatName }
 *   | { type: "new_game", game: number, swapped: boolean }
 *   | { type: "away", seat: SeatName, grace_ms: number }
 *   | { type: "takeover", seat: SeatName }
 *   | { type: "back", seat: SeatName }
 *   | { type: "takeback_offered", seat: SeatName }
 *   | { type: "takeback_declined", seat: SeatName }
 *   | { type: "taken_back", ply: number }
 *   | { type: "analysis_offered", seat: SeatName }
 *   | { type: "analysis_agreed" }
 *   | { type: "chat", seat: SeatName, phrase: Phrase }
 *   | { type: "renamed", seat: SeatName, name: string }} EventKind
 */

/**
 * A numbered event of the room socket (and of the events stream).
 * `move.ply` counts from 1; `move.computer` is true when the computer chose
 * the move (its seat, or an away player's); `end.by` names who resigned, ran
 * out of time or claimed the impasse; `new_game.swapped` says the seats play
 * the opposite sides to their names.
 * @typedef {EventBase & EventKind} RoomEvent
 */

/**
 * A seat's connection in a presence frame.
 * @typedef {{ connected: boolean, away: boolean }} SeatPresence
 */

/**
 * The unnumbered frame the room sends on connecting and after every change of
 * who is connected: each seat (null when free) and the spectators.
 * @typedef {object} PresenceFrame
 * @property {"presence"} type
 * @property {{ first: SeatPresence | null, second: SeatPresence | null }} seats
 * @property {number} spectators
 */

/**
 * The first frame of a room socket: the seats its token holds (none to
 * watch) and the `since` it was opened with.
 * @typedef {{ type: "welcome", seats: SeatName[], since: number }} WelcomeFrame
 */

/**
 * The answer to a `{type: "ping"}` frame.
 * @typedef {{ type: "pong", request_id: unknown }} PongFrame
 */

/** @typedef {WelcomeFrame | PresenceFrame | PongFrame | RoomEvent} RoomFrame */

export {};
