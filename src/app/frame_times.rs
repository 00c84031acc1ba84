//! Frame-time log: with `AW_FRAME_TIMES=1`, the time of every frame is kept and
//! p50 / p95 / max are printed to stderr every few seconds and when the window
//! closes: of all frames, and of the frames drawn while a mouse button was held
//! (a slider drag). For those, the window thread's own CPU time is given too: the
//! wall time also counts waiting for a core that training threads hold.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When the process started (set first thing in `main`), for the start-up time.
static PROCESS_START: OnceLock<Instant> = OnceLock::new();

pub fn mark_process_start() {
    PROCESS_START.get_or_init(Instant::now);
}

#[derive(Default)]
pub struct FrameTimes {
    enabled: bool,
    samples_ms: Vec<f32>,
    /// The frames drawn while a mouse button was held: wall time, and this
    /// thread's CPU time (Linux).
    held_ms: Vec<f32>,
    held_cpu_ms: Vec<f32>,
    last_report: Option<Instant>,
}

/// p50, p95 and max of a set of frame times in milliseconds.
pub fn percentiles(samples_ms: &[f32]) -> Option<(f32, f32, f32)> {
    if samples_ms.is_empty() {
        return None;
    }
    let mut sorted = samples_ms.to_vec();
    sorted.sort_by(f32::total_cmp);
    let at = |q: f32| sorted[((sorted.len() - 1) as f32 * q).round() as usize];
    Some((at(0.5), at(0.95), *sorted.last().expect("non-empty")))
}

impl FrameTimes {
    pub fn from_env() -> Self {
        Self {
            enabled: std::env::var_os("AW_FRAME_TIMES").is_some(),
            ..Self::default()
        }
    }

    /// The window thread's CPU time so far, when frame times are logged (None
    /// where it cannot be read).
    pub fn thread_cpu(&self) -> Option<Duration> {
        if !self.enabled {
            return None;
        }
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        {
            #[repr(C)]
            struct Timespec {
                secs: i64,
                nanos: i64,
            }
            unsafe extern "C" {
                fn clock_gettime(clock: i32, at: *mut Timespec) -> i32;
            }
            const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
            let mut at = Timespec { secs: 0, nanos: 0 };
            // SAFETY: clock_gettime writes one timespec into the struct it is given.
            let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut at) } == 0;
            ok.then(|| Duration::new(at.secs as u64, at.nanos as u32))
        }
        #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
        None
    }

    pub fn record(&mut self, frame: Duration, cpu: Option<Duration>, pointer_held: bool) {
        if !self.enabled {
            return;
        }
        if self.samples_ms.is_empty()
            && let Some(start) = PROCESS_START.get()
        {
            eprintln!("first frame drawn {:.0} ms after the process started", start.elapsed().as_secs_f64() * 1000.0);
        }
        self.samples_ms.push(frame.as_secs_f32() * 1000.0);
        if pointer_held {
            self.held_ms.push(frame.as_secs_f32() * 1000.0);
            self.held_cpu_ms.extend(cpu.map(|c| c.as_secs_f32() * 1000.0));
        }
        let due = self.last_report.is_none_or(|t| t.elapsed() >= Duration::from_secs(5));
        if due {
            self.report("so far");
            self.last_report = Some(Instant::now());
        }
    }

    pub fn report(&self, when: &str) {
        if let Some((p50, p95, max)) = percentiles(&self.samples_ms) {
            eprintln!(
                "frame times {when}: {} frames, p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms",
                self.samples_ms.len()
            );
        }
        if let Some((p50, p95, max)) = percentiles(&self.held_ms) {
            eprintln!("frame times {when}, mouse button held: {} frames, p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms", self.held_ms.len());
        }
        if let Some((p50, p95, max)) = percentiles(&self.held_cpu_ms) {
            eprintln!("  the window thread's CPU time in them: p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_set() {
        let samples: Vec<f32> = (1..=100).map(|i| i as f32).collect();
        assert_eq!(percentiles(&samples), Some((51.0, 95.0, 100.0)));
        assert_eq!(percentiles(&[]), None);
    }
}
