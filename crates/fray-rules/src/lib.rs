//! The rulesets of fray, one module each, and the registry the command line reads.

pub mod board;
pub mod events;
pub mod fluid;
pub mod front;
pub mod hardboiled;
pub mod opend6;
pub mod phasesix;
pub mod reference;
pub mod scenario;
pub mod ticks;

mod edit;

pub use front::{Front, Roster, Script};

/// One option of a ruleset, as `fray rules ID` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// Its key under `[rules.options]`.
    pub name: &'static str,
    /// The default value.
    pub default: &'static str,
    /// The alternatives.
    pub alternatives: &'static str,
    /// The rulebook clauses it affects.
    pub clauses: &'static str,
    /// What it decides, in one plain sentence.
    pub meaning: &'static str,
}

impl OptionInfo {
    /// An option's description.
    pub const fn new(
        name: &'static str,
        default: &'static str,
        alternatives: &'static str,
        clauses: &'static str,
        meaning: &'static str,
    ) -> OptionInfo {
        OptionInfo { name, default, alternatives, clauses, meaning }
    }
}

/// Reading option values from text, shared by every ruleset's `Options::set`.
pub mod option_value {
    /// The value named `value` among `choices`; the error lists them.
    pub fn pick<T: Copy>(value: &str, choices: &[(&str, T)]) -> Result<T, String> {
        choices.iter().find(|(text, _)| *text == value).map(|(_, v)| *v).ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(text, _)| *text).collect();
            match crate::did_you_mean(value, names.iter().copied()) {
                Some(close) => {
                    format!("found `{value}`; did you mean `{close}`? (expected one of {})", names.join(", "))
                }
                None => format!("expected one of {}, found `{value}`", names.join(", ")),
            }
        })
    }

    /// `true` or `false`.
    pub fn flag(value: &str) -> Result<bool, String> {
        pick(value, &[("true", true), ("false", false)])
    }

    /// An option with two named values: `false` for the default, `true` for the other.
    pub fn two(value: &str, default: &str, other: &str) -> Result<bool, String> {
        pick(value, &[(default, false), (other, true)])
    }
}

/// The error for an unknown option name, with a suggestion when one is close.
pub fn unknown_option(name: &str, options: &[OptionInfo]) -> String {
    match did_you_mean(name, options.iter().map(|o| o.name)) {
        Some(close) => format!("unknown option `{name}`; did you mean `{close}`?"),
        None => format!("unknown option `{name}`"),
    }
}

/// The closest candidate within a small edit distance.
pub fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

use fray_engine::{CombatantId, Decider, Dice, Fight, FightError, FightResult, FnSink, Outcome, Ruleset};
use scenario::ScenarioError;

/// One event of a fight, rendered for a person and for a script.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Line {
    /// The blow-by-blow text, if the event is worth a line.
    pub text: Option<String>,
    /// The event as JSON.
    pub json: serde_json::Value,
}

/// A decision shown to a person: the legal choices, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    /// Who decides.
    pub who: String,
    /// What is asked.
    pub question: String,
    /// The legal choices; the answer is an index into them.
    pub options: Vec<String>,
    /// The index of the choice the combatant's AI would make: what an empty answer takes. (A
    /// menu that lacks the AI's answer gets it added, labelled [`NOT_OFFERED`].)
    pub default: usize,
    /// Each choice as structured data, derived with serde from the ruleset's choice type: the
    /// action's kind (the variant's name), its target (a combatant's index in the roster), its
    /// weapon and each modifier as fields, so that a page can group the choices.
    pub data: Vec<serde_json::Value>,
    /// Beside each attack, its exact odds ([`ChoiceOdds`]); `None` for other choices, and for
    /// every choice of a prompt that is not shown ([`Seats::shown`]).
    pub odds: Vec<Option<ChoiceOdds>>,
}

/// A probability as a menu shows it beside a choice: "55.0%".
pub fn chance(p: &fray_dice::BigRational) -> String {
    use num_traits::ToPrimitive;
    format!("{:.1}%", p.to_f64().unwrap_or(f64::NAN) * 100.0)
}

/// The exact odds of an attack offered at a prompt: of hitting, and of taking its target out.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct ChoiceOdds {
    /// P(the attack hits) (or wins its contest), as an exact fraction, e.g. `"11/20"`.
    pub hit: String,
    /// The same as a number, for display.
    pub hit_chance: f64,
    /// P(the attack takes its target out), as an exact fraction.
    pub down: String,
    /// The same as a number, for display.
    pub down_chance: f64,
}

impl ChoiceOdds {
    /// The odds of hitting `hit` and of taking the target out `down`.
    pub fn new(hit: &fray_dice::BigRational, down: &fray_dice::BigRational) -> ChoiceOdds {
        use num_traits::ToPrimitive;
        ChoiceOdds {
            hit: fray_dice::fraction(hit),
            hit_chance: hit.to_f64().unwrap_or(f64::NAN),
            down: fray_dice::fraction(down),
            down_chance: down.to_f64().unwrap_or(f64::NAN),
        }
    }
}

/// A shown prompt's labels and exact odds, worked out after the prompt was asked without them
/// ([`Seats::defers_odds`]): [`Prompt::options`] and [`Prompt::odds`] as they are when the odds
/// are shown, the choices in the same order.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptOdds {
    /// Each choice's label, with its odds ([`Prompt::options`]).
    pub options: Vec<String>,
    /// Beside each choice, its exact odds ([`Prompt::odds`]).
    pub odds: Vec<Option<ChoiceOdds>>,
}

/// The work that gives a prompt's [`PromptOdds`] ([`Seats::deferred_odds`]). It owns what it
/// needs (the ruleset's scenario, the state at the prompt, the request), so that it may run on
/// another thread, off the fight's path.
pub type OddsJob = Box<dyn FnOnce() -> PromptOdds + Send>;

/// One outcome of a hit in [`AttackOdds`]: a label, named components (e.g. W, S) and its
/// probability given a hit.
pub type HitOutcome = (String, Vec<(String, i32)>, fray_dice::BigRational);

/// The exact odds of one attack at the start of a fight (`fray odds --scenario`).
#[derive(Clone, Debug, PartialEq)]
pub struct AttackOdds {
    /// The distance between attacker and defender the attack is made from, in
    /// `distance_unit`: the file's positions, after any approach the odds follow, or the
    /// distance asked for ([`Scenario::attack_odds_at`]); `None` when the scenario has no
    /// distances (`opend6`'s `position_model = bands`).
    pub distance: Option<f64>,
    /// The unit of `distance`: `"m"` (metres) or `"squares"` (`ticks`).
    pub distance_unit: &'static str,
    /// What the computation assumes (policies, defence, penalties), one line each.
    pub assumptions: Vec<String>,
    /// P(the attack hits).
    pub hit: fray_dice::BigRational,
    /// What `damage_given_hit` lists, e.g. "damage after armour, given a hit".
    pub damage_heading: String,
    /// The outcomes of a hit: a label, named components (e.g. W, S) and probability.
    pub damage_given_hit: Vec<HitOutcome>,
    /// Probability mass left unplaced (explosion chains longer than the depth followed); zero
    /// when every number is exact. The true values lie within this much of those given.
    pub residual: fray_dice::BigRational,
    /// What the residual is, for a person (e.g. "Wild Die explosion chains followed to 40 extra
    /// tosses"); empty when the residual is always zero.
    pub residual_note: String,
    /// P(the defender is out of the fight after one hit | a hit).
    pub down_given_hit: fray_dice::BigRational,
    /// P(this attack takes the defender out).
    pub down: fray_dice::BigRational,
}

/// The id of the combatant named `name` among `names` (roster order), or an error that lists
/// them: odds in context name their attacker and defender.
pub fn find_combatant<'a>(names: impl Iterator<Item = &'a str> + Clone, name: &str) -> Result<CombatantId, String> {
    names.clone().position(|n| n == name).map(|i| CombatantId(i as u16)).ok_or_else(|| {
        let all: Vec<&str> = names.collect();
        format!("no combatant `{name}` (combatants: {})", all.join(", "))
    })
}

/// The largest distance `fray odds --distance` takes, in the ruleset's unit: 100 km (or
/// 100,000 squares), the farthest a scenario file may place a combatant from the origin.
pub const MAX_ODDS_DISTANCE: f64 = 100_000.0;

/// Checks a distance asked for in odds in context: a finite number from 0 to `max`, in `unit`.
pub fn check_distance(distance: f64, max: f64, unit: &str) -> Result<f64, String> {
    if !distance.is_finite() {
        Err(format!("the distance must be a finite number, found {distance}"))
    } else if distance < 0.0 {
        Err(format!("the distance must not be negative, found {distance} {unit}"))
    } else if distance > max {
        Err(format!("the distance must be at most {max} {unit}, found {distance} {unit}"))
    } else {
        // −0 is 0.
        Ok(distance + 0.0)
    }
}

/// Where an attacker at `attacker` stands when moved to `distance` from a defender at
/// `defender`: along the line between them, or along +x when they share a point.
pub fn placed(defender: fray_engine::Pos, attacker: fray_engine::Pos, distance: f64) -> fray_engine::Pos {
    let now = defender.distance(attacker);
    if now == 0.0 {
        fray_engine::Pos::new(defender.x + distance, defender.y)
    } else {
        let k = distance / now;
        fray_engine::Pos::new(defender.x + (attacker.x - defender.x) * k, defender.y + (attacker.y - defender.y) * k)
    }
}

/// A position as a log gives it: "3.0 m" on the line, "(3.0, 4.0)" off it.
pub fn pos_text(p: fray_engine::Pos) -> String {
    if p.y == 0.0 { format!("{:.1} m", p.x) } else { format!("({:.1}, {:.1})", p.x, p.y) }
}

/// A distance for a person: whole numbers without decimals, others to two places.
pub fn distance_text(distance: f64, unit: &str) -> String {
    let unit = if unit == "squares" && (distance - 1.0).abs() < 1e-9 { "square" } else { unit };
    if (distance - distance.round()).abs() < 1e-9 {
        format!("{} {unit}", distance.round())
    } else {
        format!("{distance:.2} {unit}")
    }
}

/// A loaded scenario of any ruleset: what the command line, the simulator and the live fight can
/// do with it. Every ruleset's scenario is one through its [`Front`].
pub trait Scenario: Send + Sync {
    /// The ruleset's id.
    fn ruleset(&self) -> &'static str;
    /// Combatant names, in roster order.
    fn combatants(&self) -> Vec<String>;
    /// Side names.
    fn sides(&self) -> Vec<String>;
    /// The side (an index into [`Scenario::sides`]) of the combatant at `combatant` in roster
    /// order.
    fn side_of(&self, combatant: usize) -> usize;
    /// The unit a fight's length is counted in: its name and, when it has one, its length in
    /// seconds of game time.
    fn time_unit(&self) -> (&'static str, Option<f64>);
    /// The cap on a fight's length, in [`Scenario::time_unit`]s: a fight still undecided after
    /// it ends as a stalemate (`max_rounds`, `max_turns`, `round_cap` or `tick_cap`).
    fn cap(&self) -> u32;
    /// Marks the last `n` combatants of the roster as joining mid-fight: added by a game master
    /// ([`load_joining`]), each is absent from the start (no dice, not a target, not counted for
    /// the end) until its [`board::Adjustment::Join`].
    fn join_late(&mut self, n: usize);
    /// A person-readable summary of the validated scenario (`fray check`).
    fn explain(&self) -> String;
    /// The exact odds of `attacker`'s default attack on `defender` at the start of the fight,
    /// from the positions in the file.
    fn attack_odds(&self, attacker: &str, defender: &str) -> Result<AttackOdds, String> {
        self.attack_odds_at(attacker, defender, None)
    }
    /// The exact odds of `attacker`'s default attack on `defender` at the start of the fight;
    /// with `distance`, as if the attacker stood that far from the defender (in
    /// [`Scenario::distance_unit`]), moved along the line between them (along +x from the
    /// defender when they share a point), everyone else where the file puts them. A distance that
    /// is negative, not a number, beyond [`MAX_ODDS_DISTANCE`] or not a place the ruleset's map
    /// has is an error.
    fn attack_odds_at(&self, attacker: &str, defender: &str, distance: Option<f64>) -> Result<AttackOdds, String>;
    /// The unit distances are given in: `"m"` (metres), or `"squares"` for a ruleset whose map is
    /// a grid of squares.
    fn distance_unit(&self) -> &'static str;
    /// Runs one fight with `dice`; combatants whose names are in `humans` are asked through
    /// `ask` (an index into the prompt's options), the others by their AI policies; every event
    /// goes to `out`. `seed` is the seed behind `dice` when they are seeded (`None` for physical
    /// dice); rulesets with per-combatant dice streams seed them from it.
    fn fight(
        &self,
        dice: &mut dyn Dice,
        seed: Option<u64>,
        humans: &[String],
        ask: &mut dyn FnMut(&Prompt) -> Option<usize>,
        out: &mut dyn FnMut(&Line),
    ) -> Result<FightResult, FightError> {
        let names = self.combatants();
        let people = human_ids(names.iter().map(String::as_str), humans);
        let mut seats = FixedSeats { people, ask };
        self.play(dice, seed, &mut seats, out).result
    }
    /// Plays one fight as far as it goes, as [`Scenario::fight`] does, with `seats` saying at
    /// each decision whether a person answers it (and answering it) or the combatant's AI;
    /// returns how it stopped and the status board there ([`board::Played`]). A live fight
    /// replays its journal through this.
    fn play(
        &self,
        dice: &mut dyn Dice,
        seed: Option<u64>,
        seats: &mut dyn Seats,
        out: &mut dyn FnMut(&Line),
    ) -> board::Played;
    /// The number of combatants (the simulator's ledger rows).
    fn combatant_count(&self) -> usize;
    /// Runs `fights` simulated fights with dice from `dice`, the AI answering every request,
    /// recording them in `ledger` (the simulator's batch: [`fray_sim::Simulate`]).
    fn run_batch(
        &self,
        dice: &mut fray_sim::BatchDice,
        fights: u64,
        ledger: &mut fray_sim::Ledger,
    ) -> Result<(), FightError>;
}

/// Plays one fight of ruleset `R` with people at the table ([`Table`]), each event rendered by
/// `line` for `out`: the body of most rulesets' [`Front::play`].
pub fn play_at_table<R, F>(
    front: &F,
    dice: &mut dyn Dice,
    seats: &mut dyn Seats,
    out: &mut dyn FnMut(&Line),
    line: impl Fn(&R::Event) -> Line,
    board: impl Fn(&R::State) -> Vec<board::CombatantStatus>,
) -> board::Played
where
    R: Ruleset,
    R::State: Send + 'static,
    R::Request: Clone + Send + 'static,
    R::Choice: PartialEq + serde::Serialize + Send + 'static,
    F: Prompts<R> + Front<Rules = R> + Clone + Send + 'static,
{
    let table = Table { front, seats };
    let sink = FnSink(|event: &R::Event| out(&line(event)));
    let mut fight = Fight::<R, _, _, _>::new(front.setup(), dice, table, sink);
    let result = fight.run();
    board::Played { result, status: board(fight.state()) }
}

/// The people at a table, as a fight sees them: who decides for whom, and their answers.
pub trait Seats {
    /// Whether a person decides for `who` now (asked at each decision, so that control can pass
    /// between a person and the AI during a fight).
    fn person(&self, who: CombatantId) -> bool;
    /// Whether the next prompt will be shown to someone, so that its labels need the exact odds
    /// of each choice; `false` when its answer is already known (a live fight replaying its
    /// journal), which spares working the odds out. Default: `true`.
    fn shown(&self) -> bool {
        true
    }
    /// Whether the next prompt will be shown but the exact odds of its choices may come later:
    /// it is then built as if not shown (no odds, nor odds in its labels), and
    /// [`Seats::deferred_odds`] gets the work that gives them. Asked only when
    /// [`Seats::shown`] is `false`. Default: `false`.
    fn defers_odds(&self) -> bool {
        false
    }
    /// Whether the answer to the next prompt is known already (a live fight replaying its
    /// journal, a command of which answers it), so that the prompt needs neither its labels
    /// nor its data, only how many choices it has ([`ask_person`]). Default: `false`.
    fn answered(&self) -> bool {
        false
    }
    /// The work that gives the exact odds of the prompt about to be asked, when
    /// [`Seats::defers_odds`]: labels and odds as [`Seats::shown`] would have made them.
    fn deferred_odds(&mut self, _job: OddsJob) {}
    /// A person's answer: an index into the prompt's options, or `None` when no answer will
    /// come (the fight then stops with [`FightError::Pending`]).
    fn ask(&mut self, prompt: &Prompt) -> Option<usize>;
    /// The game master's next adjustment, made before `who`'s decision is asked (only when a
    /// person decides for `who`: a live fight stops there): `None` when there is none.
    /// Default: none.
    fn adjustment(&mut self, _who: CombatantId) -> Option<board::Adjustment> {
        None
    }
    /// The ruleset refused the adjustment just given, for this reason; the fight then stops.
    fn refuse(&mut self, _why: String) {}
}

/// The events of the adjustments `seats` make before `who` is asked (a person's decision),
/// built by `adjust` from the state: a ruleset's [`Decider::interject`] at a table.
pub fn interjection<E>(
    seats: &mut dyn Seats,
    who: CombatantId,
    adjust: impl FnOnce(&board::Adjustment) -> Result<Vec<E>, String>,
) -> Vec<E> {
    if !seats.person(who) {
        return Vec::new();
    }
    let Some(adjustment) = seats.adjustment(who) else { return Vec::new() };
    adjust(&adjustment).unwrap_or_else(|why| {
        seats.refuse(why);
        Vec::new()
    })
}

/// The same people for the whole fight, answering through a closure.
struct FixedSeats<'a> {
    people: Vec<CombatantId>,
    ask: &'a mut dyn FnMut(&Prompt) -> Option<usize>,
}

impl Seats for FixedSeats<'_> {
    fn person(&self, who: CombatantId) -> bool {
        self.people.contains(&who)
    }

    fn ask(&mut self, prompt: &Prompt) -> Option<usize> {
        (self.ask)(prompt)
    }
}

thread_local! {
    /// Whether prompts built now show the exact odds of their choices ([`Seats::shown`]).
    static ODDS_SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether the prompt being built will be shown, so that its labels give the exact odds of each
/// attack: a ruleset's menus ask this before working the odds out.
pub fn odds_shown() -> bool {
    ODDS_SHOWN.with(std::cell::Cell::get)
}

/// Runs `build` (a prompt's construction) with [`odds_shown`] answering `shown`.
pub fn building_prompt<T>(shown: bool, build: impl FnOnce() -> T) -> T {
    let before = ODDS_SHOWN.with(|c| c.replace(shown));
    let built = build();
    ODDS_SHOWN.with(|c| c.set(before));
    built
}

/// What `fray rules` lists about a ruleset.
#[derive(Clone, Copy, Debug)]
pub struct RulesetInfo {
    /// Its id.
    pub id: &'static str,
    /// One line about it.
    pub summary: &'static str,
    /// Its options.
    pub options: &'static [OptionInfo],
    /// Its named AI policies: field and accepted names (default first).
    pub policies: &'static [(&'static str, &'static [&'static str])],
    /// Its turn structure, what its policies do and its scenario fields, for the user guide.
    pub guide: &'static reference::Guide,
    /// The tracks a game master may set by hand in a live fight ([`board::Adjustment::Set`]).
    pub adjustable: &'static [board::Adjustable],
    /// The JSON Schema of its fight's log lines after the header ([`events::schema`]).
    pub events_schema: fn() -> serde_json::Value,
}

/// The ruleset registered under `id`.
pub fn ruleset_info(id: &str) -> Option<&'static RulesetInfo> {
    RULESETS.iter().find(|r| r.id == id)
}

/// Every ruleset fray has. Adding one is one line here and its module.
pub const RULESETS: &[RulesetInfo] = &[
    RulesetInfo {
        id: "fluid",
        summary: "Fluid Game System: 3d6 checks, tactics split, W/S damage",
        options: fluid::options::OPTIONS,
        policies: fluid::policy::POLICIES,
        guide: &fluid::guide::GUIDE,
        adjustable: fluid::status::ADJUSTABLE,
        events_schema: fluid::events_schema,
    },
    RulesetInfo {
        id: "opend6",
        summary: "OpenD6 / D6 Space: die codes with the Wild Die, actions with −1D each, wound levels",
        options: opend6::options::OPTIONS,
        policies: opend6::setup::POLICIES,
        guide: &opend6::guide::GUIDE,
        adjustable: opend6::status::ADJUSTABLE,
        events_schema: opend6::events_schema,
    },
    RulesetInfo {
        id: "hardboiled",
        summary: "USR Hard Boiled pulp combat: attribute-die contests, range bands, hit locations, one HP track",
        options: hardboiled::options::OPTIONS,
        policies: hardboiled::setup::POLICIES,
        guide: &hardboiled::guide::GUIDE,
        adjustable: hardboiled::status::ADJUSTABLE,
        events_schema: hardboiled::events_schema,
    },
    RulesetInfo {
        id: "phasesix",
        summary: "Phase Six: exploding d6 pools, action pools and reactions, crits and megacrits, cover rolls",
        options: phasesix::options::OPTIONS,
        policies: phasesix::setup::POLICIES,
        guide: &phasesix::guide::GUIDE,
        adjustable: phasesix::status::ADJUSTABLE,
        events_schema: phasesix::events_schema,
    },
    RulesetInfo {
        id: "ticks",
        summary: "Ticks: half-second ticks, opposed delta rolls, Effort, Body and Trauma, Stability recovering by ⌊√p⌋",
        options: ticks::options::OPTIONS,
        policies: ticks::setup::POLICIES,
        guide: &ticks::guide::GUIDE,
        adjustable: ticks::status::ADJUSTABLE,
        events_schema: ticks::events_schema,
    },
];

/// Reads a scenario file of any ruleset; `sets` are `--set name=value` overrides.
pub fn load(file: &str, text: &str, sets: &[(String, String)]) -> Result<Box<dyn Scenario>, ScenarioError> {
    load_with_visibility(file, text, sets).map(|(scenario, _)| scenario)
}

/// Reads a scenario file of any ruleset as [`load`] does, with what its `[visibility]` section
/// keeps from the players at the start of a live fight.
pub fn load_with_visibility(
    file: &str,
    text: &str,
    sets: &[(String, String)],
) -> Result<(Box<dyn Scenario>, scenario::Visibility), ScenarioError> {
    // `--set COMBATANT.FIELD=VALUE` edits the file's text; the other `--set`s are options, whose
    // errors keep their place among all the `--set`s.
    let split = edit::split(text, sets)?;
    let edited_name;
    let (file, text) = match &split.edited {
        Some(edited) => {
            edited_name = format!("{file} (as edited by {})", split.edits.join(", "));
            (edited_name.as_str(), edited.as_str())
        }
        None => (file, text),
    };
    let sets = &split.options[..];
    load_ruleset(file, text, sets).map_err(|mut e| {
        if e.file == "--set" && e.line >= 1 && e.line <= split.places.len() {
            e.line = split.places[e.line - 1] + 1;
        }
        e
    })
}

/// How an error in the `k`th stat block of [`load_joining`] names its place.
fn block_name(k: usize) -> String {
    format!("the added combatant's stat block #{}", k + 1)
}

/// Loads a scenario with combatants a game master adds mid-fight: each of `joining` is a stat
/// block, the keys of one `[[combatants]]` entry of the scenario's ruleset as `key = value` lines
/// (nested values as inline tables), appended to the roster and absent until it joins
/// ([`Scenario::join_late`]). A stat block's error is located in the block itself: its `file`
/// names the block by its place among `joining` (from 0, the `usize` returned with it).
pub fn load_joining(
    file: &str,
    text: &str,
    sets: &[(String, String)],
    joining: &[&str],
) -> Result<Box<dyn Scenario>, (Option<usize>, ScenarioError)> {
    let mut full = text.to_owned();
    if !full.ends_with('\n') {
        full.push('\n');
    }
    // Where each block starts in `full`: the line (1-based) of its `[[combatants]]` header.
    let mut starts = Vec::with_capacity(joining.len());
    for (k, block) in joining.iter().enumerate() {
        let label = block_name(k);
        let named = |e: ScenarioError| (Some(k), e);
        if let Some((i, line)) = block.lines().enumerate().find(|(_, l)| l.trim_start().starts_with('[')) {
            let at = block.lines().take(i).map(|l| l.len() + 1).sum::<usize>();
            return Err(named(ScenarioError::at(
                &label,
                block,
                at..at + line.len(),
                "a stat block is `key = value` lines, with no table headers: write nested values as inline tables (`policy = { attack = \"brawl\" }`)",
            )));
        }
        toml::from_str::<toml::Table>(block).map_err(|e| named(ScenarioError::from_toml(&label, block, &e)))?;
        full.push('\n');
        // The block's header: an error of the entry as a whole points there.
        starts.push(full.matches('\n').count() + 1);
        full.push_str("[[combatants]]\n");
        full.push_str(block);
        if !full.ends_with('\n') {
            full.push('\n');
        }
    }
    let mut scenario = load(file, &full, sets).map_err(|e| {
        // An error inside a block is told in the block's own lines.
        match starts.iter().rposition(|&start| e.line >= start) {
            Some(k) => (Some(k), ScenarioError { file: block_name(k), line: (e.line - starts[k]).max(1), ..e }),
            None => (None, e),
        }
    })?;
    scenario.join_late(joining.len());
    Ok(scenario)
}

/// Loads a scenario of the ruleset the file names, and the sections every ruleset shares.
fn load_ruleset(
    file: &str,
    text: &str,
    sets: &[(String, String)],
) -> Result<(Box<dyn Scenario>, scenario::Visibility), ScenarioError> {
    #[derive(serde::Deserialize)]
    struct Head {
        rules: HeadRules,
        combatants: Option<toml::Spanned<Vec<serde::de::IgnoredAny>>>,
        visibility: Option<scenario::VisibilityToml>,
    }
    #[derive(serde::Deserialize)]
    struct HeadRules {
        ruleset: toml::Spanned<String>,
    }
    let head: Head = toml::from_str(text).map_err(|e| ScenarioError::from_toml(file, text, &e))?;
    if let Some(roster) = &head.combatants {
        scenario::check_roster_size(file, text, roster.get_ref().len(), roster.span())?;
    }
    let ruleset = head.rules.ruleset;
    let scenario: Box<dyn Scenario> = match ruleset.get_ref().as_str() {
        "fluid" => Box::new(fluid::FluidScenario(fluid::scenario::load(file, text, sets)?)),
        "opend6" => Box::new(opend6::OpenD6Scenario(opend6::scenario::load(file, text, sets)?)),
        "hardboiled" => Box::new(hardboiled::HardBoiledScenario(hardboiled::scenario::load(file, text, sets)?)),
        "phasesix" => Box::new(phasesix::PhaseSixScenario(phasesix::scenario::load(file, text, sets)?)),
        "ticks" => Box::new(ticks::TicksScenario(ticks::scenario::load(file, text, sets)?)),
        other => {
            let hint = did_you_mean(other, RULESETS.iter().map(|r| r.id))
                .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
            let known: Vec<&str> = RULESETS.iter().map(|r| r.id).collect();
            return Err(ScenarioError::at(
                file,
                text,
                ruleset.span(),
                format!("unknown ruleset `{other}`, expected one of {}{hint}", known.join(", ")),
            ));
        }
    };
    let visibility = match &head.visibility {
        Some(section) => section.check(file, text, &*scenario)?,
        None => scenario::Visibility::default(),
    };
    Ok((scenario, visibility))
}

/// An initiative order as the log gives it: "order: Joe = Lou, Sal", combatants who act in the
/// same step joined by `=`. `order` holds (combatant, step) in acting order.
pub fn order_text<'a>(order: &[(CombatantId, u8)], name: impl Fn(CombatantId) -> &'a str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut last = u8::MAX;
    for &(who, step) in order {
        if step == last {
            if let Some(p) = parts.last_mut() {
                *p += &format!(" = {}", name(who));
            }
        } else {
            parts.push(name(who).to_owned());
        }
        last = step;
    }
    format!("order: {}", parts.join(", "))
}

/// The itemised terms of a total as a log shows them: " (skill 4, OQ 1, 2 attacks −2)", the
/// non-zero terms only, named; empty when every term is zero.
pub fn terms_text<'a>(terms: impl IntoIterator<Item = (&'a str, i32)>) -> String {
    let list = terms_list(terms);
    if list.is_empty() { String::new() } else { format!(" ({list})") }
}

/// The itemised terms of a total as a list: "skill 4, OQ 1, 2 attacks −2", the non-zero terms
/// only; empty when every term is zero.
pub fn terms_list<'a>(terms: impl IntoIterator<Item = (&'a str, i32)>) -> String {
    let parts: Vec<String> = terms
        .into_iter()
        .filter(|(_, v)| *v != 0)
        .map(|(name, v)| if v < 0 { format!("{name} \u{2212}{}", -v) } else { format!("{name} {v}") })
        .collect();
    parts.join(", ")
}

/// The itemised terms of a total inline, as a log adds them to a die: " +2 specialism −2 moving",
/// the non-zero terms only; empty when every term is zero.
pub fn terms_inline<'a>(terms: impl IntoIterator<Item = (&'a str, i32)>) -> String {
    terms
        .into_iter()
        .filter(|(_, v)| *v != 0)
        .map(|(name, v)| if v < 0 { format!(" \u{2212}{} {name}", -v) } else { format!(" +{v} {name}") })
        .collect()
}

/// Terms followed by what they do not account for of `total` (`beyond`: zero unless a term was
/// too large for the byte an event keeps it in), so that the shown terms always add up to it.
pub fn with_beyond<'a>(
    terms: impl IntoIterator<Item = (&'a str, i32)> + Clone,
    total: i32,
) -> impl Iterator<Item = (&'a str, i32)> {
    let sum: i32 = terms.clone().into_iter().map(|t| t.1).sum();
    terms.into_iter().chain(std::iter::once(("beyond", total - sum)))
}

/// The itemised terms of a total as JSON: `[["skill", 4], ["OQ", 1], …]`, the non-zero terms only.
pub fn terms_json<'a>(terms: impl IntoIterator<Item = (&'a str, i32)>) -> serde_json::Value {
    serde_json::Value::Array(
        terms.into_iter().filter(|(_, v)| *v != 0).map(|(name, v)| serde_json::json!([name, v])).collect(),
    )
}

/// A signed number as the logs print it: "+5", "−5", "+0", with the minus sign the itemised
/// terms use where `{:+}` would print a hyphen.
///
/// ```
/// use fray_rules::Signed;
/// assert_eq!(format!("{} {} {}", Signed(5), Signed(-3), Signed(0)), "+5 \u{2212}3 +0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signed(pub i32);

impl std::fmt::Display for Signed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 < 0 { write!(f, "\u{2212}{}", self.0.unsigned_abs()) } else { write!(f, "+{}", self.0) }
    }
}

/// A combatant's AI policies for `fray check`: "field=value field=value …", every field of
/// `policies` in order, `name(i)` naming field `i`'s value.
pub fn policy_text(policies: &[(&str, &[&str])], name: impl Fn(usize) -> &'static str) -> String {
    let fields: Vec<String> =
        policies.iter().enumerate().map(|(i, (field, _))| format!("{field}={}", name(i))).collect();
    fields.join(" ")
}

/// How a fight ended, as the logs say it: "SIDE win", "mutual destruction" or "stalemate at the
/// cap".
pub fn outcome_text(sides: &[String], result: &FightResult) -> String {
    match result.outcome {
        // "heroes win", "Joe wins": a side's name read as a plural when it ends in s.
        Outcome::Side(side) => {
            let name = &sides[side.index()];
            format!("{name} {}", if name.ends_with('s') { "win" } else { "wins" })
        }
        Outcome::Mutual => "mutual destruction".to_owned(),
        Outcome::Stalemate => "stalemate at the cap".to_owned(),
    }
}

/// The `end` event's JSON, the same in every ruleset: the outcome in words, the winning side
/// (`null` for mutual destruction or a stalemate), the length as `length` with its `unit`
/// ("rounds", "turns", "ticks"), and the length again under the unit's own name.
pub fn end_json(sides: &[String], result: &FightResult, unit: &str) -> serde_json::Value {
    let winner = match result.outcome {
        Outcome::Side(side) => serde_json::json!(sides[side.index()]),
        Outcome::Mutual | Outcome::Stalemate => serde_json::Value::Null,
    };
    let mut json = serde_json::json!({
        "event": "end",
        "outcome": outcome_text(sides, result),
        "winner": winner,
        "length": result.length,
        "unit": unit,
    });
    json[unit] = result.length.into();
    json
}

/// The outcome when at most one side has anyone standing — that side, or mutual destruction when
/// nobody stands — or `None` while two or more sides fight on. `standing` gives the side of each
/// combatant still in the fight.
pub fn standing_outcome(standing: impl IntoIterator<Item = fray_engine::SideId>) -> Option<Outcome> {
    let mut first = None;
    for side in standing {
        match first {
            None => first = Some(side),
            Some(s) if s != side => return None,
            Some(_) => {}
        }
    }
    Some(first.map_or(Outcome::Mutual, Outcome::Side))
}

/// A ruleset's [`Ruleset::end_after_adjustment`]: the end when at most one side has anyone
/// standing (`standing`, each standing combatant's side), after `length` of the ruleset's unit,
/// with the ruleset's end event (`ended`).
pub fn end_after_adjustment<E>(
    standing: impl IntoIterator<Item = fray_engine::SideId>,
    length: u32,
    ended: impl FnOnce(FightResult) -> E,
) -> Option<(FightResult, E)> {
    let result = FightResult { outcome: standing_outcome(standing)?, length };
    Some((result, ended(result)))
}

/// The ids of the combatants named in `humans` (names not in the roster are ignored).
pub fn human_ids<'a>(roster: impl Iterator<Item = &'a str> + Clone, humans: &[String]) -> Vec<CombatantId> {
    humans.iter().filter_map(|h| roster.clone().position(|name| name == h)).map(|i| CombatantId(i as u16)).collect()
}

/// The index of `value` among the values of policy `field` in a ruleset's policy table (name,
/// values), found at compile time: policies are stored as indices, and an AI compares them with
/// these constants rather than by name (a misspelt value fails the build).
pub const fn policy_index(table: &[(&str, &[&str])], field: usize, value: &str) -> u8 {
    let names = table[field].1;
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), value.as_bytes());
        if a.len() == b.len() {
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len() {
                return i as u8;
            }
        }
        i += 1;
    }
    panic!("no such policy value")
}

/// Constants for policy values, each the index of a value among a field's names in a ruleset's
/// policy table, found at compile time ([`policy_index`]):
/// `policy_values!(POLICIES; TARGET_FIRST = 0 "first", MOVE_HOLD = 5 "hold")`, or with a
/// visibility for the constants: `policy_values!(pub(super) POLICIES; …)`.
#[macro_export]
macro_rules! policy_values {
    ($vis:vis $table:ident; $($name:ident = $field:literal $value:literal),* $(,)?) => {
        $($vis const $name: u8 = $crate::policy_index($table, $field, $value);)*
    };
}

/// Asks a person at `seats` to pick one of labelled `choices` (`Pending` when there are none);
/// `default` is the index an empty answer takes ([`Prompt::default`]). When the answer is known
/// already ([`Seats::answered`]), the prompt carries neither labels nor data, only their number.
pub fn ask_person<C: serde::Serialize>(
    seats: &mut dyn Seats,
    who: &str,
    question: String,
    choices: Vec<(String, C)>,
    default: usize,
    odds: Vec<Option<ChoiceOdds>>,
) -> Result<C, fray_engine::Pending> {
    let (labels, data) = if seats.answered() {
        (vec![String::new(); choices.len()], Vec::new())
    } else {
        (
            choices.iter().map(|(label, _)| label.clone()).collect(),
            choices.iter().map(|(_, c)| serde_json::to_value(c).unwrap_or_default()).collect(),
        )
    };
    let default = default.min(choices.len().saturating_sub(1));
    let prompt = Prompt { who: who.to_owned(), question, options: labels, default, data, odds };
    let pick = seats.ask(&prompt).ok_or(fray_engine::Pending)?.min(choices.len().saturating_sub(1));
    choices.into_iter().nth(pick).map(|(_, c)| c).ok_or(fray_engine::Pending)
}

/// The exact odds beside each of `choices` when the prompt is shown, from a ruleset's
/// [`Prompts::odds`].
pub fn odds_beside<C>(
    shown: bool,
    choices: &[(String, C)],
    odds: impl Fn(&C) -> Option<ChoiceOdds>,
) -> Vec<Option<ChoiceOdds>> {
    choices.iter().map(|(_, c)| if shown { odds(c) } else { None }).collect()
}

/// Orders a menu's choices for a person: choices against a dead combatant (`gone`) are left out,
/// choices against an ally (`ally`) are marked "(ally)" after the ally's `name` and listed after
/// all the others, which keep their order. `target` is the combatant a choice acts against (an
/// attack, an aim), if any. A menu whose every choice would be left out is kept whole.
pub fn arrange_targets<'n, C>(
    choices: Vec<(String, C)>,
    target: impl Fn(&C) -> Option<CombatantId>,
    ally: impl Fn(CombatantId) -> bool,
    gone: impl Fn(CombatantId) -> bool,
    name: impl Fn(CombatantId) -> &'n str,
) -> Vec<(String, C)> {
    if choices.iter().all(|(_, c)| target(c).is_some_and(&gone)) {
        return choices;
    }
    let mut first = Vec::with_capacity(choices.len());
    let mut allied = Vec::new();
    for (label, choice) in choices {
        match target(&choice) {
            Some(t) if gone(t) => {}
            Some(t) if ally(t) => {
                let name = name(t);
                let label = match label.find(name) {
                    Some(at) => format!("{} (ally){}", &label[..at + name.len()], &label[at + name.len()..]),
                    None => format!("{label} (ally)"),
                };
                allied.push((label, choice));
            }
            _ => first.push((label, choice)),
        }
    }
    first.extend(allied);
    first
}

/// The start of the label of a choice a menu did not list but the AI makes: [`Table`] adds it,
/// so that Enter always takes the AI's choice; a ruleset's menus should never need it (tests
/// look for this label).
pub const NOT_OFFERED: &str = "(the AI's choice, missing from this menu) ";

/// The index of the AI's answer `ai` among `choices`; when it is not one of them, it is added
/// at the end, labelled [`NOT_OFFERED`] and its debug form, and that index is returned.
pub fn ai_default<C: PartialEq + std::fmt::Debug>(choices: &mut Vec<(String, C)>, ai: C) -> usize {
    match choices.iter().position(|(_, c)| *c == ai) {
        Some(at) => at,
        None => {
            choices.push((format!("{NOT_OFFERED}{ai:?}"), ai));
            choices.len() - 1
        }
    }
}

/// A ruleset's side facing a person at the table: how a request is put as a question with
/// labelled legal choices, and what its AI would answer.
pub trait Prompts<R: Ruleset> {
    /// `request` as a question and its labelled legal choices, among them `ai`, the choice the
    /// AI makes here (worked out once, by the caller).
    fn prompt(
        &self,
        state: &R::State,
        who: CombatantId,
        request: &R::Request,
        ai: &R::Choice,
    ) -> (String, Vec<(String, R::Choice)>);
    /// The combatant a choice acts against (an attack, an aim, a grapple), if any: a menu lists
    /// such choices against allies last, marked, and leaves out those against the dead
    /// ([`arrange_targets`]).
    fn hostile_target(&self, _choice: &R::Choice) -> Option<CombatantId> {
        None
    }
    /// The exact odds of `choice` when it is an attack: of hitting and of taking its target out
    /// (the same numbers its label gives). Default: none.
    fn odds(&self, _state: &R::State, _who: CombatantId, _choice: &R::Choice) -> Option<ChoiceOdds> {
        None
    }
    /// Whether `who` is dead, or by the rules no longer a target: a menu leaves out the choices
    /// against it.
    fn gone(&self, _state: &R::State, _who: CombatantId) -> bool {
        false
    }
    /// Whether the game master took `who` out of the fight ([`board::Adjustment::Out`]).
    fn taken_out(&self, _state: &R::State, _who: CombatantId) -> bool {
        false
    }
    /// The events of a game master's adjustment at `state` ([`board::Adjustment`]), or why it is
    /// refused. Default: every adjustment is refused.
    fn adjust(&self, _state: &R::State, _adjustment: &board::Adjustment) -> Result<Vec<R::Event>, String> {
        Err("this ruleset has no adjustments".to_owned())
    }
}

/// The menu [`Table`] shows `who` for `request`: the question, the labelled choices (attacks on
/// allies last, none on the dead, the AI's choice `ai` among them), the index of the AI's choice,
/// and the exact odds beside each choice when `shown`.
#[allow(clippy::type_complexity)] // reason: the pieces of one prompt, taken apart at once
fn menu<R, F>(
    front: &F,
    state: &R::State,
    who: CombatantId,
    request: &R::Request,
    ai: R::Choice,
    shown: bool,
) -> (String, Vec<(String, R::Choice)>, usize, Vec<Option<ChoiceOdds>>)
where
    R: Ruleset,
    R::Choice: PartialEq,
    F: Prompts<R> + Front<Rules = R>,
{
    let (question, choices) = building_prompt(shown, || front.prompt(state, who, request, &ai));
    let side = front.side_of(who.index());
    let mut choices = arrange_targets(
        choices,
        |c| front.hostile_target(c),
        |t| front.side_of(t.index()) == side,
        |t| front.gone(state, t),
        |t| front.name(t),
    );
    // An empty answer takes what the AI would choose for this combatant.
    let default = ai_default(&mut choices, ai);
    let odds = odds_beside(shown, &choices, |c| front.odds(state, who, c));
    (question, choices, default, odds)
}

/// Answers with a person's choices for the combatants in `humans`, the AI for the others. People
/// are never passed over for optional requests.
pub struct Table<'a, F> {
    /// The ruleset's person-facing side.
    pub front: &'a F,
    /// The people at the table: who decides for whom, and their answers.
    pub seats: &'a mut dyn Seats,
}

impl<R: Ruleset, F: Prompts<R> + Front<Rules = R> + Clone + Send + 'static> Decider<R> for Table<'_, F>
where
    R::State: Send + 'static,
    R::Request: Clone + Send + 'static,
    R::Choice: PartialEq + serde::Serialize + Send + 'static,
{
    const INTERJECTS: bool = true;

    fn decide(
        &mut self,
        setup: &R::Setup,
        state: &R::State,
        who: CombatantId,
        request: &R::Request,
    ) -> Result<R::Choice, fray_engine::Pending> {
        // A combatant the game master took out is no one's to play: its AI answers.
        if !self.seats.person(who) || self.front.taken_out(state, who) {
            return F::Ai::default().decide(setup, state, who, request);
        }
        let shown = self.seats.shown();
        let ai = F::Ai::default().decide(setup, state, who, request)?;
        if !shown && self.seats.defers_odds() {
            let (front, state, request, ai) = (self.front.clone(), state.clone(), request.clone(), ai.clone());
            self.seats.deferred_odds(Box::new(move || {
                let (_, choices, _, odds) = menu(&front, &state, who, &request, ai, true);
                PromptOdds { options: choices.into_iter().map(|(label, _)| label).collect(), odds }
            }));
        }
        let (question, choices, default, odds) = menu(self.front, state, who, request, ai, shown);
        ask_person(self.seats, self.front.name(who), question, choices, default, odds)
    }

    fn passes_optional(&self, setup: &R::Setup, who: CombatantId, request: &R::Request) -> bool {
        !self.seats.person(who) && F::Ai::default().passes_optional(setup, who, request)
    }

    fn interject(&mut self, _setup: &R::Setup, state: &R::State, who: CombatantId) -> Vec<R::Event> {
        interjection(self.seats, who, |a| self.front.adjust(state, a))
    }
}
