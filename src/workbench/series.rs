//! A time series for plots whose memory stays bounded however long the run:
//! when it grows past its capacity, neighbouring points are averaged in pairs and
//! later points are averaged in buckets twice as wide. Recent and old history are
//! thinned alike, so the curve keeps its shape.

#[derive(Clone, Debug)]
pub struct Series {
    points: Vec<[f64; 2]>,
    capacity: usize,
    /// Raw points averaged into one stored point.
    stride: usize,
    bucket: Vec<[f64; 2]>,
    /// The stored points smoothed, kept between frames: a new point extends it,
    /// a merge (or another smoothing) starts it again.
    smoothed: std::cell::RefCell<Smoothed>,
}

/// What `Series::smoothed` computed last: with this smoothing and stride, the
/// first `values.len()` stored points, and the average after them.
#[derive(Clone, Debug, Default)]
struct Smoothed {
    smoothing: f64,
    stride: usize,
    values: Vec<[f64; 2]>,
    average: Option<(f64, f64)>,
}

/// Two series are equal when their points are (the smoothing kept for drawing
/// is not part of what a series is).
impl PartialEq for Series {
    fn eq(&self, other: &Self) -> bool {
        (&self.points, self.capacity, self.stride, &self.bucket) == (&other.points, other.capacity, other.stride, &other.bucket)
    }
}

impl Default for Series {
    fn default() -> Self {
        Self::with_capacity(Self::default_capacity())
    }
}

impl Series {
    /// Points a curve keeps at most (older ones are merged).
    pub const fn default_capacity() -> usize {
        4096
    }

    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            points: Vec::new(),
            capacity: capacity.max(4),
            stride: 1,
            bucket: Vec::new(),
            smoothed: Default::default(),
        }
    }

    pub fn push(&mut self, x: f64, y: f64) {
        if !y.is_finite() {
            return;
        }
        self.bucket.push([x, y]);
        if self.bucket.len() >= self.stride {
            self.points.push(mean(&self.bucket));
            self.bucket.clear();
        }
        if self.points.len() > self.capacity {
            self.points = self.points.chunks(2).map(mean).collect();
            self.stride *= 2;
        }
    }

    /// Stored points plus the partial bucket, for drawing.
    pub fn points(&self) -> Vec<[f64; 2]> {
        let mut out = self.points.clone();
        if !self.bucket.is_empty() {
            out.push(mean(&self.bucket));
        }
        out
    }

    /// Points smoothed by an exponential moving average over *steps* (0 = raw,
    /// 0.99 = very smooth): a point that comes Δ steps after the last one keeps
    /// `smoothing^Δ` of the old average, so a sparse series (evaluations every 50
    /// steps) is barely smoothed and never lags far behind its raw values.
    /// Each frame adds only the points stored since the last.
    pub fn smoothed(&self, smoothing: f64) -> Vec<[f64; 2]> {
        let mut kept = self.smoothed.borrow_mut();
        if kept.smoothing != smoothing || kept.stride != self.stride || kept.values.len() > self.points.len() {
            *kept = Smoothed { smoothing, stride: self.stride, values: Vec::with_capacity(self.points.len()), average: None };
        }
        let mut average = StepAverage::resume(smoothing, kept.average);
        let from = kept.values.len();
        for &[x, y] in &self.points[from..] {
            let value = average.add(x, y);
            kept.values.push([x, value]);
        }
        kept.average = average.last;
        let mut out = kept.values.clone();
        if !self.bucket.is_empty() {
            let [x, y] = mean(&self.bucket);
            out.push([x, average.add(x, y)]);
        }
        out
    }

    /// Largest value stored.    /// Largest value stored.
    pub fn max_y(&self) -> Option<f64> {
        self.points.iter().chain(&self.bucket).map(|p| p[1]).reduce(f64::max)
    }

    /// The last value of `smoothed(smoothing)`, without building the curve.
    pub fn smoothed_last(&self, smoothing: f64) -> Option<f64> {
        let mut average = StepAverage::new(smoothing);
        let mut last = None;
        for [x, y] in self.points.iter().copied().chain((!self.bucket.is_empty()).then(|| mean(&self.bucket))) {
            last = Some(average.add(x, y));
        }
        last
    }

    /// Whether points lie far apart (evaluations, every 100 steps by default): such
    /// a curve is drawn with a marker on every raw point. Gradient reports (every
    /// 10 steps) and training steps are dense enough to read as a line.
    pub fn is_sparse(&self) -> bool {
        let points = self.points();
        points.len() >= 2 && (points[points.len() - 1][0] - points[0][0]) / (points.len() - 1) as f64 > 20.0
    }

    pub fn len(&self) -> usize {
        self.points.len() + usize::from(!self.bucket.is_empty())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

}

/// An exponential moving average whose decay follows the distance in steps.
struct StepAverage {
    smoothing: f64,
    last: Option<(f64, f64)>,
}

impl StepAverage {
    fn new(smoothing: f64) -> Self {
        Self::resume(smoothing, None)
    }

    /// Carry on from `last` (the last point's x and average).
    fn resume(smoothing: f64, last: Option<(f64, f64)>) -> Self {
        Self { smoothing: smoothing.clamp(0.0, 0.999), last }
    }

    fn add(&mut self, x: f64, y: f64) -> f64 {
        let value = match self.last {
            Some((last_x, average)) => {
                let keep = self.smoothing.powf((x - last_x).max(1.0));
                keep * average + (1.0 - keep) * y
            }
            None => y,
        };
        self.last = Some((x, value));
        value
    }
}

fn mean(points: &[[f64; 2]]) -> [f64; 2] {
    let n = points.len() as f64;
    let (sx, sy) = points.iter().fold((0.0, 0.0), |(sx, sy), p| (sx + p[0], sy + p[1]));
    [sx / n, sy / n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_stays_bounded_and_the_range_is_kept() {
        let mut s = Series::with_capacity(100);
        for i in 0..100_000 {
            s.push(i as f64, (i % 7) as f64);
        }
        assert!(s.len() <= 101, "{} points", s.len());
        let points = s.points();
        assert!(points[0][0] < 1000.0);
        assert!(points.last().unwrap()[0] > 99_000.0);
        assert!(points.windows(2).all(|w| w[0][0] < w[1][0]));
    }

    #[test]
    fn smoothing_kept_between_frames_equals_smoothing_from_scratch() {
        let from_scratch = |s: &Series, smoothing: f64| {
            let mut average = StepAverage::new(smoothing);
            s.points().into_iter().map(|[x, y]| [x, average.add(x, y)]).collect::<Vec<_>>()
        };
        // A small capacity, so points are merged (and the stride doubles) while drawn.
        let mut s = Series::with_capacity(16);
        let mut merges = 0;
        for i in 0..300 {
            let stride = s.stride;
            s.push(i as f64, ((i * 7919) % 13) as f64);
            merges += usize::from(s.stride != stride);
            // Drawn now and then, as frames come: a merge may fall between two.
            if i % 13 == 0 || i % 7 == 0 {
                let smoothing = if i % 100 < 50 { 0.9 } else { 0.6 };
                assert_eq!(s.smoothed(smoothing), from_scratch(&s, smoothing), "after point {i}");
            }
        }
        assert!(merges >= 3, "the points were merged while drawn");
        // Drawn early, then not until after a merge that left more points than were drawn.
        let mut s = Series::with_capacity(16);
        for i in 0..5 {
            s.push(i as f64, i as f64);
        }
        s.smoothed(0.9);
        for i in 5..30 {
            s.push(i as f64, (i % 3) as f64);
        }
        assert!(s.stride > 1 && s.points.len() > 5);
        assert_eq!(s.smoothed(0.9), from_scratch(&s, 0.9), "after a merge between two frames");
    }

    #[test]
    fn smoothing_zero_is_raw_and_high_smoothing_flattens() {
        let mut s = Series::default();
        for i in 0..50 {
            s.push(i as f64, if i % 2 == 0 { 0.0 } else { 1.0 });
        }
        assert_eq!(s.smoothed(0.0), s.points());
        assert_eq!(s.smoothed_last(0.95), s.smoothed(0.95).last().map(|p| p[1]));
        let smooth = s.smoothed(0.95);
        let tail = &smooth[40..];
        assert!(tail.iter().all(|p| (p[1] - 0.5).abs() < 0.2));
    }

    #[test]
    fn sparse_points_are_smoothed_by_step_distance_not_by_count() {
        // Evaluations every 50 steps that reach 1.0 and stay there: the smoothed
        // curve must reach (almost) 1.0 too, not lag at 0.85.
        let mut eval = Series::default();
        let mut dense = Series::default();
        for i in 0..20 {
            let accuracy = if i < 10 { 0.1 * i as f64 } else { 1.0 };
            eval.push((i * 50) as f64, accuracy);
        }
        for i in 0..1000 {
            dense.push(i as f64, if i % 2 == 0 { 0.0 } else { 1.0 });
        }
        let last = eval.smoothed_last(0.9).unwrap();
        assert!(last > 0.999, "{last}");
        assert!(eval.is_sparse() && !dense.is_sparse());
        // Dense series (one point per step) are smoothed exactly as before.
        let tail = dense.smoothed(0.95)[900..].to_vec();
        assert!(tail.iter().all(|p| (p[1] - 0.5).abs() < 0.2));
    }

    #[test]
    fn non_finite_values_are_skipped() {
        let mut s = Series::default();
        s.push(1.0, f64::NAN);
        s.push(2.0, 3.0);
        assert_eq!(s.points(), vec![[2.0, 3.0]]);
    }
}
