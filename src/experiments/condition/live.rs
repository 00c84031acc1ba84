//! `check` conditions, evaluated on what the window knows about the live run
//! (plain data from the trainer's events):
//!
//! - `eval_accuracy >= 0.95`, `loss < 0.1 and step <= 500` (metrics: loss, accuracy,
//!   eval_loss, eval_accuracy, sequence_accuracy, generation_loss,
//!   attention_entropy (normalised, of the last attention snapshot), cache_speedup,
//!   pinned_gap, length_growth, held_out_stretch, heads_pick_match, step)
//! - `attention(layer=0, head=*) is anti-diagonal` (patterns: anti-diagonal,
//!   diagonal, previous-token, uniform); `head=*` means any head.

use super::Op;
use crate::t;
use crate::training::AttentionSnapshot;

/// The live facts a check looks at.
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveFacts<'a> {
    pub step: usize,
    /// The task of the model the facts are about (a check holds only for its own).
    pub task: Option<crate::tasks::TaskKind>,
    /// Recent (smoothed) training loss and accuracy.
    pub loss: Option<f32>,
    pub accuracy: Option<f32>,
    pub eval_loss: Option<f32>,
    pub eval_accuracy: Option<f32>,
    pub sequence_accuracy: Option<f32>,
    /// Held-out token accuracy on the longest and the shortest sources (seq2seq tasks).
    pub longest_accuracy: Option<f32>,
    pub shortest_accuracy: Option<f32>,
    /// Held-out loss with the future hidden (see `EvalMetrics::generation_loss`).
    pub generation_loss: Option<f32>,
    /// The step the held-out numbers were measured at: a condition on them uses
    /// this step, so "eval_accuracy >= 0.9 and step >= 200" cannot pair an old
    /// evaluation with a later step.
    pub eval_step: Option<usize>,
    pub attention: Option<&'a AttentionSnapshot>,
    /// Of the latest Generate at the current step: uncached over cached time per
    /// token, None when there is none or the two texts differ.
    pub cache_speedup: Option<f32>,
    /// Largest difference between the live training-loss curve and the pinned
    /// run's at the same steps, once the model was rebuilt after the pin; None
    /// without a pin, before a reset, or when the pinned run is shorter.
    pub pinned_gap: Option<f32>,
    /// From the Sequence length tab's measurement: the step time at 256 tokens over
    /// the step time at 64 (four times the length). None before it was measured.
    pub length_growth: Option<f32>,
    /// The trained model's held-out length over its training length
    /// (`task.eval_length / task.length`; 1 when they are the same).
    pub held_out_stretch: Option<f32>,
    /// 1 when the trained model's head count (the same in every layer) is the one
    /// the Heads tab's sweep picked on validation, 0 when it is another; None
    /// before a sweep.
    pub heads_pick_match: Option<f32>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    /// Query q looks at key seq - 2 - q (reversal) in the second half.
    AntiDiagonal,
    /// Query q looks at itself.
    Diagonal,
    /// Query q looks at q - 1.
    PreviousToken,
    /// Weight spread evenly over the visible keys.
    Uniform,
}

impl Pattern {
    /// The name a condition uses for it.
    pub fn name(&self) -> &'static str {
        match self {
            Pattern::AntiDiagonal => "anti-diagonal",
            Pattern::Diagonal => "diagonal",
            Pattern::PreviousToken => "previous-token",
            Pattern::Uniform => "uniform",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Metric { name: String, op: Op, value: f32 },
    Attention { layer: usize, head: Option<usize>, pattern: Pattern },
}

/// A parsed condition: every term must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckCondition {
    pub text: String,
    pub terms: Vec<Term>,
}

const METRICS: [&str; 15] = [
    "loss",
    "accuracy",
    "eval_loss",
    "eval_accuracy",
    "sequence_accuracy",
    "longest_accuracy",
    "shortest_accuracy",
    "generation_loss",
    "attention_entropy",
    "cache_speedup",
    "pinned_gap",
    "length_growth",
    "held_out_stretch",
    "heads_pick_match",
    "step",
];

pub fn parse_check(text: &str) -> Result<CheckCondition, String> {
    let terms = text.split(" and ").map(|t| parse_term(t.trim())).collect::<Result<Vec<_>, _>>()?;
    Ok(CheckCondition { text: text.trim().to_string(), terms })
}

fn parse_term(text: &str) -> Result<Term, String> {
    if let Some(rest) = text.strip_prefix("attention(") {
        let (args, pattern) = rest.split_once(')').ok_or_else(|| t!("err-check-no-closing-parenthesis"))?;
        let pattern = pattern.trim().strip_prefix("is").ok_or_else(|| t!("err-check-expected-is-pattern"))?.trim();
        let pattern = match pattern {
            "anti-diagonal" => Pattern::AntiDiagonal,
            "diagonal" => Pattern::Diagonal,
            "previous-token" => Pattern::PreviousToken,
            "uniform" => Pattern::Uniform,
            other => return Err(t!("err-check-unknown-pattern", pattern = other)),
        };
        let (mut layer, mut head) = (None, None);
        for arg in args.split(',') {
            let (key, value) = arg.split_once('=').ok_or_else(|| t!("err-check-expected-layer-head", arg = arg))?;
            match (key.trim(), value.trim()) {
                ("layer", v) => layer = Some(v.parse::<usize>().map_err(|_| t!("err-check-layer-not-number", value = v))?),
                ("head", "*") => head = None,
                ("head", v) => head = Some(v.parse::<usize>().map_err(|_| t!("err-check-head-not-number", value = v))?),
                (k, _) => return Err(t!("err-check-unknown-argument", name = k)),
            }
        }
        return Ok(Term::Attention { layer: layer.ok_or_else(|| t!("err-check-needs-layer"))?, head, pattern });
    }
    let (op, at) = Op::find_in(text).ok_or_else(|| t!("err-check-expected-metric-op", text = text))?;
    let (name, value) = (&text[..at.start], &text[at.end..]);
    let name = name.trim().to_string();
    if !METRICS.contains(&name.as_str()) {
        return Err(t!("err-unknown-metric", name = name.as_str(), metrics = METRICS.join(", ")));
    }
    let value = value.trim().parse::<f32>().map_err(|_| t!("err-check-not-number", value = value.trim()))?;
    Ok(Term::Metric { name, op, value })
}

impl CheckCondition {
    /// Some(true) when met, Some(false) when not, None when the facts are not there yet.
    pub fn evaluate(&self, facts: &LiveFacts) -> Option<bool> {
        let facts = &self.aligned(facts)?;
        let mut all = true;
        for term in &self.terms {
            all &= term.evaluate(facts)?;
        }
        Some(all)
    }

    /// The facts with `step` taken at the evaluation when the condition uses a
    /// held-out number; None when it does and nothing was evaluated yet.
    fn aligned<'a>(&self, facts: &LiveFacts<'a>) -> Option<LiveFacts<'a>> {
        let uses_eval = self.terms.iter().any(|t| matches!(t, Term::Metric { name, .. } if EVAL_METRICS.contains(&name.as_str())));
        if !uses_eval {
            return Some(*facts);
        }
        Some(LiveFacts { step: facts.eval_step?, ..*facts })
    }
}

impl CheckCondition {
    /// What the check is waiting for, in words with the live values: "held-out
    /// accuracy ≥ 0.9 (now 0.42), step ≥ 200 (now 120)"; a term with no value yet
    /// says so.
    pub fn waiting_for(&self, facts: &LiveFacts) -> String {
        self.terms.iter().map(|term| term.progress(facts)).collect::<Vec<_>>().join(", ")
    }
}

impl Term {
    /// This term with its live value.
    fn progress(&self, facts: &LiveFacts) -> String {
        match self {
            Term::Metric { name, op, value } => {
                let now = match name.as_str() {
                    "step" => Some(facts.step as f32),
                    other => metric_value(facts, other),
                };
                // A yes/no fact reads as one, not as "(1 = yes) ≥ 1 (now 0)".
                if name == "heads_pick_match" && op.holds(1.0, *value) && !op.holds(0.0, *value) {
                    let shown = match now {
                        Some(v) if op.holds(v, *value) => t!("rep-check-heads-pick-has"),
                        Some(_) => t!("rep-check-heads-pick-other"),
                        None => t!("rep-check-press-measure-heads"),
                    };
                    return t!("rep-check-heads-pick-term", shown = shown);
                }
                let shown = match now {
                    Some(v) => t!("rep-check-now", value = super::plain_number(v as f64)),
                    None => match name.as_str() {
                        n if EVAL_METRICS.contains(&n) => t!("rep-check-next-evaluation"),
                        "cache_speedup" => t!("rep-check-press-write"),
                        "pinned_gap" => t!("rep-check-pin-and-retrain"),
                        "length_growth" => t!("rep-check-press-measure"),
                        "heads_pick_match" => t!("rep-check-press-measure-heads"),
                        _ => t!("rep-check-not-measured"),
                    },
                };
                t!("rep-check-term", name = metric_words(name), op = op.symbol(), value = super::plain_number(*value as f64), shown = shown)
            }
            Term::Attention { layer, head, pattern } => {
                let head = head.map_or_else(|| t!("rep-check-any-head"), |h| t!("rep-check-head", head = h));
                let what = t!("rep-check-attention", pattern = pattern.name(), layer = *layer, head = head);
                match self.evaluate(facts) {
                    None => t!("rep-check-attention-no-map", what = what),
                    Some(true) => t!("rep-check-attention-seen", what = what),
                    Some(false) => t!("rep-check-attention-not-yet", what = what),
                }
            }
        }
    }

    fn evaluate(&self, facts: &LiveFacts) -> Option<bool> {
        match self {
            Term::Metric { name, op, value } => {
                let actual = match name.as_str() {
                    "step" => facts.step as f32,
                    other => metric_value(facts, other)?,
                };
                Some(op.holds(actual, *value))
            }
            Term::Attention { layer, head, pattern } => {
                let snapshot = facts.attention?;
                let maps = snapshot.layers.get(*layer)?.as_ref()?;
                let seq = snapshot.tokens.len();
                let matches = |map: &Vec<f32>| pattern_score(map, seq, pattern) >= 0.75;
                Some(match head {
                    Some(h) => maps.get(*h).is_some_and(matches),
                    None => maps.iter().any(matches),
                })
            }
        }
    }
}

/// Metrics measured on the held-out set (at evaluations, not every step).
const EVAL_METRICS: [&str; 6] = ["eval_loss", "eval_accuracy", "sequence_accuracy", "generation_loss", "longest_accuracy", "shortest_accuracy"];

/// The live value of a metric (None before it is measured).
/// A check's metric as the learner reads it ("held-out accuracy", "step").
fn metric_words(name: &str) -> String {
    match name {
        "loss" => t!("rep-check-metric-loss"),
        "accuracy" => t!("rep-check-metric-accuracy"),
        "eval_loss" => t!("rep-metric-eval-loss"),
        "eval_accuracy" => t!("rep-metric-eval-accuracy"),
        "sequence_accuracy" => t!("rep-metric-sequence-accuracy"),
        "longest_accuracy" => t!("rep-metric-longest-accuracy"),
        "shortest_accuracy" => t!("rep-metric-shortest-accuracy"),
        "generation_loss" => t!("rep-metric-generation-loss"),
        "attention_entropy" => t!("rep-metric-attention-entropy"),
        "cache_speedup" => t!("rep-check-metric-cache-speedup"),
        "pinned_gap" => t!("rep-check-metric-pinned-gap"),
        "length_growth" => t!("rep-check-metric-length-growth"),
        "held_out_stretch" => t!("rep-check-metric-held-out-stretch"),
        "heads_pick_match" => t!("rep-check-metric-heads-pick-match"),
        "step" => t!("rep-check-metric-step"),
        other => other.to_string(),
    }
}

fn metric_value(facts: &LiveFacts, name: &str) -> Option<f32> {
    match name {
        "loss" => facts.loss,
        "accuracy" => facts.accuracy,
        "eval_loss" => facts.eval_loss,
        "eval_accuracy" => facts.eval_accuracy,
        "sequence_accuracy" => facts.sequence_accuracy,
        "longest_accuracy" => facts.longest_accuracy,
        "shortest_accuracy" => facts.shortest_accuracy,
        "generation_loss" => facts.generation_loss,
        "cache_speedup" => facts.cache_speedup,
        "pinned_gap" => facts.pinned_gap,
        "length_growth" => facts.length_growth,
        "held_out_stretch" => facts.held_out_stretch,
        "heads_pick_match" => facts.heads_pick_match,
        // Of the last attention snapshot: 1 = every row spread evenly, 0 = one-hot.
        "attention_entropy" => facts.attention.and_then(crate::experiments::normalised_entropy).map(|e| e as f32),
        _ => None,
    }
}

/// Share of the pattern's rows whose strongest key is where the pattern says
/// (for uniform: share of rows whose largest weight is under twice the even share).
pub fn pattern_score(map: &[f32], seq: usize, pattern: &Pattern) -> f32 {
    let argmax = |q: usize| {
        let row = &map[q * seq..(q + 1) * seq];
        (0..seq).max_by(|&a, &b| row[a].total_cmp(&row[b])).unwrap_or(0)
    };
    let rows: Vec<usize> = match pattern {
        Pattern::AntiDiagonal => (seq / 2..seq.saturating_sub(1)).collect(),
        Pattern::PreviousToken => (1..seq).collect(),
        _ => (0..seq).collect(),
    };
    if rows.is_empty() {
        return 0.0;
    }
    let hits = rows
        .iter()
        .filter(|&&q| match pattern {
            Pattern::AntiDiagonal => (argmax(q) as i64 - (seq as i64 - 2 - q as i64)).abs() <= 1,
            Pattern::Diagonal => argmax(q) == q,
            Pattern::PreviousToken => argmax(q) + 1 == q,
            Pattern::Uniform => {
                let row = &map[q * seq..(q + 1) * seq];
                let visible = row.iter().filter(|w| **w > 0.0).count().max(1);
                row.iter().cloned().fold(0.0, f32::max) < 2.0 / visible as f32
            }
        })
        .count();
    hits as f32 / rows.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_conditions_wait_for_data_then_decide() {
        let check = parse_check("loss < 0.1 and step <= 500").unwrap();
        assert_eq!(check.evaluate(&LiveFacts::default()), None);
        let facts = LiveFacts { step: 400, loss: Some(0.05), ..LiveFacts::default() };
        assert_eq!(check.evaluate(&facts), Some(true));
        let facts = LiveFacts { step: 600, loss: Some(0.05), ..LiveFacts::default() };
        assert_eq!(check.evaluate(&facts), Some(false));
        assert!(parse_check("accuracy is high").unwrap_err().contains("METRIC"));
        assert!(parse_check("eval_acc >= 1").unwrap_err().contains("eval_accuracy"));
        let check = parse_check("eval_accuracy >= 0.8 and step <= 100").unwrap();
        assert_eq!(
            check.waiting_for(&LiveFacts { step: 40, ..LiveFacts::default() }),
            "held-out accuracy ≥ 0.8 (measured at the next evaluation), step ≤ 100 (now 40)"
        );
        let facts = LiveFacts { step: 60, eval_step: Some(50), eval_accuracy: Some(0.42), ..LiveFacts::default() };
        assert_eq!(check.waiting_for(&facts), "held-out accuracy ≥ 0.8 (now 0.42), step ≤ 100 (now 60)");
        // An old evaluation is not paired with a later step.
        let check = parse_check("eval_accuracy >= 0.9 and step >= 250").unwrap();
        let stale = LiveFacts { step: 260, eval_step: Some(200), eval_accuracy: Some(0.95), ..LiveFacts::default() };
        assert_eq!(check.evaluate(&stale), Some(false));
        assert_eq!(check.evaluate(&LiveFacts { eval_step: Some(300), ..stale }), Some(true));
    }

    #[test]
    fn lesson_22s_yes_no_fact_reads_as_words_while_waiting() {
        let check = parse_check("heads_pick_match >= 1 and eval_accuracy >= 0.95").unwrap();
        let waiting = |pick: Option<f32>| check.waiting_for(&LiveFacts { heads_pick_match: pick, ..LiveFacts::default() });
        assert_eq!(waiting(None), "the head count picked on validation in every layer (press Measure in the Heads tab), held-out accuracy ≥ 0.95 (measured at the next evaluation)");
        assert!(waiting(Some(0.0)).starts_with("the head count picked on validation in every layer (the model has a different head count now)"));
        assert!(waiting(Some(1.0)).starts_with("the head count picked on validation in every layer (the model has it)"));
        // The opposite condition keeps the plain comparison, which says what it means.
        let other = parse_check("heads_pick_match < 1").unwrap();
        assert!(other.waiting_for(&LiveFacts::default()).contains("(1 = yes) < 1"));
    }

    #[test]
    fn attention_patterns_are_recognised() {
        let seq = 5;
        let mut previous = vec![0.0; seq * seq];
        (0..seq).for_each(|q| previous[q * seq + q.saturating_sub(1)] = 1.0);
        assert_eq!(pattern_score(&previous, seq, &Pattern::PreviousToken), 1.0);
        assert!(pattern_score(&previous, seq, &Pattern::Diagonal) < 0.5);
        let snapshot = AttentionSnapshot {
            step: 1,
            tokens: vec!["x".into(); seq],
            predictions: vec![],
            layers: vec![Some(vec![vec![0.2; seq * seq], previous])],
            masks: vec![None],
            intended_masks: vec![None],
            padding: vec![false; seq], names: Vec::new(), blocks: Vec::new(),
        };
        let facts = LiveFacts { attention: Some(&snapshot), ..LiveFacts::default() };
        assert_eq!(parse_check("attention(layer=0, head=*) is previous-token").unwrap().evaluate(&facts), Some(true));
        assert_eq!(parse_check("attention(layer=0, head=0) is previous-token").unwrap().evaluate(&facts), Some(false));
        assert_eq!(parse_check("attention(layer=0, head=0) is uniform").unwrap().evaluate(&facts), Some(true));
        assert!(parse_check("attention(layer=0) is wiggly").is_err());
    }
}
