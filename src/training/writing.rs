//! A session writing text from a prompt, once without and once with the KV cache,
//! so the window, the CLI and the lesson claims can set the two side by side.

use burn::module::Module;

use super::events::{GenerationReport, WrittenText};
use super::generate::{Written, write_greedy};
use super::session::Session;
use crate::t;

/// Timed writes per request; the fastest is reported.
const WRITES: usize = 3;

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
            return Err(t!("msg-writing-seq2seq", family = self.config.model.family.name()));
        }
        if prompt.is_empty() {
            return Err("type a prompt of at least one token".to_string());
        }
        if count == 0 {
            return Err("ask for at least one new token".to_string());
        }
        if prompt.len() + count > max_len {
            return Err(format!(
                "the prompt ({} tokens) plus {count} new tokens is longer than the model's max_len ({max_len}); \
                 ask for at most {} tokens or shorten the prompt",
                prompt.len(),
                max_len.saturating_sub(prompt.len())
            ));
        }
        Ok(())
    }

    /// Write `count` tokens greedily after `prompt`, with or without the KV cache.
    /// After one short untimed pass (so no run pays for first-use allocations) it
    /// writes `WRITES` times and keeps, for each token, the fastest of its times:
    /// the same tokens every time, and timings least disturbed by whatever else
    /// the machine was doing.
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
            let again = write_greedy(&model, prompt, count, cached, device);
            for (best, ms) in fastest.ms_per_token.iter_mut().zip(again.ms_per_token) {
                *best = best.min(ms);
            }
        }
        Ok(fastest)
    }

    /// Write both ways and report the two texts, their timings and whether they agree.
    pub fn compare_writing_ids(&self, prompt: &[u32], count: usize) -> Result<GenerationReport, String> {
        let uncached = self.write(prompt, count, false)?;
        let no_cache_reason = self.model().cache_support().err();
        let cached = match no_cache_reason {
            None => Some(self.write(prompt, count, true)?),
            Some(_) => None,
        };
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
        Ok(GenerationReport {
            step: self.step,
            prompt: vocab.render(prompt),
            prompt_text: vocab.text(prompt),
            uncached: text(&uncached),
            cached: cached.as_ref().map(text),
            no_cache_reason,
            mismatches,
            // K and V, f32, one d_model vector each per token per attention layer.
            cache_bytes: cached.map_or(0, |_| 2 * 4 * attention_layers * self.config.model.d_model * (prompt.len() + count)),
        })
    }
}
