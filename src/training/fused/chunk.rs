//! One chunk's forward and backward pass through the plain model: embedding (+
//! positions and dropout) → the encoder's layers (encoder–decoder) → the layers (or
//! the recurrent encoder–decoder, `recurrent.rs`) →
//! final LayerNorm → head → masked cross-entropy, then every step in reverse.
//! The sublayers themselves are in `sublayer.rs`.

use super::params::{PlainLayer, PlainModel};
use super::recurrent;
use super::scratch::Buf;
use super::softmax_rows::{log_sum_exp_rows, scaled_softmax_rows};
use super::sublayer::{Function, SublayerCache, add_rows, gather, linear_backward, linear_forward, norm_backward, norm_forward, sublayer_backward, sublayer_forward};
use super::tables::Tables;
use crate::config::ModelFamily;
use crate::model::Dropout;
use crate::model::mask::{KeepMask, Role};
use crate::tasks::Batch;

/// What a chunk's pass is for.
pub enum Pass<'a> {
    /// A training step: the gradients are added into this buffer (the model's layout).
    Train(&'a mut PlainModel),
    /// A held-out evaluation: no backward pass; each scored position's predicted
    /// token is pushed, with its index in the chunk.
    Evaluate(&'a mut Vec<(usize, u32)>),
}

/// A chunk's contribution to the step (its gradients go into the caller's buffers).
pub struct ChunkResult {
    /// Σ over the chunk's scored positions of w · (−log p(target)) / `total_scored`.
    pub loss: f32,
    /// Σ of w over scored positions predicted right.
    pub correct: f32,
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
    /// Keep each layer's cache for the backward pass; an evaluation gives each back
    /// to the pool as soon as the next sublayer has run.
    keep: bool,
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
                let dropped = mask_rows(draw(dropout, n * d), x_rows, d);
                let (y, c) = sublayer_forward(x, layer.cross_norm.as_ref(), layer, &Function::Cross(a, &masks[index], memory, self.tables, x_rows), dropped, rows, seq, d);
                x = y;
                cache[1] = Some(c);
            }
            if let Some(f) = &layer.ffn {
                let dropped = mask_rows(draw(dropout, n * d), x_rows, d);
                let (y, c) = sublayer_forward(x, layer.ffn_norm.as_ref(), layer, &Function::Ffn(f), dropped, rows, seq, d);
                x = y;
                cache[2] = Some(c);
            }
            if self.keep {
                caches.push(cache);
            }
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
                let f = Function::Cross(a, &masks[index], memory, self.tables, cache.held.as_ref().map(|h| &h[..]));
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

/// Forward and backward of one chunk (forward only for `Pass::Evaluate`). `total_scored` is the whole batch's scored
/// count, so the chunks' losses and gradients sum to the batch's mean. `dropout`
/// draws the chunk's masks in the composed model's order (embedding, the encoder's
/// layers, then the decoder's, every position), so both paths drop the same
/// elements.
/// Its gradients are added into `Pass::Train`'s buffer (the model's layout). Every buffer it uses
/// is on loan from its thread's pools (`scratch`), so in the steady state it
/// allocates nothing.
#[allow(clippy::too_many_arguments)]
pub fn run_chunk(model: &PlainModel, tables: &Tables, masks: &ChunkMasks, chunk: &Batch, total_scored: usize, dropout: &mut Dropout, mut pass: Pass) -> ChunkResult {
    let (rows, seq, d, vocab) = (chunk.batch_size, chunk.seq_len, model.d_model(), model.vocab());
    let n = rows * seq;
    let dims = (rows, seq, d);

    // Embedding: x[r] = tok[token] + pos[position]  -> [rows·seq, d]
    let mut x = Buf::overwritten(n * d); // every row copied in below
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

    // Only the scored positions' outputs are ever read. Positions are independent
    // after the decoder's last self-attention layer (cross-attention reads the
    // encoder's output row by row), so from its queries on only those rows are
    // computed (all of them when every position is scored). The GRU model, and a
    // decoder with no self-attention, compute every row and keep the scored ones
    // for the head.
    let scored = Buf::collect((0..n).filter(|&r| chunk.loss_weights[r] != 0.0));
    if scored.is_empty() {
        return ChunkResult { loss: 0.0, correct: 0.0 };
    }
    let selected = (scored.len() < n).then_some(&scored[..]);
    let seq2seq = model.seq2seq;
    let whole_frame = seq2seq || model.rnn.is_some(); // the encoder or the GRU reads every position
    let last_attention = model.layers.iter().rposition(|l| l.attention.is_some());
    let gather_first = !whole_frame && last_attention.is_none() && selected.is_some(); // every layer works row by row
    let gather_last = (model.rnn.is_some() || (seq2seq && last_attention.is_none())) && selected.is_some();

    // The encoder reads the same embedded sequence; its output is the decoder's memory.
    let training = matches!(pass, Pass::Train(_));
    let encoder = Stack { layers: &model.encoder, masks: &masks.encoder, cross: None, select_at: None, selected: None, tables, keep: training };
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
        select_at: last_attention,
        selected,
        tables,
        keep: training,
    };
    if gather_first && let Some(list) = selected {
        x = gather(&x, list, d);
    }
    let (mut x, caches) = decoder.forward(x, selected.filter(|_| gather_first), dropout, dims);
    let padding = chunk.has_padding().then_some(&chunk.padding[..]);
    let rnn_cache = model.rnn.as_ref().map(|rnn| {
        let (y, cache) = recurrent::forward(rnn, &x, padding, dims);
        x = y;
        cache
    }).filter(|_| training);
    if gather_last && let Some(list) = selected {
        x = gather(&x, list, d);
    }
    let final_cache = model.final_norm.as_ref().map(|n| {
        let (y, cache) = norm_forward(n, &x, d);
        x = y;
        cache
    }).filter(|_| training);
    let out_rows: &[usize] = &scored; // x and the logits now hold these positions
    let logits = linear_forward(&model.head, &x); // [scored, vocab]

    // Masked cross-entropy and its gradient (when training).
    let (mut loss, mut correct) = (0.0f64, 0.0f32);
    let scored_rows = out_rows.len();
    let mut best = Buf::overwritten(scored_rows); // each row's largest logit
    for (s, &r) in out_rows.iter().enumerate() {
        let row = &logits[s * vocab..(s + 1) * vocab];
        let (mut top, mut top_at) = (f32::NEG_INFINITY, 0);
        for (j, &v) in row.iter().enumerate() {
            if v > top || j == 0 {
                (top, top_at) = (v, j);
            }
        }
        best[s] = top;
        correct += chunk.loss_weights[r] * (top_at == chunk.targets[r] as usize) as u8 as f32;
        if let Pass::Evaluate(predictions) = &mut pass {
            predictions.push((r, top_at as u32));
        }
    }
    let denominator = total_scored.max(1) as f32;
    let mut log_sum = Buf::overwritten(scored_rows); // log Σ_j e^(logit_j), per row
    // d loss / d logit_j = w (softmax_j − [j = target]) / denominator, for every row.
    let mut dlogits = if training { Buf::overwritten(scored_rows * vocab) } else { Buf::empty() };
    if training {
        let mut scale = Buf::overwritten(scored_rows); // w / denominator, per row
        for (c, &r) in scale.iter_mut().zip(out_rows) {
            *c = chunk.loss_weights[r] / denominator;
        }
        scaled_softmax_rows(&logits, vocab, &best, &scale, &mut log_sum, &mut dlogits);
        for ((s, &r), &c) in out_rows.iter().enumerate().zip(scale.iter()) {
            dlogits[s * vocab + chunk.targets[r] as usize] -= c;
        }
    } else {
        log_sum_exp_rows(&logits, vocab, &best, &mut log_sum);
    }
    for (s, &r) in out_rows.iter().enumerate() {
        let target = chunk.targets[r] as usize;
        loss += (chunk.loss_weights[r] * (log_sum[s] - logits[s * vocab + target])) as f64;
    }

    let Pass::Train(grads) = pass else {
        give_back(caches);
        give_back(encoder_caches);
        return ChunkResult { loss: (loss / denominator as f64) as f32, correct };
    };

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
    if let (Some(rnn), Some(cache)) = (&model.rnn, &rnn_cache) {
        dx = recurrent::backward(rnn, grads.rnn.as_mut().expect("rnn gradients"), cache, &dx, padding, dims);
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
