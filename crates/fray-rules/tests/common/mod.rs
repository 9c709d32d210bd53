//! What several test files share.

/// The examples directory.
pub const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

/// Every shipped example scenario, sorted.
#[allow(dead_code, reason = "not every test file reads the examples")]
pub fn example_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(EXAMPLES)
        .unwrap()
        .flat_map(|ruleset| std::fs::read_dir(ruleset.unwrap().path()).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "every example: {files:?}");
    files
}

/// A scripted fight ended, or stopped for want of dice at a round's start (its initiative, or a
/// round-start BOD or act test): every round the test scripted ran to its end, and no error (an
/// illegal choice, a die missing mid-round) passes unseen.
#[allow(dead_code, reason = "not every test file scripts fights")]
#[track_caller]
pub fn played_out<T: std::fmt::Debug>(result: &Result<T, fray_engine::FightError>) {
    match result {
        Ok(_) => {}
        Err(fray_engine::FightError::Dice { what, .. })
            if ["initiative", "BOD test", "NER act test"].contains(what) => {}
        Err(e) => panic!("the fight stopped mid-round: {e}"),
    }
}

/// A `fluid` decider that records every request put to it and answers as the AI, but for a
/// `Defend` request while `defences` holds an answer: it takes the first.
#[allow(dead_code, reason = "only some fluid test files record requests")]
#[derive(Default)]
pub struct FluidAsked {
    /// Every request, in order.
    pub requests: Vec<fray_rules::fluid::Request>,
    /// Scripted answers to `Defend` requests, first first.
    pub defences: Vec<fray_rules::fluid::Choice>,
}

impl fray_engine::Decider<fray_rules::fluid::Fluid> for FluidAsked {
    fn decide(
        &mut self,
        setup: &fray_rules::fluid::Setup,
        state: &fray_rules::fluid::State,
        who: fray_engine::CombatantId,
        request: &fray_rules::fluid::Request,
    ) -> Result<fray_rules::fluid::Choice, fray_engine::Pending> {
        self.requests.push(request.clone());
        if matches!(request, fray_rules::fluid::Request::Defend { .. }) && !self.defences.is_empty() {
            return Ok(self.defences.remove(0));
        }
        Ok(fray_rules::fluid::policy::ai_choice(setup, state, who, request))
    }
}
