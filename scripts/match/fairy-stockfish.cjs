// Fairy-Stockfish (the WebAssembly build from npm) as a USI/UCI engine on
// stdin/stdout, for strength comparisons with match.mjs. Node's fetch cannot
// load the .wasm file from a path, so it is hidden and Emscripten reads the
// file from disk instead.
delete globalThis.fetch;
const readline = require("node:readline");
const Stockfish = require("fairy-stockfish-nnue.wasm/stockfish.js");

(async () => {
  const engine = await Stockfish();
  engine.addMessageListener((line) => process.stdout.write(line + "\n"));
  for await (const command of readline.createInterface({ input: process.stdin })) {
    if (command === "quit") break;
    engine.postMessage(command);
  }
  engine.postMessage("quit");
  process.exit(0);
})();
