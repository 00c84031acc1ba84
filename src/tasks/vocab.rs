//! A task's vocabulary: token ids with readable labels for the pictures.

use crate::t;

/// Token labels by id; `pad` is the padding token, when the task pads.
#[derive(Clone, Debug, PartialEq)]
pub struct Vocab {
    labels: Vec<String>,
    pad: Option<u32>,
    /// Whether typed probes are read one character at a time (char_lm) rather than
    /// as space-separated labels.
    char_level: bool,
}

impl Vocab {
    pub fn new(labels: Vec<String>) -> Self {
        Self {
            labels,
            pad: None,
            char_level: false,
        }
    }

    pub fn with_pad(mut self, label: &str) -> Self {
        self.labels.push(label.to_string());
        self.pad = Some(self.labels.len() as u32 - 1);
        self
    }

    pub fn char_level(mut self) -> Self {
        self.char_level = true;
        self
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    pub fn pad(&self) -> Option<u32> {
        self.pad
    }

    /// Whether typed text is read character by character (no spaces between tokens).
    pub fn is_char_level(&self) -> bool {
        self.char_level
    }

    pub fn label(&self, id: u32) -> &str {
        self.labels.get(id as usize).map(String::as_str).unwrap_or("?")
    }

    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    pub fn id(&self, label: &str) -> Option<u32> {
        self.labels.iter().position(|l| l == label).map(|i| i as u32)
    }

    /// Tokens as plain text: the characters themselves for a character model
    /// (spaces and line breaks as they are), labels joined by spaces otherwise.
    pub fn text(&self, tokens: &[u32]) -> String {
        if self.char_level {
            tokens.iter().map(|&t| label_char(self.label(t))).collect()
        } else {
            self.render(tokens).join(" ")
        }
    }

    /// Readable labels of a token sequence.
    pub fn render(&self, tokens: &[u32]) -> Vec<String> {
        tokens.iter().map(|&t| self.label(t).to_string()).collect()
    }

    /// Parse typed text: space-separated labels, or characters for char-level tasks.
    /// The error names the first unknown token and lists what is allowed.
    pub fn parse(&self, text: &str) -> Result<Vec<u32>, String> {
        let pieces: Vec<String> = if self.char_level {
            text.chars().map(char_label).collect()
        } else {
            text.split_whitespace().map(str::to_string).collect()
        };
        pieces
            .iter()
            .map(|p| {
                self.id(p).ok_or_else(|| {
                    let shown: Vec<&str> = self.labels.iter().take(40).map(String::as_str).collect();
                    t!("err-vocab-unknown-token",
                        token = p.as_str(),
                        tokens = shown.join(" "),
                        more = if self.labels.len() > 40 { " …" } else { "" }
                    )
                })
            })
            .collect()
    }
}

/// The label of a character token: visible stand-ins for white space.
pub fn char_label(c: char) -> String {
    match c {
        ' ' => "␣".to_string(),
        '\n' => "⏎".to_string(),
        '\t' => "⇥".to_string(),
        c => c.to_string(),
    }
}

/// The text a character label stands for (the inverse of `char_label`).
pub fn label_char(label: &str) -> &str {
    match label {
        "␣" => " ",
        "⏎" => "\n",
        "⇥" => "\t",
        other => other,
    }
}

/// Labels for `n` symbols: letters while they last, then numbers.
pub fn symbol_labels(n: usize) -> Vec<String> {
    if n <= 26 {
        (0..n).map(|i| ((b'a' + i as u8) as char).to_string()).collect()
    } else {
        (0..n).map(|i| i.to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names_the_unknown_token() {
        let vocab = Vocab::new(symbol_labels(3));
        assert_eq!(vocab.parse("a c b").unwrap(), vec![0, 2, 1]);
        let err = vocab.parse("a z").unwrap_err();
        assert!(err.contains("\"z\""), "{err}");
    }

    #[test]
    fn char_level_reads_characters() {
        let vocab = Vocab::new(vec!["h".into(), "i".into(), "␣".into()]).char_level();
        assert_eq!(vocab.parse("hi h").unwrap(), vec![0, 1, 2, 0]);
        assert_eq!(vocab.text(&[0, 1, 2, 0]), "hi h", "text reads back what was typed");
        assert_eq!(Vocab::new(symbol_labels(3)).text(&[2, 0]), "c a");
    }
}
