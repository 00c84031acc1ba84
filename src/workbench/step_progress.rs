//! How far long background work is (a claim's verification, the head sweep):
//! training steps done of all it will take, and the time left at its pace.

use std::time::Instant;

/// `done` of `total` training steps, as last reported, since `started`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepProgress {
    pub done: usize,
    pub total: usize,
    pub started: Instant,
    /// When `done` was reported: the pace is measured up to then.
    pub reported: Instant,
}

impl StepProgress {
    pub fn new(total: usize) -> Self {
        let now = Instant::now();
        Self { done: 0, total, started: now, reported: now }
    }

    /// A new report of steps done (and of the total, which a refusal may change).
    pub fn advance(&mut self, done: usize) {
        self.done = done;
        self.reported = Instant::now();
    }

    pub fn fraction(&self) -> f32 {
        if self.total == 0 { 0.0 } else { (self.done as f32 / self.total as f32).min(1.0) }
    }

    /// Seconds left now, at the pace up to the last report (so it counts down
    /// between reports); None until a few percent are done.
    pub fn seconds_left(&self) -> Option<f32> {
        let paced = self.reported.duration_since(self.started).as_secs_f32();
        time_left(paced, self.started.elapsed().as_secs_f32(), self.fraction())
    }
}

/// `paced` seconds did `fraction` of the work and `now` seconds have gone by.
fn time_left(paced: f32, now: f32, fraction: f32) -> Option<f32> {
    (0.02..1.0).contains(&fraction).then(|| (paced / fraction - now).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::time_left;

    #[test]
    fn time_left_follows_the_pace_and_counts_down_between_reports() {
        assert_eq!(time_left(10.0, 10.0, 0.25), Some(30.0));
        assert_eq!(time_left(10.0, 12.0, 0.25), Some(28.0), "two seconds after the report");
        assert_eq!(time_left(10.0, 50.0, 0.25), Some(0.0), "never below zero");
        assert_eq!(time_left(10.0, 10.0, 0.01), None, "too early to say");
        assert_eq!(time_left(10.0, 10.0, 1.0), None);
    }
}
