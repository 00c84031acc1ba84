//! A session writing text from a prompt, once without and once with the KV cache,
//! so the window, the CLI and the lesson claims can set the two side by side.

use burn::module::Module;

use super::events::{GenerationReport, WrittenText};
use super::generate::{Written, write_greedy};
use super::session::Session;
use crate::t;

/// Timed rounds per writing; each token's fastest time is reported.
pub const WRITES: usize = 5;

impl Session {
    /// Write `count` tokens after the typed `prompt` both ways; the error says
    /// which token is unknown or how many tokens fit.
    pub fn compare_writing(&self, prompt: &str, count: usize) -> Result<GenerationReport, String> {
        let ids = self.task.vocab().parse(prompt)?;
        self.compare_writing_ids(&ids, count)
    }

    /// The first `len` tokens of the probe: the prompt a claim writes from.
    pub fn default_prompt(&self, len: usize) -> Vec<u32> {
        self.probe.tokens[..len.min(self.probe.tokens.len())].to_vec()
    }

    /// Whether `count` tokens can be written after `prompt`; the error says how many fit.
    pub fn check_writing(&self, prompt: &[u32], count: usize) -> Result<(), String> {
        let max_len = self.config.model.max_len;
        // A seq2seq model reads a whole `source | target` frame: it does not write
        // on from a prompt of any length, as a decoder does.
        if self.config.model.family.is_seq2seq() {
            // Named as the editor's *model family* menu names them.
            let (family, decoder) = (self.config.model.family.label(), crate::config::ModelFamily::Decoder.label());
            return Err(t!("msg-writing-seq2seq", family = family.as_str(), decoder = decoder.as_str()));
        }
        if prompt.is_empty() {
            return Err(t!("msg-writing-empty-prompt"));
        }
        if count == 0 {
            return Err(t!("msg-writing-no-count"));
        }
        if prompt.len() + count > max_len {
            return Err(t!("msg-writing-too-long", prompt = prompt.len(), count = count, max_len = max_len, most = max_len.saturating_sub(prompt.len())));
        }
        Ok(())
    }

    /// Write `count` tokens greedily after `prompt`, with or without the KV cache,
    /// `WRITES` times after one short untimed pass (so that no write pays for
    /// first-use allocations), each token keeping the fastest of its times.
    pub fn write(&self, prompt: &[u32], count: usize, cached: bool) -> Result<Written, String> {
        self.check_writing(prompt, count)?;
        let model = self.model().valid();
        if cached {
            model.cache_support()?;
        }
        let device = &self.backend.device;
        write_greedy(&model, prompt, count.min(2), cached, device);
        let mut fastest = write_greedy(&model, prompt, count, cached, device);
        for _ in 1..WRITES {
            keep_fastest(&mut fastest, write_greedy(&model, prompt, count, cached, device));
        }
        Ok(fastest)
    }

    /// A writing both ways (the cached one where the model can use a cache), its
    /// first round written after one short untimed pass each way; more rounds
    /// follow with `write_round`.
    pub fn start_writing(&self, prompt: &[u32], count: usize) -> Result<TimedWriting, String> {
        self.check_writing(prompt, count)?;
        let model = self.model().valid();
        let no_cache_reason = model.cache_support().err();
        write_greedy(&model, prompt, count.min(2), false, &self.backend.device);
        if no_cache_reason.is_none() {
            write_greedy(&model, prompt, count.min(2), true, &self.backend.device);
        }
        let (uncached, cached) = self.write_both(prompt, count, no_cache_reason.is_none());
        Ok(TimedWriting { prompt: prompt.to_vec(), count, uncached, cached, no_cache_reason })
    }

    /// Write once more both ways, each token keeping the fastest of its times.
    pub fn write_round(&self, writing: &mut TimedWriting) {
        let (uncached, cached) = self.write_both(&writing.prompt, writing.count, writing.cached.is_some());
        keep_fastest(&mut writing.uncached, uncached);
        if let (Some(kept), Some(again)) = (&mut writing.cached, cached) {
            keep_fastest(kept, again);
        }
    }

    /// One write without the cache, then one with it when `with_cache`.
    fn write_both(&self, prompt: &[u32], count: usize, with_cache: bool) -> (Written, Option<Written>) {
        let model = self.model().valid();
        let device = &self.backend.device;
        let uncached = write_greedy(&model, prompt, count, false, device);
        (uncached, with_cache.then(|| write_greedy(&model, prompt, count, true, device)))
    }

    /// Write both ways and report the two texts, their timings and whether they agree.
    pub fn compare_writing_ids(&self, prompt: &[u32], count: usize) -> Result<GenerationReport, String> {
        let mut writing = self.start_writing(prompt, count)?;
        for _ in 1..WRITES {
            self.write_round(&mut writing);
        }
        Ok(self.writing_report(writing))
    }

    /// The report of a writing timed in rounds.
    pub fn writing_report(&self, writing: TimedWriting) -> GenerationReport {
        let TimedWriting { prompt, count, uncached, cached, no_cache_reason } = writing;
        let prompt = &prompt[..];
        let mismatches = cached
            .as_ref()
            .map(|c| c.tokens.iter().zip(&uncached.tokens).filter(|(a, b)| a != b).count());
        let attention_layers = self.config.model.layers.iter().filter(|l| l.attention).count();
        let vocab = self.task.vocab();
        let text = |w: &Written| WrittenText {
            tokens: vocab.render(&w.tokens),
            text: vocab.text(&w.tokens),
            ms_per_token: w.ms_per_token.clone(),
            mean_ms: w.mean_ms(),
        };
        GenerationReport {
            step: self.step,
            prompt: vocab.render(prompt),
            prompt_text: vocab.text(prompt),
            uncached: text(&uncached),
            cached: cached.as_ref().map(text),
            no_cache_reason,
            mismatches,
            // K and V, f32, one d_model vector each per token per attention layer.
            cache_bytes: cached.map_or(0, |_| 2 * 4 * attention_layers * self.config.model.d_model * (prompt.len() + count)),
        }
    }
}

/// A writing timed in rounds: each round writes the same tokens once more both
/// ways, and each token keeps the fastest of its times, the one whatever else the
/// machine did disturbed least. Writings of several models can take their rounds
/// in turn, so that a slow spell of the machine slows them alike.
pub struct TimedWriting {
    prompt: Vec<u32>,
    count: usize,
    uncached: Written,
    /// None when the model cannot use a cache (`no_cache_reason` says why).
    cached: Option<Written>,
    no_cache_reason: Option<String>,
}

/// Each token of `kept` keeps the faster of its time and its time in `again`.
fn keep_fastest(kept: &mut Written, again: Written) {
    for (best, ms) in kept.ms_per_token.iter_mut().zip(again.ms_per_token) {
        *best = best.min(ms);
    }
}
