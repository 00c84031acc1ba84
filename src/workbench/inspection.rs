//! What the mask inspector flags, computed from a snapshot (plain data):
//! cells where weight reaches a position the intended mask hides, rows where the
//! applied mask hides every key, and where the intended and applied masks differ.

use crate::training::AttentionSnapshot;

/// Weight above this on a hidden cell counts as a leak.
pub const LEAK_WEIGHT: f32 = 1e-6;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inspection {
    /// (query, key) cells with weight on a key the intended mask hides.
    pub leaking_cells: Vec<(usize, usize)>,
    /// Queries whose applied mask hides every key (their output is the zero vector).
    pub empty_rows: Vec<usize>,
    /// Cells where the applied mask differs from the intended one.
    pub mask_differences: usize,
    /// Sum of each query row's weights (1 for a correct softmax; less when masking
    /// happened after the softmax; 0 for empty rows).
    pub row_sums: Vec<f32>,
    /// Whether the intended mask itself lets some position see a later one (a
    /// bidirectional or windowed layer): the causality probe then flags it by design.
    pub intended_sees_future: bool,
}

/// Inspect one head of one layer; None when the layer has no attention.
pub fn inspect(snapshot: &AttentionSnapshot, layer: usize, head: usize) -> Option<Inspection> {
    let weights = snapshot.layers.get(layer)?.as_ref()?.get(head)?;
    let applied = snapshot.masks.get(layer)?.as_ref()?;
    let intended = snapshot.intended_masks.get(layer)?.as_ref()?;
    let mut inspection = inspect_maps(weights, applied, intended, snapshot.tokens.len());
    // A unit of an encoder–decoder or an RNN keeps to its block of the frame: the
    // rows outside it are not queries of this unit, so they have no key by design.
    let (rows, _) = snapshot.block(layer);
    inspection.empty_rows.retain(|q| rows.contains(q));
    Some(inspection)
}

/// The same, on raw `seq × seq` maps.
pub fn inspect_maps(weights: &[f32], applied: &[bool], intended: &[bool], seq: usize) -> Inspection {
    let mut inspection = Inspection::default();
    inspection.intended_sees_future = (0..seq).any(|q| (q + 1..seq).any(|k| intended[q * seq + k]));
    for q in 0..seq {
        let row = q * seq..(q + 1) * seq;
        if !applied[row.clone()].iter().any(|k| *k) {
            inspection.empty_rows.push(q);
        }
        inspection.row_sums.push(weights[row.clone()].iter().sum());
        for k in 0..seq {
            let i = q * seq + k;
            if !intended[i] && weights[i] > LEAK_WEIGHT {
                inspection.leaking_cells.push((q, k));
            }
            if applied[i] != intended[i] {
                inspection.mask_differences += 1;
            }
        }
    }
    inspection
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_for_hand_built_masks() {
        let seq = 3;
        let causal = [true, false, false, true, true, false, true, true, true];
        // The inverted reading: every query sees only what it must not.
        let inverted: Vec<bool> = causal.iter().map(|k| !k).collect();
        let weights = [0.0, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let inspection = inspect_maps(&weights, &inverted, &causal, seq);
        assert_eq!(inspection.leaking_cells, vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(inspection.empty_rows, vec![2]);
        assert_eq!(inspection.mask_differences, 9);
        assert_eq!(inspection.row_sums, vec![1.0, 1.0, 0.0]);

        let correct = [1.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.2, 0.3, 0.5];
        let clean = inspect_maps(&correct, &causal, &causal, seq);
        assert!(clean.leaking_cells.is_empty() && clean.empty_rows.is_empty());
        assert_eq!(clean.mask_differences, 0);
        assert!(!clean.intended_sees_future, "a causal mask sees no later key");
        let bidirectional = [true; 9];
        assert!(inspect_maps(&correct, &bidirectional, &bidirectional, seq).intended_sees_future);
    }
}

#[cfg(test)]
mod block_tests {
    use crate::training::AttentionSnapshot;

    /// A cross-attention unit: its queries are the target rows only, so the source
    /// rows, which it never reads for, are not "rows with no visible key".
    #[test]
    fn rows_outside_a_units_block_are_not_flagged() {
        let seq = 4;
        // Source on 0..2, target rows 2..4 read source columns 0..2.
        let keep: Vec<bool> = (0..seq * seq).map(|i| i / seq >= 2 && i % seq < 2).collect();
        let weights: Vec<f32> = keep.iter().map(|k| if *k { 0.5 } else { 0.0 }).collect();
        let snapshot = AttentionSnapshot {
            step: 1,
            tokens: ["a", "b", "|", "x"].map(String::from).to_vec(),
            predictions: Vec::new(),
            layers: vec![Some(vec![weights])],
            masks: vec![Some(keep.clone())],
            intended_masks: vec![Some(keep)],
            padding: vec![false; seq],
            names: vec![crate::model::UnitName::DecoderCross(0)],
            blocks: vec![Some([2, 4, 0, 2])],
        };
        let inspection = super::inspect(&snapshot, 0, 0).unwrap();
        assert!(inspection.empty_rows.is_empty(), "{:?}", inspection.empty_rows);
        assert!(inspection.leaking_cells.is_empty());
        // Without its block the same map reads as two rows that see nothing.
        let whole = AttentionSnapshot { blocks: Vec::new(), ..snapshot };
        assert_eq!(super::inspect(&whole, 0, 0).unwrap().empty_rows, vec![0, 1]);
    }
}
