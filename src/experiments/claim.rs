//! Falsifiable claims: an experiment pair (A and B), a step budget, a seed, and
//! conditions on measured metrics such as `a.eval_accuracy >= 0.95` or
//! `b.train_loss < a.train_loss - 0.3`. Lessons state their claims this way, and
//! `lesson verify` runs them headlessly.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::metric::Metric;
use crate::config::ExperimentConfig;
use crate::training::{Session, SessionError, StepOutcome};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    A,
    B,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Metric(Side, Metric),
    Number(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Less,
    LessEq,
    Greater,
    GreaterEq,
}

/// `lhs op rhs + offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub text: String,
    pub lhs: Operand,
    pub op: Op,
    pub rhs: Operand,
    pub offset: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The statement in words, as the lesson shows it.
    pub statement: String,
    pub a: ExperimentConfig,
    pub b: Option<ExperimentConfig>,
    pub steps: usize,
    /// Per-side step budgets, when a side trains for a different number of steps.
    pub steps_a: Option<usize>,
    pub steps_b: Option<usize>,
    pub seed: u64,
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConditionResult {
    pub condition: String,
    pub lhs: f64,
    pub rhs: f64,
    pub passed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimResult {
    pub statement: String,
    pub seed: u64,
    pub passed: bool,
    /// e.g. "a.eval_accuracy" → 0.98
    pub measured: BTreeMap<String, f64>,
    pub conditions: Vec<ConditionResult>,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::Less => "<",
            Op::LessEq => "<=",
            Op::Greater => ">",
            Op::GreaterEq => ">=",
        })
    }
}

/// Parse `a.metric >= 0.9`, `b.metric < a.metric - 0.2` and the like.
pub fn parse_condition(text: &str) -> Result<Condition, String> {
    let text = text.trim();
    let (op, at, len) = [(">=", Op::GreaterEq), ("<=", Op::LessEq), (">", Op::Greater), ("<", Op::Less)]
        .iter()
        .find_map(|(sym, op)| text.find(sym).map(|at| (*op, at, sym.len())))
        .ok_or_else(|| format!("\"{text}\": expected a comparison (<, <=, >, >=)"))?;
    let lhs = parse_operand(text[..at].trim())?;
    let right = text[at + len..].trim();
    // An optional "+ n" or "- n" after a metric on the right.
    let (rhs_text, offset) = match right.rfind([' ']) {
        Some(space) if right[..space].trim_end().ends_with(['+', '-']) => {
            let sign_at = right[..space].trim_end().len() - 1;
            let sign = if &right[sign_at..sign_at + 1] == "-" { -1.0 } else { 1.0 };
            let n: f64 = right[space..].trim().parse().map_err(|_| format!("\"{text}\": the offset after {} must be a number", &right[sign_at..sign_at + 1]))?;
            (right[..sign_at].trim(), sign * n)
        }
        _ => (right, 0.0),
    };
    let rhs = parse_operand(rhs_text)?;
    Ok(Condition { text: text.to_string(), lhs, op, rhs, offset })
}

fn parse_operand(text: &str) -> Result<Operand, String> {
    if let Ok(n) = text.parse::<f64>() {
        return Ok(Operand::Number(n));
    }
    let (side, metric) = text
        .split_once('.')
        .ok_or_else(|| format!("\"{text}\": expected a number or a.METRIC / b.METRIC"))?;
    let side = match side.trim() {
        "a" | "A" => Side::A,
        "b" | "B" => Side::B,
        other => return Err(format!("\"{other}\": the side must be a or b")),
    };
    let names: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
    let metric = Metric::from_name(metric.trim())
        .ok_or_else(|| format!("unknown metric \"{}\"; the metrics are: {}", metric.trim(), names.join(", ")))?;
    Ok(Operand::Metric(side, metric))
}

impl Claim {
    /// Metrics each side needs, in a stable order.
    fn needed(&self) -> BTreeMap<Side, Vec<Metric>> {
        let mut needed: BTreeMap<Side, Vec<Metric>> = BTreeMap::new();
        for c in &self.conditions {
            for operand in [&c.lhs, &c.rhs] {
                if let Operand::Metric(side, metric) = operand {
                    let list = needed.entry(*side).or_default();
                    if !list.contains(metric) {
                        list.push(*metric);
                    }
                }
            }
        }
        needed
    }

    /// Train each side for `steps` with `seed` and check every condition.
    pub fn run(&self, seed: u64) -> Result<ClaimResult, SessionError> {
        let mut measured = BTreeMap::new();
        for (side, metrics) in self.needed() {
            let (label, config, steps) = match side {
                Side::A => ("a", &self.a, self.steps_a),
                Side::B => ("b", self.b.as_ref().unwrap_or(&self.a), self.steps_b),
            };
            let steps = steps.unwrap_or(self.steps);
            let mut config = config.clone();
            config.seed = seed;
            config.steps = steps.max(1);
            let mut session = Session::new(config)?;
            for _ in 0..steps {
                if let StepOutcome::NonFinite { .. } = session.step(false) {
                    break;
                }
            }
            for metric in metrics {
                measured.insert(format!("{label}.{}", metric.name()), metric.measure(&mut session));
            }
        }
        let value = |operand: &Operand| match operand {
            Operand::Number(n) => *n,
            Operand::Metric(side, metric) => {
                let label = if *side == Side::A { "a" } else { "b" };
                measured.get(&format!("{label}.{}", metric.name())).copied().unwrap_or(f64::NAN)
            }
        };
        let conditions: Vec<ConditionResult> = self
            .conditions
            .iter()
            .map(|c| {
                let (lhs, rhs) = (value(&c.lhs), value(&c.rhs) + c.offset);
                let passed = match c.op {
                    Op::Less => lhs < rhs,
                    Op::LessEq => lhs <= rhs,
                    Op::Greater => lhs > rhs,
                    Op::GreaterEq => lhs >= rhs,
                };
                ConditionResult { condition: c.text.clone(), lhs, rhs, passed }
            })
            .collect();
        Ok(ClaimResult {
            statement: self.statement.clone(),
            seed,
            passed: conditions.iter().all(|c| c.passed),
            measured,
            conditions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_parse_with_offsets_and_bad_ones_say_why() {
        let c = parse_condition("b.train_loss < a.train_loss - 0.5").unwrap();
        assert_eq!(c.lhs, Operand::Metric(Side::B, Metric::TrainLoss));
        assert_eq!(c.op, Op::Less);
        assert_eq!(c.rhs, Operand::Metric(Side::A, Metric::TrainLoss));
        assert_eq!(c.offset, -0.5);
        let c = parse_condition("a.eval_accuracy >= 0.95").unwrap();
        assert_eq!(c.rhs, Operand::Number(0.95));
        assert_eq!(c.op, Op::GreaterEq);
        assert!(parse_condition("a.accuracy >= 1").unwrap_err().contains("eval_accuracy"));
        assert!(parse_condition("a.eval_loss 3").unwrap_err().contains("comparison"));
        assert!(parse_condition("c.eval_loss > 3").unwrap_err().contains("side"));
    }
}
