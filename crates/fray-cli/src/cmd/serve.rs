//! `fray serve`: the live fight at the table, in a browser, with an embedded database.

use std::io::Write;
use std::path::PathBuf;

/// Flags of `fray serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The SQLite file that keeps every fight (created if missing).
    #[arg(long, default_value = "fray.db")]
    pub db: PathBuf,
    /// The address to listen on; anything beyond 127.0.0.1 lets other machines in.
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub bind: String,
    /// The GM's token (default: a random one, printed at start).
    #[arg(long)]
    pub gm_token: Option<String>,
}

/// Serves until the process is stopped; prints the GM's address first.
pub fn run(args: &Args, out: &mut impl Write) -> anyhow::Result<()> {
    let options =
        fray_server::Options { db: args.db.clone(), bind: args.bind.clone(), gm_token: args.gm_token.clone() };
    let mut printed = Ok(());
    let served = fray_server::run(&options, |address, state| {
        printed = (|| {
            writeln!(out, "fray serve: {} fights in {}", state.fights().len(), args.db.display())?;
            for (id, why) in state.broken() {
                writeln!(out, "fight {id} no longer replays and is left out: {why}")?;
            }
            writeln!(out, "GM page: http://{address}/?token={}", state.gm_token())?;
            if !address.ip().is_loopback() {
                writeln!(out, "note: listening on {address}: other machines can reach this server")?;
            }
            out.flush()
        })();
    });
    printed?;
    served.map_err(|e| anyhow::anyhow!("fray serve: {e}"))
}
