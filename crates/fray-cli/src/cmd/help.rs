//! The examples each subcommand's `--help` ends with.

/// The dice notation in brief, as a literal so that it can end several help texts.
macro_rules! dice_notation {
    () => {
        "Dice notation (docs/dice.md has the full guide):
  3d6  d20+5  2d6*2  (d6+1)/2        sums, arithmetic, floor division by a constant
  4d6kh3  5d6kl3  4d6dl1  4d6dh1     keep highest/lowest, drop highest/lowest
  d6!  d6!!  d6!!{20}                explode (each 6 adds a die), compound, depth limit
  6d6!!cs>=5  6d6!!cs>=5cs>=11       count successes; two to four counts give a tuple
  4D+2  4Dc  4D{20}                  OpenD6 code: 3d6 + Wild Die (c: a Wild 1 counts as 1)
  3d6+5 >= 15   d10+3 vs d8+2        comparison (0 or 1); contest (left minus right)
  max(0, d10+3 vs d8+2)  min(..)  abs(..)"
    };
}

/// After `fray --help`.
pub const MAIN: &str = concat!(
    "Examples:
  fray sim examples/fluid/barbarian-vs-marauder.toml     10,000 fights: win rates, lengths, ledgers
  fray fight examples/hardboiled/gunfight.toml --seed 7  one fight, blow by blow
  fray odds \"3d6+5 >= 15\"                                exact odds of a roll
  fray rules hardboiled                                  a ruleset's options and AI policies

",
    dice_notation!()
);

/// After `fray roll --help`.
pub const ROLL: &str = concat!(
    "Examples:
  fray roll 4d6kh3                 roll, showing the dropped die
  fray roll \"4D+2\" --seed 2024     an OpenD6 code with its Wild Die, reproducibly
  fray roll \"d10+3 vs d8+2\" --json one contest as JSON

",
    dice_notation!()
);

/// After `fray odds --help`.
pub const ODDS: &str = concat!(
    "Examples:
  fray odds 3d6                    the whole distribution as a table
  fray odds \"6d6!!cs>=5\" --at-least 3
                                   the chance of three successes or more
  fray odds --scenario examples/hardboiled/gunfight.toml --attacker Vito --defender Lou
                                   one attack's odds in context (--distance 3: from 3 m)

",
    dice_notation!()
);

/// After `fray check --help`.
pub const CHECK: &str = "Examples:
  fray check examples/opend6/brawl.toml            validate, explain, and try 200 fights
  fray check my-fight.toml --set marauder.pc=14    the same with a combatant's field changed
  fray check my-fight.toml --json                  the same as one JSON object";

/// After `fray fight --help`.
pub const FIGHT: &str = "Examples:
  fray fight examples/fluid/barbarian-vs-marauder.toml --seed 7
                                   one fight, reproducible from its seed
  fray fight examples/ticks/pistol-duel.toml --json
                                   one JSON event per line after a header
  fray fight examples/hardboiled/gunfight.toml --control Lou=human --dice manual --journal j.json
                                   play Lou yourself, rolling physical dice; `?` at a prompt
                                   lists undo, status, save…; `fray fight --resume j.json` goes on";

/// After `fray sim --help`.
pub const SIM: &str = "Examples:
  fray sim examples/fluid/barbarian-vs-marauder.toml -n 100000
                                   win rates with 95% intervals, lengths, ledgers
  fray sim examples/hardboiled/gunfight.toml --compare moving_shot_penalty=0
                                   what a rule change does, on the same dice
  fray sim examples/fluid/barbarian-vs-marauder.toml --sweep marauder.pc=12,14,16,18
                                   the balance as a combatant's field changes";

/// After `fray rules --help`.
pub const RULES: &str = "Examples:
  fray rules                       the rulesets
  fray rules opend6                its options (with their meanings) and AI policies
  fray rules ticks --json          the same, with every scenario field, as JSON";

/// After `fray docs --help`.
pub const DOCS: &str = "Examples:
  fray docs --out docs/            regenerate docs/rulesets/*.md (a test checks they are current)
  cargo run -p fray-cli -- docs --out docs/
                                   the same from a clone, without installing fray";

/// After `fray completions --help`.
pub const COMPLETIONS: &str = "Examples:
  fray completions bash > ~/.local/share/bash-completion/completions/fray
  fray completions zsh > ~/.zfunc/_fray
  fray completions fish > ~/.config/fish/completions/fray.fish";

/// After `fray man --help`.
pub const MAN: &str = "Examples:
  fray man > ~/.local/share/man/man1/fray.1 && man fray
  fray man | man -l -";
