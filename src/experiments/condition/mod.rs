//! The one condition language of lessons, in two dialects that share its
//! comparison (`op.rs`) and numbers (`plain_number`):
//! - a claim's conditions compare two runs, `a.eval_accuracy >= 0.95` or
//!   `b.step_ms > 4 * a.step_ms` (here): parsed, read back in plain words, reported
//!   with the measured numbers;
//! - a check's condition reads the live run, `eval_accuracy >= 0.95 and step >= 200`
//!   or `attention(layer=0, head=*) is anti-diagonal` (`live.rs`).

pub mod live;
mod op;

use serde::Serialize;

pub use op::Op;

use super::metric::Metric;
use crate::t;

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

/// `lhs op factor * rhs + offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub text: String,
    pub lhs: Operand,
    pub op: Op,
    pub rhs: Operand,
    /// `3 * a.step_ms`: 3 (1 when absent).
    pub factor: f64,
    pub offset: f64,
}

impl Condition {
    /// The condition as a sentence a learner reads once: "b's milliseconds per
    /// step is more than 4 times a's", "b's held-out accuracy is at least 0.95";
    /// shapes without a sentence fall back to `formula`.
    pub fn plain(&self) -> String {
        let side = |s: Side| if s == Side::A { "a" } else { "b" };
        let op = match self.op {
            Op::Less => t!("rep-cond-op-lt"),
            Op::LessEq => t!("rep-cond-op-le"),
            Op::Greater => t!("rep-cond-op-gt"),
            Op::GreaterEq => t!("rep-cond-op-ge"),
        };
        match (&self.lhs, &self.rhs) {
            (Operand::Metric(s, m), Operand::Number(n)) => {
                let value = plain_number(self.factor * n + self.offset);
                t!("rep-cond-sentence-number", side = side(*s), metric = m.words(), op = op, value = value)
            }
            (Operand::Metric(s, m), Operand::Metric(o, m2)) if m == m2 && self.offset == 0.0 && self.factor != 1.0 => {
                t!("rep-cond-sentence-times", side = side(*s), metric = m.words(), op = op, factor = plain_number(self.factor), other = side(*o))
            }
            (Operand::Metric(s, m), Operand::Metric(o, m2)) if m == m2 && self.offset == 0.0 => {
                t!("rep-cond-sentence-other", side = side(*s), metric = m.words(), op = op, other = side(*o))
            }
            (Operand::Metric(s, m), Operand::Metric(o, m2)) if m == m2 && self.factor == 1.0 => {
                let direction = if self.offset < 0.0 { t!("rep-cond-below") } else { t!("rep-cond-above") };
                // "b < a − 0.5": b is more than 0.5 below a; "a ≤ b + 0.05": a is at
                // most 0.05 above b. The comparison and the offset pointing the same
                // way bound the gap from below, opposite ways from above.
                let below = matches!(self.op, Op::Less | Op::LessEq);
                let gap_from_below = below == (self.offset < 0.0);
                let op = match (gap_from_below, self.op) {
                    (true, Op::Less | Op::Greater) => t!("rep-cond-op-gt"),
                    (true, _) => t!("rep-cond-op-ge"),
                    (false, Op::Less | Op::Greater) => t!("rep-cond-op-lt"),
                    (false, _) => t!("rep-cond-op-le"),
                };
                let by = plain_number(self.offset.abs());
                t!("rep-cond-sentence-by", side = side(*s), metric = m.words(), op = op, by = by, direction = direction, other = side(*o))
            }
            _ => self.formula(),
        }
    }

    /// The condition as a formula in words: "b: milliseconds per step > 4 × a: milliseconds per step".
    pub fn formula(&self) -> String {
        let operand = |o: &Operand| match o {
            Operand::Metric(side, metric) => t!("rep-cond-operand", side = if *side == Side::A { "a" } else { "b" }, metric = metric.words()),
            Operand::Number(n) => plain_number(*n),
        };
        let op = self.op.symbol();
        let mut rhs = operand(&self.rhs);
        if self.factor != 1.0 {
            rhs = format!("{} × {rhs}", plain_number(self.factor));
        }
        if self.offset != 0.0 {
            rhs = format!("{rhs} {} {}", if self.offset < 0.0 { "−" } else { "+" }, plain_number(self.offset.abs()));
        }
        format!("{} {op} {rhs}", operand(&self.lhs))
    }
}


#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConditionResult {
    pub condition: String,
    /// The condition in plain words ("b's held-out accuracy is at least 0.95").
    pub plain: String,
    pub lhs: f64,
    pub rhs: f64,
    pub passed: bool,
    /// Why a side had no number (undefined metric, diverged run); such a
    /// condition always fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undefined: Option<String>,
}

impl ConditionResult {
    /// "a's held-out accuracy is at least 0.95 — measured 0.981" (the other side's number added when it is compared with one), or why it had
    /// no number.
    pub fn describe(&self) -> String {
        // In the language of now, not of when it was verified: the sentence again
        // from the condition (the stored one for a condition that no longer parses).
        let plain = parse_condition(&self.condition).map_or_else(|_| self.plain.clone(), |c| c.plain());
        let plain = plain.as_str();
        match &self.undefined {
            Some(why) => t!("rep-cond-no-value", plain = plain, why = why.as_str()),
            None => {
                // The comparison as the lesson wrote it (">=" reads "≥").
                let found = Op::find_in(&self.condition);
                let op = found.as_ref().map_or("vs", |(op, _)| op.symbol());
                // Against a fixed number the sentence already says what is needed; against
                // the other side, the number it came to is news.
                let rhs = found.map_or("", |(_, at)| &self.condition[at.end..]);
                if !rhs.contains("a.") && !rhs.contains("b.") {
                    return t!("rep-cond-measured-only", plain = plain, measured = plain_number(self.lhs));
                }
                t!("rep-cond-measured", plain = plain, measured = plain_number(self.lhs), op = op, needed = plain_number(self.rhs))
            }
        }
    }
}

/// A number as a learner reads it: 0.981, 12.5, 0.00012, 104273.
pub fn plain_number(x: f64) -> String {
    if !x.is_finite() {
        return t!("rep-cond-undefined");
    }
    let a = x.abs();
    if a == 0.0 || (0.001..1e6).contains(&a) {
        let digits = if a >= 100.0 { 1 } else if a >= 1.0 { 3 } else { 4 };
        let text = format!("{x:.digits$}");
        let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
        if text == "-0" { "0".to_string() } else { text }
    } else {
        format!("{x:.2e}")
    }
}

/// Parse `a.metric >= 0.9`, `b.metric < a.metric - 0.2` and the like.
pub fn parse_condition(text: &str) -> Result<Condition, String> {
    let text = text.trim();
    let (op, at) = Op::find_in(text).ok_or_else(|| t!("err-cond-expected-comparison", text = text))?;
    let lhs = parse_operand(text[..at.start].trim())?;
    let right = text[at.end..].trim();
    // An optional "+ n" or "- n" after a metric on the right.
    let (rhs_text, offset) = match right.rfind([' ']) {
        Some(space) if right[..space].trim_end().ends_with(['+', '-']) => {
            let sign_at = right[..space].trim_end().len() - 1;
            let sign = if &right[sign_at..sign_at + 1] == "-" { -1.0 } else { 1.0 };
            let n: f64 = right[space..].trim().parse().map_err(|_| t!("err-cond-offset-not-number", text = text, sign = &right[sign_at..sign_at + 1]))?;
            (right[..sign_at].trim(), sign * n)
        }
        _ => (right, 0.0),
    };
    // An optional "n *" before it.
    let (rhs_text, factor) = match rhs_text.split_once('*') {
        Some((n, rest)) => {
            let n: f64 = n.trim().parse().map_err(|_| t!("err-cond-factor-not-number", text = text))?;
            (rest.trim(), n)
        }
        None => (rhs_text, 1.0),
    };
    let rhs = parse_operand(rhs_text)?;
    if matches!((&lhs, &rhs), (Operand::Number(_), Operand::Number(_))) {
        return Err(t!("err-cond-two-numbers", text = text));
    }
    Ok(Condition { text: text.to_string(), lhs, op, rhs, factor, offset })
}

fn parse_operand(text: &str) -> Result<Operand, String> {
    if let Ok(n) = text.parse::<f64>() {
        return Ok(Operand::Number(n));
    }
    let (side, metric) = text
        .split_once('.')
        .ok_or_else(|| t!("err-cond-expected-operand", text = text))?;
    let side = match side.trim() {
        "a" | "A" => Side::A,
        "b" | "B" => Side::B,
        other => return Err(t!("err-cond-bad-side", side = other)),
    };
    let names: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
    let metric = Metric::from_name(metric.trim())
        .ok_or_else(|| t!("err-unknown-metric", name = metric.trim(), metrics = names.join(", ")))?;
    Ok(Operand::Metric(side, metric))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_in_plain_words() {
        let plain = |text: &str| parse_condition(text).unwrap().plain();
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert_eq!(plain("a.eval_accuracy >= 0.95"), "a's held-out accuracy is at least 0.95");
        assert_eq!(plain("b.step_ms > 4 * a.step_ms"), "b's milliseconds per step is more than 4 times a's");
        assert_eq!(plain("b.train_loss < a.train_loss - 0.5"), "b's training loss is more than 0.5 below a's");
        assert_eq!(plain("a.train_loss < b.train_loss"), "a's training loss is less than b's");
        assert_eq!(plain("a.eval_loss <= b.eval_loss + 0.05"), "a's held-out loss is at most 0.05 above b's");
        assert_eq!(plain("b.eval_loss > a.eval_loss - 0.5"), "b's held-out loss is less than 0.5 below a's");
        assert_eq!(plain("b.eval_accuracy >= a.eval_accuracy + 0.2"), "b's held-out accuracy is at least 0.2 above a's");
        let formula = parse_condition("b.step_ms > a.train_loss").unwrap();
        assert_eq!(formula.plain(), "b: milliseconds per step > a: training loss", "two different measures stay a formula");
        let result = ConditionResult { condition: "a.eval_accuracy >= 0.95".into(), plain: plain("a.eval_accuracy >= 0.95"), lhs: 0.981, rhs: 0.95, passed: true, undefined: None };
        assert_eq!(result.describe(), "a's held-out accuracy is at least 0.95 — measured 0.981");
        let relative = ConditionResult { condition: "b.step_ms > 4 * a.step_ms".into(), plain: plain("b.step_ms > 4 * a.step_ms"), lhs: 9.0, rhs: 8.0, passed: true, undefined: None };
        assert_eq!(relative.describe(), "b's milliseconds per step is more than 4 times a's — measured 9, needed > 8");
    }

    #[test]
    fn conditions_parse_with_offsets_and_bad_ones_say_why() {
        let c = parse_condition("b.train_loss < a.train_loss - 0.5").unwrap();
        for numbers_only in ["1 >= 0", "0.5 < 2", "3 <= 3 - 1"] {
            let err = parse_condition(numbers_only).unwrap_err();
            assert!(err.contains("two numbers"), "{numbers_only}: {err}");
        }
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
        assert!(parse_condition("a.diverged >= 1").is_ok());
        let c = parse_condition("b.grad_ratio < 0.1 * a.grad_ratio").unwrap();
        assert_eq!((c.factor, c.offset, c.rhs.clone()), (0.1, 0.0, Operand::Metric(Side::A, Metric::GradRatio)));
        let c = parse_condition("b.grad_ratio < 2 * a.grad_ratio - 0.5").unwrap();
        assert_eq!((c.factor, c.offset), (2.0, -0.5));
        assert!(parse_condition("b.grad_ratio < x * a.grad_ratio").unwrap_err().contains("factor"));
    }
}
