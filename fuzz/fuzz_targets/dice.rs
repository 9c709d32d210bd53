//! Fuzz target: any text given to the dice language is parsed, and whatever parses is rolled,
//! printed, re-parsed, and analysed exactly under a shallow truncation. Nothing may panic.
#![no_main]

use fray_dice::{Event, Options, Program, seeded};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(program) = Program::parse(text) else { return };
    let _ = program.roll(&mut seeded(1));
    let printed = program.to_string();
    if printed.len() <= fray_dice::syntax::MAX_INPUT_LEN {
        let again = Program::parse(&printed).expect("printed programs parse");
        assert_eq!(again.to_string(), printed, "printing is stable");
    }
    let options = Options { depth: 2 };
    let _ = program.distribution(&options);
    let _ = program.probability(Event::AtLeast(3), &options);
});
