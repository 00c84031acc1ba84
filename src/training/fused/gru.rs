//! One GRU cell run through time on the fused step, forward and backward, as burn's
//! `Gru` computes it (`reset_after`, sigmoid gates, tanh candidate, no clipping):
//!
//!   z = σ(x W_zx + b_zx + h W_zh + b_zh)          update gate
//!   r = σ(x W_rx + b_rx + h W_rh + b_rh)          reset gate
//!   n = tanh(x W_nx + b_nx + r ⊙ (h W_nh + b_nh)) candidate
//!   h' = (1 − z) ⊙ n + z ⊙ h
//!
//! The input products of every step are one product each; only the hidden
//! products wait for the step before. Rows are time-major here (`[steps, rows, d]`,
//! one step's rows together); `recurrent.rs` gathers them from the chunk.

use burn::nn::{GateController, Gru};

use super::params::PlainLinear;
use super::recycled::Recycled;
use super::scratch::Buf;
use super::sublayer::{linear_backward, linear_forward};
use super::kernels::matmul;
use super::simd::simd_fn;
use super::squash::{sigmoid, tanh};

/// One gate's two transforms: of the input and of the previous state.
#[derive(Clone)]
pub struct PlainGate {
    pub x: PlainLinear,
    pub h: PlainLinear,
}

/// A GRU cell's three gates.
#[derive(Clone)]
pub struct PlainGru {
    pub update: PlainGate,
    pub reset: PlainGate,
    pub new: PlainGate,
}

impl PlainGate {
    fn of(gate: &GateController, recycled: &Recycled) -> Self {
        Self { x: PlainLinear::of(&gate.input_transform, recycled), h: PlainLinear::of(&gate.hidden_transform, recycled) }
    }
}

impl PlainGru {
    pub fn of(gru: &Gru, recycled: &Recycled) -> Self {
        assert!(gru.reset_after && gru.clip.is_none(), "the workbench's GRU resets after the hidden product and never clips (model/recurrent.rs)");
        Self { update: PlainGate::of(&gru.update_gate, recycled), reset: PlainGate::of(&gru.reset_gate, recycled), new: PlainGate::of(&gru.new_gate, recycled) }
    }

    /// Its six transforms, in a fixed order.
    pub fn linears(&self) -> [&PlainLinear; 6] {
        [&self.update.x, &self.update.h, &self.reset.x, &self.reset.h, &self.new.x, &self.new.h]
    }

    pub fn linears_mut(&mut self) -> [&mut PlainLinear; 6] {
        let (u, r, n) = (&mut self.update, &mut self.reset, &mut self.new);
        [&mut u.x, &mut u.h, &mut r.x, &mut r.h, &mut n.x, &mut n.h]
    }
}

/// What a run through time keeps for its backward pass (all `[steps·rows, d]`,
/// time-major).
pub struct GruCache {
    /// The inputs.
    x: Buf<f32>,
    /// The states: `[(steps + 1)·rows, d]`, the start first.
    pub states: Buf<f32>,
    z: Buf<f32>,
    r: Buf<f32>,
    n: Buf<f32>,
    /// h W_nh + b_nh, the part the reset gate scales.
    hidden_new: Buf<f32>,
    rows: usize,
    steps: usize,
}

impl GruCache {
    /// The states after each step, `[steps·rows, d]`.
    pub fn outputs(&self) -> &[f32] {
        let d = self.states.len() / ((self.steps + 1) * self.rows);
        &self.states[self.rows * d..]
    }

    /// The state after the last step, `[rows, d]`.
    pub fn last(&self) -> &[f32] {
        let d = self.states.len() / ((self.steps + 1) * self.rows);
        &self.states[self.steps * self.rows * d..]
    }
}

simd_fn! {
    /// One step of the cell over `[rows, d]` values: z = σ(x_z + h_z), r = σ(x_r + h_r),
    /// n = tanh(x_n + r ⊙ h_n), next = (1 − z) ⊙ n + z ⊙ h; keeps z, r and n.
    fn gates(input: [&[f32]; 3], hidden: [&[f32]; 3], h: &[f32], next: &mut [f32], kept: [&mut [f32]; 3]) {
        let len = next.len();
        let ([xz, xr, xn], [hz, hr, hn], h) = (input.map(|v| &v[..len]), hidden.map(|v| &v[..len]), &h[..len]);
        let [z, r, n] = kept.map(|v| &mut v[..len]);
        for i in 0..len {
            let zi = sigmoid(xz[i] + hz[i]);
            let ri = sigmoid(xr[i] + hr[i]);
            let ni = tanh(xn[i] + ri * hn[i]);
            next[i] = (1.0 - zi) * ni + zi * h[i];
            (z[i], r[i], n[i]) = (zi, ri, ni);
        }
    }
}

/// The cell over `x` (`[steps·rows, d]`, time-major) from the state `start`
/// (`[rows, d]`; zeros when None).
pub fn forward(cell: &PlainGru, x: Buf<f32>, start: Option<&[f32]>, rows: usize, d: usize) -> GruCache {
    let steps = x.len() / (rows * d);
    let width = rows * d;
    let input_update = linear_forward(&cell.update.x, &x); // [steps·rows, d]
    let input_reset = linear_forward(&cell.reset.x, &x); // [steps·rows, d]
    let input_new = linear_forward(&cell.new.x, &x); // [steps·rows, d]
    // Every step writes all of its block of these, so they are lent uncleared.
    let mut states = Buf::overwritten((steps + 1) * width);
    match start {
        Some(start) => states[..width].copy_from_slice(start),
        None => states[..width].fill(0.0),
    }
    let (mut z, mut r, mut n, mut hidden_new) = (Buf::overwritten(steps * width), Buf::overwritten(steps * width), Buf::overwritten(steps * width), Buf::overwritten(steps * width));
    for t in 0..steps {
        let now = t * width..(t + 1) * width;
        let (before, after) = states.split_at_mut((t + 1) * width);
        let h = &before[t * width..]; // [rows, d]
        let hidden_update = linear_forward(&cell.update.h, h); // [rows, d]
        let hidden_reset = linear_forward(&cell.reset.h, h); // [rows, d]
        let hn = linear_forward(&cell.new.h, h); // [rows, d]
        let input = [&input_update[now.clone()], &input_reset[now.clone()], &input_new[now.clone()]];
        let kept = [&mut z[now.clone()], &mut r[now.clone()], &mut n[now.clone()]];
        gates(input, [&hidden_update, &hidden_reset, &hn], h, &mut after[..width], kept);
        hidden_new[now].copy_from_slice(&hn);
    }
    GruCache { x, states, z, r, n, hidden_new, rows, steps }
}

/// `out += dy · Wᵀ` for one transform (`dy`: `[rows, d_out]`).
fn add_times_transposed(out: &mut [f32], dy: &[f32], l: &PlainLinear) {
    let (d_in, d_out) = (l.d_in(), l.d_out());
    let rows = dy.len() / d_out;
    match l.w_t.is_empty() {
        true => matmul(out, dy, &l.w.data, (rows, d_out, d_in), false, true, true),
        false => matmul(out, dy, &l.w_t, (rows, d_out, d_in), false, false, true),
    }
}

/// Back through time. `d_outputs`: the gradient of every step's state (`[steps·rows,
/// d]`); `d_last`: more gradient of the last state (what the decoder sent back).
/// Adds the cell's parameter gradients into `g`; returns the inputs' gradient
/// (`[steps·rows, d]`) and the start state's (`[rows, d]`).
pub fn backward(cell: &PlainGru, g: &mut PlainGru, cache: &GruCache, d_outputs: &[f32], d_last: Option<&[f32]>) -> (Buf<f32>, Buf<f32>) {
    let steps = cache.steps;
    let width = d_outputs.len() / steps.max(1); // rows·d
    let mut dh = Buf::filled(width, 0.0);
    if let Some(extra) = d_last {
        dh.copy_from_slice(extra);
    }
    // The pre-activation gradients of every step: the update and reset gates' (the
    // same for their input and hidden products), the candidate's input part, and
    // its hidden part (scaled by the reset gate).
    // Every step writes all of its block of these (and all of dh_before), so they
    // are lent uncleared.
    let (mut d_update, mut d_reset, mut d_new_input, mut d_new_hidden) = (Buf::overwritten(steps * width), Buf::overwritten(steps * width), Buf::overwritten(steps * width), Buf::overwritten(steps * width));
    let mut dh_before = Buf::overwritten(width);
    for t in (0..steps).rev() {
        let now = t * width..(t + 1) * width;
        let h = &cache.states[t * width..(t + 1) * width]; // the state before step t
        for i in 0..width {
            let at = now.start + i;
            let dhi = dh[i] + d_outputs[at];
            let (zi, ri, ni) = (cache.z[at], cache.r[at], cache.n[at]);
            let dn = dhi * (1.0 - zi) * (1.0 - ni * ni);
            let dz = dhi * (h[i] - ni) * zi * (1.0 - zi);
            let dr = dn * cache.hidden_new[at] * ri * (1.0 - ri);
            (d_update[at], d_reset[at], d_new_input[at], d_new_hidden[at]) = (dz, dr, dn, dn * ri);
            dh_before[i] = dhi * zi;
        }
        add_times_transposed(&mut dh_before, &d_update[now.clone()], &cell.update.h);
        add_times_transposed(&mut dh_before, &d_reset[now.clone()], &cell.reset.h);
        add_times_transposed(&mut dh_before, &d_new_hidden[now], &cell.new.h);
        std::mem::swap(&mut dh, &mut dh_before);
    }
    let before = &cache.states[..steps * width]; // the state before each step
    linear_backward(&cell.update.h, &mut g.update.h, before, &d_update, false);
    linear_backward(&cell.reset.h, &mut g.reset.h, before, &d_reset, false);
    linear_backward(&cell.new.h, &mut g.new.h, before, &d_new_hidden, false);
    let mut dx = linear_backward(&cell.update.x, &mut g.update.x, &cache.x, &d_update, true).expect("dx");
    for (l, gl, dy) in [(&cell.reset.x, &mut g.reset.x, &d_reset), (&cell.new.x, &mut g.new.x, &d_new_input)] {
        let part = linear_backward(l, gl, &cache.x, dy, true).expect("dx");
        dx.iter_mut().zip(&part).for_each(|(a, b)| *a += b);
    }
    (dx, dh)
}
