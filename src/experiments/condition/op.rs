//! The comparison both condition languages use (a claim's `b.step_ms > 4 * a.step_ms`,
//! a check's `eval_accuracy >= 0.95`): how it is written, read and decided.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Less,
    LessEq,
    Greater,
    GreaterEq,
}

impl Op {
    /// The first comparison in `text`: which, and its byte range. Two-character
    /// operators are looked for first, so `>=` is not read as `>`.
    pub fn find_in(text: &str) -> Option<(Op, std::ops::Range<usize>)> {
        [(">=", Op::GreaterEq), ("<=", Op::LessEq), (">", Op::Greater), ("<", Op::Less)]
            .iter()
            .find_map(|(symbol, op)| text.find(symbol).map(|at| (*op, at..at + symbol.len())))
    }

    /// Whether `lhs op rhs` holds.
    pub fn holds<T: PartialOrd>(self, lhs: T, rhs: T) -> bool {
        match self {
            Op::Less => lhs < rhs,
            Op::LessEq => lhs <= rhs,
            Op::Greater => lhs > rhs,
            Op::GreaterEq => lhs >= rhs,
        }
    }

    /// As a reader sees it: `<`, `≤`, `>`, `≥`.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Less => "<",
            Op::LessEq => "≤",
            Op::Greater => ">",
            Op::GreaterEq => "≥",
        }
    }
}

/// As a lesson writes it: `<`, `<=`, `>`, `>=`.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longer_operator_wins_and_each_decides_as_written() {
        assert_eq!(Op::find_in("a >= 3"), Some((Op::GreaterEq, 2..4)));
        assert_eq!(Op::find_in("loss < 0.1"), Some((Op::Less, 5..6)));
        assert_eq!(Op::find_in("no comparison"), None);
        assert!(Op::GreaterEq.holds(3.0, 3.0) && !Op::Greater.holds(3.0, 3.0));
        assert!(Op::LessEq.holds(2, 3) && !Op::Less.holds(3, 3));
        assert_eq!(format!("{}", Op::LessEq), "<=");
        assert_eq!(Op::LessEq.symbol(), "≤");
    }
}
