//! Reading the files named on the command line: one place for opening them, reporting what
//! cannot be read, and streaming their puzzles.
//!
//! Puzzles are read on a thread of their own and handed over through a bounded channel, so
//! that solving starts with the first puzzle, memory stays flat on files of any length, and a
//! puzzle typed into `solve -` is answered as soon as its line (or grid) is complete.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::Duration;

use xcover::sudoku::rules::Rules;
use xcover::sudoku::text::{FaultKind, Puzzle, PuzzleError, Reader};
use xcover::sudoku::variant;
use xcover::sudoku::variant::text::{self as variant_text, Entry, ReadError};
use xcover::sudoku::{AnyPuzzle, BoxShape};

/// The largest exact-cover file (or file of variant puzzles) read, in bytes: a limit instead
/// of running out of memory.
pub const MAX_PROBLEM_BYTES: u64 = 256 << 20;

/// One puzzle of the input as its file gave it: a plain grid (with the layout, symbols and
/// box shape it was written with, so that its answer is written the same way) or a puzzle
/// under other rules (with its name and the solution its file states).
#[derive(Debug, Clone)]
pub enum InputPuzzle {
    Grid(Puzzle),
    Variant(Entry),
}

impl InputPuzzle {
    /// The line where the puzzle starts.
    pub fn line(&self) -> usize {
        match self {
            InputPuzzle::Grid(puzzle) => puzzle.line,
            InputPuzzle::Variant(entry) => entry.line,
        }
    }

    /// Its name (a variant block's `puzzle:` id); plain grids have none.
    pub fn id(&self) -> Option<&str> {
        match self {
            InputPuzzle::Grid(_) => None,
            InputPuzzle::Variant(entry) => Some(&entry.puzzle.id),
        }
    }

    /// The side of its grid.
    pub fn size(&self) -> usize {
        match self {
            InputPuzzle::Grid(puzzle) => puzzle.grid.size(),
            InputPuzzle::Variant(entry) => entry.puzzle.rules.size,
        }
    }

    /// Whether its symbols are written from 0 (doppelganger's grid of 0 to 9).
    pub fn digits_from_zero(&self) -> bool {
        matches!(self, InputPuzzle::Variant(entry) if entry.puzzle.rules.digits_from_zero())
    }

    /// The name of its boxes in records (`3x3`), or `none` (a jigsaw's regions, a Latin
    /// square).
    pub fn boxes(&self) -> String {
        match self {
            InputPuzzle::Grid(puzzle) => puzzle.grid.shape().to_string(),
            InputPuzzle::Variant(entry) => entry
                .puzzle
                .rules
                .boxes
                .map_or_else(|| "none".to_string(), |shape| shape.to_string()),
        }
    }

    /// The puzzle as a ruleset with givens (a plain grid's rules are its rows, columns and
    /// boxes), named by its id or, for a plain grid, its line.
    pub fn ruleset(&self) -> variant::Puzzle {
        match self {
            InputPuzzle::Grid(puzzle) => variant::Puzzle {
                id: format!("line-{}", puzzle.line),
                rules: Rules::classic(puzzle.grid.shape()),
                givens: puzzle.grid.cells().to_vec(),
            },
            InputPuzzle::Variant(entry) => entry.puzzle.clone(),
        }
    }

    /// The puzzle itself, for the library.
    pub fn any(&self) -> AnyPuzzle {
        match self {
            InputPuzzle::Grid(puzzle) => AnyPuzzle::Grid(puzzle.grid.clone()),
            InputPuzzle::Variant(entry) => AnyPuzzle::Variant(Box::new(entry.puzzle.clone())),
        }
    }
}

/// A puzzle of the input that cannot be used: the line of the fault and what it is (with
/// the cell or clue at fault).
#[derive(Debug, Clone)]
pub struct InputError {
    pub line: usize,
    pub kind: FaultKind,
    pub message: String,
}

impl From<PuzzleError> for InputError {
    fn from(error: PuzzleError) -> InputError {
        InputError {
            line: error.line,
            kind: error.kind.fault_kind(),
            message: error.kind.to_string(),
        }
    }
}

impl From<ReadError> for InputError {
    fn from(error: ReadError) -> InputError {
        InputError {
            line: error.line,
            kind: error.kind,
            message: error.message,
        }
    }
}

/// A variant block as its reader gives it: read, or why it cannot be.
pub type VariantEntry = Result<Entry, ReadError>;

/// A puzzle whose clues were checked, or why it cannot be used.
pub type CheckedPuzzle = Result<InputPuzzle, InputError>;

/// One puzzle of the input, with the name of its file.
pub struct Job {
    pub file: Arc<str>,
    pub puzzle: CheckedPuzzle,
}

/// What the reading thread hands over, in input order.
pub enum Item {
    Job(Job),
    /// A file that could not be read, or held no puzzle: the whole message.
    FileError(String),
}

/// The job of an item; a file error is reported on stderr (and makes the run's outcome
/// "invalid input") instead.
pub fn job<'a>(item: &'a Item, outcome: &mut super::Outcome) -> Option<&'a Job> {
    match item {
        Item::Job(job) => Some(job),
        Item::FileError(message) => {
            eprintln!("xcover: {message}");
            *outcome = super::Outcome::InvalidInput;
            None
        }
    }
}

/// The grid of an item that holds a valid plain puzzle, for
/// [`xcover::sudoku::batch::Batch::run`] (which shares one encoding per box shape).
pub fn grid_of(item: &Item) -> Option<&xcover::sudoku::Grid> {
    match item {
        Item::Job(Job {
            puzzle: Ok(InputPuzzle::Grid(puzzle)),
            ..
        }) => Some(&puzzle.grid),
        _ => None,
    }
}

/// Whether the file (standard input for `-`, looked at without being consumed: its first
/// buffer is peeked at) holds variant puzzles, by its first 4 KiB.
pub fn is_variant_file(path: &str) -> bool {
    if path == "-" {
        let mut stdin = io::stdin().lock();
        let head = BufRead::fill_buf(&mut stdin).unwrap_or_default();
        return variant_text::is_variant_text(&String::from_utf8_lossy(head));
    }
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut head = vec![0; 4096];
    let read = file.read(&mut head).unwrap_or(0);
    head.truncate(read);
    variant_text::is_variant_text(&String::from_utf8_lossy(&head))
}

/// The variant puzzles of one file (standard input for `-`): JSON of the `sudoku-variants`
/// format, ISS constraint strings or blocks of the plain format, each read or why it cannot
/// be, with the name to use in messages. A file that cannot be read at all, or JSON that is
/// not of the format, is one error.
pub fn variant_entries(path: &str) -> Result<(Arc<str>, Vec<VariantEntry>), String> {
    let (name, text) = read_text(path)?;
    let fpuzzles = xcover::sudoku::variant::fpuzzles::is_fpuzzles_text(&text);
    let entries = if text.trim_start().starts_with(['{', '[']) && !fpuzzles {
        variant_text::read_json(&text).map_err(|error| format!("{name}: {error}"))?
    } else {
        variant_text::read_any(&text)
    };
    Ok((name, entries))
}

/// The puzzles of one file, of either kind, each checked or why it cannot be used, with the
/// name to use in messages.
pub fn read_puzzles(
    path: &str,
    shape: Option<BoxShape>,
) -> Result<(Arc<str>, Vec<CheckedPuzzle>), String> {
    let puzzles: Vec<CheckedPuzzle>;
    let name;
    if is_variant_file(path) {
        let (file, entries) = variant_entries(path)?;
        name = file;
        puzzles = entries.into_iter().map(checked_entry).collect();
    } else {
        let (file, reader) = open(path)?;
        name = file;
        puzzles = Reader::new(reader, shape).map(checked).collect();
    }
    if puzzles.is_empty() {
        return Err(no_puzzle(&name));
    }
    Ok((name, puzzles))
}

/// Opens a file, or standard input for `-`, with the name to use in messages. The error
/// names the file, and says how to pass a puzzle when the name looks like one.
pub fn open(path: &str) -> Result<(Arc<str>, Box<dyn BufRead + Send>), String> {
    if path == "-" {
        if io::IsTerminal::is_terminal(&io::stdin()) {
            eprintln!("xcover: reading puzzles typed here (end with Ctrl-D)");
        }
        return Ok(("<stdin>".into(), Box::new(BufReader::new(io::stdin()))));
    }
    match File::open(path) {
        // Opening a directory succeeds on Unix; only reading it fails, which would be told
        // as a faulty first line of puzzles.
        Ok(file) if file.metadata().is_ok_and(|m| m.is_dir()) => {
            Err(format!("{path}: is a directory, not a file"))
        }
        Ok(file) => Ok((path.into(), Box::new(BufReader::new(file)))),
        Err(error) => {
            let mut message = format!("{path}: {error}");
            if error.kind() == io::ErrorKind::NotFound && looks_like_a_puzzle(path) {
                message.push_str(
                    "; this looks like a puzzle, not a file name: pass puzzles on standard \
                     input, as in `echo '<puzzle>' | xcover sudoku solve -`",
                );
            }
            Err(message)
        }
    }
}

/// Whether a command-line argument is a puzzle written in the line layout.
fn looks_like_a_puzzle(text: &str) -> bool {
    text.len() >= 16
        && text.chars().all(|c| c == '.' || c.is_ascii_alphanumeric())
        && !text.contains(std::path::MAIN_SEPARATOR)
        && text.chars().any(|c| c == '.' || c == '0')
}

/// Reads a whole text file (an exact-cover problem), at most [`MAX_PROBLEM_BYTES`].
pub fn read_text(path: &str) -> Result<(Arc<str>, String), String> {
    let (name, reader) = open(path)?;
    let mut bytes = Vec::new();
    reader
        .take(MAX_PROBLEM_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_PROBLEM_BYTES {
        return Err(format!(
            "{name}: larger than {} MiB, the most this command reads",
            MAX_PROBLEM_BYTES >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        format!(
            "{name}:{line}:{}: not UTF-8 text (invalid byte)",
            column + 1
        )
    })?;
    Ok((name, text))
}

fn no_puzzle(name: &str) -> String {
    format!("{name}: no puzzle found (the input is empty, or holds only comments)")
}

fn checked(puzzle: Result<Puzzle, PuzzleError>) -> CheckedPuzzle {
    puzzle
        .and_then(|p| p.validate().map(|()| p))
        .map(InputPuzzle::Grid)
        .map_err(InputError::from)
}

fn checked_entry(entry: VariantEntry) -> CheckedPuzzle {
    entry.map(InputPuzzle::Variant).map_err(InputError::from)
}

/// Items held in the channel between the reading thread and the solvers.
const CHANNEL: usize = 4096;

/// The puzzles of the input as they are read, in order. It ends early when Ctrl-C or SIGTERM
/// asks for a stop, even while the reading thread is stuck in an endless line (`/dev/zero`,
/// a pipe that never sends a newline): waiting for the next puzzle is never deaf to a signal.
pub struct Stream {
    items: Receiver<Item>,
}

/// How often a wait for the next puzzle looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

impl Stream {
    /// The next item, waiting for it; `None` at the end of the input or on a stop.
    fn wait(&self) -> Option<Item> {
        loop {
            if super::signals::stopped() {
                return None;
            }
            match self.items.recv_timeout(POLL) {
                Ok(item) => return Some(item),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
}

impl Iterator for Stream {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        self.wait()
    }
}

/// Starts reading every file's puzzles, in order, on a thread of its own.
pub fn stream(paths: Vec<String>, shape: Option<BoxShape>) -> Stream {
    let (sender, receiver) = mpsc::sync_channel(CHANNEL);
    thread::spawn(move || {
        for path in paths {
            if is_variant_file(&path) {
                // Variant files are small and read whole (their JSON form cannot be
                // streamed).
                let (name, entries) = match variant_entries(&path) {
                    Ok(read) => read,
                    Err(message) => {
                        if sender.send(Item::FileError(message)).is_err() {
                            return;
                        }
                        continue;
                    }
                };
                let none = entries.is_empty();
                for entry in entries {
                    let job = Job {
                        file: Arc::clone(&name),
                        puzzle: checked_entry(entry),
                    };
                    if sender.send(Item::Job(job)).is_err() {
                        return;
                    }
                }
                if none && sender.send(Item::FileError(no_puzzle(&name))).is_err() {
                    return;
                }
                continue;
            }
            let (name, reader) = match open(&path) {
                Ok(opened) => opened,
                Err(message) => {
                    if sender.send(Item::FileError(message)).is_err() {
                        return;
                    }
                    continue;
                }
            };
            let mut any = false;
            for puzzle in Reader::new(reader, shape) {
                any = true;
                let job = Job {
                    file: Arc::clone(&name),
                    puzzle: checked(puzzle),
                };
                if sender.send(Item::Job(job)).is_err() {
                    return; // the consumer has stopped
                }
            }
            if !any && sender.send(Item::FileError(no_puzzle(&name))).is_err() {
                return;
            }
        }
    });
    Stream { items: receiver }
}

/// The next items of a stream, at most `max`: waits for the first, then takes only what is
/// ready, so that a trickle of puzzles typed by hand is answered one by one while a file is
/// read in large chunks. Empty at the end of the input.
pub fn next_chunk(items: &Stream, max: usize) -> Vec<Item> {
    let mut chunk = Vec::new();
    let Some(first) = items.wait() else {
        return chunk;
    };
    chunk.push(first);
    while chunk.len() < max {
        match items.items.try_recv() {
            Ok(item) => chunk.push(item),
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
        }
    }
    chunk
}
