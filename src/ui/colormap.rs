//! Viridis, a perceptually uniform colour map (van der Walt & Smith, matplotlib):
//! equal steps in weight look like equal steps in colour, and it survives greyscale
//! printing and the common kinds of colour blindness.

use eframe::egui::Color32;

/// Viridis sampled at 9 evenly spaced points; linear interpolation in between.
const VIRIDIS: [[u8; 3]; 9] = [
    [68, 1, 84],
    [71, 44, 122],
    [59, 81, 139],
    [44, 113, 142],
    [33, 144, 141],
    [39, 173, 129],
    [92, 200, 99],
    [170, 220, 50],
    [253, 231, 37],
];

/// Colour of a value in [0, 1] (clamped).
pub fn viridis(t: f32) -> Color32 {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let scaled = t * (VIRIDIS.len() - 1) as f32;
    let i = (scaled.floor() as usize).min(VIRIDIS.len() - 2);
    let f = scaled - i as f32;
    let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * f).round() as u8;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    Color32::from_rgb(mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2]))
}

/// Colour of a difference in [-1, 1] (clamped): blue below 0, red above, a
/// neutral grey at 0, so "no change" reads as no colour at all.
pub fn diverging(t: f32) -> Color32 {
    let t = if t.is_finite() { t.clamp(-1.0, 1.0) } else { 0.0 };
    let (zero, end) = ([64.0f32, 64.0, 64.0], if t < 0.0 { [59.0f32, 130.0, 246.0] } else { [239.0f32, 68.0, 68.0] });
    let f = t.abs().sqrt(); // small differences stay visible
    let mix = |i: usize| (zero[i] + (end[i] - zero[i]) * f).round() as u8;
    Color32::from_rgb(mix(0), mix(1), mix(2))
}

/// Colour of cells the mask hides: neutral grey, outside the colour map, so a
/// masked cell never looks like a cell with weight near zero.
pub const MASKED: Color32 = Color32::from_rgb(120, 120, 120);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_match_viridis_and_brightness_rises() {
        assert_eq!(viridis(0.0), Color32::from_rgb(68, 1, 84));
        assert_eq!(viridis(1.0), Color32::from_rgb(253, 231, 37));
        let luma = |c: Color32| 0.3 * c.r() as f32 + 0.59 * c.g() as f32 + 0.11 * c.b() as f32;
        let samples: Vec<f32> = (0..=20).map(|i| luma(viridis(i as f32 / 20.0))).collect();
        assert!(samples.windows(2).all(|w| w[1] >= w[0] - 1.0), "{samples:?}");
        assert_ne!(MASKED, viridis(0.0));
    }
}
