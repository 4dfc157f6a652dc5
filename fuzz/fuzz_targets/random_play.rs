//! Games of random legal moves chosen by the fuzzer's bytes, under random
//! house rules: never a panic, every listed move is legal and plays, and a
//! finished game lists no moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::{AnyGame, AnnanDeadPiece, AnnanSetup, Impasse, Settings, Side, Variant};

fuzz_target!(|data: &[u8]| {
    let [variant, rules, choices @ ..] = data else {
        return;
    };
    let variant = Variant::ALL[usize::from(*variant) % Variant::ALL.len()];
    let settings = Settings {
        impasse: Impasse::ALL[usize::from(rules & 3) % Impasse::ALL.len()],
        annan_setup: AnnanSetup::ALL[usize::from(rules >> 2 & 1)],
        annan_dead_piece: AnnanDeadPiece::ALL[usize::from(rules >> 3 & 3) % AnnanDeadPiece::ALL.len()],
        ..Settings::default()
    };
    let mut game = AnyGame::new(variant, None, &settings).expect("start position");
    for &choice in choices {
        let moves = game.legal_moves_text();
        if moves.is_empty() {
            assert!(game.outcome().is_some(), "no legal move but the game goes on");
            return;
        }
        if choice == 255 {
            // Now and then, an impasse claim in the middle of the game.
            let _ = game.claim_impasse(Side::First);
            continue;
        }
        let mv = &moves[usize::from(choice) % moves.len()];
        game.play_text(mv).expect("a listed move plays");
    }
});
