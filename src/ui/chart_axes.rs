//! The charts' axes: where their ticks go and how they read, and what a log
//! axis shows of values near zero.

use egui_plot::{GridInput, GridMark, Legend};

/// The least value a log axis shows, per chart: losses are f32, so below a
/// ten-millionth they are rounding (and a smoothed loss that reached 0 decays
/// towards 1e-300, which would squash every curve into a line at the top);
/// gradient norms and update ratios can be small and still mean something.
pub(super) const LOSS_FLOOR: f64 = 1e-7;
pub(super) const RATIO_FLOOR: f64 = 1e-15;

/// Points as a log10 axis draws them: below `floor` on the floor, NaN and
/// negative values left out.
pub(super) fn on_log_axis(mut points: Vec<[f64; 2]>, floor: f64) -> Vec<[f64; 2]> {
    points.retain(|p| p[1] >= 0.0);
    points.iter_mut().for_each(|p| p[1] = p[1].max(floor).log10());
    points
}

/// A chart's legend, its entries in the order the chart draws them: egui_plot
/// sorts them by name otherwise, and a translation then reorders them (the
/// measured curve after its guides in Chinese).
pub(super) fn legend() -> Legend {
    Legend::default().follow_insertion_order(true)
}

/// Points between two labelled ticks, at least (a line of text is about 14).
pub(super) const LABEL_GAP: f64 = 20.0;

/// Where the charts' y labels fade in: egui_plot's own 20 to 30 points leaves a
/// short chart's labels faint or gone, so from 14, whole from `LABEL_GAP`.
pub(super) const LABEL_FADE: std::ops::RangeInclusive<f32> = 14.0..=LABEL_GAP as f32;

/// Plot units per point of an axis, from a grid spacer's input (`base_step_size`
/// is the value of egui_plot's smallest grid spacing, 8 points).
pub(super) fn units_per_point(input: &GridInput) -> f64 {
    input.base_step_size / 8.0
}

/// The smallest of 1, 2 and 5 × 10^k at least `rough`.
pub(super) fn round_step(rough: f64) -> Option<f64> {
    if !rough.is_normal() || rough <= 0.0 {
        return None;
    }
    let magnitude = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * magnitude).find(|s| *s >= rough * (1.0 - 1e-9))
}

/// Grid marks of a linear axis at round steps (1, 2 or 5 × 10^k) far enough
/// apart to be labelled on a short chart (egui's own steps of 10^k leave a
/// 100-point accuracy chart with one label, 0).
pub(super) fn linear_marks(input: GridInput) -> Vec<GridMark> {
    let (low, high) = input.bounds;
    let Some(step) = round_step(LABEL_GAP * units_per_point(&input)).filter(|_| low.is_finite() && high.is_finite() && high > low) else {
        return egui_plot::log_grid_spacer(10)(input);
    };
    ((low / step).ceil() as i64..=(high / step).floor() as i64).map(|k| GridMark { value: k as f64 * step, step_size: step }).collect()
}

/// A linear axis's label with as many decimals as its step has (0.5, 0.25, 150000).
pub(super) fn linear_label(mark: GridMark) -> String {
    let decimals = if mark.step_size > 0.0 && mark.step_size.is_finite() { (-mark.step_size.log10().floor()).clamp(0.0, 12.0) as usize } else { 3 };
    format!("{:.*}", decimals, mark.value)
}

/// Grid marks of a log10 axis at round values: decades on a wide range (every
/// 2nd, 5th, 10th… when the chart is too short to label each), then 1-2-5, then
/// every digit, then tenths; within a tenth of a decade, plain round steps.
pub(super) fn log_marks(input: GridInput) -> Vec<GridMark> {
    let (low, high) = input.bounds;
    let span = high - low;
    // (Beyond a thousand decades, zoomed far out, egui's own.)
    if !span.is_finite() || span <= 0.0 || span > 1000.0 {
        return egui_plot::log_grid_spacer(10)(input);
    }
    // Decades labelled only every `stride`, when one decade is under LABEL_GAP points.
    let stride = round_step(LABEL_GAP * units_per_point(&input)).map_or(1.0, |s| s.max(1.0));
    if stride > 1.0 {
        return ((low / stride).ceil() as i64..=(high / stride).floor() as i64)
            .map(|k| GridMark { value: k as f64 * stride, step_size: stride })
            .collect();
    }
    if let Some(step) = narrow_step(low, high) {
        // Within a quarter of a decade, round values in plain numbers (2.972, 2.973).
        let (from, to) = (10f64.powf(low), 10f64.powf(high));
        let size = ((from + step) / from).log10();
        return ((from / step).ceil() as i64..=(to / step).floor() as i64)
            .map(|k| GridMark { value: (k as f64 * step).log10(), step_size: size })
            .collect();
    }
    let tiers: &[(f64, &[f64])] = &[
        (1.0, &[1.0]),
        (0.3, &[2.0, 5.0]),
        (0.1, &[3.0, 4.0, 6.0, 7.0, 8.0, 9.0]),
        (0.03, &[1.5, 2.5, 3.5, 4.5]),
        (0.01, &[1.1, 1.2, 1.3, 1.4, 1.6, 1.7, 1.8, 1.9, 2.2, 2.4, 2.6, 2.8, 3.2, 3.4, 3.6, 3.8, 4.2, 4.4, 4.6, 4.8, 5.5, 6.5, 7.5, 8.5, 9.5]),
    ];
    // Finer tiers only while the range is narrow enough to show them.
    let finest = if span > 4.0 { 1 } else if span > 1.5 { 2 } else if span > 0.5 { 3 } else if span > 0.25 { 4 } else { 5 };
    let mut marks = Vec::new();
    for decade in (low.floor() as i64)..=(high.ceil() as i64) {
        for (step_size, multiples) in &tiers[..finest] {
            for m in *multiples {
                let value = decade as f64 + m.log10();
                if (low..=high).contains(&value) {
                    marks.push(GridMark { value, step_size: *step_size });
                }
            }
        }
    }
    widen_to_gaps(marks)
}

/// Each mark's step as wide as the gaps to its neighbours: egui_plot labels a
/// mark by its step, and a fine tier's nominal step (a hundredth of a decade for
/// 1.3, 1.4) undersells marks that lie far apart on a narrow range; a loss
/// from 1.3 to 1.7 had kept only the label "1.5".
fn widen_to_gaps(mut marks: Vec<GridMark>) -> Vec<GridMark> {
    marks.sort_by(|a, b| a.value.total_cmp(&b.value));
    let values: Vec<f64> = marks.iter().map(|m| m.value).collect();
    for (i, mark) in marks.iter_mut().enumerate() {
        let before = i.checked_sub(1).map(|j| values[i] - values[j]);
        let after = values.get(i + 1).map(|v| v - values[i]);
        if let Some(gap) = [before, after].into_iter().flatten().reduce(f64::min) {
            mark.step_size = mark.step_size.max(gap);
        }
    }
    marks
}

/// A log10 axis's label as the value it stands for; on a narrow range (one
/// step: 2.974 to 2.973) as many decimals as the round step has (2.9720,
/// 2.9725), so the ticks stay apart.
pub(super) fn log_label(mark: GridMark, range: &std::ops::RangeInclusive<f64>) -> String {
    let value = 10f64.powf(mark.value);
    match narrow_step(*range.start(), *range.end()) {
        Some(step) => {
            let decimals = (-step.log10().floor()).clamp(0.0, 8.0) as usize;
            format!("{:.*}", decimals, (value / step).round() * step)
        }
        None => format_value(value),
    }
}

/// On a log axis spanning less than a tenth of a decade, the round step (1, 2 or
/// 5 × 10^k) that gives about four ticks in plain numbers; None on a wider one.
pub(super) fn narrow_step(low: f64, high: f64) -> Option<f64> {
    if !(low.is_finite() && high.is_finite()) || high - low >= 0.1 || high <= low {
        return None;
    }
    round_step((10f64.powf(high) - 10f64.powf(low)) / 4.0)
}

/// Axis labels that stay readable from 1e-6 to 1e5: plain numbers from 0.0001 on
/// (0.001 next to 0.01, not 1e-3), powers of ten below.
pub(super) fn format_value(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    if (1e-4..1e5).contains(&v.abs()) {
        let decimals = if v.abs() >= 1.0 { 3 } else { (-v.abs().log10().floor()) as usize + 2 };
        format!("{v:.decimals$}").trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.0e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_that_reached_zero_sits_on_the_floor_and_keeps_the_axis_readable() {
        let points = vec![[0.0, 2.0], [1.0, 0.0], [2.0, 1e-300], [3.0, f64::NAN], [4.0, 0.5]];
        let shown = super::on_log_axis(points, super::LOSS_FLOOR);
        let ys: Vec<f64> = shown.iter().map(|p| p[1]).collect();
        assert_eq!(ys.len(), 4, "NaN left out: {ys:?}");
        assert!(ys.iter().all(|y| *y >= -7.0), "nothing below the floor: {ys:?}");
        assert_eq!(ys[1], -7.0);
        assert!((ys[0] - 2f64.log10()).abs() < 1e-12);
    }

    fn marks(low: f64, high: f64) -> Vec<f64> {
        log_marks(GridInput { bounds: (low.log10(), high.log10()), base_step_size: 1e-3 }).iter().map(|m| 10f64.powf(m.value)).collect()
    }

    #[test]
    fn log_ticks_sit_at_round_values() {
        let one_decade = marks(1.0, 10.0);
        for v in [1.0, 2.0, 5.0, 3.0, 10.0] {
            assert!(one_decade.iter().any(|m| (m - v).abs() < 1e-9), "{v} in {one_decade:?}");
        }
        assert!(!one_decade.iter().any(|m| (m - 3.1623).abs() < 1e-3), "no tick at 10^0.5");
        // A narrow range gets plain round steps, not 10^0.473.
        let narrow = marks(2.970, 2.975);
        assert!(narrow.len() >= 2, "{narrow:?}");
        for m in &narrow {
            assert!(((m / 0.002).round() * 0.002 - m).abs() < 1e-9, "{m} is a multiple of 0.002");
        }
        assert_eq!(format_value(0.001), "0.001");
        assert_eq!(format_value(0.01), "0.01");
        assert_eq!(format_value(2.5), "2.5");
        assert_eq!(format_value(1e-5), "1e-5");
        let label = |value: f64, step_size: f64| linear_label(GridMark { value, step_size });
        assert_eq!((label(0.5, 0.5), label(0.25, 0.05), label(150000.0, 50000.0), label(1.5e-5, 5e-6)), ("0.5".into(), "0.25".into(), "150000".into(), "0.000015".into()));
    }

    /// Marks for an axis from `low` to `high` drawn `points` tall.
    fn marks_on(spacer: fn(GridInput) -> Vec<GridMark>, low: f64, high: f64, points: f64) -> Vec<GridMark> {
        spacer(GridInput { bounds: (low, high), base_step_size: (high - low) / points * 8.0 })
    }

    #[test]
    fn short_charts_keep_labelled_ticks_however_wide_the_range() {
        // Labelled in full at LABEL_GAP points from the next tick (see LABEL_FADE).
        let labelled = |marks: &[GridMark], points: f64, span: f64| marks.iter().filter(|m| m.step_size * points / span >= LABEL_GAP * 0.999).count();
        // Accuracy 0 to 0.8 on an 80-point chart: several labels, not just "0".
        let accuracy = marks_on(linear_marks, 0.0, 0.88, 80.0);
        assert!(labelled(&accuracy, 80.0, 0.88) >= 2, "{accuracy:?}");
        // A loss from 2 to 9486 (3.7 decades) and gradient norms over 12 decades,
        // on log axes 80 points tall.
        for (low, high) in [(2f64.log10(), 9486f64.log10()), (-9.0, 3.0)] {
            let marks = marks_on(log_marks, low, high, 80.0);
            assert!(labelled(&marks, 80.0, high - low) >= 2, "{low}..{high}: {marks:?}");
        }
        // A loss from 1.3 to 1.7 on a chart 130 points tall: 1.3, 1.4, 1.5, 1.6 and
        // 1.7 lie 28–40 points apart, so each is labelled, not only 1.5.
        let (low, high) = (1.3f64.log10(), 1.7f64.log10());
        let narrow = marks_on(log_marks, low, high, 130.0);
        assert!(labelled(&narrow, 130.0, high - low) >= 4, "{narrow:?}");
        // A tall chart keeps every decade.
        let tall = marks_on(log_marks, -9.0, 3.0, 800.0);
        assert!(tall.iter().filter(|m| m.step_size == 1.0).count() >= 12, "{tall:?}");
    }
}
