//! The `fray` command: thin glue over the fray libraries. It parses flags, runs one
//! subcommand, and maps every error to a message on stderr and exit code 2 (a closed pipe to 0).

mod cmd;

use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// fray — a combat engine for tabletop role-playing games: exact odds, reproducible fights, simulations.
#[derive(Parser, Debug)]
#[command(name = "fray", version, about, long_about = None, after_help = cmd::help::MAIN, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Roll a dice expression and show every die.
    #[command(after_help = cmd::help::ROLL)]
    Roll(cmd::roll::Args),
    /// The exact distribution of a dice expression, as fractions.
    #[command(after_help = cmd::help::ODDS)]
    Odds(cmd::odds::Args),
    /// Validate a scenario file and explain what it sets up.
    #[command(after_help = cmd::help::CHECK)]
    Check(cmd::check::CheckArgs),
    /// Run one fight, blow by blow (or as JSON events).
    #[command(after_help = cmd::help::FIGHT)]
    Fight(cmd::fight::FightArgs),
    /// Run many fights in parallel and report win rates, lengths and ledgers.
    #[command(after_help = cmd::help::SIM)]
    Sim(cmd::sim::SimArgs),
    /// Merge the parts of a run split with `fray sim --shard K/N --json` into the whole run's report.
    Merge(cmd::shard::MergeArgs),
    /// List the rulesets, or one ruleset's options and AI policies.
    #[command(after_help = cmd::help::RULES)]
    Rules(cmd::rules::RulesArgs),
    /// Write the user guide's per-ruleset pages (docs/rulesets/*.md).
    #[command(after_help = cmd::help::DOCS)]
    Docs(cmd::docs::DocsArgs),
    /// Print a shell completion script.
    #[command(after_help = cmd::help::COMPLETIONS)]
    Completions(cmd::docs::CompletionsArgs),
    /// Print the man page (roff).
    #[command(after_help = cmd::help::MAN)]
    Man,
    /// Run live fights at the table: a web page for the GM, one per side for the players.
    Serve(cmd::serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Command::Roll(args) => cmd::roll::run(&args, &mut out),
        Command::Odds(args) => cmd::odds::run(&args, &mut out),
        Command::Check(args) => cmd::check::run(&args, &mut out),
        Command::Fight(args) => cmd::fight::fight(&args, &mut out),
        Command::Sim(args) => cmd::sim::sim(&args, &mut out),
        Command::Merge(args) => cmd::shard::merge(&args, &mut out),
        Command::Rules(args) => cmd::rules::run(&args, &mut out),
        Command::Docs(args) => cmd::docs::run(&args, &mut out),
        Command::Completions(args) => cmd::docs::completions(&args, Cli::command(), &mut out),
        Command::Man => cmd::docs::man(Cli::command(), &mut out),
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
            // Every error starts with `error:`, as clap's own do.
            let text = format!("{err:#}");
            let text = if text.starts_with("error:") { text } else { format!("error: {text}") };
            let _ = writeln!(std::io::stderr(), "{text}");
            ExitCode::from(2)
        }
    }
}
