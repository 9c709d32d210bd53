//! `fray serve`: the live fight at the table. A web server over [`fray_live::Session`] with an
//! embedded SQLite journal ([`Store`]), server-rendered pages for the GM and for each side's
//! players, live updates by server-sent events, and a JSON API for scripts.
//!
//! - [`app`] builds the whole router from a [`State`], so tests call it directly.
//! - **Durable before acknowledged:** a command is committed to the database before the response
//!   and before any page is told (the per-fight broadcast carries only the new version; pages
//!   then fetch what they may see).
//! - **Answered before the odds:** the exact odds of the decision a command leads to are worked
//!   out after it is answered and told, off the fight's lock, by one worker; the pages are told
//!   again when they are in ([`Told::Odds`]), and the JSON API's reads wait for them.
//! - **Who sees what:** the GM's routes need the GM token (`Authorization: Bearer …` or the
//!   cookie set by opening the printed address); a side's player token reaches only that side's
//!   [`fray_live::View`].
//! - No rule code here: every rule question goes to `fray-live`.

mod api;
mod examples;
mod odds;
mod pages;
mod store;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use fray_live::Session;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::broadcast;

pub use examples::EXAMPLES;
pub use odds::{OddsCounts, Told};
pub use store::{Store, StoreError, StoredFight};

/// The largest request body accepted (a scenario file with room to spare).
pub const MAX_BODY: usize = 256 * 1024;

/// One live fight on the server.
pub struct Fight {
    /// Its id (random, in URLs).
    pub id: String,
    /// Its title: the scenario's file name.
    pub title: String,
    /// Each side's player token.
    pub players: BTreeMap<String, String>,
    session: Mutex<Session>,
    updated: AtomicI64,
    players_answer: AtomicBool,
    versions: broadcast::Sender<Told>,
    /// The work on the odds of the pending decision, while they are not in.
    odds: Mutex<Option<Arc<odds::OddsTask>>>,
    /// The boards last rendered, per viewer, for the pages that ask for the same one.
    boards: Mutex<Vec<Board>>,
    /// The version of the session and whether its decision's odds are in, set with each change
    /// of its snapshot: a page finds its board already rendered without waiting for the lock.
    shown: Mutex<(usize, bool)>,
}

/// A rendered board.
#[derive(Debug)]
struct Board {
    /// Whose: the GM's (`None`) or a side's.
    side: Option<String>,
    key: BoardKey,
    html: Arc<str>,
}

/// What a rendered board shows of a fight: when it changes, the board is rendered again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BoardKey {
    version: usize,
    /// Whether the pending decision's odds are in.
    odds: bool,
    players_answer: bool,
}

impl Fight {
    fn new(
        id: String,
        title: String,
        players: BTreeMap<String, String>,
        session: Session,
        updated: i64,
        players_answer: bool,
    ) -> Fight {
        let (versions, _) = broadcast::channel(64);
        // A command is answered and told at once; the odds of the decision it leads to follow
        // (`odds`).
        let mut session = session;
        session.defer_odds(true);
        let shown = (session.version(), session.snapshot().odds_worked_out);
        Fight {
            id,
            title,
            players,
            session: Mutex::new(session),
            updated: AtomicI64::new(updated),
            players_answer: AtomicBool::new(players_answer),
            versions,
            odds: Mutex::new(None),
            boards: Mutex::new(Vec::new()),
            shown: Mutex::new(shown),
        }
    }

    /// Whether the players answer their own side's decisions from their page.
    pub fn players_answer(&self) -> bool {
        self.players_answer.load(Ordering::Relaxed)
    }

    /// The session, locked. Commands hold the lock while they are stored, so the stored order
    /// is the order of versions.
    fn session(&self) -> std::sync::MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// When it last changed, in seconds since 1970.
    pub fn updated(&self) -> i64 {
        self.updated.load(Ordering::Relaxed)
    }

    /// A receiver of what the fight tells its pages: each new version once its command is
    /// stored, and when the odds of the decision at a version are in.
    pub fn subscribe(&self) -> broadcast::Receiver<Told> {
        self.versions.subscribe()
    }

    /// The board `side` (the GM: `None`) sees at `key`: the one rendered already, or `render`'s
    /// (kept for the next page that asks).
    fn board(&self, side: Option<&str>, key: BoardKey, render: impl FnOnce() -> maud::Markup) -> Arc<str> {
        if let Some(html) = self.rendered(side, key) {
            return html;
        }
        let html: Arc<str> = render().into_string().into();
        let mut boards = self.boards.lock().unwrap_or_else(|p| p.into_inner());
        let board = Board { side: side.map(str::to_owned), key, html: html.clone() };
        match boards.iter_mut().find(|b| b.side.as_deref() == side) {
            // A newer board may have come meanwhile: keep the newest.
            Some(old) if old.key.version <= key.version => *old = board,
            Some(_) => {}
            None => boards.push(board),
        }
        html
    }

    /// The board `side` sees at `key`, if it is rendered already.
    fn rendered(&self, side: Option<&str>, key: BoardKey) -> Option<Arc<str>> {
        let boards = self.boards.lock().unwrap_or_else(|p| p.into_inner());
        boards.iter().find(|b| b.side.as_deref() == side && b.key == key).map(|b| b.html.clone())
    }

    /// What a board of the fight shows now, read without the session's lock.
    fn board_key(&self) -> BoardKey {
        let (version, odds) = *self.shown.lock().unwrap_or_else(|p| p.into_inner());
        BoardKey { version, odds, players_answer: self.players_answer() }
    }

    /// Notes that the session's snapshot changed (a command, the odds, a restore); call it
    /// under the session's lock, before the pages are told.
    fn note_shown(&self, session: &Session) {
        *self.shown.lock().unwrap_or_else(|p| p.into_inner()) = (session.version(), session.snapshot().odds_worked_out);
    }

    /// The work on the pending decision's odds, if they are not in yet.
    fn odds_task(&self) -> Option<Arc<odds::OddsTask>> {
        self.odds.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl std::fmt::Debug for Fight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fight").field("id", &self.id).field("title", &self.title).finish_non_exhaustive()
    }
}

/// Everything the server holds: the database, the fights restored from it, the GM token.
#[derive(Debug)]
pub struct State {
    store: Store,
    gm_token: String,
    fights: RwLock<BTreeMap<String, Arc<Fight>>>,
    /// Player token → (fight id, side).
    players: RwLock<BTreeMap<String, (String, String)>>,
    /// Fights that are stored but no longer replay (e.g. a newer fray changed a rule), with why.
    broken: Vec<(String, String)>,
    /// Works out the odds of the fights' decisions.
    odds: odds::Worker,
}

/// A random token of 128 bits from the operating system, as 32 hex digits.
pub fn random_token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl State {
    /// The server's state over `store`: every stored fight is restored by replaying its journal.
    /// A fight that no longer replays is left out and listed by [`State::broken`].
    pub fn new(store: Store, gm_token: String) -> Result<State, StoreError> {
        let mut fights = BTreeMap::new();
        let mut players = BTreeMap::new();
        let mut broken = Vec::new();
        for stored in store.load()? {
            match Session::restore(stored.journal) {
                Ok(session) => {
                    for (side, token) in &stored.players {
                        players.insert(token.clone(), (stored.id.clone(), side.clone()));
                    }
                    let fight = Fight::new(
                        stored.id.clone(),
                        stored.title,
                        stored.players,
                        session,
                        stored.updated,
                        stored.players_answer,
                    );
                    fights.insert(stored.id, Arc::new(fight));
                }
                Err(e) => broken.push((stored.id, e.to_string())),
            }
        }
        Ok(State {
            store,
            gm_token,
            fights: RwLock::new(fights),
            players: RwLock::new(players),
            broken,
            odds: odds::Worker::start(),
        })
    }

    /// Holds the worker that works out the odds of the fights' decisions (`true`), or lets it go
    /// on: for tests and measurements. While it is held, a command's odds wait (a read of the
    /// JSON API still works them out itself).
    pub fn hold_odds(&self, hold: bool) {
        self.odds.hold(hold);
    }

    /// How many decisions' odds the worker has worked out, and how many it dropped because the
    /// fight moved on first.
    pub fn odds_counts(&self) -> OddsCounts {
        self.odds.counts()
    }

    /// The fights stored but not restored, with the reason.
    pub fn broken(&self) -> &[(String, String)] {
        &self.broken
    }

    /// The GM token.
    pub fn gm_token(&self) -> &str {
        &self.gm_token
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The fight with this id.
    pub fn fight(&self, id: &str) -> Option<Arc<Fight>> {
        self.fights.read().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }

    /// Every fight, most recently changed first.
    pub fn fights(&self) -> Vec<Arc<Fight>> {
        let mut all: Vec<_> = self.fights.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        all.sort_by(|a, b| b.updated().cmp(&a.updated()).then_with(|| a.id.cmp(&b.id)));
        all
    }

    /// The fight and side a player token opens.
    pub fn player(&self, token: &str) -> Option<(Arc<Fight>, String)> {
        let (id, side) = self.players.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned()?;
        Some((self.fight(&id)?, side))
    }

    /// Marks a command or a page being served while it lives: the odds worker waits for none
    /// to be (for a moment at most), so that the odds take what the commands and pages leave.
    fn busy(&self) -> odds::Busy<'_> {
        self.odds.busy()
    }

    /// Whether `token` is the GM's (compared in constant time).
    fn is_gm(&self, token: &str) -> bool {
        let (a, b) = (token.as_bytes(), self.gm_token.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// The whole web app: the GM's pages, the players' pages, live updates and the JSON API.
pub fn app(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/fights", post(pages::start))
        .route("/fights/{id}", get(pages::fight_page))
        .route("/fights/{id}/board", get(pages::fight_board))
        .route("/fights/{id}/events", get(pages::fight_events))
        .route("/play/{token}", get(pages::player_page))
        .route("/play/{token}/board", get(pages::player_board_route))
        .route("/play/{token}/events", get(pages::player_events))
        .route("/play/{token}/commands", post(api::player_command))
        .route("/assets/app.js", get(pages::script))
        .route("/assets/style.css", get(pages::style))
        .route("/api/fights", post(api::create).get(api::list))
        .route("/api/fights/{id}", get(api::show))
        .route("/api/fights/{id}/commands", post(api::command))
        .route("/api/fights/{id}/settings", post(api::settings))
        .route("/api/fights/{id}/journal", get(api::journal))
        .route("/api/fights/{id}/log", get(api::log))
        .route("/api/view/{token}", get(api::view))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// How to run a server: the database file, the address, the GM token.
#[derive(Clone, Debug)]
pub struct Options {
    /// The SQLite file.
    pub db: std::path::PathBuf,
    /// The address to listen on (`127.0.0.1:7878`; port 0 picks a free one).
    pub bind: String,
    /// The GM token; a random one when `None`.
    pub gm_token: Option<String>,
}

/// Opens the database, restores its fights, listens, calls `ready` with the address and the
/// state (its GM token, fights, and the fights that did not restore), then serves until the
/// process ends.
pub fn run(
    options: &Options,
    ready: impl FnOnce(std::net::SocketAddr, &State),
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let store = Store::open(&options.db).map_err(|e| format!("{}: {e}", options.db.display()))?;
    let token = match &options.gm_token {
        Some(token) if token.is_empty() => return Err("--gm-token: an empty token guards nothing".into()),
        Some(token) => token.clone(),
        None => random_token()?,
    };
    let state = Arc::new(State::new(store, token)?);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(&options.bind).await.map_err(|e| format!("--bind {}: {e}", options.bind))?;
        ready(listener.local_addr()?, &state);
        axum::serve(listener, app(state)).await?;
        Ok(())
    })
}

/// Applies a command to a fight: checks the version and `admit` (under the fight's lock; it may
/// also translate the command, e.g. a player's answer numbered in their side's view),
/// replays, commits it to the database, then tells the fight's listeners; answers with what
/// `answer` makes of the fight (the GM's state, or a side's view, also after a conflict).
/// Blocking: call it off the async executor.
fn apply<T: Into<serde_json::Value>>(
    state: &State,
    fight: &Arc<Fight>,
    version: usize,
    command: fray_live::Command,
    admit: impl FnOnce(&Session, fray_live::Command) -> Result<fray_live::Command, api::ApiError>,
    answer: impl Fn(&Fight, &Session) -> T,
) -> Result<T, api::ApiError> {
    let _busy = state.busy();
    let mut session = fight.session();
    if session.version() != version {
        return Err(api::ApiError::Conflict {
            message: format!(
                "the fight moved on: version {version} was sent, the fight is at version {}",
                session.version()
            ),
            state: answer(fight, &session).into(),
        });
    }
    let command = admit(&session, command)?;
    session.command(command.clone()).map_err(|e| api::ApiError::Bad(e.to_string()))?;
    if let Err(e) = state.store.append(&fight.id, version, &command) {
        // Not stored, so not done: back to the fight as it was.
        let mut journal = session.journal().clone();
        journal.commands.pop();
        if let Ok(mut back) = Session::restore(journal) {
            back.defer_odds(true);
            *session = back;
        }
        fight.note_shown(&session);
        return Err(api::ApiError::Internal(e.to_string()));
    }
    fight.updated.store(store::now(), Ordering::Relaxed);
    fight.note_shown(&session);
    // Sent while the lock is held, so listeners hear the versions in order.
    let _ = fight.versions.send(Told::Version(session.version()));
    // The odds of the decision it leads to follow.
    state.odds.schedule(fight, &mut session);
    Ok(answer(fight, &session))
}
