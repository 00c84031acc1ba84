//! Incremental decoding with a key/value cache: the inference-time trick that
//! makes writing one token at a time cheap.
//!
//! Without a cache, writing token t runs the whole prefix (t tokens) through the
//! model again, although the keys and values of the earlier tokens have not
//! changed: in a causal model a token's K and V depend only on the tokens before
//! it. With a cache, each layer keeps the K and V it has computed; a new token
//! computes only its own Q, K and V, appends its K and V, and attends over the
//! stored ones. The cache costs memory linear in the length (2 · layers · d_model
//! numbers per token); it does nothing for training, which sees every position at
//! once anyway.

use burn::tensor::activation::softmax;
use burn::tensor::{Int, Tensor, TensorData};

use super::Transformer;
use super::attention::{InAttention, SelfAttention, alibi, rotary};
use super::block::Block;
use super::rows::linear_rows;
use crate::config::{AttentionKind, LayerConfig, MaskApplication, MaskKind, MaskReading};
use crate::t;

/// Each attention layer's keys and values so far, `[batch, heads, len, d_k]`.
pub struct KvCache {
    layers: Vec<Option<(Tensor<4>, Tensor<4>)>>,
    /// Tokens already in the cache (the position of the next one).
    len: usize,
}

impl KvCache {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Numbers held: 2 (K and V) · batch · d_model per token per attention layer.
    pub fn numbers(&self) -> usize {
        self.layers.iter().flatten().map(|(k, v)| k.shape().num_elements() + v.shape().num_elements()).sum()
    }
}

impl Transformer {
    /// Why this model cannot decode with a cache, if it cannot: cached decoding
    /// only equals a full forward pass when no query sees a later key and every
    /// query sees itself.
    pub fn cache_support(&self) -> Result<(), String> {
        if self.config.family != crate::config::ModelFamily::Decoder {
            return Err(t!("msg-cache-decoder-only", family = self.config.family.name()));
        }
        for (index, layer) in self.config.layers.iter().enumerate().filter(|(_, l)| l.attention) {
            let why = layer_cache_blocker(layer);
            if let Some(why) = why {
                return Err(t!("msg-cache-unsupported", index = index, why = why));
            }
        }
        Ok(())
    }

    /// An empty cache for `batch` sequences.
    pub fn new_cache(&self) -> KvCache {
        KvCache {
            layers: vec![None; self.layers.len()],
            len: 0,
        }
    }

    /// Run `tokens` (`[batch, n]`, the next n positions) through the model, reading
    /// and extending `cache`; returns their logits `[batch, n, vocab]`.
    /// Call `cache_support` first; positions past `max_len` are the caller's to refuse.
    pub fn forward_cached(&self, tokens: Tensor<2, Int>, cache: &mut KvCache) -> Tensor<3> {
        let [_, n] = tokens.dims();
        let start = cache.len;
        let mut x = self.embed(tokens, start); // [batch, n, d_model]
        for ((block, layer), kv) in self.layers.iter().zip(&self.config.layers).zip(&mut cache.layers) {
            x = block.forward_cached(x, kv, layer, start); // [batch, n, d_model]
        }
        if let Some(norm) = &self.final_norm {
            x = norm.forward(x); // [batch, n, d_model]
        }
        cache.len += n;
        self.output(x) // [batch, n, vocab]
    }
}

/// Why one attention layer's output at a position depends on more than the
/// tokens up to it (or is not a softmax over them).
fn layer_cache_blocker(layer: &LayerConfig) -> Option<String> {
    if layer.mask == MaskKind::Bidirectional {
        Some(t!("msg-cache-blocker-bidirectional"))
    } else if layer.diagonal_offset != 0 {
        Some(t!("msg-cache-blocker-diagonal"))
    } else if layer.mask_reading != MaskReading::KeepIsTrue {
        Some(t!("msg-cache-blocker-mask-inverted"))
    } else if layer.mask_application == MaskApplication::MultiplyAfterSoftmax {
        Some(t!("msg-cache-blocker-after-softmax"))
    } else if layer.attention_kind != AttentionKind::Softmax {
        Some(t!("msg-cache-blocker-uniform"))
    } else {
        None
    }
}

impl Block {
    /// x: `[batch, n, d_model]` at positions `start..start + n` -> `[batch, n, d_model]`
    fn forward_cached(
        &self,
        x: Tensor<3>,
        kv: &mut Option<(Tensor<4>, Tensor<4>)>,
        layer: &LayerConfig,
        start: usize,
    ) -> Tensor<3> {
        let mut x = x;
        if let Some(attention) = &self.attention {
            x = self.sublayer(x, self.attention_norm.as_ref(), |h| attention.forward_cached(h, kv, layer, start));
        }
        if let Some(ffn) = &self.ffn {
            x = self.sublayer(x, self.ffn_norm.as_ref(), |h| ffn.forward(h));
        }
        x
    }
}

impl SelfAttention {
    /// x: `[batch, n, d_model]`, the new positions `start..start + n`; their keys and
    /// values are appended to `kv`, and each attends to every cached key it may see.
    fn forward_cached(
        &self,
        x: Tensor<3>,
        kv: &mut Option<(Tensor<4>, Tensor<4>)>,
        layer: &LayerConfig,
        start: usize,
    ) -> Tensor<3> {
        let [batch, n, d_model] = x.dims();
        let heads = self.heads;
        let d_k = d_model / heads;
        let split = |t: Tensor<3>| t.reshape([batch, n, heads, d_k]).swap_dims(1, 2); // [batch, heads, n, d_k]
        let q = split(linear_rows(&self.wq, x.clone())); // [batch, heads, n, d_k]
        let k_new = split(linear_rows(&self.wk, x.clone())); // [batch, heads, n, d_k]
        // A rotary key is turned by its own position only, so the cache keeps it turned.
        let (q, k_new) = match self.positions {
            InAttention::Rotary => (rotary(q, start), rotary(k_new, start)), // [batch, heads, n, d_k] each
            _ => (q, k_new),
        };
        let v_new = split(linear_rows(&self.wv, x)); // [batch, heads, n, d_k]
        let (k, v) = match kv.take() {
            Some((k, v)) => (Tensor::cat(vec![k, k_new], 2), Tensor::cat(vec![v, v_new], 2)), // [batch, heads, total, d_k]
            None => (k_new, v_new),
        };
        *kv = Some((k.clone(), v.clone()));
        let total = start + n;

        let scores = q.matmul(k.swap_dims(2, 3)); // [batch, heads, n, total]
        let scores = if self.scale { scores.div_scalar((d_k as f32).sqrt()) } else { scores };
        let bias = visible_bias(layer, start, n); // n · total
        let bias = Tensor::<4>::from_data(TensorData::new(bias, [1, 1, n, total]), &scores.device()); // [1, 1, n, total]
        let scores = match self.positions {
            InAttention::Alibi => scores + alibi(heads, start, n, total, &bias.device()), // [batch, heads, n, total]
            _ => scores,
        };
        let weights = softmax(scores + bias, 3); // [batch, heads, n, total]
        let context = self.silence_ablated(weights.matmul(v)); // [batch, heads, n, d_k]
        let merged = context.swap_dims(1, 2).reshape([batch, n, d_model]); // [batch, n, d_model]
        linear_rows(&self.wo, merged) // [batch, n, d_model]
    }
}

/// `n × (start + n)` additive bias: 0 where query `start + i` may see key `j`
/// (causal, and inside the window for a sliding-window layer), -inf elsewhere.
/// Every query sees itself, so no row is all -inf.
fn visible_bias(layer: &LayerConfig, start: usize, n: usize) -> Vec<f32> {
    let total = start + n;
    let window = layer.window.max(1);
    let mut bias = Vec::with_capacity(n * total);
    for i in 0..n {
        let q = start + i;
        for k in 0..total {
            let visible = k <= q && (layer.mask != MaskKind::SlidingWindow || q - k < window);
            bias.push(if visible { 0.0 } else { f32::NEG_INFINITY });
        }
    }
    bias
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ModelConfig, PositionalEncoding};
    use crate::model::{Capture, Dropout};
    use burn::tensor::Device;

    fn logits_full(model: &Transformer, tokens: &[i64], device: &Device) -> Vec<f32> {
        let input = Tensor::<2, Int>::from_data(TensorData::new(tokens.to_vec(), [1, tokens.len()]), device);
        let out = model.forward(input, None, Capture::default(), &mut Dropout::off());
        out.logits.into_data().convert::<f32>().try_into_vec::<f32>().expect("floats")
    }

    fn logits_cached(model: &Transformer, tokens: &[i64], prompt: usize, device: &Device) -> Vec<f32> {
        let mut cache = model.new_cache();
        let mut all = Vec::new();
        let first = Tensor::<2, Int>::from_data(TensorData::new(tokens[..prompt].to_vec(), [1, prompt]), device);
        all.extend(model.forward_cached(first, &mut cache).into_data().convert::<f32>().try_into_vec::<f32>().expect("floats"));
        for &t in &tokens[prompt..] {
            let one = Tensor::<2, Int>::from_data(TensorData::new(vec![t], [1, 1]), device);
            all.extend(model.forward_cached(one, &mut cache).into_data().convert::<f32>().try_into_vec::<f32>().expect("floats"));
        }
        assert_eq!(cache.len(), tokens.len());
        all
    }

    fn model_with(edit: impl Fn(&mut ModelConfig)) -> (Transformer, Device) {
        let device = Device::flex();
        let mut config = ModelConfig::default();
        config.max_len = 24;
        edit(&mut config);
        (Transformer::new(&config, 11, 3, &device), device)
    }

    fn assert_close(a: &[f32], b: &[f32]) {
        assert_eq!(a.len(), b.len());
        let gap = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
        assert!(gap < 1e-4, "cached and full logits differ by {gap}");
    }

    #[test]
    fn cached_logits_equal_the_full_forward_pass() {
        let tokens: Vec<i64> = (0..20).map(|i| (i * 7 % 11) as i64).collect();
        for positional in [PositionalEncoding::Learned, PositionalEncoding::Sinusoidal, PositionalEncoding::None, PositionalEncoding::Rotary, PositionalEncoding::Alibi] {
            let (model, device) = model_with(|c| c.positional = positional);
            model.cache_support().expect("a causal model caches");
            assert_close(&logits_full(&model, &tokens, &device), &logits_cached(&model, &tokens, 5, &device));
        }
    }

    #[test]
    fn rotary_and_alibi_tell_positions_apart_inside_attention() {
        // Bidirectional, and nothing added to the token vectors: with no positions,
        // the last output cannot tell the first two tokens' order apart.
        let tokens: Vec<i64> = vec![1, 2, 3, 4, 5, 6];
        let swapped: Vec<i64> = vec![2, 1, 3, 4, 5, 6];
        let vocab = 11;
        for (positional, tells) in [(PositionalEncoding::None, false), (PositionalEncoding::Rotary, true), (PositionalEncoding::Alibi, true)] {
            let (model, device) = model_with(|c| {
                c.positional = positional;
                c.layers.iter_mut().for_each(|l| l.mask = MaskKind::Bidirectional);
            });
            let (a, b) = (logits_full(&model, &tokens, &device), logits_full(&model, &swapped, &device));
            let last = tokens.len() - 1;
            let gap = a[last * vocab..].iter().zip(&b[last * vocab..]).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
            assert_eq!(gap > 1e-4, tells, "{positional:?}: the last output moved by {gap}");
        }
    }

    #[test]
    fn sliding_window_and_ablation_are_respected_by_the_cache() {
        let tokens: Vec<i64> = (0..18).map(|i| (i * 5 % 11) as i64).collect();
        let (model, device) = model_with(|c| {
            for layer in &mut c.layers {
                layer.mask = MaskKind::SlidingWindow;
                layer.window = 3;
                layer.ablated_heads = vec![0];
            }
        });
        assert_close(&logits_full(&model, &tokens, &device), &logits_cached(&model, &tokens, 1, &device));
    }

    #[test]
    fn models_that_see_the_future_refuse_the_cache_by_layer() {
        let (model, _) = model_with(|c| c.layers[0].mask = MaskKind::Bidirectional);
        let why = model.cache_support().unwrap_err();
        assert!(why.contains("layer 0") && why.contains("bidirectional"), "{why}");
        let (model, _) = model_with(|c| c.layers[0].diagonal_offset = 1);
        assert!(model.cache_support().unwrap_err().contains("diagonal"));
    }

    #[test]
    fn the_cache_grows_linearly_with_length() {
        let (model, device) = model_with(|_| {});
        let mut cache = model.new_cache();
        let one = || Tensor::<2, Int>::from_data(TensorData::new(vec![1i64], [1, 1]), &device);
        model.forward_cached(one(), &mut cache);
        let per_token = cache.numbers();
        for _ in 0..9 {
            model.forward_cached(one(), &mut cache);
        }
        let attention_layers = model.config.layers.iter().filter(|l| l.attention).count();
        assert_eq!(per_token, 2 * attention_layers * model.config.d_model);
        assert_eq!(cache.numbers(), 10 * per_token);
    }
}
