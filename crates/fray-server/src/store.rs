//! The embedded database: one SQLite file in WAL mode with a table of fights and an
//! append-only table of their commands (the journals). A command is committed here before
//! anyone hears of it.

use fray_live::{Command, Journal};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The schema. `commands` is append-only: triggers refuse to change or delete a row, so a
/// fight's history is only ever added to (an undo is a command like any other).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS fights (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    journal TEXT NOT NULL,
    players TEXT NOT NULL,
    created INTEGER NOT NULL,
    players_answer INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS commands (
    fight TEXT NOT NULL REFERENCES fights(id),
    seq INTEGER NOT NULL,
    command TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (fight, seq)
);
CREATE TRIGGER IF NOT EXISTS commands_no_update BEFORE UPDATE ON commands
BEGIN SELECT RAISE(ABORT, 'the commands table is append-only'); END;
CREATE TRIGGER IF NOT EXISTS commands_no_delete BEFORE DELETE ON commands
BEGIN SELECT RAISE(ABORT, 'the commands table is append-only'); END;
";

/// A database error, in words.
#[derive(Clone, Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct StoreError(String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError(e.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> StoreError {
        StoreError(e.to_string())
    }
}

/// One stored fight, as read back at start.
#[derive(Debug)]
pub struct StoredFight {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its journal, commands included.
    pub journal: Journal,
    /// Each side's player token.
    pub players: BTreeMap<String, String>,
    /// When it last changed, in seconds since 1970.
    pub updated: i64,
    /// Whether the players answer their own side's decisions.
    pub players_answer: bool,
}

/// A command to append, and where to say whether it is committed.
struct Append {
    fight: String,
    seq: usize,
    command: String,
    done: mpsc::SyncSender<Result<(), StoreError>>,
}

/// The database of fights. Its calls block: call them off the async executor.
///
/// Commands are appended by one writer thread that commits whatever has queued up meanwhile in
/// one transaction (group commit): many fights' commands share one sync to disk, and each
/// caller returns only once its own command is committed.
#[derive(Debug)]
pub struct Store {
    connection: Arc<Mutex<Connection>>,
    writer: Mutex<mpsc::Sender<Append>>,
}

/// The writer thread: takes one append, and every other one already waiting, and commits them
/// together.
fn write_appends(connection: Arc<Mutex<Connection>>, queue: mpsc::Receiver<Append>) {
    let commit = |batch: &[Append]| -> Result<(), String> {
        let mut connection = connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let transaction = connection.transaction().map_err(|e| e.to_string())?;
        {
            let mut insert = transaction
                .prepare_cached("INSERT INTO commands (fight, seq, command, at) VALUES (?1, ?2, ?3, ?4)")
                .map_err(|e| e.to_string())?;
            for append in batch {
                insert
                    .execute(params![append.fight, append.seq as i64, append.command, now()])
                    .map_err(|e| e.to_string())?;
            }
        }
        transaction.commit().map_err(|e| e.to_string())
    };
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter());
        match commit(&batch) {
            Ok(()) => {
                for append in batch {
                    let _ = append.done.send(Ok(()));
                }
            }
            // One bad row fails only its own command: the others are committed one by one.
            Err(_) => {
                for append in batch {
                    let result = commit(std::slice::from_ref(&append)).map_err(StoreError);
                    let _ = append.done.send(result);
                }
            }
        }
    }
}

/// Seconds since 1970, for "last change" (the server's own bookkeeping, never a fight's).
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (or creates) the database file, in WAL mode with full syncs: a command the store
    /// has accepted survives a killed process and a lost machine.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let connection = Connection::open(path)?;
        Store::setup(connection)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(connection: Connection) -> Result<Store, StoreError> {
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        connection.execute_batch(SCHEMA)?;
        let connection = Arc::new(Mutex::new(connection));
        let (writer, queue) = mpsc::channel();
        let shared = connection.clone();
        std::thread::Builder::new()
            .name("fray-store-writer".to_owned())
            .spawn(move || write_appends(shared, queue))
            .map_err(|e| StoreError(format!("writer thread: {e}")))?;
        Ok(Store { connection, writer: Mutex::new(writer) })
    }

    fn connection(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (each call is one transaction).
        self.connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Stores a new fight: its journal (without commands), title and player tokens.
    pub fn insert_fight(
        &self,
        id: &str,
        title: &str,
        journal: &Journal,
        players: &BTreeMap<String, String>,
    ) -> Result<(), StoreError> {
        let mut head = journal.clone();
        head.commands.clear();
        self.connection().execute(
            "INSERT INTO fights (id, title, journal, players, created) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, title, serde_json::to_string(&head)?, serde_json::to_string(players)?, now()],
        )?;
        Ok(())
    }

    /// Records whether the fight's players answer their own side's decisions.
    pub fn set_players_answer(&self, fight: &str, on: bool) -> Result<(), StoreError> {
        self.connection().execute("UPDATE fights SET players_answer = ?2 WHERE id = ?1", params![fight, on])?;
        Ok(())
    }

    /// Appends the fight's command number `seq` (from 0); returns once it is committed.
    pub fn append(&self, fight: &str, seq: usize, command: &Command) -> Result<(), StoreError> {
        let (done, committed) = mpsc::sync_channel(1);
        let append = Append { fight: fight.to_owned(), seq, command: serde_json::to_string(command)?, done };
        let gone = || StoreError("the writer thread has stopped".to_owned());
        self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).send(append).map_err(|_| gone())?;
        committed.recv().map_err(|_| gone())?
    }

    /// Every stored fight with its commands, oldest first.
    pub fn load(&self) -> Result<Vec<StoredFight>, StoreError> {
        let connection = self.connection();
        let mut fights = connection
            .prepare("SELECT id, title, journal, players, created, players_answer FROM fights ORDER BY created, id")?;
        let mut commands = connection.prepare("SELECT command, at FROM commands WHERE fight = ?1 ORDER BY seq")?;
        let rows = fights
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, i64>(4)?,
                    row.get::<_, bool>(5)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        for (id, title, journal, players, created, players_answer) in rows {
            let mut journal: Journal = serde_json::from_str(&journal)?;
            let mut updated = created;
            let stored = commands
                .query_map([&id], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            for (command, at) in stored {
                journal.commands.push(serde_json::from_str(&command)?);
                updated = updated.max(at);
            }
            let players = serde_json::from_str(&players)?;
            out.push(StoredFight { id, title, journal, players, updated, players_answer });
        }
        Ok(out)
    }

    /// How many commands of the fight are stored (for tests and checks).
    pub fn count(&self, fight: &str) -> Result<Option<usize>, StoreError> {
        let connection = self.connection();
        let known: Option<i64> =
            connection.query_row("SELECT 1 FROM fights WHERE id = ?1", [fight], |row| row.get(0)).optional()?;
        if known.is_none() {
            return Ok(None);
        }
        let n: i64 =
            connection.query_row("SELECT COUNT(*) FROM commands WHERE fight = ?1", [fight], |row| row.get(0))?;
        Ok(Some(n as usize))
    }
}
