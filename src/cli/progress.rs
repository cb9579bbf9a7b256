//! Progress of one long search on stderr: a bar on a terminal, or lines with `--progress`,
//! drawn by a thread of its own from what the engine's [`Monitor`] shows (Knuth's estimate of
//! the share explored, solutions, nodes per second, time left).

use std::io::{self, IsTerminal};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xcover::dlx::{Monitor, Snapshot};

/// Progress on stderr while a search runs: a bar on a terminal, lines with `--progress`.
pub struct Progress {
    /// Seconds between lines (`--progress`), if asked.
    lines: Option<f64>,
    bar: bool,
    started: Instant,
    seconds_before: f64,
    nodes_before: u64,
    /// The share of the whole tree that the part being searched holds.
    part_share: f64,
    bar_handle: Mutex<Option<ProgressBar>>,
}

impl Progress {
    pub fn new(
        lines: Option<f64>,
        seconds_before: f64,
        nodes_before: u64,
        part_share: f64,
    ) -> Progress {
        Progress {
            part_share,
            lines,
            bar: lines.is_none() && io::stderr().is_terminal(),
            started: Instant::now(),
            seconds_before,
            nodes_before,
            bar_handle: Mutex::new(None),
        }
    }

    /// Runs `work` while another thread reports what `monitor` sees.
    pub fn watch<T>(
        &self,
        monitor: &Monitor,
        solutions_before: u128,
        explored_before: f64,
        work: impl FnOnce() -> T,
    ) -> T {
        if self.lines.is_none() && !self.bar {
            return work();
        }
        let done = (Mutex::new(false), Condvar::new());
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let interval = Duration::from_secs_f64(self.lines.unwrap_or(0.2));
                // A bar only for searches that last: quick ones print nothing extra.
                let mut next = Instant::now() + Duration::from_secs_f64(self.lines.unwrap_or(1.0));
                let (lock, wake) = &done;
                let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
                while !*finished {
                    let now = Instant::now();
                    if now >= next {
                        self.report(monitor.snapshot(), solutions_before, explored_before);
                        next = now + interval;
                    }
                    let wait = next.saturating_duration_since(Instant::now());
                    finished = wake
                        .wait_timeout(finished, wait)
                        .map(|(guard, _)| guard)
                        .unwrap_or_else(|e| e.into_inner().0);
                }
            });
            let result = work();
            let (lock, wake) = &done;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            wake.notify_all();
            result
        })
    }

    fn report(&self, now: Snapshot, solutions_before: u128, explored_before: f64) {
        let elapsed = self.started.elapsed().as_secs_f64();
        let explored = ((explored_before + now.explored) / self.part_share).min(1.0);
        let explored_before = explored_before / self.part_share;
        let solutions = solutions_before + u128::from(now.solutions);
        let rate = now.nodes as f64 / elapsed.max(1e-9);
        let left = if explored > 0.0 && explored < 1.0 {
            let spent = explored - explored_before;
            if spent > 0.0 {
                format!("{} left", duration(elapsed * (1.0 - explored) / spent))
            } else {
                "time left unknown".to_string()
            }
        } else {
            "time left unknown".to_string()
        };
        let text = format!(
            "{:.2}% explored, {solutions} solutions, {} nodes/s, {left}",
            explored * 100.0,
            human(rate)
        );
        if self.bar {
            let mut handle = self.bar_handle.lock().unwrap_or_else(|e| e.into_inner());
            let bar = handle.get_or_insert_with(|| {
                let bar = ProgressBar::with_draw_target(Some(10_000), ProgressDrawTarget::stderr());
                if let Ok(style) = ProgressStyle::with_template("{bar:30} {msg}") {
                    bar.set_style(style);
                }
                bar
            });
            bar.set_position((explored * 10_000.0) as u64);
            bar.set_message(text);
        } else {
            eprintln!(
                "progress: {text} ({:.0} s, {} nodes in all)",
                self.seconds_before + elapsed,
                self.nodes_before + now.nodes
            );
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = self
            .bar_handle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            bar.finish_and_clear();
        }
    }
}

/// A number with a metric suffix: 12.3M.
fn human(value: f64) -> String {
    match value {
        v if v >= 1e9 => format!("{:.1}G", v / 1e9),
        v if v >= 1e6 => format!("{:.1}M", v / 1e6),
        v if v >= 1e3 => format!("{:.1}k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

/// Seconds as the largest sensible unit: 45 s, 12 min, 3.5 h, 2.1 days.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}
