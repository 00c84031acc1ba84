//! Every head's attention map as a picture of its own (for a handout): the maps
//! alone, one row per layer and one column per head, each cell a weight in the
//! viridis colours of the window, masked cells dark. No screen grab, so nothing
//! of the panel around the maps comes along.

use crate::training::AttentionSnapshot;

/// Grey of a cell the mask hid (as the window draws it).
const MASKED: [u8; 4] = [40, 40, 40, 255];
const BACKGROUND: [u8; 4] = [255, 255, 255, 255];
/// Space between maps, in pixels.
const GAP: u32 = 16;
/// The picture's largest side: many heads and layers at a long sequence get
/// smaller cells (down to one pixel), or no picture at all.
const MAX_SIDE: u64 = 4096;

/// The maps of `snapshot` as an RGBA image; None when no layer has attention.
pub fn maps_image(snapshot: &AttentionSnapshot) -> Option<image::RgbaImage> {
    let seq = snapshot.tokens.len();
    let layers: Vec<(usize, &Vec<Vec<f32>>)> = snapshot.layers.iter().enumerate().filter_map(|(i, l)| l.as_ref().map(|h| (i, h))).collect();
    let heads = layers.iter().map(|(_, h)| h.len()).max()?;
    if seq == 0 || heads == 0 {
        return None;
    }
    // About 320 pixels a map, at least 2 and at most 24 a cell, less when the
    // whole picture would pass MAX_SIDE.
    let extent = |cell: u64| {
        let side = cell * seq as u64;
        let across = GAP as u64 + heads as u64 * (side + GAP as u64);
        let down = GAP as u64 + layers.len() as u64 * (side + GAP as u64);
        (across, down)
    };
    let cell = (1..=(320 / seq as u64).clamp(2, 24)).rev().find(|c| {
        let (across, down) = extent(*c);
        across <= MAX_SIDE && down <= MAX_SIDE
    })? as u32;
    let (width, height) = extent(cell as u64);
    let (width, height) = (width as u32, height as u32);
    let side = cell * seq as u32;
    let mut picture = image::RgbaImage::from_pixel(width, height, image::Rgba(BACKGROUND));
    for (row, (layer, maps)) in layers.iter().enumerate() {
        let mask = snapshot.masks.get(*layer).and_then(|m| m.as_deref());
        for (column, weights) in maps.iter().enumerate() {
            let (x0, y0) = (GAP + column as u32 * (side + GAP), GAP + row as u32 * (side + GAP));
            for q in 0..seq {
                for k in 0..seq {
                    let hidden = mask.is_some_and(|m| !m.get(q * seq + k).copied().unwrap_or(true));
                    let color = if hidden {
                        MASKED
                    } else {
                        let c = super::colormap::viridis(weights.get(q * seq + k).copied().unwrap_or(0.0));
                        [c.r(), c.g(), c.b(), 255]
                    };
                    for dy in 0..cell {
                        for dx in 0..cell {
                            picture.put_pixel(x0 + k as u32 * cell + dx, y0 + q as u32 * cell + dy, image::Rgba(color));
                        }
                    }
                }
            }
        }
    }
    Some(picture)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_map_per_head_and_layer_with_masked_cells_dark() {
        let seq = 4;
        let uniform = vec![0.25f32; seq * seq];
        let causal: Vec<bool> = (0..seq * seq).map(|i| i % seq <= i / seq).collect();
        let snapshot = AttentionSnapshot {
            step: 3,
            tokens: vec!["a".into(); seq],
            predictions: vec!["a".into(); seq],
            layers: vec![Some(vec![uniform.clone(), uniform.clone()]), None, Some(vec![uniform])],
            masks: vec![Some(causal.clone()), None, Some(causal)],
            intended_masks: vec![None, None, None],
            padding: vec![false; seq], names: Vec::new(), blocks: Vec::new(),
        };
        // Too many maps for one picture: none, rather than a huge one.
        let many = AttentionSnapshot { layers: vec![Some(vec![vec![0.0; 256 * 256]; 16]); 12], masks: vec![None; 12], tokens: vec!["a".into(); 256], ..snapshot.clone() };
        assert!(maps_image(&many).is_none_or(|p| p.width() <= MAX_SIDE as u32 && p.height() <= MAX_SIDE as u32));
        let picture = maps_image(&snapshot).expect("two attention layers");
        let cell = (320 / seq as u32).clamp(2, 24);
        let side = cell * seq as u32;
        assert_eq!(picture.dimensions(), (GAP + 2 * (side + GAP), GAP + 2 * (side + GAP)), "two heads across, two attention layers down");
        // Query 0 may not see key 3: dark. Query 3 sees key 0: a viridis colour.
        assert_eq!(picture.get_pixel(GAP + 3 * cell, GAP).0, MASKED);
        assert_ne!(picture.get_pixel(GAP, GAP + 3 * cell).0, MASKED);
        assert_ne!(picture.get_pixel(GAP, GAP + 3 * cell).0, BACKGROUND);
    }
}
