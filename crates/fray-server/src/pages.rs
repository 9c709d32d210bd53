//! The pages: the GM's (fights to resume, a new fight, the fight itself) and each side's
//! players' page, rendered on the server with maud (every name and text escaped), with a small
//! script that sends commands to the JSON API and refreshes the board when the server-sent
//! events say the fight moved.

use crate::api::{ApiError, Gm, NewFight, blocking, create_fight, read, request_token};
use crate::{EXAMPLES, Fight, State, Told};
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, Query};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use fray_live::{Pending, Session, Snapshot, View};
use fray_rules::Line;
use fray_rules::board::{Adjustable, CombatantStatus};
use maud::{DOCTYPE, Markup, html};
use serde::Deserialize;
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;

type AppState = axum::extract::State<Arc<State>>;

const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/style.css");

/// `GET /assets/app.js`.
pub async fn script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response()
}

/// `GET /assets/style.css`.
pub async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

fn layout(title: &str, body: Markup) -> Html<String> {
    Html(
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (title) " · fray" }
                    link rel="stylesheet" href="/assets/style.css";
                    script src="/assets/app.js" defer {}
                }
                body { (body) }
            }
        }
        .into_string(),
    )
}

fn unauthorized() -> Response {
    let page = layout(
        "GM token needed",
        html! {
            main {
                h1 { "fray serve" }
                p { "This page is the GM's. Open the address that " code { "fray serve" } " printed: it carries the GM token." }
            }
        },
    );
    (StatusCode::UNAUTHORIZED, page).into_response()
}

/// The query of the GM's address: `/?token=…`.
#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
}

/// `GET /`: with `?token=` the GM's browser gets its cookie; then the fights to resume and a
/// form to start one.
pub async fn home(
    axum::extract::State(state): AppState,
    Query(query): Query<TokenQuery>,
    headers: axum::http::HeaderMap,
) -> Response {
    if let Some(token) = query.token {
        if !state.is_gm(&token) {
            return unauthorized();
        }
        let cookie = format!("fray_gm={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000");
        return ([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response();
    }
    if !request_token(&headers).is_some_and(|t| state.is_gm(t)) {
        return unauthorized();
    }
    // The list reads every fight under its lock: off the async executor.
    match blocking(move || Ok(home_page(&state, None, &StartForm::default()))).await {
        Ok(page) => page.into_response(),
        Err(e) => e.into_response(),
    }
}

fn home_page(state: &State, error: Option<&str>, form: &StartForm) -> Html<String> {
    let fights = state.fights();
    layout(
        "fights",
        html! {
            main {
                h1 { "fray serve" }
                section #fights {
                    h2 { "Fights" }
                    @if fights.is_empty() { p { "No fight yet." } }
                    ul {
                        @for fight in &fights {
                            @let session = fight.session();
                            li {
                                a href={ "/fights/" (fight.id) } { (fight.title) }
                                " · " (session.version()) " commands"
                                @if let Some(ending) = &session.snapshot().ending { " · ended: " (ending.text) }
                            }
                        }
                    }
                    @for (id, why) in state.broken() {
                        p.error { "Fight " (id) " no longer replays: " (why) }
                    }
                }
                section #new {
                    h2 { "New fight" }
                    @if let Some(error) = error { pre.error #error { (error) } }
                    form method="post" action="/fights" {
                        label { "Example " select name="example" {
                            option value="" { "— the scenario pasted below —" }
                            @for (path, _) in EXAMPLES {
                                option value=(path) selected[form.example.as_deref() == Some(*path)] { (path) }
                            }
                        } }
                        label { "Scenario file " input #upload type="file" accept=".toml,text/plain"; }
                        label { "Scenario (TOML)" textarea name="scenario" rows="8" { (form.scenario.as_deref().unwrap_or("")) } }
                        label { "Options, one " code { "name=value" } " a line" textarea name="set" rows="2" { (form.set.as_deref().unwrap_or("")) } }
                        label { "Seed " input type="number" name="seed" min="0" value=(form.seed.as_deref().unwrap_or("1")); }
                        fieldset {
                            legend { "Dice" }
                            label { input type="radio" name="dice" value="fray" checked[form.dice.as_deref() != Some("entered")]; " fray rolls" }
                            label { input type="radio" name="dice" value="entered" checked[form.dice.as_deref() == Some("entered")]; " I enter physical dice" }
                        }
                        button type="submit" #start { "Start the fight" }
                    }
                }
            }
        },
    )
}

/// The new-fight form.
#[derive(Debug, Default, Deserialize)]
pub struct StartForm {
    example: Option<String>,
    scenario: Option<String>,
    set: Option<String>,
    seed: Option<String>,
    dice: Option<String>,
}

fn new_fight(form: &StartForm) -> Result<NewFight, String> {
    let example = form.example.as_deref().filter(|e| !e.is_empty());
    let (file, scenario) = match example {
        Some(path) => {
            let (path, text) =
                EXAMPLES.iter().find(|(p, _)| *p == path).ok_or_else(|| format!("no example `{path}`"))?;
            (path.rsplit('/').next().unwrap_or(path).to_owned(), (*text).to_owned())
        }
        None => match form.scenario.as_deref().filter(|s| !s.trim().is_empty()) {
            Some(text) => ("scenario.toml".to_owned(), text.to_owned()),
            None => return Err("choose an example or paste a scenario".to_owned()),
        },
    };
    let seed = form.seed.as_deref().map(str::trim).filter(|s| !s.is_empty()).unwrap_or("1");
    let seed = seed.parse().map_err(|_| format!("the seed `{seed}` is not a whole number from 0"))?;
    let mut set = serde_json::Map::new();
    for line in form.set.as_deref().unwrap_or("").lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (name, value) = line.split_once('=').ok_or_else(|| format!("option `{line}`: expected name=value"))?;
        set.insert(name.trim().to_owned(), value.trim().into());
    }
    let dice =
        if form.dice.as_deref() == Some("entered") { fray_live::DiceMode::Entered } else { fray_live::DiceMode::Fray };
    Ok(NewFight { scenario, file: Some(file), set, seed, dice, people: None })
}

/// `POST /fights` (the form): starts a fight and opens its page, or shows the form again with
/// the error (a scenario's with line, column and caret).
pub async fn start(
    _: Gm,
    axum::extract::State(state): AppState,
    form: Result<Form<StartForm>, FormRejection>,
) -> Response {
    let form = match form {
        Ok(Form(form)) => form,
        Err(e) => return (e.status(), home_page(&state, Some(&e.body_text()), &StartForm::default())).into_response(),
    };
    let new = match new_fight(&form) {
        Ok(new) => new,
        Err(e) => return (StatusCode::BAD_REQUEST, home_page(&state, Some(&e), &form)).into_response(),
    };
    let worker = state.clone();
    match blocking(move || create_fight(&worker, new)).await {
        Ok((id, _)) => Redirect::to(&format!("/fights/{id}")).into_response(),
        Err(ApiError::Bad(e)) => (StatusCode::BAD_REQUEST, home_page(&state, Some(&e), &form)).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `GET /fights/{id}`: the GM's page of one fight.
pub async fn fight_page(
    gm: Result<Gm, ApiError>,
    axum::extract::State(state): AppState,
    Path(id): Path<String>,
) -> Response {
    if gm.is_err() {
        return unauthorized();
    }
    let Some(fight) = state.fight(&id) else { return ApiError::NotFound("fight").into_response() };
    let board = match board(&state, fight.clone(), None).await {
        Ok(board) => maud::PreEscaped(board.to_string()),
        Err(e) => return e.into_response(),
    };
    layout(
        &fight.title,
        html! {
            nav { a href="/" { "← fights" } }
            p #message role="status" {}
            main #board data-board={ "/fights/" (fight.id) "/board" } data-events={ "/fights/" (fight.id) "/events" }
                data-api={ "/api/fights/" (fight.id) "/commands" } { (board) }
        },
    )
    .into_response()
}

/// `GET /fights/{id}/board`: the GM's board alone, for the script's refresh.
pub async fn fight_board(
    _: Gm,
    axum::extract::State(state): AppState,
    Path(id): Path<String>,
) -> Result<Html<String>, ApiError> {
    let fight = state.fight(&id).ok_or(ApiError::NotFound("fight"))?;
    Ok(Html(board(&state, fight, None).await?.to_string()))
}

/// The board a viewer (the GM: `None`; a side's players: `Some(side)`) sees of a fight: taken
/// from the fight under its lock, rendered after letting go of it, and rendered once for all
/// the pages of that viewer that ask for the same version ([`Fight::board`]).
async fn board(state: &Arc<State>, fight: Arc<Fight>, side: Option<String>) -> Result<Arc<str>, ApiError> {
    // Rendered already for another page: no need to wait for the fight's lock.
    if let Some(html) = fight.rendered(side.as_deref(), fight.board_key()) {
        return Ok(html);
    }
    let state = state.clone();
    blocking(move || {
        let _busy = state.busy();
        let session = fight.session();
        let (snapshot, version, ruleset) = (session.shared_snapshot(), session.version(), session.scenario().ruleset());
        let players_answer = fight.players_answer();
        let key = crate::BoardKey { version, odds: snapshot.odds_worked_out, players_answer };
        if let Some(html) = fight.rendered(side.as_deref(), key) {
            return Ok(html);
        }
        // The GM's form to add a combatant starts from a stat block of the scenario's.
        let join = if side.is_none() { join_template(&session) } else { None };
        drop(session);
        Ok(fight.board(side.as_deref(), key, || match &side {
            None => gm_board(&fight, &snapshot, version, ruleset, join.as_deref()),
            Some(side) => {
                let view = snapshot.view_without_log(side);
                let lines = snapshot.view_log(side);
                player_board(&view, &lines, &fight.title, version, players_answer, !snapshot.odds_worked_out)
            }
        }))
    })
    .await
}

fn command(value: serde_json::Value) -> String {
    value.to_string()
}

fn gm_board(fight: &Fight, snapshot: &Snapshot, version: usize, ruleset: &str, join: Option<&str>) -> Markup {
    let sides: Vec<&String> = fight.players.keys().collect();
    let tracks = fray_rules::ruleset_info(ruleset).map_or(&[][..], |r| r.adjustable);
    html! {
        header {
            h1 { (fight.title) }
            span.version data-version=(version) { "version " (version) }
        }
        section #pending { (pending(snapshot.pending.as_ref(), Viewer::Gm, !snapshot.odds_worked_out)) (ending(snapshot)) }
        section #controls {
            button #undo data-command=(command(json!({"undo": 1}))) disabled[snapshot.can_undo == 0] { "Undo" }
            button #redo data-command=(command(json!({"redo": 1}))) disabled[snapshot.can_redo == 0] { "Redo" }
            @if snapshot.ending.is_none() {
                form.end data-kind="end" {
                    select name="winner" {
                        option value="" { "no winner" }
                        @for side in &sides { option value=(side) { (side) " win" } }
                    }
                    button type="submit" { "End the fight" }
                }
            }
        }
        section #status {
            h2 { "Status" }
            div.board {
                @for combatant in &snapshot.status { (gm_combatant(combatant, snapshot, tracks)) }
            }
            (joining(join))
        }
        section #players {
            h2 { "Players' pages" }
            label {
                input #players-answer type="checkbox" checked[fight.players_answer()]
                    data-url={ "/api/fights/" (fight.id) "/settings" }
                    data-on=(command(json!({"players_answer": true})))
                    data-off=(command(json!({"players_answer": false})));
                " the players answer their own side's decisions on their page"
            }
            ul {
                @for (side, token) in &fight.players {
                    li {
                        a.player-link data-side=(side) href={ "/play/" (token) } target="_blank" { (side) }
                        " "
                        label {
                            input type="checkbox" checked[snapshot.secret.contains(side)]
                                data-on=(command(json!({"secret": {"side": side, "secret": true}})))
                                data-off=(command(json!({"secret": {"side": side, "secret": false}})));
                            " numbers kept from the other sides"
                        }
                    }
                }
            }
        }
        section #log { h2 { "Log" } (log(snapshot.log.iter())) }
        section #export {
            a href={ "/api/fights/" (fight.id) "/journal" } download { "Journal (JSON)" }
            " · "
            a href={ "/api/fights/" (fight.id) "/log" } download { "Log (JSON)" }
        }
    }
}

/// The GM's form to add a combatant to a fight that goes on, filled with a copy of the scenario's
/// last combatant to start from.
/// The stat block the GM's form to add a combatant starts from: a copy of the last combatant,
/// renamed; `None` once the fight has ended (no form then).
fn join_template(session: &Session) -> Option<String> {
    let snapshot = session.snapshot();
    if snapshot.ending.is_some() {
        return None;
    }
    let last = session.scenario().combatants().last().cloned().unwrap_or_default();
    // "Guard 2", or the next number free.
    let taken = |name: &String| snapshot.status.iter().any(|c| &c.name == name);
    let name = (2..).map(|n| format!("{last} {n}")).find(|n| !taken(n)).unwrap_or_default();
    Some(session.stat_block(&last, &name).unwrap_or_default())
}

/// The GM's form to add a combatant, starting from `template` (none: no form).
fn joining(template: Option<&str>) -> Markup {
    let Some(template) = template else { return html! {} };
    html! {
        details #join {
            summary { "Add a combatant" }
            form.join data-kind="join" data-who="\u{1}join" {
                p.hint {
                    "Its stat block: the keys of one " code { "[[combatants]]" } " entry of the scenario, as "
                    code { "key = value" } " lines (nested values as inline tables), its side one of the fight's. "
                    "It joins where the fight waits for a decision, and acts from its next turn."
                }
                textarea name="stats" rows="10" spellcheck="false" aria-label="stat block" { (template) }
                pre.error role="alert" {}
                button type="submit" { "Add to the fight" }
            }
        }
    }
}

/// The GM's adjustments of a combatant still in a fight that goes on: set a track, take it out.
fn adjustments(combatant: &CombatantStatus, snapshot: &Snapshot, tracks: &[Adjustable]) -> Markup {
    if !combatant.standing || snapshot.ending.is_some() || tracks.is_empty() {
        return html! {};
    }
    let out = json!({"adjust": {"out": {"who": combatant.name}}});
    html! {
        form.adjust data-kind="adjust" data-who=(combatant.name) {
            select name="field" aria-label="track" {
                @for track in tracks { option value=(track.key) title=(track.values) { (track.label) } }
            }
            @if tracks.iter().any(|t| t.per_item) {
                input name="item" placeholder="item (ammunition)" aria-label="item" size="8";
            }
            input name="value" type="number" required aria-label="value" size="4";
            button type="submit" { "Set" }
            button.take-out type="button" data-command=(command(out)) { "Take out" }
        }
    }
}

fn gm_combatant(combatant: &CombatantStatus, snapshot: &Snapshot, tracks: &[Adjustable]) -> Markup {
    let person = snapshot.people.contains(&combatant.name);
    let hidden = snapshot.hidden.contains(&combatant.name);
    let switches = html! {
        div.switches data-for=(combatant.name) {
            label {
                input.ai-plays type="checkbox" checked[!person]
                    data-on=(command(json!({"control": {"who": combatant.name, "person": false}})))
                    data-off=(command(json!({"control": {"who": combatant.name, "person": true}})));
                " the AI plays"
            }
            label {
                input.hide type="checkbox" checked[hidden]
                    data-on=(command(json!({"hide": {"who": combatant.name, "hidden": true}})))
                    data-off=(command(json!({"hide": {"who": combatant.name, "hidden": false}})));
                " hidden"
            }
        }
        (adjustments(combatant, snapshot, tracks))
    };
    card(combatant, true, switches)
}

fn card(combatant: &CombatantStatus, gm: bool, extra: Markup) -> Markup {
    html! {
        article.combatant.down[!combatant.standing] data-name=(combatant.name) {
            h3 { (combatant.name) }
            p.meta {
                (combatant.side) " · " (combatant.condition)
                @if let Some(position) = &combatant.position { " · " (position) }
                @if gm && combatant.hidden { " · hidden by the rules" }
            }
            @if !combatant.fields.is_empty() {
                dl { @for field in &combatant.fields { dt { (field.label) } dd { (field.text) } } }
            }
            (extra)
        }
    }
}

/// Who looks at a pending request, and what they may do about it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Viewer {
    /// The GM: answers, takes the AI's choice, enters dice.
    Gm,
    /// A side's players, who answer their own decisions when the GM lets them.
    Players {
        /// Whether they may answer.
        answer: bool,
    },
}

/// The pending request; `odds_coming`: a decision's odds are still being worked out.
fn pending(pending: Option<&Pending>, viewer: Viewer, odds_coming: bool) -> Markup {
    let gm = viewer == Viewer::Gm;
    let answer = gm || viewer == (Viewer::Players { answer: true });
    html! {
        @match pending {
            Some(Pending::Decision { who, side, question, choices, data, ai, .. }) => {
                div.decision {
                    p.question { strong { (who) } " (" (side) ") — " (question) }
                    @if odds_coming { p.odds-coming role="status" { "working out the odds…" } }
                    @if gm {
                        button.take-ai data-command=(command(json!({"answer": ai}))) { "Take the AI's choice" }
                    }
                    // The choices grouped by their kind (attack, move, …), from their structured
                    // data; each keeps its number, the index an answer takes.
                    @for (kind, members) in groups(choices.len(), data) {
                        div.group {
                            @if let Some(kind) = kind { h3.kind { (kind) } }
                            ol.choices {
                                @for i in members {
                                    li value=(i) {
                                        @if answer {
                                            button.choice.ai[i == *ai] data-command=(command(json!({"answer": i}))) {
                                                (choices[i]) @if i == *ai { " ★ AI" }
                                            }
                                        } @else {
                                            span.ai[i == *ai] { (choices[i]) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Some(Pending::Roll { who, what, dice, sides, explosion, .. }) => {
                div.roll {
                    p.question {
                        @if let Some(who) = who { strong { (who) } " — " }
                        (what) ": roll " (dice) "d" (sides)
                        @if *explosion > 0 { " (explosion " (explosion) ")" }
                    }
                    @if gm {
                        form.dice data-kind="dice" data-dice=(dice) data-sides=(sides) {
                            input name="faces" inputmode="numeric" autocomplete="off" required
                                placeholder=(placeholder(*dice, *sides)) aria-label="faces";
                            button type="submit" { "Enter" }
                        }
                    }
                }
            }
            None => {}
        }
    }
}

/// The kind of a choice from its structured data: the names of the variants it is made of, outer
/// to inner (`{"Intent": {"Attack": {…}}}` is "Intent · Attack"), down to the first value that is
/// not a single variant; `None` for data without one.
fn kind(data: &serde_json::Value) -> Option<String> {
    let mut names = Vec::new();
    let mut at = data;
    while let Some(map) = at.as_object().filter(|m| m.len() == 1) {
        let (name, inner) = map.iter().next()?;
        names.push(name.clone());
        at = inner;
    }
    if let Some(name) = at.as_str().filter(|_| names.len() < 3) {
        names.push(name.to_owned());
    }
    (!names.is_empty()).then(|| names.join(" · "))
}

/// The choices' indices grouped by kind, the groups in the order their first choice comes.
fn groups(count: usize, data: &[serde_json::Value]) -> Vec<(Option<String>, Vec<usize>)> {
    let mut groups: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for i in 0..count {
        let kind = data.get(i).and_then(kind);
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, members)) => members.push(i),
            None => groups.push((kind, vec![i])),
        }
    }
    groups
}

/// What the dice field asks for: "a face from 1 to 8", "3 faces from 1 to 6, e.g. 3 5 2".
fn placeholder(dice: u32, sides: u32) -> String {
    match dice {
        1 => format!("a face from 1 to {sides}"),
        n => format!(
            "{n} faces from 1 to {sides}, e.g. {}",
            (0..n).map(|k| (k % sides + 1).to_string()).collect::<Vec<_>>().join(" ")
        ),
    }
}

fn ending(snapshot: &Snapshot) -> Markup {
    html! { @if let Some(ending) = &snapshot.ending { p #ending { "The fight is over: " (ending.text) } } }
}

fn log<'a>(lines: impl DoubleEndedIterator<Item = &'a Line>) -> Markup {
    html! {
        ol.log reversed {
            @for line in lines.rev() { @if let Some(text) = &line.text { li { (text) } } }
        }
    }
}

/// The version of a fight, as server-sent events: the current one at once, then each new one
/// (unnamed events), and an `odds` event with the version whose decision's odds came in.
/// (Subscribed before the version is read, so no command falls between the two.)
async fn events(
    fight: Arc<Fight>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>> + use<>>, ApiError> {
    let receiver = fight.subscribe();
    let now = read(fight, |_, session| session.version()).await?;
    let stream = futures_util::stream::unfold((receiver, Some(now)), |(mut receiver, first)| async move {
        if let Some(version) = first {
            return Some((Ok(Event::default().data(version.to_string())), (receiver, None)));
        }
        loop {
            match receiver.recv().await {
                Ok(Told::Version(version)) => {
                    return Some((Ok(Event::default().data(version.to_string())), (receiver, None)));
                }
                // The odds of the decision at this version are in: a page at this version
                // fetches its board again.
                Ok(Told::Odds(version)) => {
                    return Some((Ok(Event::default().event("odds").data(version.to_string())), (receiver, None)));
                }
                // A slow page missed some versions: the next one tells it all it needs.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// `GET /fights/{id}/events`: the fight's versions, for the GM's page.
pub async fn fight_events(
    _: Gm,
    axum::extract::State(state): AppState,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let fight = state.fight(&id).ok_or(ApiError::NotFound("fight"))?;
    Ok(events(fight).await?.into_response())
}

/// `GET /play/{token}/events`: the fight's versions, for a players' page (nothing else).
pub async fn player_events(
    axum::extract::State(state): AppState,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let (fight, _) = state.player(&token).ok_or(ApiError::NotFound("player token"))?;
    Ok(events(fight).await?.into_response())
}

/// A side's board: its `view` (without its log) and the log `lines` it may see.
fn player_board(view: &View, lines: &[&Line], title: &str, version: usize, answer: bool, odds_coming: bool) -> Markup {
    html! {
        header {
            h1 { (title) }
            span.version data-version=(version) { (view.side) }
        }
        section #pending {
            (pending(view.pending.as_ref(), Viewer::Players { answer }, odds_coming))
            @if let Some(who) = &view.waiting_for { p.waiting { "Waiting for " (who) "." } }
            @if let Some(ending) = &view.ending { p #ending { "The fight is over: " (ending.text) } }
        }
        section #status { h2 { "Status" } div.board { @for combatant in &view.status { (card(combatant, false, html! {})) } } }
        section #log { h2 { "Log" } (log(lines.iter().copied())) }
    }
}

async fn player_markup(state: &Arc<State>, token: &str) -> Result<(Markup, String), ApiError> {
    let (fight, side) = state.player(token).ok_or(ApiError::NotFound("player token"))?;
    let title = fight.title.clone();
    let board = board(state, fight, Some(side)).await?;
    Ok((maud::PreEscaped(board.to_string()), title))
}

/// `GET /play/{token}`: a side's page.
pub async fn player_page(axum::extract::State(state): AppState, Path(token): Path<String>) -> Response {
    match player_markup(&state, &token).await {
        Ok((board, title)) => layout(
            &title,
            html! {
                p #message role="status" {}
                main #board data-board={ "/play/" (token) "/board" } data-events={ "/play/" (token) "/events" }
                    data-api={ "/play/" (token) "/commands" } { (board) }
            },
        )
        .into_response(),
        Err(e) => e.into_response(),
    }
}

/// `GET /play/{token}/board`: a side's board alone, for the script's refresh.
pub async fn player_board_route(
    axum::extract::State(state): AppState,
    Path(token): Path<String>,
) -> Result<Html<String>, ApiError> {
    Ok(Html(player_markup(&state, &token).await?.0.into_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_grouped_by_the_kind_their_data_names() {
        let data = vec![
            json!({ "Intent": null }),
            json!({ "Intent": { "Attack": { "target": 1, "fists": true } } }),
            json!({ "Intent": { "Move": { "x": 0.0, "y": 0.0 } } }),
            json!({ "Intent": { "Attack": { "target": 2, "fists": false } } }),
            json!({ "Yes": true }),
            json!("End"),
        ];
        assert_eq!(kind(&data[1]).as_deref(), Some("Intent · Attack"));
        assert_eq!(kind(&data[5]).as_deref(), Some("End"));
        let groups = groups(7, &data);
        let shape: Vec<(Option<&str>, &[usize])> = groups.iter().map(|(k, m)| (k.as_deref(), &m[..])).collect();
        assert_eq!(
            shape,
            [
                (Some("Intent"), &[0][..]),
                (Some("Intent · Attack"), &[1, 3][..]),
                (Some("Intent · Move"), &[2][..]),
                (Some("Yes"), &[4][..]),
                (Some("End"), &[5][..]),
                (None, &[6][..]),
            ]
        );
    }
}
