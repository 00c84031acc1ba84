//! One chunk's forward and backward pass through the plain model, written out by
//! hand: embedding (+ positions) → layers (attention and feed-forward sublayers with
//! their residual and LayerNorm placement) → final LayerNorm → head → masked
//! cross-entropy, then every step in reverse. Mirrors `model/` exactly; the tests
//! compare both.

use super::attention::{self, CoreCache, CoreInputs, Dims};
use super::kernels::{add_column_sums, affine_new, gelu_backward, gelu_forward, gelu_tanh_backward, gelu_tanh_forward, layer_norm_backward, layer_norm_forward, matmul, matmul_new};
use super::params::{PlainAttention, PlainFfn, PlainLayer, PlainLinear, PlainModel, PlainNorm};
use crate::config::{Activation, ModelFamily, NormPlacement};
use crate::model::mask::{KeepMask, Role};
use crate::model::{Dropout, InAttention};
use super::scratch::{Buf, iota};
use super::tables::Tables;
use crate::model::positional::rotate;
use crate::tasks::Batch;

/// A chunk's contribution to the step (its gradients go into the caller's buffers).
pub struct ChunkResult {
    /// Σ over the chunk's scored positions of w · (−log p(target)) / `total_scored`.
    pub loss: f32,
    /// Σ of w over scored positions predicted right.
    pub correct: f32,
}

/// One LayerNorm application's saved values.
struct NormCache {
    xhat: Buf<f32>,
    rstd: Buf<f32>,
}

fn norm_forward(norm: &PlainNorm, x: &[f32], d: usize) -> (Buf<f32>, NormCache) {
    let rows = x.len() / d;
    let (mut y, mut xhat, mut rstd) = (Buf::filled(x.len(), 0.0), Buf::filled(x.len(), 0.0), Buf::filled(rows, 0.0));
    layer_norm_forward(x, d, norm.eps, &norm.gamma.data, norm.beta.as_ref().map(|b| &b.data[..]), &mut y, &mut xhat, &mut rstd);
    (y, NormCache { xhat, rstd })
}

/// dx of a LayerNorm from dy; adds its parameters' gradients into `g`.
fn norm_backward(norm: &PlainNorm, g: &mut PlainNorm, cache: &NormCache, dy: &[f32], d: usize) -> Buf<f32> {
    let mut dx = Buf::filled(dy.len(), 0.0);
    layer_norm_backward(dy, &cache.xhat, &cache.rstd, d, &norm.gamma.data, &mut g.gamma.data, g.beta.as_mut().map(|b| &mut b.data[..]), &mut dx);
    dx
}

/// `x · W + b`: `[rows, d_in]` → `[rows, d_out]`.
fn linear_forward(l: &PlainLinear, x: &[f32]) -> Buf<f32> {
    let (d_in, d_out) = (l.d_in(), l.d_out());
    let rows = x.len() / d_in;
    match &l.b {
        Some(b) => affine_new(x, &l.w.data, &b.data, (rows, d_in, d_out)),
        None => matmul_new(x, &l.w.data, (rows, d_in, d_out), false, false),
    }
}

/// Adds `xᵀ dy` and Σ dy into `g`; returns `dy Wᵀ` when `want_dx`.
fn linear_backward(l: &PlainLinear, g: &mut PlainLinear, x: &[f32], dy: &[f32], want_dx: bool) -> Option<Buf<f32>> {
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
struct SublayerCache {
    input: Buf<f32>,
    norm: Option<NormCache>,
    inner: Inner,
    selected: Option<Buf<usize>>,
    /// The dropout mask applied to the function's output (its rows), when training
    /// with dropout.
    dropped: Option<Buf<f32>>,
}

/// The function a sublayer wraps. An attention sublayer can be asked for some
/// positions only (`Some(rows)`): the last attention layer, when the loss reads
/// only some positions, computes keys and values for all but queries for those.
/// Cross-attention reads its queries from the sublayer's input and its keys and
/// values from the encoder's output (`memory`, `[rows·seq, d]`).
enum Function<'a> {
    Attention(&'a PlainAttention, &'a KeepMask, Option<&'a [usize]>, &'a Tables),
    Cross(&'a PlainAttention, &'a KeepMask, &'a [f32], &'a Tables),
    Ffn(&'a PlainFfn),
}

impl Function<'_> {
    fn selected(&self) -> Option<&[usize]> {
        match self {
            Function::Attention(_, _, rows, _) => *rows,
            Function::Cross(..) | Function::Ffn(_) => None,
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
fn gather(x: &[f32], rows: &[usize], d: usize) -> Buf<f32> {
    let mut out = Buf::with_capacity(rows.len() * d);
    for &r in rows {
        out.extend_from_slice(&x[r * d..(r + 1) * d]);
    }
    out
}

/// `dst += src`, where `src` holds the listed rows of `dst` (or all of them).
fn add_rows(dst: &mut [f32], src: &[f32], rows: Option<&[usize]>, d: usize) {
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
        Function::Attention(a, mask, selected, tables) => attention_forward(a, mask, *selected, tables, h, h, rows, seq, d),
        Function::Cross(a, mask, memory, tables) => attention_forward(a, mask, None, tables, h, memory, rows, seq, d),
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

/// Attention with queries from `h` (the `selected` rows, or all) and keys and
/// values from `source` (`h` itself, or the encoder's output).
#[allow(clippy::too_many_arguments)]
fn attention_forward(a: &PlainAttention, mask: &KeepMask, selected: Option<&[usize]>, tables: &Tables, h: &[f32], source: &[f32], rows: usize, seq: usize, d: usize) -> (Buf<f32>, Inner) {
    let all: Buf<usize>;
    let (queries, h_queries) = match selected {
        Some(list) => (list, Some(gather(h, list, d))),
        None => {
            all = iota(rows * seq);
            (&all[..], None)
        }
    };
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

/// dh (every input row) from d(out); adds the function's parameter gradients into
/// `g`, and for cross-attention the gradient of the encoder's output into `dmemory`.
#[allow(clippy::too_many_arguments)]
fn function_backward(f: &Function, g: &mut PlainLayer, inner: &Inner, h: &[f32], dout: &[f32], dmemory: Option<&mut [f32]>, rows: usize, seq: usize, d: usize) -> Buf<f32> {
    match (f, inner) {
        (Function::Attention(a, mask, selected, tables), Inner::Attention { .. }) => {
            let ga = g.attention.as_mut().expect("attention gradients");
            attention_backward(a, ga, (mask, *selected, tables), inner, h, None, dout, (rows, seq, d))
        }
        (Function::Cross(a, mask, memory, tables), Inner::Attention { .. }) => {
            let ga = g.cross.as_mut().expect("cross-attention gradients");
            let dmemory = dmemory.expect("cross-attention hands back the memory's gradient");
            attention_backward(a, ga, (mask, None, tables), inner, h, Some((memory, dmemory)), dout, (rows, seq, d))
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

/// The gradient of attention's query input `h` (every row); with `source` (the
/// encoder's output and its gradient) the keys' and values' part goes there, else
/// into the same rows of `h`.
#[allow(clippy::too_many_arguments)]
fn attention_backward(
    a: &PlainAttention,
    ga: &mut PlainAttention,
    (mask, selected, tables): (&KeepMask, Option<&[usize]>, &Tables),
    inner: &Inner,
    h: &[f32],
    source: Option<(&[f32], &mut [f32])>,
    dout: &[f32],
    (rows, seq, d): (usize, usize, usize),
) -> Buf<f32> {
    let Inner::Attention { q, k, v, core, context, h_queries } = inner else { unreachable!("an attention cache") };
    let dcontext = linear_backward(&a.o, &mut ga.o, context, dout, true).expect("dx"); // [queries, d]
    let dims = Dims { seq, d_model: d, heads: a.heads };
    let all: Buf<usize>;
    let queries = match selected {
        Some(list) => list,
        None => {
            all = iota(rows * seq);
            &all[..]
        }
    };
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
        add_rows(&mut dh, &dh_q, selected, d);
    }
    dh
}

/// post-LN: y = LN(x + f(x)); pre-LN: y = x + f(LN(x)); none: y = x + f(x)
/// (without the residual the "x +" disappears), with f's output times the dropout
/// mask `dropped` when there is one. When `f` is asked for some rows only, `y`
/// holds those rows.
#[allow(clippy::too_many_arguments)]
fn sublayer_forward(x: Buf<f32>, norm: Option<&PlainNorm>, layer: &PlainLayer, f: &Function, dropped: Option<Buf<f32>>, rows: usize, seq: usize, d: usize) -> (Buf<f32>, SublayerCache) {
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
    let keep = |input, norm, inner, dropped| SublayerCache { input, norm, inner, selected: selected.map(Buf::copy_of), dropped };
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

/// dx of a sublayer (every input row) from dy (the rows it produced).
#[allow(clippy::too_many_arguments)]
fn sublayer_backward(
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

/// The chunk's attention masks (planted bugs included): each encoder layer's, each
/// decoder (or decoder-only) layer's, and each decoder layer's cross-attention's
/// (encoder–decoder only), in the roles the composed model gives them.
pub struct ChunkMasks {
    pub encoder: Vec<KeepMask>,
    pub decoder: Vec<KeepMask>,
    pub cross: Vec<KeepMask>,
}

/// The masks of `config`'s layers for this chunk; `source_len` is the model's.
pub fn chunk_masks(config: &crate::config::ModelConfig, source_len: usize, chunk: &Batch) -> ChunkMasks {
    let padding = chunk.has_padding().then_some((&chunk.padding[..], chunk.batch_size));
    let seq = chunk.seq_len;
    let in_role = |layers: &[crate::config::LayerConfig], role: Role| layers.iter().map(|layer| KeepMask::applied_in(layer, role, seq, padding)).collect();
    match config.family {
        ModelFamily::EncoderDecoder => ChunkMasks {
            encoder: in_role(&config.encoder_layers, Role::Encoder { source_len }),
            decoder: in_role(&config.layers, Role::DecoderSelf { source_len }),
            cross: in_role(&config.layers, Role::Cross { source_len }),
        },
        _ => ChunkMasks { encoder: Vec::new(), decoder: in_role(&config.layers, Role::Whole), cross: Vec::new() },
    }
}

/// `mask` (`[rows·seq, d]`, as `Dropout` draws it) reduced to the listed rows.
fn mask_rows(mask: Option<Buf<f32>>, rows: Option<&[usize]>, d: usize) -> Option<Buf<f32>> {
    match rows {
        Some(list) => mask.map(|m| gather(&m, list, d)),
        None => mask,
    }
}

/// One layer's saved sublayers: attention, cross-attention, feed-forward.
type LayerCache = [Option<SublayerCache>; 3];

/// A stack of layers as one chunk runs it: the layers, their masks, and for a
/// decoder the cross-attention masks and the encoder's output. `select_at`: the
/// layer whose attention computes only the `selected` queries.
struct Stack<'a> {
    layers: &'a [PlainLayer],
    masks: &'a [KeepMask],
    cross: Option<(&'a [KeepMask], &'a [f32])>,
    select_at: Option<usize>,
    selected: Option<&'a [usize]>,
    tables: &'a Tables,
}

thread_local! {
    /// Emptied lists of layer caches, reused from step to step.
    static CACHE_LISTS: std::cell::RefCell<Vec<Vec<LayerCache>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An empty list of layer caches (from this thread's pool when it has one).
fn cache_list() -> Vec<LayerCache> {
    CACHE_LISTS.with_borrow_mut(|lists| lists.pop()).unwrap_or_default()
}

/// Give a list back: its caches' buffers go back to their pools, the list to its own.
fn give_back(mut list: Vec<LayerCache>) {
    list.clear();
    let _ = CACHE_LISTS.try_with(|lists| lists.borrow_mut().push(list));
}

/// The next dropout mask of `len` values, when training with dropout.
fn draw(dropout: &mut Dropout, len: usize) -> Option<Buf<f32>> {
    dropout.is_on().then(|| {
        let mut mask = Buf::with_capacity(len);
        dropout.mask_into(&mut mask, len);
        mask
    })
}

impl<'a> Stack<'a> {
    /// x (`[rows·seq, d]`, or the selected rows when `x_rows` says so) through every
    /// layer; each sublayer draws its dropout mask over every position, in the
    /// composed model's order (attention, cross-attention, feed-forward).
    fn forward(&self, mut x: Buf<f32>, mut x_rows: Option<&'a [usize]>, dropout: &mut Dropout, (rows, seq, d): (usize, usize, usize)) -> (Buf<f32>, Vec<LayerCache>) {
        let n = rows * seq;
        let mut caches = cache_list();
        for (index, (layer, mask)) in self.layers.iter().zip(self.masks).enumerate() {
            let mut cache: LayerCache = [None, None, None];
            if let Some(a) = &layer.attention {
                let queries = if Some(index) == self.select_at { self.selected } else { None };
                let dropped = mask_rows(draw(dropout, n * d), queries, d);
                let (y, c) = sublayer_forward(x, layer.attention_norm.as_ref(), layer, &Function::Attention(a, mask, queries, self.tables), dropped, rows, seq, d);
                x = y;
                x_rows = queries;
                cache[0] = Some(c);
            }
            if let (Some(a), Some((masks, memory))) = (&layer.cross, self.cross) {
                let dropped = draw(dropout, n * d);
                let (y, c) = sublayer_forward(x, layer.cross_norm.as_ref(), layer, &Function::Cross(a, &masks[index], memory, self.tables), dropped, rows, seq, d);
                x = y;
                cache[1] = Some(c);
            }
            if let Some(f) = &layer.ffn {
                let dropped = mask_rows(draw(dropout, n * d), x_rows, d);
                let (y, c) = sublayer_forward(x, layer.ffn_norm.as_ref(), layer, &Function::Ffn(f), dropped, rows, seq, d);
                x = y;
                cache[2] = Some(c);
            }
            caches.push(cache);
        }
        (x, caches)
    }

    /// dx through every layer in reverse, adding parameter gradients into `grads`
    /// and cross-attention's gradient of the encoder's output into `dmemory`.
    fn backward(&self, caches: &[LayerCache], grads: &mut [PlainLayer], mut dx: Buf<f32>, mut dmemory: Option<&mut [f32]>, dims: (usize, usize, usize)) -> Buf<f32> {
        for (index, (layer, [attention, cross, ffn])) in self.layers.iter().zip(caches).enumerate().rev() {
            let g = &mut grads[index];
            if let (Some(f), Some(cache)) = (&layer.ffn, ffn) {
                dx = sublayer_backward(dx, cache, layer.ffn_norm.as_ref(), |g| g.ffn_norm.as_mut().expect("ffn norm"), layer, g, &Function::Ffn(f), None, dims);
            }
            if let (Some(a), Some(cache), Some((masks, memory))) = (&layer.cross, cross, self.cross) {
                let f = Function::Cross(a, &masks[index], memory, self.tables);
                dx = sublayer_backward(dx, cache, layer.cross_norm.as_ref(), |g| g.cross_norm.as_mut().expect("cross norm"), layer, g, &f, dmemory.as_deref_mut(), dims);
            }
            if let (Some(a), Some(cache)) = (&layer.attention, attention) {
                let f = Function::Attention(a, &self.masks[index], cache.selected.as_ref().map(|s| &s[..]), self.tables);
                dx = sublayer_backward(dx, cache, layer.attention_norm.as_ref(), |g| g.attention_norm.as_mut().expect("attention norm"), layer, g, &f, None, dims);
            }
        }
        dx
    }
}

/// Forward and backward of one chunk. `total_scored` is the whole batch's scored
/// count, so the chunks' losses and gradients sum to the batch's mean. `dropout`
/// draws the chunk's masks in the composed model's order (embedding, the encoder's
/// layers, then the decoder's, every position), so both paths drop the same
/// elements.
/// Its gradients are added into `grads` (the model's layout). Every buffer it uses
/// is on loan from its thread's pools (`scratch`), so in the steady state it
/// allocates nothing.
#[allow(clippy::too_many_arguments)]
pub fn run_chunk(model: &PlainModel, tables: &Tables, masks: &ChunkMasks, chunk: &Batch, total_scored: usize, dropout: &mut Dropout, grads: &mut PlainModel) -> ChunkResult {
    let (rows, seq, d, vocab) = (chunk.batch_size, chunk.seq_len, model.d_model(), model.vocab());
    let n = rows * seq;
    let dims = (rows, seq, d);

    // Embedding: x[r] = tok[token] + pos[position]  -> [rows·seq, d]
    let mut x = Buf::filled(n * d, 0.0);
    let sinusoid = &tables.sinusoid;
    for r in 0..n {
        let t = chunk.tokens[r] as usize;
        let out = &mut x[r * d..(r + 1) * d];
        out.copy_from_slice(&model.tok_emb.data[t * d..(t + 1) * d]);
        let pos = match (&model.pos_emb, &sinusoid) {
            (Some(p), _) => Some(&p.data[(r % seq) * d..][..d]),
            (None, Some(table)) => Some(&table[(r % seq) * d..][..d]),
            _ => None,
        };
        if let Some(pos) = pos {
            out.iter_mut().zip(pos).for_each(|(o, p)| *o += p);
        }
    }
    let embedding_dropped = draw(dropout, n * d);
    if let Some(mask) = &embedding_dropped {
        x.iter_mut().zip(mask).for_each(|(v, m)| *v *= m);
    }

    // Only the scored positions' outputs are ever read. In a decoder-only model
    // positions are independent after the last attention layer, so from its
    // queries on only those rows are computed (all of them when every position is
    // scored); an encoder–decoder computes every row and keeps the scored ones for
    // the head.
    let scored = Buf::collect((0..n).filter(|&r| chunk.loss_weights[r] != 0.0));
    if scored.is_empty() {
        return ChunkResult { loss: 0.0, correct: 0.0 };
    }
    let selected = (scored.len() < n).then_some(&scored[..]);
    let seq2seq = model.seq2seq;
    let last_attention = model.layers.iter().rposition(|l| l.attention.is_some());
    let gather_first = !seq2seq && last_attention.is_none() && selected.is_some(); // every layer works row by row
    let gather_last = seq2seq && selected.is_some();

    // The encoder reads the same embedded sequence; its output is the decoder's memory.
    let encoder = Stack { layers: &model.encoder, masks: &masks.encoder, cross: None, select_at: None, selected: None, tables };
    let encoder_read = model.encoder_read();
    let (memory, encoder_caches, encoder_norm_cache) = if encoder_read {
        let (m, caches) = encoder.forward(Buf::copy_of(&x), None, dropout, dims);
        match &model.encoder_norm {
            Some(norm) => {
                let (m, cache) = norm_forward(norm, &m, d);
                (m, caches, Some(cache))
            }
            None => (m, caches, None),
        }
    } else {
        // Nothing reads it (no cross-attention), but the composed model still
        // runs it and draws its dropout masks: draw them too, so the stream agrees.
        for layer in model.encoder.iter().filter(|_| seq2seq) {
            for _ in 0..layer.attention.is_some() as usize + layer.ffn.is_some() as usize {
                drop(draw(dropout, n * d));
            }
        }
        (Buf::empty(), cache_list(), None)
    };
    let decoder = Stack {
        layers: &model.layers,
        masks: &masks.decoder,
        cross: encoder_read.then_some((&masks.cross[..], &memory[..])),
        select_at: if seq2seq { None } else { last_attention },
        selected,
        tables,
    };
    if gather_first && let Some(list) = selected {
        x = gather(&x, list, d);
    }
    let (mut x, caches) = decoder.forward(x, selected.filter(|_| gather_first), dropout, dims);
    if gather_last && let Some(list) = selected {
        x = gather(&x, list, d);
    }
    let final_cache = model.final_norm.as_ref().map(|n| {
        let (y, cache) = norm_forward(n, &x, d);
        x = y;
        cache
    });
    let out_rows: &[usize] = &scored; // x and the logits now hold these positions
    let logits = linear_forward(&model.head, &x); // [scored, vocab]

    // Masked cross-entropy and its gradient.
    let (mut loss, mut correct) = (0.0f64, 0.0f32);
    let mut dlogits = Buf::filled(out_rows.len() * vocab, 0.0);
    let denominator = total_scored.max(1) as f32;
    for (s, &r) in out_rows.iter().enumerate() {
        let w = chunk.loss_weights[r];
        let row = &logits[s * vocab..(s + 1) * vocab];
        let target = chunk.targets[r] as usize;
        let (mut best, mut best_at) = (f32::NEG_INFINITY, 0);
        for (j, &v) in row.iter().enumerate() {
            if v > best || j == 0 {
                (best, best_at) = (v, j);
            }
        }
        correct += w * (best_at == target) as u8 as f32;
        let sum: f32 = row.iter().map(|v| (v - best).exp()).sum();
        let log_sum = sum.ln() + best;
        loss += (w * (log_sum - row[target])) as f64;
        let grad = &mut dlogits[s * vocab..(s + 1) * vocab];
        for (j, g) in grad.iter_mut().enumerate() {
            let p = (row[j] - log_sum).exp();
            *g = w * (p - (j == target) as u8 as f32) / denominator;
        }
    }

    // Backward.
    let mut dx = linear_backward(&model.head, &mut grads.head, &x, &dlogits, true).expect("dx"); // [scored, d]
    if let (Some(n), Some(cache)) = (&model.final_norm, &final_cache) {
        dx = norm_backward(n, grads.final_norm.as_mut().expect("final norm gradients"), cache, &dx, d);
    }
    let expand = |dx: Buf<f32>| match selected {
        Some(list) => {
            let mut all = Buf::filled(n * d, 0.0);
            add_rows(&mut all, &dx, Some(list), d);
            all
        }
        None => dx,
    };
    if gather_last {
        dx = expand(dx);
    }
    let mut dmemory = encoder_read.then(|| Buf::filled(n * d, 0.0));
    dx = decoder.backward(&caches, &mut grads.layers, dx, dmemory.as_mut().map(|m| &mut m[..]), dims);
    if gather_first {
        dx = expand(dx);
    }
    if let Some(mut dm) = dmemory {
        if let (Some(norm), Some(cache)) = (&model.encoder_norm, &encoder_norm_cache) {
            dm = norm_backward(norm, grads.encoder_norm.as_mut().expect("encoder norm gradients"), cache, &dm, d);
        }
        let dx_encoder = encoder.backward(&encoder_caches, &mut grads.encoder, dm, None, dims);
        dx.iter_mut().zip(&dx_encoder).for_each(|(a, b)| *a += b);
    }
    if let Some(mask) = &embedding_dropped {
        dx.iter_mut().zip(mask).for_each(|(g, m)| *g *= m);
    }
    for r in 0..n {
        let t = chunk.tokens[r] as usize;
        let grad = &dx[r * d..(r + 1) * d];
        grads.tok_emb.data[t * d..(t + 1) * d].iter_mut().zip(grad).for_each(|(g, v)| *g += v);
        if let Some(p) = &mut grads.pos_emb {
            p.data[(r % seq) * d..][..d].iter_mut().zip(grad).for_each(|(g, v)| *g += v);
        }
    }
    give_back(caches);
    give_back(encoder_caches);
    ChunkResult {
        loss: (loss / denominator as f64) as f32,
        correct,
    }
}
