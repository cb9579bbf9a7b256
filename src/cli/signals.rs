//! Ctrl-C (SIGINT) and SIGTERM: stop the work in progress, keep what is done.
//!
//! The first signal only sets a flag. Searches poll it (through the engine's cancellation
//! flag) and end early; the commands then print what they finished, a partial count marked as
//! such, a solution found before its uniqueness was proved with a warning that says so (never
//! a verdict the search did not reach), and exit with 130 (SIGINT) or 143 (SIGTERM), as
//! shells report a process killed by those signals. A second Ctrl-C ends the process at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};

struct Signals {
    stop: Arc<AtomicBool>,
    /// The exit code that the signal received asks for (0 before any).
    code: Arc<AtomicUsize>,
}

static SIGNALS: OnceLock<Signals> = OnceLock::new();

fn signals() -> &'static Signals {
    SIGNALS.get_or_init(|| {
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            code: Arc::new(AtomicUsize::new(0)),
        };
        for (signal, code) in [(SIGINT, 130u8), (SIGTERM, 143u8)] {
            // Registered first, so it acts only when the flag was already set: a second
            // signal ends the process without waiting for the work to wind down.
            let _ = signal_hook::flag::register_conditional_shutdown(
                signal,
                i32::from(code),
                Arc::clone(&signals.stop),
            );
            let _ =
                signal_hook::flag::register_usize(signal, Arc::clone(&signals.code), code.into());
            let _ = signal_hook::flag::register(signal, Arc::clone(&signals.stop));
        }
        signals
    })
}

/// Installs the handlers; call once, early.
pub fn install() {
    signals();
}

/// The flag that the handlers set, for [`xcover::dlx::Solver::set_cancel_flag`].
pub fn flag() -> Arc<AtomicBool> {
    Arc::clone(&signals().stop)
}

/// Whether a stop was asked for.
pub fn stopped() -> bool {
    signals().stop.load(Ordering::SeqCst)
}

/// The exit code for a run that a signal stopped: 130 for SIGINT, 143 for SIGTERM.
pub fn exit_code() -> u8 {
    match signals().code.load(Ordering::SeqCst) {
        143 => 143,
        _ => 130,
    }
}

/// What a search stopped before its verdict (unique, none or several) had found, for stderr:
/// a solution (`found`; `printed` or only counted) or none.
pub fn stopped_verdict(found: bool, printed: bool) -> &'static str {
    match (found, printed) {
        (true, true) => "interrupted: the solution printed is not yet proved the only one",
        (true, false) => "interrupted: a solution was found, not yet proved the only one",
        (false, _) => "interrupted before a solution was found",
    }
}
