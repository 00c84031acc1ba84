//! The gradient report: per-group gradient norm, weight norm and update ratio,
//! and per-layer gradient norm, measured around one optimizer step.

use burn::tensor::Tensor;

use super::events::{GradientReport, GroupGradient};
use super::grad_stats::{for_each_param, group_of, layer_of};
use crate::model::readback::read_floats;
use crate::model::Transformer;

/// Flattened copies of every weight before the optimizer step.
pub(super) fn weight_snapshot(model: &Transformer) -> Vec<(String, Tensor<1>)> {
    let mut out = Vec::new();
    for_each_param(model, |path, _, value| out.push((path.to_string(), value)));
    out
}

/// Per-group gradient norm, weight norm and update ratio; per-layer gradient norm.
pub(super) fn gradient_report(
    step: usize,
    after: &Transformer,
    before: Vec<(String, Tensor<1>)>,
    squares: &[(String, f32)],
) -> GradientReport {
    let before: std::collections::HashMap<String, Tensor<1>> = before.into_iter().collect();
    let mut parts = Vec::new();
    let mut paths = Vec::new();
    for_each_param(after, |path, _, new| {
        if let Some(old) = before.get(path).filter(|_| squares.iter().any(|(p, _)| p == path)) {
            parts.push(old.clone().square().sum()); // [1] ‖w‖²
            parts.push((new - old.clone()).square().sum()); // [1] ‖Δw‖²
            paths.push(path.to_string());
        }
    });
    let values = if parts.is_empty() { Vec::new() } else { read_floats(Tensor::cat(parts, 0)) };
    let mut groups: Vec<GroupGradient> = Vec::new();
    let mut sums: Vec<(f32, f32, f32)> = Vec::new(); // per group: ‖g‖², ‖w‖², ‖Δw‖²
    for (i, path) in paths.iter().enumerate() {
        let g2 = squares.iter().find(|(p, _)| p == path).map_or(0.0, |(_, v)| *v);
        let name = group_of(path);
        let index = match groups.iter().position(|g| g.group == name) {
            Some(index) => index,
            None => {
                groups.push(GroupGradient {
                    group: name.to_string(),
                    layer: layer_of(path),
                    grad_norm: 0.0,
                    weight_norm: 0.0,
                    update_ratio: 0.0,
                });
                sums.push((0.0, 0.0, 0.0));
                groups.len() - 1
            }
        };
        sums[index].0 += g2;
        sums[index].1 += values[2 * i];
        sums[index].2 += values[2 * i + 1];
    }
    let mut layers: Vec<(String, f32)> = Vec::new();
    for (group, (g2, w2, d2)) in groups.iter_mut().zip(&sums) {
        group.grad_norm = g2.sqrt();
        group.weight_norm = w2.sqrt();
        group.update_ratio = if *w2 > 0.0 { (d2 / w2).sqrt() } else { 0.0 };
        match layers.iter_mut().find(|(name, _)| *name == group.layer) {
            Some((_, sq)) => *sq += g2,
            None => layers.push((group.layer.clone(), *g2)),
        }
    }
    layers.iter_mut().for_each(|(_, sq)| *sq = sq.sqrt());
    GradientReport { step, layers, groups }
}
