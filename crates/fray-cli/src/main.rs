//! The `fray` command: thin glue over the fray libraries. It parses flags, runs one
//! subcommand, and maps every error to a message on stderr and exit code 2 (a closed pipe to 0).

mod cmd;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// fray — a combat engine for tabletop role-playing games: exact odds, reproducible fights, simulations.
#[derive(Parser, Debug)]
#[command(name = "fray", version, about, long_about = None, after_help = cmd::DICE_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Roll a dice expression and show every die.
    #[command(after_help = cmd::DICE_HELP)]
    Roll(cmd::roll::Args),
    /// The exact distribution of a dice expression, as fractions.
    #[command(after_help = cmd::DICE_HELP)]
    Odds(cmd::odds::Args),
    /// Validate a scenario file and explain what it sets up.
    Check(cmd::fight::ScenarioArgs),
    /// Run one fight, blow by blow (or as JSON events).
    Fight(cmd::fight::FightArgs),
    /// Run many fights in parallel and report win rates, lengths and ledgers.
    Sim(cmd::fight::SimArgs),
    /// List the rulesets, or one ruleset's options and AI policies.
    Rules(cmd::fight::RulesArgs),
    /// Run live fights at the table: a web page for the GM, one per side for the players.
    Serve(cmd::serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Command::Roll(args) => cmd::roll::run(&args, &mut out),
        Command::Odds(args) => cmd::odds::run(&args, &mut out),
        Command::Check(args) => cmd::fight::check(&args, &mut out),
        Command::Fight(args) => cmd::fight::fight(&args, &mut out),
        Command::Sim(args) => cmd::fight::sim(&args, &mut out),
        Command::Rules(args) => cmd::fight::rules(&args, &mut out),
        Command::Serve(args) => cmd::serve::run(&args, &mut out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if let Some(io) = err.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::BrokenPipe
            {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(std::io::stderr(), "{err:#}");
            ExitCode::from(2)
        }
    }
}
