//! What each endpoint of `xcover serve` computes: plain functions from a JSON request to a JSON
//! answer, run on a blocking thread. The server (the parent module) adds HTTP, the limits and
//! the threads; nothing here knows about them but the cancellation flag and the deadline that
//! every search obeys.
//!
//! A puzzle arrives as text in any layout the command line reads (or a variant block), so
//! what a user pastes into the page is read exactly as `xcover sudoku solve` would read it, and
//! its errors carry the same line and cell.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::{Value, json};
use xcover::dlx::{self, Enumeration, Matrix, Monitor, Solver, Stop, Subtree, Verdict, format};
use xcover::sudoku::AnyPuzzle;
use xcover::sudoku::BoxShape;
use xcover::sudoku::generate::{Recipe, Request, Symmetry, rules_named};
use xcover::sudoku::logic::{self, ChainNode, Level, Position, Step};
use xcover::sudoku::rules::{Mark, Rules};
use xcover::sudoku::text::{self, FaultKind};
use xcover::sudoku::variant;

/// The largest side the page works with (the engine's Sudoku limit).
const MAX_SIDE: usize = 64;

/// Candidates are sent with each explained step up to this side (beyond it the answer would
/// grow to megabytes).
const MAX_SIDE_WITH_CANDIDATES: usize = 16;

/// The most solutions `cover/solutions` lists.
const MAX_LISTED: usize = 1000;

/// The most solution text one listing answers, in bytes (options written out).
const MAX_ANSWER_BYTES: usize = 2 << 20;

/// When and how a search must stop.
#[derive(Clone)]
pub struct Limits {
    pub deadline: Instant,
    pub cancel: Arc<AtomicBool>,
}

impl Limits {
    /// Whether a search that stopped ran out of time (else it was cancelled: its client went
    /// away).
    fn timed_out(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// What stopped a search, as the answers name it: `time limit` or `cancelled`.
    fn stop_name(&self) -> &'static str {
        if self.timed_out() {
            "time limit"
        } else {
            "cancelled"
        }
    }

    /// Why a search stopped, as an error message.
    fn why_stopped(&self) -> &'static str {
        if self.timed_out() {
            "the search ran into the server's time limit and was stopped"
        } else {
            "the search was cancelled"
        }
    }

    fn arm(&self, solver: &mut Solver<'_>) {
        solver.set_deadline(Some(self.deadline));
        solver.set_cancel_flag(Some(Arc::clone(&self.cancel)));
    }
}

/// A failed request: the HTTP status, a message, and where in the input, when known.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
    pub line: Option<usize>,
    /// Cells (row, column from 0) the message is about, for the page to mark.
    pub cells: Vec<(usize, usize)>,
    /// What kind of fault a puzzle that cannot be read has (`layout`, `value`, `rule`,
    /// `clash`, `unsupported`); `None` for other errors.
    pub kind: Option<FaultKind>,
}

impl ApiError {
    pub fn bad(message: impl Into<String>) -> ApiError {
        let message = message.into();
        ApiError {
            status: 400,
            message,
            line: None,
            cells: Vec::new(),
            kind: None,
        }
    }

    fn at_line(line: usize, message: String) -> ApiError {
        ApiError {
            line: Some(line),
            ..ApiError::bad(message)
        }
    }

    /// A search that the deadline or a cancellation stopped (the watchdog's cancellation at
    /// the deadline counts as the deadline).
    pub fn stopped(limits: &Limits) -> ApiError {
        ApiError {
            status: 503,
            message: limits.why_stopped().into(),
            line: None,
            cells: Vec::new(),
            kind: None,
        }
    }

    pub fn to_json(&self) -> Value {
        json!({
            "error": self.message,
            "line": self.line,
            "cells": self.cells.iter().map(|&(r, c)| [r + 1, c + 1]).collect::<Vec<_>>(),
            "kind": self.kind.map(FaultKind::name),
        })
    }
}

/// At most the first 60 characters of a piece of the request, for an error message: an
/// answer never echoes a large request back.
fn clipped(text: &str) -> String {
    const SHOWN: usize = 60;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// The request's `limit`: absent (`None`), or a whole number of at least 1 (a count up to 0
/// solutions would answer 0 for any puzzle); anything else is an error, never no limit.
pub fn limit_of(request: &Value) -> Result<Option<u64>, ApiError> {
    match &request["limit"] {
        Value::Null => Ok(None),
        limit => match limit.as_u64() {
            Some(limit) if limit >= 1 => Ok(Some(limit)),
            _ => Err(ApiError::bad(format!(
                "\"limit\" must be a whole number of at least 1, not {}",
                clipped(&limit.to_string())
            ))),
        },
    }
}

fn field<'a>(request: &'a Value, name: &str) -> Result<&'a str, ApiError> {
    request[name]
        .as_str()
        .ok_or_else(|| ApiError::bad(format!("the request needs \"{name}\", a string")))
}

/// The puzzle in `request["puzzle"]` (with `request["box"]`, a shape such as `2x3`, if given):
/// the first puzzle of the text, read as the command line reads files.
/// Why a puzzle off a square grid of digits from 1 (6x9, doppelganger) is refused.
const NOT_SQUARE: &str = "the page and the API read square grids of digits from 1; \
                          `xcover sudoku solve`, `count` and `check` read this puzzle";

pub fn subject_of(request: &Value) -> Result<AnyPuzzle, ApiError> {
    let text = field(request, "puzzle")?;
    if variant::text::is_variant_text(text) {
        let entry = variant::text::read_any(text)
            .into_iter()
            .next()
            .ok_or_else(|| ApiError::bad("no puzzle in the text"))?
            .map_err(|error| ApiError {
                cells: error.cells.clone(),
                kind: Some(error.kind),
                ..ApiError::at_line(error.line, error.message)
            })?;
        entry.puzzle.rules.validate().map_err(|error| ApiError {
            cells: error.cells(),
            kind: Some(FaultKind::Rule),
            ..ApiError::at_line(entry.line, error.to_string())
        })?;
        if !entry.puzzle.rules.is_square() {
            return Err(ApiError::at_line(entry.line, NOT_SQUARE.into()));
        }
        return Ok(AnyPuzzle::Variant(Box::new(entry.puzzle)));
    }
    let shape = match request["box"].as_str().filter(|s| !s.is_empty()) {
        Some(text) => Some(
            text.parse::<BoxShape>()
                .map_err(|error| ApiError::bad(format!("box: {error}")))?,
        ),
        None => None,
    };
    let puzzle = text::parse(text, shape)
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::bad("no puzzle in the text: type or paste a grid"))?
        .and_then(|puzzle| puzzle.validate().map(|()| puzzle))
        .map_err(|error| ApiError {
            cells: error.cells(),
            kind: Some(error.kind.fault_kind()),
            ..ApiError::at_line(error.line, error.kind.to_string())
        })?;
    if puzzle.grid.size() > MAX_SIDE {
        return Err(ApiError::bad(format!(
            "a grid of side {} is larger than {MAX_SIDE}",
            puzzle.grid.size()
        )));
    }
    Ok(AnyPuzzle::Grid(puzzle.grid))
}

/// What the page needs to draw a puzzle: the side, the area (box or region) of each cell, the
/// rules, cages, diagonals and windows, and the givens.
fn board(subject: &AnyPuzzle) -> Value {
    let n = subject.size();
    match subject {
        AnyPuzzle::Grid(grid) => {
            let shape = grid.shape();
            let areas: Vec<usize> = (0..n * n).map(|i| shape.box_of(i / n, i % n)).collect();
            json!({
                "variant": false,
                "size": n,
                "boxes": shape.to_string(),
                "areas": areas,
                "rules": ["rows", "columns", "boxes"],
                "marks": [],
                "givens": grid.cells(),
            })
        }
        AnyPuzzle::Variant(puzzle) => {
            let rules = &puzzle.rules;
            let areas: Option<Vec<usize>> = match (rules.regions(), rules.boxes) {
                (Some(regions), _) => Some(regions.iter().map(|&r| usize::from(r)).collect()),
                (None, Some(shape)) => {
                    Some((0..n * n).map(|i| shape.box_of(i / n, i % n)).collect())
                }
                (None, None) => None,
            };
            let marks: Vec<Value> = rules.marks().iter().map(|m| mark_json(m, n)).collect();
            json!({
                "variant": true,
                "size": n,
                "boxes": rules.boxes.map(|b| b.to_string()),
                "areas": areas,
                "rules": rules.names(),
                "marks": marks,
                "text": variant::text::block(puzzle, "", None),
                "givens": puzzle.givens,
            })
        }
    }
}

/// A rule's mark as the page draws it (see [`Mark`]): cells as indices row * N + column,
/// places outside the grid as `[row, column]`.
fn mark_json(mark: &Mark, n: usize) -> Value {
    let index = |&(r, c): &(usize, usize)| r * n + c;
    let indices = |cells: &[(usize, usize)]| cells.iter().map(index).collect::<Vec<_>>();
    let style = mark.style();
    match mark {
        Mark::Line { cells, .. } => {
            json!({"kind": "line", "style": style, "cells": indices(cells)})
        }
        Mark::Circle { cells, text, .. } => {
            json!({"kind": "circle", "style": style, "cells": indices(cells), "text": text})
        }
        Mark::Edge { cells, text, .. } => {
            json!({"kind": "edge", "style": style, "cells": indices(cells), "text": text})
        }
        Mark::Cage { cells, text, .. } => {
            json!({"kind": "cage", "style": style, "cells": indices(cells), "text": text})
        }
        Mark::Shade { cells, group, .. } => {
            json!({"kind": "shade", "style": style, "group": group, "cells": indices(cells)})
        }
        Mark::Outside {
            at, toward, text, ..
        } => json!({"kind": "outside", "style": style, "at": [at.0, at.1],
                    "toward": [toward.0, toward.1], "text": text}),
        Mark::Corner { cell, text, .. } => {
            json!({"kind": "corner", "style": style, "cell": index(cell), "text": text})
        }
        Mark::Note { cell, text, .. } => {
            json!({"kind": "note", "style": style, "cell": index(cell), "text": text})
        }
    }
}

/// Runs `work` with a solver of `subject` that obeys `limits` (see [`AnyPuzzle::with_solver`]).
fn searching<T>(
    subject: &AnyPuzzle,
    limits: &Limits,
    work: impl FnOnce(Option<&mut Solver<'_>>, &(dyn Fn(&[dlx::OptionId]) -> Vec<u8> + Sync)) -> T,
) -> Result<T, ApiError> {
    let stop = || {
        limits.cancel.load(std::sync::atomic::Ordering::Relaxed) || Instant::now() > limits.deadline
    };
    let result = subject.with_solver_until(&stop, |solver| limits.arm(solver), work);
    if stop() {
        // Stopped while the encoding was built, or while searching: the time limit (or the
        // client went away).
        return result.map_err(|_| ApiError::stopped(limits));
    }
    result.map_err(ApiError::bad)
}

/// `parse`: the board as read.
pub fn parse(request: &Value) -> Result<Value, ApiError> {
    Ok(json!({"board": board(&subject_of(request)?)}))
}

/// `solve`: the first solution, and whether there is another.
pub fn solve(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let subject = subject_of(request)?;
    let started = Instant::now();
    let (verdict, stats, stopped) = searching(&subject, limits, |solver, decode| match solver {
        None => (Verdict::None, dlx::Stats::default(), None),
        Some(solver) => {
            let verdict = solver.verdict().map(|options| decode(&options));
            (verdict, solver.stats(), solver.stopped())
        }
    })?;
    // Stopped with a solution found, the solution stands and only its uniqueness is unknown
    // (null); with two found, the answer is complete.
    let (solution, unique) = match (verdict, stopped) {
        (Verdict::None, Some(_)) => return Err(ApiError::stopped(limits)),
        (Verdict::None, None) => (None, Some(false)),
        (Verdict::Unique(grid), stopped) => (Some(grid), stopped.is_none().then_some(true)),
        (Verdict::Multiple(grid, _), _) => (Some(grid), Some(false)),
    };
    Ok(json!({
        "board": board(&subject),
        "solution": solution,
        "unique": unique,
        "stopped": unique.is_none().then(|| limits.stop_name()),
        "nodes": stats.nodes,
        "seconds": started.elapsed().as_secs_f64(),
    }))
}

/// The most solutions `candidates` counts for each candidate, and its default.
const MAX_CANDIDATE_CAP: u64 = 100_000;
const DEFAULT_CANDIDATE_CAP: u64 = 1000;

/// `candidates`: each cell's true candidates, with the number of solutions that put each
/// there, up to the cap; the open cells (more than one candidate); how many solutions there
/// are, up to the cap.
pub fn candidates(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let cap = match &request["cap"] {
        Value::Null => DEFAULT_CANDIDATE_CAP,
        value => value
            .as_u64()
            .filter(|cap| (1..=MAX_CANDIDATE_CAP).contains(cap))
            .ok_or_else(|| {
                ApiError::bad(format!("cap: a whole number from 1 to {MAX_CANDIDATE_CAP}"))
            })?,
    };
    let subject = subject_of(request)?;
    let n = subject.size();
    let stop = || {
        limits.cancel.load(std::sync::atomic::Ordering::Relaxed) || Instant::now() > limits.deadline
    };
    let found = subject
        .true_candidates_until(&stop, Some(u128::from(cap)), 1, |solver| limits.arm(solver))
        .map_err(|message| {
            if stop() {
                ApiError::stopped(limits)
            } else {
                ApiError::bad(message)
            }
        })?;
    let symbols: Vec<Vec<u8>> = found
        .cells
        .iter()
        .map(|c| c.iter().map(|&(v, _)| v).collect())
        .collect();
    let counts: Vec<Vec<u128>> = found
        .cells
        .iter()
        .map(|c| c.iter().map(|&(_, count)| count.unwrap_or(0)).collect())
        .collect();
    let open: Vec<[usize; 2]> = found
        .open_cells()
        .iter()
        .map(|&c| [c / n + 1, c % n + 1])
        .collect();
    Ok(json!({
        "board": board(&subject),
        "candidates": symbols,
        "counts": counts,
        "undecided": found.undecided,
        "open": open,
        "solutions": found.solutions,
        "cap": cap,
        "stopped": found.stopped.map(|_| limits.stop_name()),
    }))
}

/// `check`: none, unique or multiple; for multiple, two solutions and the cells where they
/// differ.
pub fn check(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let subject = subject_of(request)?;
    let (verdict, stopped) = searching(&subject, limits, |solver, decode| match solver {
        None => (Verdict::None, None),
        Some(solver) => {
            let verdict = solver.verdict().map(|options| decode(&options));
            (verdict, solver.stopped())
        }
    })?;
    if stopped.is_some() {
        return Err(ApiError::stopped(limits));
    }
    let n = subject.size();
    let answer = match verdict {
        Verdict::None => json!({"verdict": "none", "solutions": []}),
        Verdict::Unique(grid) => json!({"verdict": "unique", "solutions": [grid]}),
        Verdict::Multiple(first, second) => {
            let differ: Vec<[usize; 2]> = (0..n * n)
                .filter(|&i| first[i] != second[i])
                .map(|i| [i / n + 1, i % n + 1])
                .collect();
            json!({"verdict": "multiple", "solutions": [first, second], "differ": differ})
        }
    };
    let mut answer = answer;
    answer["board"] = board(&subject);
    Ok(answer)
}

fn step_json(step: &Step, position: Option<&Position>) -> Value {
    let cell = |c: &xcover::sudoku::Cell| [c.row + 1, c.col + 1];
    let mut value = json!({
        "text": step.to_string(),
        "technique": step.technique.name(),
        "placements": step.placements.iter().map(|(c, v)| [c.row + 1, c.col + 1, usize::from(*v)]).collect::<Vec<_>>(),
        "eliminations": step.eliminations.iter().map(|(c, v)| [c.row + 1, c.col + 1, usize::from(*v)]).collect::<Vec<_>>(),
        "reasons": step.reasons.iter().map(cell).collect::<Vec<_>>(),
        "links": step.links.iter().map(|link| {
            let node = |node: &ChainNode| json!({"cells": node.cells.iter().map(cell).collect::<Vec<_>>(), "symbol": node.symbol});
            json!({"from": node(&link.from), "to": node(&link.to), "strong": link.strong})
        }).collect::<Vec<_>>(),
    });
    if let Some(position) = position.filter(|p| p.size() <= MAX_SIDE_WITH_CANDIDATES) {
        let n = position.size();
        let candidates: Vec<Vec<u8>> = (0..n * n)
            .map(|i| {
                position.candidates(xcover::sudoku::Cell {
                    row: i / n,
                    col: i % n,
                })
            })
            .collect();
        value["candidates"] = json!(candidates);
        value["values"] = json!(position.values());
    }
    value
}

/// How many solutions `subject` has, counted to two under the request's limits.
fn solutions_up_to_two(subject: &AnyPuzzle, limits: &Limits) -> Result<u128, ApiError> {
    let (count, stopped) = searching(subject, limits, |solver, _| match solver {
        None => (0, None),
        Some(solver) => (solver.verdict().count(), solver.stopped()),
    })?;
    if stopped.is_some() {
        return Err(ApiError::stopped(limits));
    }
    Ok(count)
}

/// `position`, its techniques stopped by the request's deadline or cancellation (a step of
/// forcing chains on a large grid can be long).
fn stoppable(position: Position, limits: &Limits) -> Position {
    let (cancel, deadline) = (Arc::clone(&limits.cancel), limits.deadline);
    position.with_stop(move || {
        cancel.load(std::sync::atomic::Ordering::Relaxed) || Instant::now() > deadline
    })
}

/// `hint`: the next logical step, if any, and whether the puzzle has several solutions (a
/// step is sound whatever the solutions, but logic cannot finish such a puzzle).
pub fn hint(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let subject = subject_of(request)?;
    let position = stoppable(subject.position(), limits);
    let mut several = false;
    let (step, message) = if let Some(contradiction) = position.contradiction() {
        (None, format!("contradiction: {contradiction}"))
    } else if position.is_full() {
        (None, "the grid is already full".to_string())
    } else {
        several = solutions_up_to_two(&subject, limits)? >= 2;
        let next = logic::next_step(&position);
        if position.stopped() {
            return Err(ApiError::stopped(limits));
        }
        match (next, several) {
            (Some(step), false) => {
                let message = step.to_string();
                (Some(step_json(&step, Some(&position))), message)
            }
            (Some(step), true) => {
                let message = format!(
                    "{step} (note: this puzzle has more than one solution; logic alone cannot \
                     finish it)"
                );
                (Some(step_json(&step, Some(&position))), message)
            }
            (None, false) => (None, "no technique applies: logic stalls here".to_string()),
            (None, true) => (
                None,
                "no technique applies: the puzzle has more than one solution".to_string(),
            ),
        }
    };
    Ok(json!({"board": board(&subject), "step": step, "message": message, "several": several}))
}

/// `explain`: every logical step, each with the candidates before it (on grids up to 16x16),
/// and how logic ended.
pub fn explain(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let subject = subject_of(request)?;
    let mut position = stoppable(subject.position(), limits);
    let mut steps = Vec::new();
    let mut contradiction = position.contradiction();
    while contradiction.is_none() && !position.is_full() {
        if limits.cancel.load(std::sync::atomic::Ordering::Relaxed)
            || Instant::now() > limits.deadline
        {
            return Err(ApiError::stopped(limits));
        }
        let next = logic::next_step(&position);
        if position.stopped() {
            return Err(ApiError::stopped(limits));
        }
        let Some(step) = next else {
            break;
        };
        steps.push(step_json(&step, Some(&position)));
        position.apply(&step);
        contradiction = position.contradiction();
    }
    let stalled = contradiction.is_none() && !position.is_full();
    // Logic that completes the grid proves it the only one; where it stalls, the engine says
    // whether that is because the puzzle has several solutions (or none).
    let solutions = if stalled {
        Some(solutions_up_to_two(&subject, limits)?)
    } else {
        None
    };
    let outcome = match (&contradiction, position.is_full()) {
        (Some(c), _) => format!("contradiction: {c}: the puzzle has no solution"),
        (None, true) => format!("solved by logic in {} steps", steps.len()),
        (None, false) => format!(
            "logic stalls after {} steps with {} cells empty{}",
            steps.len(),
            position.values().iter().filter(|&&v| v == 0).count(),
            match solutions {
                Some(0) => "; the puzzle has no solution",
                Some(1) => "",
                _ => "; the puzzle has more than one solution, so no logic can finish it",
            }
        ),
    };
    Ok(json!({
        "board": board(&subject),
        "steps": steps,
        "values": position.values(),
        "solved": contradiction.is_none() && position.is_full(),
        "several": solutions.is_some_and(|count| count >= 2),
        "message": outcome,
    }))
}

/// `rate`: the level and score, or `no-solution` / `multiple` (the engine decides where logic
/// stalls).
pub fn rate(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let subject = subject_of(request)?;
    let solution = logic::solve_from(stoppable(subject.position(), limits));
    if solution.stopped {
        return Err(ApiError::stopped(limits));
    }
    let rating = logic::rating_of(&solution);
    let level = if solution.contradiction.is_some() {
        "no-solution".to_string()
    } else if solution.is_complete() {
        rating.level.name().to_string()
    } else {
        let reached = subject
            .with_givens(&solution.values)
            .ok_or_else(|| ApiError::bad("the grid could not be rebuilt"))?;
        match solutions_up_to_two(&reached, limits)? {
            0 => "no-solution".to_string(),
            1 => rating.level.name().to_string(),
            _ => "multiple".to_string(),
        }
    };
    let rated = level == rating.level.name();
    Ok(json!({
        "board": board(&subject),
        "level": level,
        "score": rated.then_some(rating.score_value()),
        "hardest": rated.then(|| rating.hardest.map(|t| t.name())).flatten(),
    }))
}

/// `generate`: a new puzzle of a shape (`box`, or `size` for the most square one), with a
/// difficulty and symmetry if asked, from a seed if given.
pub fn generate(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    // Every field is checked for its type and range: a misspelt or mistyped one is an error,
    // never silently a default 9x9.
    let known = [
        "box",
        "size",
        "variant",
        "difficulty",
        "symmetry",
        "seed",
        "minimal",
    ];
    if let Some(fields) = request.as_object()
        && let Some(unknown) = fields.keys().find(|k| !known.contains(&k.as_str()))
    {
        return Err(ApiError::bad(format!(
            "unknown field \"{}\": generate takes {}",
            clipped(unknown),
            known.join(", ")
        )));
    }
    let text_field = |name: &str| -> Result<Option<&str>, ApiError> {
        match &request[name] {
            Value::Null => Ok(None),
            Value::String(text) if text.is_empty() => Ok(None),
            Value::String(text) => Ok(Some(text)),
            other => Err(ApiError::bad(format!(
                "\"{name}\" must be a string, not {}",
                clipped(&other.to_string())
            ))),
        }
    };
    let shape = match (text_field("box")?, &request["size"]) {
        (Some(text), _) => text
            .parse::<BoxShape>()
            .map_err(|error| ApiError::bad(format!("box: {error}")))?,
        (None, Value::Null) => BoxShape::new(3, 3).expect("3x3"),
        (None, size) => {
            let side = size.as_u64().filter(|side| (4..=25).contains(side));
            let side = side.ok_or_else(|| {
                ApiError::bad(format!(
                    "\"size\" must be a whole number from 4 to 25, not {}",
                    clipped(&size.to_string())
                ))
            })?;
            BoxShape::for_size(side as usize)
                .ok_or_else(|| ApiError::bad(format!("no box shape fits a side of {side}")))?
        }
    };
    if shape.size() > 25 {
        return Err(ApiError::bad("the page generates grids up to 25x25"));
    }
    let difficulty = match text_field("difficulty")? {
        None | Some("any") => None,
        Some(name) => Some(
            Level::ALL
                .into_iter()
                .find(|level| level.name() == name && *level != Level::NeedsSearch)
                .ok_or_else(|| {
                    ApiError::bad(format!(
                        "unknown difficulty '{}': easy, medium, hard, expert, extreme or forcing",
                        clipped(name)
                    ))
                })?,
        ),
    };
    let symmetry = match text_field("symmetry")? {
        None => Symmetry::None,
        Some(name) => name.parse::<Symmetry>().map_err(ApiError::bad)?,
    };
    // A seed is a whole number from 0 to 2^64 - 1, as a number or (since JavaScript rounds
    // numbers above 2^53) as a string of digits; the answer gives it both ways.
    let seed = match &request["seed"] {
        Value::Null => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
        Value::String(text) if text.bytes().all(|b| b.is_ascii_digit()) => text
            .parse::<u64>()
            .map_err(|_| ApiError::bad(format!("\"seed\" {} is above 2^64 - 1", clipped(text))))?,
        seed => seed.as_u64().ok_or_else(|| {
            ApiError::bad(format!(
                "\"seed\" must be a whole number from 0 to 2^64 - 1, not {}",
                clipped(&seed.to_string())
            ))
        })?,
    };
    let minimal = match &request["minimal"] {
        Value::Null => true,
        Value::Bool(minimal) => *minimal,
        other => {
            return Err(ApiError::bad(format!(
                "\"minimal\" must be true or false, not {}",
                clipped(&other.to_string())
            )));
        }
    };
    let (rules, drawn) = match text_field("variant")? {
        None | Some("") => (Rules::classic(shape), Vec::new()),
        Some(names) => rules_named(names, shape)
            .map_err(|message| ApiError::bad(message.replace("--variant: ", "variant: ")))?,
    };
    let variant = rules != Rules::classic(shape) || !drawn.is_empty();
    let request = Request {
        rules,
        drawn,
        symmetry,
        // Variants are always minimal, as on the command line.
        minimal: difficulty.is_some() || minimal || variant,
        difficulty,
        seed,
    };
    let recipe = Recipe::new(request).map_err(|error| ApiError::bad(error.to_string()))?;
    let mut generator = recipe.generator();
    // The generator polls a flag only: a watchdog sets it at the deadline.
    generator.set_cancel_flag(Some(Arc::clone(&limits.cancel)));
    let made = generator.generate(0).map_err(|error| {
        match limits.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            true => ApiError::stopped(limits),
            false => ApiError::bad(error.to_string()),
        }
    })?;
    let puzzle = match &made.puzzle {
        AnyPuzzle::Grid(grid) => text::write(grid, text::Layout::Line).trim_end().to_string(),
        AnyPuzzle::Variant(puzzle) => variant::text::block(puzzle, "", None),
    };
    Ok(json!({
        "board": board(&made.puzzle),
        "puzzle": puzzle,
        "solution": made.solution,
        "seed": seed,
        "seed_text": seed.to_string(),
        "level": made.rating.map(|r| r.level.name()),
    }))
}

/// The problem in `request["problem"]`, in Knuth's format.
fn matrix_of(request: &Value) -> Result<Matrix, ApiError> {
    let text = field(request, "problem")?;
    let parsed = format::read(text).map_err(|error| {
        let message = error.to_string();
        ApiError::at_line(error.line, message)
    })?;
    Matrix::new(parsed.problem).map_err(|error| ApiError::bad(error.to_string()))
}

/// `cover/solutions`: the first `limit` solutions (10 if not given) of an exact-cover problem,
/// each as its option lines.
pub fn cover_solutions(request: &Value, limits: &Limits) -> Result<Value, ApiError> {
    let matrix = matrix_of(request)?;
    let wanted = (limit_of(request)?.unwrap_or(10) as usize).min(MAX_LISTED);
    let mut solver = matrix.solver();
    limits.arm(&mut solver);
    let problem = matrix.problem();
    let mut solutions = Vec::new();
    let mut more = false;
    // The answer's size is bounded, whatever the problem: one long option in every solution
    // made a 1.1 MB request answer 549 MB.
    let mut bytes = 0usize;
    let mut truncated = false;
    {
        let mut search = solver.search();
        while let Some(solution) = search.next_solution() {
            if solutions.len() == wanted {
                more = true;
                break;
            }
            let mut lines = Vec::new();
            let mut size = 0;
            for option in solution.options() {
                let mut line = Vec::new();
                let _ = format::write_option(problem, option, &mut line);
                size += line.len() + 4;
                lines.push(String::from_utf8_lossy(&line).into_owned());
            }
            if bytes + size > MAX_ANSWER_BYTES && !solutions.is_empty() {
                truncated = true;
                more = true;
                break;
            }
            bytes += size;
            if bytes > MAX_ANSWER_BYTES {
                return Err(ApiError::bad(format!(
                    "one solution alone is longer than {} MiB written out; count the \
                     solutions instead, or use the command line",
                    MAX_ANSWER_BYTES >> 20
                )));
            }
            solutions.push(lines);
        }
    }
    // Stopped with solutions found, they stand; whether there are more is unknown (null).
    let stopped = solver.stopped().is_some();
    if stopped && solutions.is_empty() {
        return Err(ApiError::stopped(limits));
    }
    Ok(json!({
        "items": problem.item_count(),
        "options": problem.option_count(),
        "solutions": solutions,
        "more": (!stopped).then_some(more),
        "stopped": stopped.then(|| limits.stop_name()),
        // Listing stopped early because the answer reached its size limit.
        "truncated": truncated,
    }))
}

/// What a count request counts, read once before the count starts streaming (so that a bad
/// request gets an error status, not a stream).
pub enum Counted {
    Puzzle(AnyPuzzle),
    Problem(Box<Matrix>),
}

/// The puzzle (`puzzle`) or exact-cover problem (`problem`) of a count request.
pub fn counted(request: &Value) -> Result<Counted, ApiError> {
    if request.get("problem").is_some() {
        matrix_of(request).map(|matrix| Counted::Problem(Box::new(matrix)))
    } else {
        subject_of(request).map(Counted::Puzzle)
    }
}

/// `count`: the solutions of `counted`, up to `limit` if given, on every thread of the pool,
/// with figures in `monitor` as it goes. Answers the count, whether it is complete, and why
/// it stopped if it did.
pub fn count(
    counted: &Counted,
    limit: Option<u128>,
    limits: &Limits,
    monitor: &Monitor,
) -> Result<Value, ApiError> {
    let settings = Enumeration {
        limit,
        ordered: false,
        discard_remainder: true,
    };
    let run = |solver: Option<&mut Solver<'_>>| -> Result<(u128, Option<Stop>), ApiError> {
        let Some(solver) = solver else {
            return Ok((0, None));
        };
        limits.arm(solver);
        let outcome = solver
            .enumerate_parallel(vec![Subtree::root()], &settings, None, monitor)
            .map_err(|error| ApiError::bad(error.to_string()))?;
        Ok((outcome.solutions, outcome.stopped))
    };
    let (solutions, stopped) = match counted {
        Counted::Problem(matrix) => run(Some(&mut matrix.solver()))?,
        Counted::Puzzle(subject) => searching(subject, limits, |solver, _| run(solver))??,
    };
    let complete = stopped.is_none() && limit.is_none_or(|l| solutions < l);
    Ok(json!({
        "done": true,
        "count": solutions.to_string(),
        "complete": complete,
        "limit_reached": limit == Some(solutions),
        "stopped": stopped.map(|_| limits.stop_name()),
    }))
}
