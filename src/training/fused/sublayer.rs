//! One sublayer's forward and backward pass through the plain model, written out
//! by hand: attention (self or cross: softmax, uniform or convolution), or the
//! feed-forward layer, with its residual, LayerNorm placement and dropout, and the
//! LayerNorm and linear maps they are made of. Mirrors `model/` exactly; the tests
//! compare both. `chunk.rs` strings the sublayers into a chunk's whole pass.

use super::attention::{self, CoreCache, CoreInputs, Dims};
use super::kernels::{add_column_sums, affine_new, gelu_backward, gelu_forward, gelu_tanh_backward, gelu_tanh_forward, layer_norm_backward, layer_norm_forward, matmul, matmul_new};
use super::params::{PlainAttention, PlainFfn, PlainLayer, PlainLinear, PlainNorm};
use crate::config::{Activation, NormPlacement};
use crate::model::mask::KeepMask;
use crate::model::InAttention;
use super::scratch::{Buf, iota};
use super::tables::Tables;
use crate::model::positional::rotate;

/// One LayerNorm application's saved values.
pub(super) struct NormCache {
    xhat: Buf<f32>,
    rstd: Buf<f32>,
}

pub(super) fn norm_forward(norm: &PlainNorm, x: &[f32], d: usize) -> (Buf<f32>, NormCache) {
    let rows = x.len() / d;
    // Every value is written below (`layer_norm_forward` covers every row).
    let (mut y, mut xhat, mut rstd) = (Buf::overwritten(x.len()), Buf::overwritten(x.len()), Buf::overwritten(rows));
    layer_norm_forward(x, d, norm.eps, &norm.gamma.data, norm.beta.as_ref().map(|b| &b.data[..]), &mut y, &mut xhat, &mut rstd);
    (y, NormCache { xhat, rstd })
}

/// dx of a LayerNorm from dy; adds its parameters' gradients into `g`.
pub(super) fn norm_backward(norm: &PlainNorm, g: &mut PlainNorm, cache: &NormCache, dy: &[f32], d: usize) -> Buf<f32> {
    let mut dx = Buf::overwritten(dy.len()); // `layer_norm_backward` overwrites it
    layer_norm_backward(dy, &cache.xhat, &cache.rstd, d, &norm.gamma.data, &mut g.gamma.data, g.beta.as_mut().map(|b| &mut b.data[..]), &mut dx);
    dx
}

/// `x · W + b`: `[rows, d_in]` → `[rows, d_out]`.
pub(super) fn linear_forward(l: &PlainLinear, x: &[f32]) -> Buf<f32> {
    let (d_in, d_out) = (l.d_in(), l.d_out());
    let rows = x.len() / d_in;
    match &l.b {
        Some(b) => affine_new(x, &l.w.data, &b.data, (rows, d_in, d_out)),
        None => matmul_new(x, &l.w.data, (rows, d_in, d_out), false, false),
    }
}

/// Adds `xᵀ dy` and Σ dy into `g`; returns `dy Wᵀ` when `want_dx`.
pub(super) fn linear_backward(l: &PlainLinear, g: &mut PlainLinear, x: &[f32], dy: &[f32], want_dx: bool) -> Option<Buf<f32>> {
    let (d_in, d_out) = (l.d_in(), l.d_out());
    let rows = x.len() / d_in;
    matmul(&mut g.w.data, x, dy, (d_in, rows, d_out), true, false, true);
    if let Some(gb) = &mut g.b {
        add_column_sums(dy, d_out, &mut gb.data);
    }
    // Wᵀ as stored once per step when the products want it row-major (`w_t`).
    want_dx.then(|| match l.w_t.is_empty() {
        true => matmul_new(dy, &l.w.data, (rows, d_out, d_in), false, true),
        false => matmul_new(dy, &l.w_t, (rows, d_out, d_in), false, false),
    })
}

/// What one sublayer's function (attention or feed-forward) saved.
enum Inner {
    /// `q` and `context` hold the listed queries' rows only (`h_queries` is their
    /// input rows when that is not every row).
    Attention { q: Buf<f32>, k: Buf<f32>, v: Buf<f32>, core: CoreCache, context: Buf<f32>, h_queries: Option<Buf<f32>> },
    /// `cdf` is Φ(pre) for GELU (its backward reuses it).
    Ffn { pre: Buf<f32>, act: Buf<f32>, cdf: Buf<f32> },
}

/// One sublayer's saved values: the function's input, its norm, its internals, and
/// the rows it produced when only some are needed.
pub(super) struct SublayerCache {
    input: Buf<f32>,
    norm: Option<NormCache>,
    inner: Inner,
    pub(super) selected: Option<Buf<usize>>,
    /// Cross-attention's held positions (`Function::Cross`), for its backward pass.
    pub(super) held: Option<Buf<usize>>,
    /// The dropout mask applied to the function's output (its rows), when training
    /// with dropout.
    dropped: Option<Buf<f32>>,
}

/// The function a sublayer wraps. An attention sublayer can be asked for some
/// positions only (`Some(rows)`): the last attention layer, when the loss reads
/// only some positions, computes keys and values for all but queries for those.
/// Cross-attention reads its queries from the sublayer's input and its keys and
/// values from the encoder's output (`memory`, `[rows·seq, d]`); after the
/// decoder's last self-attention layer its input holds only the listed positions
/// (`Some(rows)`), each a query of its own.
pub(super) enum Function<'a> {
    Attention(&'a PlainAttention, &'a KeepMask, Option<&'a [usize]>, &'a Tables),
    Cross(&'a PlainAttention, &'a KeepMask, &'a [f32], &'a Tables, Option<&'a [usize]>),
    Ffn(&'a PlainFfn),
}

/// The queries an attention sublayer computes: every row of its input, the
/// `Select`ed rows of it, or every row of an input that holds only the listed
/// chunk positions (`Held`).
#[derive(Clone, Copy)]
enum Queries<'a> {
    Every,
    Select(&'a [usize]),
    Held(&'a [usize]),
}

impl<'a> Queries<'a> {
    fn of(selected: Option<&'a [usize]>) -> Self {
        selected.map_or(Queries::Every, Queries::Select)
    }

    fn held(held: Option<&'a [usize]>) -> Self {
        held.map_or(Queries::Every, Queries::Held)
    }

    /// The chunk positions of the queries (`every`: `0..rows·seq`, made by the caller).
    fn positions(self, every: &'a [usize]) -> &'a [usize] {
        match self {
            Queries::Every => every,
            Queries::Select(list) | Queries::Held(list) => list,
        }
    }

    /// The rows picked out of the input, when only some are.
    fn selected(self) -> Option<&'a [usize]> {
        match self {
            Queries::Select(list) => Some(list),
            Queries::Every | Queries::Held(_) => None,
        }
    }

    /// Whether the input holds every position (so `0..rows·seq` is needed).
    fn every(self) -> bool {
        !matches!(self, Queries::Held(_))
    }
}

impl Function<'_> {
    fn selected(&self) -> Option<&[usize]> {
        match self {
            Function::Attention(_, _, rows, _) => *rows,
            Function::Cross(..) | Function::Ffn(_) => None,
        }
    }

    fn held(&self) -> Option<&[usize]> {
        match self {
            Function::Cross(.., held) => *held,
            Function::Attention(..) | Function::Ffn(_) => None,
        }
    }
}

/// Turn every head of each row of `x` (`[list, d]`, row s at chunk position
/// `positions[s]`, so at position `positions[s] % seq`) by its rotary angles, or back.
fn rotate_heads(x: &mut [f32], positions: &[usize], tables: &Tables, (seq, d, heads): (usize, usize, usize), inverse: bool) {
    let d_k = d / heads;
    let (cos, sin) = tables.rotary(d_k); // [seq, d_k/2] each
    let half = d_k / 2;
    for (row, &r) in x.chunks_exact_mut(d).zip(positions) {
        let p = r % seq;
        for head in row.chunks_exact_mut(d_k) {
            rotate(head, &cos[p * half..][..half], &sin[p * half..][..half], inverse);
        }
    }
}

/// The listed rows of `x` (`[rows, d]` → `[list, d]`).
pub(super) fn gather(x: &[f32], rows: &[usize], d: usize) -> Buf<f32> {
    let mut out = Buf::with_capacity(rows.len() * d);
    for &r in rows {
        out.extend_from_slice(&x[r * d..(r + 1) * d]);
    }
    out
}

/// `dst += src`, where `src` holds the listed rows of `dst` (or all of them).
pub(super) fn add_rows(dst: &mut [f32], src: &[f32], rows: Option<&[usize]>, d: usize) {
    match rows {
        None => dst.iter_mut().zip(src).for_each(|(a, b)| *a += b),
        Some(rows) => {
            for (s, &r) in rows.iter().enumerate() {
                dst[r * d..(r + 1) * d].iter_mut().zip(&src[s * d..(s + 1) * d]).for_each(|(a, b)| *a += b);
            }
        }
    }
}

fn function_forward(f: &Function, h: &[f32], rows: usize, seq: usize, d: usize) -> (Buf<f32>, Inner) {
    match f {
        Function::Attention(a, mask, selected, tables) => attention_forward(a, mask, Queries::of(*selected), tables, h, h, rows, seq, d),
        Function::Cross(a, mask, memory, tables, held) => attention_forward(a, mask, Queries::held(*held), tables, h, memory, rows, seq, d),
        Function::Ffn(f) => {
            let pre = linear_forward(&f.up, h); // [rows, d_ff]
            let (act, cdf) = match f.activation {
                Activation::Gelu => gelu_forward(&pre),
                Activation::GeluTanh => gelu_tanh_forward(&pre),
                Activation::Relu => (Buf::collect(pre.iter().map(|v| v.max(0.0))), Buf::empty()),
                Activation::None => (Buf::copy_of(&pre), Buf::empty()),
            };
            let out = linear_forward(&f.down, &act); // [rows, d]
            (out, Inner::Ffn { pre, act, cdf })
        }
    }
}

/// Attention with queries from `h` (every row, the selected rows, or the held
/// positions) and keys and values from `source` (`h` itself, or the encoder's output).
#[allow(clippy::too_many_arguments)]
fn attention_forward(a: &PlainAttention, mask: &KeepMask, which: Queries, tables: &Tables, h: &[f32], source: &[f32], rows: usize, seq: usize, d: usize) -> (Buf<f32>, Inner) {
    let every = if which.every() { iota(rows * seq) } else { Buf::empty() };
    let queries = which.positions(&every);
    let h_queries = which.selected().map(|list| gather(h, list, d));
    // A uniform or convolution layer reads neither Q nor K.
    let (mut q, mut k) = match a.fixed() {
        true => (Buf::empty(), Buf::empty()),
        false => (linear_forward(&a.q, h_queries.as_ref().map_or(h, |q| &q[..])), linear_forward(&a.k, source)), // [queries, d], [rows·seq, d]
    };
    let v = linear_forward(&a.v, source); // [rows·seq, d]
    if a.positions == InAttention::Rotary && !a.fixed() {
        let every: Buf<usize> = iota(rows * seq);
        rotate_heads(&mut q, queries, tables, (seq, d, a.heads), false);
        rotate_heads(&mut k, &every, tables, (seq, d, a.heads), false);
    }
    let dims = Dims { seq, d_model: d, heads: a.heads };
    let mut context = Buf::filled(queries.len() * d, 0.0); // [queries, d]
    let slopes = (a.positions == InAttention::Alibi && !a.fixed()).then(|| tables.alibi(a.heads));
    let conv = conv_weights(a);
    let taps = a.kernel.as_ref().map_or(0, |k| k.shape[1]);
    let inputs = CoreInputs { q: &q, k: &k, v: &v, mask, dims, queries, scale: a.scale, application: a.application, ablated: &a.ablated, alibi: slopes, uniform: a.uniform, conv: conv.as_deref().map(|w| (&w[..], taps)) };
    let core = attention::forward(&inputs, &mut context);
    let out = linear_forward(&a.o, &context); // [queries, d]
    (out, Inner::Attention { q, k, v, core, context, h_queries })
}

/// A convolution layer's weights: the softmax of each head's kernel row (`[heads,
/// taps]`); None for the other kinds.
fn conv_weights(a: &PlainAttention) -> Option<Buf<f32>> {
    let kernel = a.kernel.as_ref()?;
    let taps = kernel.shape[1];
    let mut w = Buf::copy_of(&kernel.data);
    for row in w.chunks_exact_mut(taps) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        row.iter_mut().for_each(|v| *v = (*v - max).exp());
        let sum: f32 = row.iter().sum();
        row.iter_mut().for_each(|v| *v /= sum);
    }
    Some(w)
}

/// dh (every row the input holds) from d(out); adds the function's parameter gradients into
/// `g`, and for cross-attention the gradient of the encoder's output into `dmemory`.
#[allow(clippy::too_many_arguments)]
fn function_backward(f: &Function, g: &mut PlainLayer, inner: &Inner, h: &[f32], dout: &[f32], dmemory: Option<&mut [f32]>, rows: usize, seq: usize, d: usize) -> Buf<f32> {
    match (f, inner) {
        (Function::Attention(a, mask, selected, tables), Inner::Attention { .. }) => {
            let ga = g.attention.as_mut().expect("attention gradients");
            attention_backward(a, ga, (mask, Queries::of(*selected), tables), inner, h, None, dout, (rows, seq, d))
        }
        (Function::Cross(a, mask, memory, tables, held), Inner::Attention { .. }) => {
            let ga = g.cross.as_mut().expect("cross-attention gradients");
            let dmemory = dmemory.expect("cross-attention hands back the memory's gradient");
            attention_backward(a, ga, (mask, Queries::held(*held), tables), inner, h, Some((memory, dmemory)), dout, (rows, seq, d))
        }
        (Function::Ffn(f), Inner::Ffn { pre, act, cdf }) => {
            let gf = g.ffn.as_mut().expect("ffn gradients");
            let mut dact = linear_backward(&f.down, &mut gf.down, act, dout, true).expect("dx"); // [rows, d_ff]
            match f.activation {
                Activation::Gelu => gelu_backward(pre, cdf, &mut dact),
                Activation::GeluTanh => gelu_tanh_backward(pre, cdf, &mut dact),
                Activation::Relu => dact.iter_mut().zip(pre).for_each(|(g, &x)| {
                    if x <= 0.0 {
                        *g = 0.0;
                    }
                }),
                Activation::None => {}
            }
            linear_backward(&f.up, &mut gf.up, h, &dact, true).expect("dx")
        }
        _ => unreachable!("a sublayer's cache matches its function"),
    }
}

/// The gradient of attention's query input `h` (every row it holds); with `source` (the
/// encoder's output and its gradient) the keys' and values' part goes there, else
/// into the same rows of `h`.
#[allow(clippy::too_many_arguments)]
fn attention_backward(
    a: &PlainAttention,
    ga: &mut PlainAttention,
    (mask, which, tables): (&KeepMask, Queries, &Tables),
    inner: &Inner,
    h: &[f32],
    source: Option<(&[f32], &mut [f32])>,
    dout: &[f32],
    (rows, seq, d): (usize, usize, usize),
) -> Buf<f32> {
    let Inner::Attention { q, k, v, core, context, h_queries } = inner else { unreachable!("an attention cache") };
    let dcontext = linear_backward(&a.o, &mut ga.o, context, dout, true).expect("dx"); // [queries, d]
    let dims = Dims { seq, d_model: d, heads: a.heads };
    let every = if which.every() { iota(rows * seq) } else { Buf::empty() };
    let queries = which.positions(&every);
    let (mut dq, mut dk, mut dv) = (Buf::filled(q.len(), 0.0), Buf::filled(k.len(), 0.0), Buf::filled(v.len(), 0.0));
    let slopes = (a.positions == InAttention::Alibi && !a.fixed()).then(|| tables.alibi(a.heads));
    let conv = conv_weights(a);
    let taps = a.kernel.as_ref().map_or(0, |k| k.shape[1]);
    let inputs = CoreInputs { q, k, v, mask, dims, queries, scale: a.scale, application: a.application, ablated: &a.ablated, alibi: slopes, uniform: a.uniform, conv: conv.as_deref().map(|w| (&w[..], taps)) };
    let mut dconv = Buf::filled(conv.as_ref().map_or(0, |w| w.len()), 0.0); // [heads, taps]
    attention::backward(&inputs, core, &dcontext, &mut dq, &mut dk, &mut dv, &mut dconv);
    if let (Some(w), Some(g)) = (&conv, &mut ga.kernel) {
        // Softmax backward per head: dkernel = w ⊙ (dw - Σ w dw).
        for ((w, dw), g) in w.chunks_exact(taps).zip(dconv.chunks_exact(taps)).zip(g.data.chunks_exact_mut(taps)) {
            let dot: f32 = w.iter().zip(dw).map(|(w, dw)| w * dw).sum();
            g.iter_mut().zip(w.iter().zip(dw)).for_each(|(g, (w, dw))| *g += w * (dw - dot));
        }
    }
    // The turn is orthogonal: the gradient before it is the gradient after it turned back.
    if a.positions == InAttention::Rotary && !a.fixed() {
        let every: Buf<usize> = iota(rows * seq);
        rotate_heads(&mut dq, queries, tables, (seq, d, a.heads), true);
        rotate_heads(&mut dk, &every, tables, (seq, d, a.heads), true);
    }
    let (kv_input, dsource) = match source {
        Some((memory, dmemory)) => (memory, Some(dmemory)),
        None => (h, None),
    };
    // Keys and values: [rows·seq, d] (a uniform layer has no keys).
    let dh_v = linear_backward(&a.v, &mut ga.v, kv_input, &dv, true).expect("dx");
    let dkv = match a.fixed() {
        true => dh_v,
        false => {
            let mut dkv = linear_backward(&a.k, &mut ga.k, kv_input, &dk, true).expect("dx");
            dkv.iter_mut().zip(&dh_v).for_each(|(a, b)| *a += b);
            dkv
        }
    };
    let mut dh = match dsource {
        Some(dmemory) => {
            dmemory.iter_mut().zip(&dkv).for_each(|(m, g)| *m += g);
            Buf::filled(h.len(), 0.0)
        }
        None => dkv,
    };
    if !a.fixed() {
        let dh_q = linear_backward(&a.q, &mut ga.q, h_queries.as_ref().map_or(h, |q| &q[..]), &dq, true).expect("dx"); // [queries, d]
        add_rows(&mut dh, &dh_q, which.selected(), d);
    }
    dh
}

/// post-LN: y = LN(x + f(x)); pre-LN: y = x + f(LN(x)); none: y = x + f(x)
/// (without the residual the "x +" disappears), with f's output times the dropout
/// mask `dropped` when there is one. When `f` is asked for some rows only, `y`
/// holds those rows.
#[allow(clippy::too_many_arguments)]
pub(super) fn sublayer_forward(x: Buf<f32>, norm: Option<&PlainNorm>, layer: &PlainLayer, f: &Function, dropped: Option<Buf<f32>>, rows: usize, seq: usize, d: usize) -> (Buf<f32>, SublayerCache) {
    let selected = f.selected();
    let function = |h: &[f32]| {
        let (mut out, inner) = function_forward(f, h, rows, seq, d);
        if let Some(mask) = &dropped {
            out.iter_mut().zip(mask).for_each(|(o, m)| *o *= m);
        }
        (out, inner)
    };
    let residual = |out: &mut Buf<f32>, x: &[f32]| {
        if layer.residual {
            match selected {
                Some(list) => add_rows_from(out, x, list, d),
                None => out.iter_mut().zip(x).for_each(|(o, x)| *o += x),
            }
        }
    };
    let keep = |input, norm, inner, dropped| SublayerCache { input, norm, inner, selected: selected.map(Buf::copy_of), held: f.held().map(Buf::copy_of), dropped };
    match (layer.norm, norm) {
        (NormPlacement::Pre, Some(n)) => {
            let (h, cache) = norm_forward(n, &x, d);
            let (mut out, inner) = function(&h);
            residual(&mut out, &x);
            (out, keep(h, Some(cache), inner, dropped))
        }
        (NormPlacement::Post, Some(n)) => {
            let (mut z, inner) = function(&x);
            residual(&mut z, &x);
            let (y, cache) = norm_forward(n, &z, d);
            (y, keep(x, Some(cache), inner, dropped))
        }
        _ => {
            let (mut out, inner) = function(&x);
            residual(&mut out, &x);
            (out, keep(x, None, inner, dropped))
        }
    }
}

/// `out[s] += x[list[s]]` row by row (`out` holds the listed rows).
fn add_rows_from(out: &mut [f32], x: &[f32], list: &[usize], d: usize) {
    for (s, &r) in list.iter().enumerate() {
        out[s * d..(s + 1) * d].iter_mut().zip(&x[r * d..(r + 1) * d]).for_each(|(o, x)| *o += x);
    }
}

/// dx of a sublayer (every row its input holds) from dy (the rows it produced).
#[allow(clippy::too_many_arguments)]
pub(super) fn sublayer_backward(
    dy: Buf<f32>,
    cache: &SublayerCache,
    norm: Option<&PlainNorm>,
    g_norm: impl FnOnce(&mut PlainLayer) -> &mut PlainNorm,
    layer: &PlainLayer,
    g: &mut PlainLayer,
    f: &Function,
    dmemory: Option<&mut [f32]>,
    (rows, seq, d): (usize, usize, usize),
) -> Buf<f32> {
    let selected = cache.selected.as_ref().map(|s| &s[..]);
    let residual = |dx: &mut Buf<f32>, dy: &[f32]| {
        if layer.residual {
            add_rows(dx, dy, selected, d);
        }
    };
    // The gradient reaching f's output: through the dropout mask when there is one.
    fn through_dropout(dy: &[f32], dropped: &Option<Buf<f32>>) -> Option<Buf<f32>> {
        dropped.as_ref().map(|mask| Buf::collect(dy.iter().zip(mask.iter()).map(|(g, m)| g * m)))
    }
    match (layer.norm, norm, &cache.norm) {
        (NormPlacement::Pre, Some(n), Some(nc)) => {
            let dh = function_backward(f, g, &cache.inner, &cache.input, through_dropout(&dy, &cache.dropped).as_deref().map_or(&dy[..], |g| &g[..]), dmemory, rows, seq, d);
            let mut dx = norm_backward(n, g_norm(g), nc, &dh, d);
            residual(&mut dx, &dy);
            dx
        }
        (NormPlacement::Post, Some(n), Some(nc)) => {
            let dz = norm_backward(n, g_norm(g), nc, &dy, d);
            let mut dx = function_backward(f, g, &cache.inner, &cache.input, through_dropout(&dz, &cache.dropped).as_deref().map_or(&dz[..], |g| &g[..]), dmemory, rows, seq, d);
            residual(&mut dx, &dz);
            dx
        }
        _ => {
            let mut dx = function_backward(f, g, &cache.inner, &cache.input, through_dropout(&dy, &cache.dropped).as_deref().map_or(&dy[..], |g| &g[..]), dmemory, rows, seq, d);
            residual(&mut dx, &dy);
            dx
        }
    }
}

