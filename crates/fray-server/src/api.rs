//! The JSON API for scripts and tests, and the checks every route shares: the GM token, the
//! errors as responses, reading a JSON body.

use crate::{Fight, State, apply};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use fray_live::{Command, DiceMode, Session};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

type AppState = axum::extract::State<Arc<State>>;

/// What went wrong, as a response: a status and `{"error": "…"}`. Internal details go to the
/// server's log, not to the client.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the request does not make sense (bad JSON, a refused command, a bad scenario).
    Bad(String),
    /// 401: no valid GM token.
    Unauthorized,
    /// 403: a player may not do this.
    Forbidden(String),
    /// 404: no such fight or token.
    NotFound(&'static str),
    /// 409: the command was sent on an old version; the current state comes along.
    Conflict {
        /// What happened.
        message: String,
        /// The fight as it stands.
        state: Value,
    },
    /// The body was refused before it was read (too large: 413).
    Body(StatusCode, String),
    /// 500: the database failed.
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ApiError::Bad(message) => (StatusCode::BAD_REQUEST, json!({ "error": message })),
            ApiError::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                json!({ "error": "this needs the GM token: `Authorization: Bearer <token>` (printed by `fray serve`)" }),
            ),
            ApiError::Forbidden(message) => (StatusCode::FORBIDDEN, json!({ "error": message })),
            ApiError::NotFound(what) => (StatusCode::NOT_FOUND, json!({ "error": format!("no such {what}") })),
            ApiError::Conflict { message, state } => {
                (StatusCode::CONFLICT, json!({ "error": message, "state": state }))
            }
            ApiError::Body(status, message) => (status, json!({ "error": message })),
            ApiError::Internal(message) => {
                eprintln!("fray serve: {message}");
                (StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": "the server could not store this; see its log" }))
            }
        };
        let mut response = (status, Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, header::HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// Proof that the request carries the GM token: as `Authorization: Bearer …`, or as the
/// `fray_gm` cookie the GM's browser got by opening the printed address.
#[derive(Debug)]
pub struct Gm;

/// The GM token a request carries, if any.
pub fn request_token(headers: &axum::http::HeaderMap) -> Option<&str> {
    if let Some(bearer) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        return bearer.strip_prefix("Bearer ").map(str::trim);
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix("fray_gm="))
}

impl FromRequestParts<Arc<State>> for Gm {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<State>) -> Result<Gm, ApiError> {
        match request_token(&parts.headers) {
            Some(token) if state.is_gm(token) => Ok(Gm),
            _ => Err(ApiError::Unauthorized),
        }
    }
}

/// Reads a JSON body, answering a bad one with 400 and the reason, a huge one with 413.
fn read_json<T: for<'de> Deserialize<'de>>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = body.map_err(|e| ApiError::Body(e.status(), e.body_text()))?;
    serde_json::from_slice(&body).map_err(|e| ApiError::Bad(format!("the body is not the JSON expected: {e}")))
}

/// A new fight, as `POST /api/fights` takes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewFight {
    /// The scenario's TOML text.
    pub scenario: String,
    /// The scenario's file name, for titles and errors.
    #[serde(default)]
    pub file: Option<String>,
    /// Options and overrides, `{"name": "value"}`, in order.
    #[serde(default)]
    pub set: serde_json::Map<String, Value>,
    /// The seed of fray's dice.
    #[serde(default)]
    pub seed: u64,
    /// Who rolls the dice: fray, or the GM entering physical dice.
    #[serde(default = "fray_dice")]
    pub dice: DiceMode,
    /// The combatants a person decides for; every combatant when left out.
    #[serde(default)]
    pub people: Option<Vec<String>>,
}

fn fray_dice() -> DiceMode {
    DiceMode::Fray
}

/// Opens and stores a new fight; gives its id and the players' tokens.
pub fn create_fight(state: &State, new: NewFight) -> Result<(String, BTreeMap<String, String>), ApiError> {
    let file = new.file.unwrap_or_else(|| "scenario.toml".to_owned());
    let set: Vec<(String, String)> = new
        .set
        .into_iter()
        .map(|(name, value)| {
            let value = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
            (name, value)
        })
        .collect();
    let scenario = fray_rules::load(&file, &new.scenario, &set).map_err(|e| ApiError::Bad(e.to_string()))?;
    let people = new.people.unwrap_or_else(|| scenario.combatants());
    let sides = scenario.sides();
    drop(scenario);
    let session = Session::open(&file, &new.scenario, set, new.seed, new.dice, people)
        .map_err(|e| ApiError::Bad(e.to_string()))?;
    let token = || crate::random_token().map_err(|e| ApiError::Internal(format!("random token: {e}")));
    // 64 bits name a fight (the GM token guards it); 128 bits guard a side's view.
    let id = token()?[..16].to_owned();
    let mut players = BTreeMap::new();
    for side in sides {
        players.insert(side, token()?);
    }
    state.store.insert_fight(&id, &file, session.journal(), &players).map_err(|e| ApiError::Internal(e.to_string()))?;
    let fight = Fight::new(id.clone(), file, players.clone(), session, crate::store::now(), false);
    {
        let mut tokens = state.players.write().unwrap_or_else(|p| p.into_inner());
        for (side, token) in &players {
            tokens.insert(token.clone(), (id.clone(), side.clone()));
        }
    }
    state.fights.write().unwrap_or_else(|p| p.into_inner()).insert(id.clone(), Arc::new(fight));
    Ok((id, players))
}

/// Runs blocking work (replays, SQLite) off the async executor.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::Internal(format!("worker: {e}")))?
}

/// `POST /api/fights`: `201 {"id", "players"}`.
pub async fn create(
    _: Gm,
    axum::extract::State(state): AppState,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let new: NewFight = read_json(body)?;
    let (id, players) = blocking(move || create_fight(&state, new)).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id, "players": players }))).into_response())
}

/// `GET /api/fights`: the fights, most recently changed first.
pub async fn list(_: Gm, axum::extract::State(state): AppState) -> Result<Json<Value>, ApiError> {
    let fights = blocking(move || {
        let fights = state.fights().into_iter().map(|fight| {
            let session = fight.session();
            json!({
                "id": fight.id,
                "title": fight.title,
                "ended": session.snapshot().ending.is_some(),
                "version": session.version(),
                "updated": fight.updated(),
            })
        });
        Ok(fights.collect())
    })
    .await?;
    Ok(Json(Value::Array(fights)))
}

/// Reads a fight under its lock, off the async executor: a command holds the lock while it is
/// replayed and committed, and waiting for it must not stall the executor.
pub async fn read<T: Send + 'static>(
    fight: Arc<Fight>,
    work: impl FnOnce(&Fight, &Session) -> T + Send + 'static,
) -> Result<T, ApiError> {
    blocking(move || {
        let session = fight.session();
        Ok(work(&fight, &session))
    })
    .await
}

/// A JSON response body, written once (no tree of JSON values built first: a fight's log can be
/// long, and a command's answer carries it).
#[derive(Debug)]
pub struct JsonBody(pub String);

impl From<JsonBody> for Value {
    fn from(body: JsonBody) -> Value {
        serde_json::from_str(&body.0).unwrap_or_default()
    }
}

impl IntoResponse for JsonBody {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// The GM's state of a fight, in the order the API gives its fields.
#[derive(serde::Serialize)]
struct GmState<'a> {
    id: &'a str,
    title: &'a str,
    version: usize,
    status: &'a [fray_rules::board::CombatantStatus],
    pending: &'a Option<fray_live::Pending>,
    outcome: &'a Option<fray_live::Ending>,
    log: Vec<&'a Value>,
    people: &'a [String],
    hidden: &'a [String],
    secret: &'a [String],
    can_undo: usize,
    can_redo: usize,
    odds_worked_out: bool,
    players: &'a BTreeMap<String, String>,
    players_answer: bool,
}

/// The GM's state of a fight, as the API gives it.
pub fn state_json(fight: &Fight, session: &Session) -> JsonBody {
    let snapshot = session.snapshot();
    let state = GmState {
        id: &fight.id,
        title: &fight.title,
        version: session.version(),
        status: &snapshot.status,
        pending: &snapshot.pending,
        outcome: &snapshot.ending,
        log: snapshot.log.iter().map(|line| &line.json).collect(),
        people: &snapshot.people,
        hidden: &snapshot.hidden,
        secret: &snapshot.secret,
        can_undo: snapshot.can_undo,
        can_redo: snapshot.can_redo,
        odds_worked_out: snapshot.odds_worked_out,
        players: &fight.players,
        players_answer: fight.players_answer(),
    };
    JsonBody(serde_json::to_string(&state).unwrap_or_default())
}

fn find(state: &State, id: &str) -> Result<Arc<Fight>, ApiError> {
    state.fight(id).ok_or(ApiError::NotFound("fight"))
}

/// Reads a fight as [`read`] does, once its pending decision's odds are in (worked out here if
/// the worker has not started on them, else waited for).
pub async fn read_complete<T: Send + 'static>(
    fight: Arc<Fight>,
    work: impl FnOnce(&Fight, &Session) -> T + Send + 'static,
) -> Result<T, ApiError> {
    blocking(move || {
        crate::odds::complete(&fight);
        let session = fight.session();
        Ok(work(&fight, &session))
    })
    .await
}

/// `GET /api/fights/{id}`: with the pending decision's odds.
pub async fn show(_: Gm, axum::extract::State(state): AppState, Path(id): Path<String>) -> Result<JsonBody, ApiError> {
    let fight = find(&state, &id)?;
    read_complete(fight, state_json).await
}

/// A command with the version it was sent on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Versioned {
    version: usize,
    command: Command,
}

/// `POST /api/fights/{id}/commands`: `200` and the new state, `409` on an old version.
pub async fn command(
    _: Gm,
    axum::extract::State(state): AppState,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<JsonBody, ApiError> {
    let fight = find(&state, &id)?;
    let sent: Versioned = read_json(body)?;
    blocking(move || apply(&state, &fight, sent.version, sent.command, |_, command| Ok(command), state_json)).await
}

/// A side's view as its page and `GET /api/view/{token}` give it.
pub fn view_json(fight: &Fight, session: &Session, side: &str) -> Value {
    let mut view = serde_json::to_value(session.snapshot().view(side)).unwrap_or_default();
    if let Value::Object(map) = &mut view {
        map.insert("version".into(), session.version().into());
        map.insert("title".into(), fight.title.clone().into());
        map.insert("players_answer".into(), fight.players_answer().into());
    }
    view
}

/// `POST /play/{token}/commands`: a player answers their own side's decision, when the GM lets
/// the players answer (`403` otherwise); the answer is the side's view (after a `409` too).
pub async fn player_command(
    axum::extract::State(state): AppState,
    Path(token): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let (fight, side) = state.player(&token).ok_or(ApiError::NotFound("player token"))?;
    let sent: Versioned = read_json(body)?;
    if !matches!(sent.command, Command::Answer(_)) {
        return Err(ApiError::Forbidden("a player's page only answers its own side's decisions".into()));
    }
    let own = side.clone();
    // The answer is numbered among the choices the side's view shows (those naming a combatant
    // hidden from the side are left out of it).
    let admit = move |session: &Session, command: Command| {
        if !waits_for_side(session, &own) {
            return Err(ApiError::Forbidden(format!("no decision of {own}'s waits")));
        }
        let Command::Answer(i) = command else { return Ok(command) };
        let answers = session.snapshot().view_without_log(&own).answers;
        match answers.get(i) {
            Some(&index) => Ok(Command::Answer(index)),
            None => Err(ApiError::Bad(format!("no choice {i}: the decision has {} choices", answers.len()))),
        }
    };
    let worker = fight.clone();
    let done = blocking(move || {
        if !worker.players_answer() {
            return Err(ApiError::Forbidden("the GM answers the decisions of this fight".into()));
        }
        apply(&state, &worker, sent.version, sent.command, admit, |fight, session| view_json(fight, session, &side))
    })
    .await?;
    Ok(Json(done))
}

/// Whether the fight waits for a decision of `side`'s.
fn waits_for_side(session: &Session, side: &str) -> bool {
    matches!(&session.snapshot().pending, Some(fray_live::Pending::Decision { side: own, .. }) if own == side)
}

/// The fight's settings, as `POST /api/fights/{id}/settings` takes them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    players_answer: bool,
}

/// `POST /api/fights/{id}/settings` with `{"players_answer": true}`: the players answer their
/// own side's decisions from their page (or no longer).
pub async fn settings(
    _: Gm,
    axum::extract::State(state): AppState,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<JsonBody, ApiError> {
    let fight = find(&state, &id)?;
    let settings: Settings = read_json(body)?;
    blocking(move || {
        let session = fight.session();
        state
            .store
            .set_players_answer(&fight.id, settings.players_answer)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        fight.players_answer.store(settings.players_answer, std::sync::atomic::Ordering::Relaxed);
        // The pages look again.
        let _ = fight.versions.send(crate::Told::Version(session.version()));
        Ok(state_json(&fight, &session))
    })
    .await
}

/// `GET /api/fights/{id}/journal`: the journal, as `fray fight --journal` writes it.
pub async fn journal(
    _: Gm,
    axum::extract::State(state): AppState,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let fight = find(&state, &id)?;
    let text = read(fight.clone(), |_, session| session.journal_json()).await?;
    Ok(download(text, &format!("{}.journal.json", fight.id)))
}

/// `GET /api/fights/{id}/log`: the log, each line's text and JSON event.
pub async fn log(_: Gm, axum::extract::State(state): AppState, Path(id): Path<String>) -> Result<Response, ApiError> {
    let fight = find(&state, &id)?;
    let text =
        read(fight.clone(), |_, session| serde_json::to_string_pretty(&session.snapshot().log).unwrap_or_default())
            .await?;
    Ok(download(text, &format!("{}.log.json", fight.id)))
}

fn download(text: String, name: &str) -> Response {
    let disposition = format!("inline; filename=\"{name}\"");
    ([(header::CONTENT_TYPE, "application/json".to_owned()), (header::CONTENT_DISPOSITION, disposition)], text)
        .into_response()
}

/// `GET /api/view/{token}`: what that side may see.
pub async fn view(axum::extract::State(state): AppState, Path(token): Path<String>) -> Result<Json<Value>, ApiError> {
    let (fight, side) = state.player(&token).ok_or(ApiError::NotFound("player token"))?;
    Ok(Json(read_complete(fight, move |fight, session| view_json(fight, session, &side)).await?))
}
