//! One search on every core, in parts, watched and resumable: what `cover count`, `cover
//! solve --all`, `sudoku count` and `sudoku solve --all` on one puzzle share.
//!
//! The engine does the work ([`Solver::enumerate_parallel`], [`Solver::shard`],
//! [`Checkpoint`]); this module turns the flags into it: which part of the search to run
//! (`--shard K/N`, `--shard auto/N`, `--task LINE`), where to save and resume
//! (`--checkpoint`, `--resume`), and progress on stderr (a bar on a terminal, lines with
//! `--progress`, drawn by [`super::progress`]). It also prints the task lists of `split`;
//! [`super::merge`] adds the records of shards up.

use std::fs;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::progress::Progress;
use super::signals;
use xcover::dlx::checkpoint::Checkpoint;
use xcover::dlx::{Enumeration, Monitor, OptionId, Solver, Stats, Stop, Subtree, Visitor};

/// The flags of one search split, watched or resumed.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// Run only part K of N of the search (K from 1 to N): the N parts are disjoint and
    /// together hold every solution. `auto/N` takes K from the environment of a batch
    /// engine: JOB_COMPLETION_INDEX (Kubernetes Indexed Job, from 0), SLURM_ARRAY_TASK_ID
    /// (from SLURM_ARRAY_TASK_MIN) or PARALLEL_SEQ (GNU parallel, from 1).
    #[arg(long, value_name = "K/N", conflicts_with = "task")]
    pub shard: Option<ShardArg>,
    /// Run one line of the task list that `split` prints.
    #[arg(long, value_name = "LINE")]
    pub task: Option<String>,
    /// Save the position to FILE every few seconds and when stopped; if FILE exists, go on
    /// from it (run the same command again after an interruption).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Go on from the checkpoint in FILE (which must exist), saving there as --checkpoint.
    #[arg(long, value_name = "FILE", conflicts_with = "checkpoint")]
    pub resume: Option<PathBuf>,
    /// Seconds between two saves of the checkpoint.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    pub checkpoint_every: f64,
    /// Print progress lines on stderr every SECONDS (default 2), also when stderr is not a
    /// terminal (on a terminal a progress bar is shown anyway).
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "2",
          value_parser = parse_seconds)]
    pub progress: Option<f64>,
}

impl SearchArgs {
    /// Whether any flag asks for something only a single search can do.
    pub fn any(&self) -> bool {
        self.shard.is_some()
            || self.task.is_some()
            || self.checkpoint.is_some()
            || self.resume.is_some()
    }
}

/// A number of seconds for `--checkpoint-every` and `--progress`: above 0, at most a year
/// (a longer interval would be none at all, and could not be a `Duration`).
fn parse_seconds(text: &str) -> Result<f64, String> {
    const YEAR: f64 = 365.0 * 86_400.0;
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= YEAR => Ok(seconds),
        _ => Err(format!(
            "'{text}' is not a number of seconds above 0 and at most a year"
        )),
    }
}

/// `--shard K/N` or `auto/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardArg {
    /// `None` for `auto`.
    pub k: Option<usize>,
    pub n: usize,
}

/// The most parts a search can be split into: beyond, the split itself (which every shard
/// makes) would take longer than any part.
pub const MAX_PARTS: usize = 1_000_000;

impl FromStr for ShardArg {
    type Err = String;

    fn from_str(text: &str) -> Result<ShardArg, String> {
        let error =
            || format!("expected K/N (such as 3/64, K from 1 to N) or auto/N, found '{text}'");
        let (k, n) = text.split_once('/').ok_or_else(error)?;
        let n: usize = n.trim().parse().map_err(|_| error())?;
        if n == 0 || n > MAX_PARTS {
            return Err(format!("N must be from 1 to {MAX_PARTS}, found '{text}'"));
        }
        let k = match k.trim() {
            "auto" => None,
            k => {
                let k: usize = k.parse().map_err(|_| error())?;
                if !(1..=n).contains(&k) {
                    return Err(format!("K must be from 1 to N, found '{text}'"));
                }
                Some(k)
            }
        };
        Ok(ShardArg { k, n })
    }
}

/// K for `--shard auto/N`, from the environment of the batch engine running this process.
fn shard_from_environment(n: usize) -> Result<usize, String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let number = |name: &str, value: &str| {
        value
            .trim()
            .parse::<i64>()
            .map_err(|_| format!("{name}='{value}' is not a number"))
    };
    let (source, k) = if let Some(index) = var("JOB_COMPLETION_INDEX") {
        (
            "JOB_COMPLETION_INDEX",
            number("JOB_COMPLETION_INDEX", &index)? + 1,
        )
    } else if let Some(id) = var("SLURM_ARRAY_TASK_ID") {
        let min = match var("SLURM_ARRAY_TASK_MIN") {
            Some(min) => number("SLURM_ARRAY_TASK_MIN", &min)?,
            None => 1,
        };
        (
            "SLURM_ARRAY_TASK_ID",
            number("SLURM_ARRAY_TASK_ID", &id)? - min + 1,
        )
    } else if let Some(seq) = var("PARALLEL_SEQ") {
        ("PARALLEL_SEQ", number("PARALLEL_SEQ", &seq)?)
    } else {
        return Err(
            "--shard auto/N: none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or PARALLEL_SEQ \
             is set; give K/N instead"
                .to_string(),
        );
    };
    usize::try_from(k)
        .ok()
        .filter(|k| (1..=n).contains(k))
        .ok_or_else(|| format!("--shard auto/{n}: {source} gives part {k}, not from 1 to {n}"))
}

/// Which part of the search a run covers, as records name it: `K/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub k: usize,
    pub n: usize,
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// How a run of one search ended.
#[derive(Debug, Clone)]
pub struct Finished {
    pub solutions: u128,
    pub stats: Stats,
    pub seconds: f64,
    pub part: Part,
    pub fingerprint: u64,
    /// Ctrl-C or SIGTERM stopped it: `solutions` is a partial count.
    pub interrupted: bool,
}

impl Finished {
    /// The result record of `--format json`, which `merge` adds up.
    pub fn record(&self) -> Value {
        json!({
            "fingerprint": format!("{:016x}", self.fingerprint),
            "shard": self.part.to_string(),
            "count": count_json(self.solutions),
            "partial": self.interrupted,
            "nodes": self.stats.nodes,
            "seconds": (self.seconds * 1e3).round() / 1e3,
        })
    }
}

/// A count as JSON: a number while it fits 64 bits (what JSON readers take), else a string
/// of digits (`merge` reads both).
pub fn count_json(count: u128) -> Value {
    match u64::try_from(count) {
        Ok(count) => Value::from(count),
        Err(_) => Value::from(count.to_string()),
    }
}

/// The first word of a task line.
const TASK_TAG: &str = "xcover-task";

/// Prints the task list of `split`: `parts` lines, each a part of the search that
/// `--task LINE` runs.
pub fn print_tasks(solver: &mut Solver<'_>, parts: usize, out: &mut impl Write) -> io::Result<()> {
    // The tasks are paths that only branching on the fewest options makes the same.
    solver.set_branching(xcover::dlx::Branching::Fewest);
    let fingerprint = solver.fingerprint();
    let subtrees = solver.subtrees(parts.saturating_mul(xcover::dlx::SUBTREES_PER_SHARD));
    for k in 1..=parts {
        write!(out, "{TASK_TAG} {fingerprint:016x} {k}/{parts}")?;
        for subtree in subtrees.iter().skip(k - 1).step_by(parts) {
            write!(out, " {subtree}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Reads a task line: its part and subtrees, after checking it belongs to this search.
fn read_task(line: &str, fingerprint: u64) -> Result<(Part, Vec<Subtree>), String> {
    let mut words = line.split_whitespace();
    let bad = || {
        format!(
            "--task: expected a line printed by `split` ('{TASK_TAG} FINGERPRINT K/N \
             SUBTREE...'), found '{}'",
            line.chars().take(80).collect::<String>()
        )
    };
    if words.next() != Some(TASK_TAG) {
        return Err(bad());
    }
    let theirs = words
        .next()
        .and_then(|word| u64::from_str_radix(word, 16).ok())
        .ok_or_else(bad)?;
    if theirs != fingerprint {
        return Err(format!(
            "--task: the line belongs to another search (fingerprint {theirs:016x}, this one \
             is {fingerprint:016x}: another problem, puzzle or --inference setting)"
        ));
    }
    let shard: ShardArg = words.next().ok_or_else(bad)?.parse()?;
    let k = shard.k.ok_or_else(bad)?;
    let subtrees = words
        .map(|word| word.parse::<Subtree>().map_err(|e| format!("--task: {e}")))
        .collect::<Result<_, _>>()?;
    Ok((Part { k, n: shard.n }, subtrees))
}

/// What to do with solutions and when to stop.
pub struct Wanted<'v> {
    pub limit: Option<u128>,
    pub ordered: bool,
    pub visit: Option<Visitor<'v>>,
}

/// What [`run_writing`] gives back: the writer, how many solutions it wrote, and how the
/// search ended (an error message for the user), unless writing failed first.
pub type Written<W> = (W, u128, io::Result<Result<Finished, String>>);

/// [`run`] for `solve --all`: each solution is written whole by `write(out, options, index)`
/// (index from 0) from whichever thread finds it; the first write error (a closed pipe) stops
/// Why flags of a listing cannot go together, if they cannot: `--ordered` makes some
/// solutions wait in memory for their turn, which a checkpoint cannot save.
pub fn conflict(ordered: bool, args: &SearchArgs) -> Option<String> {
    (ordered && (args.checkpoint.is_some() || args.resume.is_some()))
        .then(|| "--ordered cannot be combined with --checkpoint or --resume".to_string())
}

/// the search.
pub fn run_writing<W: Write + Send>(
    solver: &mut Solver<'_>,
    args: &SearchArgs,
    (limit, ordered): (Option<u128>, bool),
    label: &str,
    out: W,
    write: impl Fn(&mut W, &[OptionId], u128) -> io::Result<()> + Sync,
) -> Written<W> {
    let shared = Mutex::new((out, 0u128, None::<io::Error>));
    let visit = |options: &[OptionId]| {
        let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
        let (out, written, error) = &mut *guard;
        match write(out, options, *written) {
            Ok(()) => {
                *written += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                error.get_or_insert(e);
                ControlFlow::Break(())
            }
        }
    };
    let wanted = Wanted {
        limit,
        ordered,
        visit: Some(&visit),
    };
    let finished = run(solver, args, &wanted, label);
    let (out, written, error) = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    let outcome = match error {
        Some(error) => Err(error),
        None => Ok(finished),
    };
    (out, written, outcome)
}

/// Where a run starts: the subtrees to search and what was done before (on resume).
struct Start {
    part: Part,
    subtrees: Vec<Subtree>,
    before: Checkpoint,
}

/// Runs one search (the part the flags name) on every thread of the pool, with progress and
/// checkpoints; `label` names the input in messages. An error message is for the user.
pub fn run(
    solver: &mut Solver<'_>,
    args: &SearchArgs,
    wanted: &Wanted<'_>,
    label: &str,
) -> Result<Finished, String> {
    let started = Instant::now();
    if args.any() {
        // Parts of a search, saved or resumed, are paths that only branching on the fewest
        // options makes the same from run to run.
        solver.set_branching(xcover::dlx::Branching::Fewest);
    }
    let fingerprint = solver.fingerprint();
    let save_to = args.checkpoint.as_ref().or(args.resume.as_ref());
    if let Some(message) = conflict(wanted.ordered, args) {
        return Err(message);
    }
    if save_to.is_some() && !solver.can_split() {
        return Err(format!(
            "{label}: a search with multiplicities (a:b|item) cannot be checkpointed yet"
        ));
    }
    let start = start(solver, args, fingerprint)?;
    let Start {
        part,
        mut subtrees,
        before,
    } = start;
    let mut solutions = before.solutions;
    // The work of choosing the options given before the search (a puzzle's clues) counts,
    // as in a batch's records.
    let mut stats = solver.stats();
    let mut explored = before.explored;
    // Shares are of the whole tree; a part's progress is shown as a share of the part.
    let part_share = (before.explored + subtrees.iter().map(|s| s.share).sum::<f64>()).max(1e-300);
    let progress = Progress::new(args.progress, before.seconds, before.nodes, part_share);
    let mut interrupted = false;
    loop {
        let round_end =
            save_to.map(|_| Instant::now() + Duration::from_secs_f64(args.checkpoint_every));
        solver.set_deadline(round_end);
        let settings = Enumeration {
            limit: wanted.limit.map(|limit| limit.saturating_sub(solutions)),
            ordered: wanted.ordered,
            ..Enumeration::default()
        };
        if settings.limit == Some(0) {
            subtrees.clear();
            break;
        }
        let monitor = Monitor::new();
        let outcome = progress.watch(&monitor, solutions, explored, || {
            solver.enumerate_parallel(
                std::mem::take(&mut subtrees),
                &settings,
                wanted.visit,
                &monitor,
            )
        });
        let outcome = outcome.map_err(|error| format!("{label}: {error}"))?;
        solutions += outcome.solutions;
        stats += outcome.stats;
        explored = (explored + monitor.snapshot().explored).min(1.0);
        subtrees = outcome.remainder;
        let seconds = before.seconds + started.elapsed().as_secs_f64();
        if let Some(path) = save_to {
            let checkpoint = Checkpoint {
                fingerprint,
                solutions,
                nodes: before.nodes + stats.nodes,
                seconds,
                explored: if subtrees.is_empty() {
                    part_share
                } else {
                    explored
                }
                .min(1.0),
                remainder: subtrees.clone(),
            };
            save(path, &checkpoint)?;
        }
        match outcome.stopped {
            Some(Stop::Deadline) if !signals::stopped() => continue,
            Some(_) => {
                interrupted = true;
                if solver.can_split() {
                    report_stop(label, solutions, explored / part_share, &subtrees, save_to);
                } else {
                    eprintln!(
                        "xcover: {label}: interrupted: {solutions} solutions so far (a partial \
                         count; a search with multiplicities cannot be resumed)"
                    );
                }
            }
            None => {}
        }
        break;
    }
    progress.finish();
    stats.nodes += before.nodes;
    stats.solutions = solutions;
    Ok(Finished {
        solutions,
        stats,
        seconds: before.seconds + started.elapsed().as_secs_f64(),
        part,
        fingerprint,
        interrupted,
    })
}

/// The subtrees a run starts from: a checkpoint's remainder, a task line's subtrees, a
/// shard, or the whole search.
fn start(solver: &mut Solver<'_>, args: &SearchArgs, fingerprint: u64) -> Result<Start, String> {
    let nothing = Checkpoint {
        fingerprint,
        solutions: 0,
        nodes: 0,
        seconds: 0.0,
        explored: 0.0,
        remainder: Vec::new(),
    };
    let (part, subtrees) = if let Some(line) = &args.task {
        read_task(line, fingerprint)?
    } else if let Some(shard) = args.shard {
        let k = match shard.k {
            Some(k) => k,
            None => shard_from_environment(shard.n)?,
        };
        (Part { k, n: shard.n }, Vec::new())
    } else {
        (Part { k: 1, n: 1 }, vec![Subtree::root()])
    };
    let resume_from = match (&args.resume, &args.checkpoint) {
        (Some(path), _) => Some(path),
        (None, Some(path)) if path.exists() => Some(path),
        _ => None,
    };
    if let Some(path) = resume_from {
        let before = load(path, fingerprint)?;
        eprintln!(
            "xcover: resuming from {}: {} solutions counted in {:.1} s, {} subtrees left",
            path.display(),
            before.solutions,
            before.seconds,
            before.remainder.len()
        );
        return Ok(Start {
            part,
            subtrees: before.remainder.clone(),
            before,
        });
    }
    let subtrees = if args.task.is_none() && args.shard.is_some() {
        solver.shard(part.k, part.n)
    } else {
        subtrees
    };
    Ok(Start {
        part,
        subtrees,
        before: nothing,
    })
}

fn load(path: &Path, fingerprint: u64) -> Result<Checkpoint, String> {
    let text = fs::read_to_string(path)
        .map_err(|error| format!("cannot read the checkpoint {}: {error}", path.display()))?;
    let checkpoint = Checkpoint::read(&text)
        .map_err(|error| format!("{}:{}: {}", path.display(), error.line, error.message))?;
    if checkpoint.fingerprint != fingerprint {
        return Err(format!(
            "{}: the checkpoint belongs to another search (fingerprint {:016x}, this one is \
             {fingerprint:016x}: another problem, puzzle or --inference setting)",
            path.display(),
            checkpoint.fingerprint
        ));
    }
    Ok(checkpoint)
}

/// Writes the checkpoint next to `path` and renames it into place, so that a crash while
/// saving leaves the previous checkpoint whole.
fn save(path: &Path, checkpoint: &Checkpoint) -> Result<(), String> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let write = || -> io::Result<()> {
        let mut file = io::BufWriter::new(fs::File::create(&temporary)?);
        checkpoint.write(&mut file)?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&temporary, path)
    };
    write().map_err(|error| format!("cannot save the checkpoint {}: {error}", path.display()))
}

/// Tells where the search stood when a signal stopped it.
fn report_stop(
    label: &str,
    solutions: u128,
    explored: f64,
    remainder: &[Subtree],
    saved: Option<&PathBuf>,
) {
    let position = match remainder.first() {
        Some(first) if !first.path.is_empty() => format!(
            "; {} subtrees left, the first below options {}",
            remainder.len(),
            first
                .path
                .iter()
                .map(|o| o.0.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        _ => format!("; {} subtrees left", remainder.len()),
    };
    let resume = match saved {
        Some(path) => format!(
            "; saved to {} (the same command goes on from there)",
            path.display()
        ),
        None => "; --checkpoint FILE would have saved the position".to_string(),
    };
    eprintln!(
        "xcover: {label}: interrupted: {solutions} solutions so far (a partial count), about {:.1}% of the search \
         done{position}{resume}",
        explored * 100.0
    );
}
