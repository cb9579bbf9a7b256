//! Running the `xcover` binary from integration tests, as a user runs it.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

pub mod scratch;
pub mod slow_puzzles;

/// Starts `xcover` with `args`, its three streams piped.
#[allow(dead_code)] // not every test file that includes this module starts processes itself
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_xcover"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `xcover` with `args`, feeding `stdin`, and returns what it did.
pub fn xcover(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(args);
    // A command that fails before reading (a usage error) may close its input first.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(error) = written {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    child.wait_with_output().unwrap()
}

/// Waits for `child` to end by itself; if it has not `grace` after the call, kills it
/// (SIGKILL), so that a process that ignores a signal it was sent shows as killed (no exit
/// code) instead of hanging the test. What is asserted is how the process ended, never how
/// long it took.
#[allow(dead_code)] // only the tests that send signals use it
pub fn ended_or_killed(child: Child, grace: std::time::Duration) -> Output {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let pid = child.id().to_string();
    let ended = Arc::new(AtomicBool::new(false));
    let watcher = {
        let ended = Arc::clone(&ended);
        std::thread::spawn(move || {
            let step = std::time::Duration::from_millis(50);
            let steps = (grace.as_millis() / step.as_millis()).max(1);
            for _ in 0..steps {
                if ended.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(step);
            }
            if !ended.load(Ordering::SeqCst) {
                let _ = Command::new("kill").args(["-KILL", &pid]).status();
            }
        })
    };
    let output = child.wait_with_output().unwrap();
    ended.store(true, Ordering::SeqCst);
    watcher.join().unwrap();
    output
}

/// Standard output as text.
pub fn out(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error as text.
#[allow(dead_code)] // not every test file reads standard error
pub fn err(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The shared collection of variant puzzles, beside a development checkout.
#[allow(dead_code)] // only the variant tests read it
pub const SHARED_VARIANTS: &str = "../shared/data/variants";

/// Its files, one per variant, six puzzles each.
#[allow(dead_code)]
pub const SHARED_VARIANT_FILES: [&str; 9] = [
    "x.txt",
    "windoku.txt",
    "jigsaw.txt",
    "antiknight.txt",
    "antiking.txt",
    "nonconsecutive.txt",
    "killer.txt",
    "jigsaw6.txt",
    "x6.txt",
];
