//! Lessons keep one sentence per line. Markdown turns a line break inside a
//! paragraph into a space, which is right between English words but wrong in
//! Chinese: "。 下一句" shows a stray space after every full stop. Here a break
//! between two lines of one paragraph is dropped when the first ends in a CJK
//! character and the second starts with one, or when the first ends in CJK
//! punctuation (which carries its own space: "。dropout", never "。 dropout").

/// `markdown` with the line breaks inside CJK paragraphs removed.
pub fn join(markdown: &str) -> String {
    let lines: Vec<&str> = markdown.split('\n').collect();
    let mut out = String::with_capacity(markdown.len());
    let mut in_fence = false;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let Some(next) = lines.get(i + 1) else { break };
        let joins = !in_fence && paragraph_text(line) && continues_paragraph(next) && (ends_cjk_punctuation(line) || (ends_cjk(line) && starts_cjk(next)));
        if !joins {
            out.push('\n');
        }
    }
    out
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF      // radicals
        | 0x3000..=0x303F    // CJK punctuation (、。「」)
        | 0x3040..=0x30FF    // kana
        | 0x3400..=0x4DBF    // extension A
        | 0x4E00..=0x9FFF    // unified ideographs
        | 0xF900..=0xFAFF    // compatibility ideographs
        | 0xFF00..=0xFFEF    // full-width forms (，：？！（）)
    )
}

/// Emphasis marks around a word do not count: "**开始**" ends in a CJK character.
const EMPHASIS: &[char] = &['*', '_'];

fn ends_cjk(line: &str) -> bool {
    line.trim_end().trim_end_matches(EMPHASIS).chars().last().is_some_and(is_cjk)
}

/// Full-width punctuation: 。，、；：！？ and closing brackets and quotes.
fn ends_cjk_punctuation(line: &str) -> bool {
    line.trim_end().trim_end_matches(EMPHASIS).chars().last().is_some_and(|c| matches!(c as u32, 0x3000..=0x303F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65))
}

fn starts_cjk(line: &str) -> bool {
    let t = line.trim_start();
    // "* 项" is a list item, not emphasis (continues_paragraph refuses it).
    t.trim_start_matches(EMPHASIS).chars().next().is_some_and(is_cjk)
}

/// A line of running text (not a heading, table row, quote or fence).
fn paragraph_text(line: &str) -> bool {
    let t = line.trim_start();
    !(t.is_empty() || t.starts_with('#') || t.starts_with('|') || t.starts_with("```"))
}

/// A line that continues the paragraph above rather than starting a block.
fn continues_paragraph(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let numbered = digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "));
    paragraph_text(line) && !numbered && !t.starts_with('>') && !t.starts_with("- ") && !t.starts_with("* ") && !t.starts_with("+ ")
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn chinese_sentences_join_without_a_space_and_english_keeps_its_breaks() {
        assert_eq!(join("第一句。\n第二句。\n"), "第一句。第二句。\n");
        assert_eq!(join("One sentence.\nAnother.\n"), "One sentence.\nAnother.\n");
        // A list, a heading, a blank line and a code fence are left as they are.
        assert_eq!(join("说明：\n- 第一项\n- 第二项\n"), "说明：\n- 第一项\n- 第二项\n");
        assert_eq!(join("1. 第一项。\n2. 第二项。\n"), "1. 第一项。\n2. 第二项。\n");
        assert_eq!(join("## 标题\n正文。\n\n下一段。"), "## 标题\n正文。\n\n下一段。");
        assert_eq!(join("```\n代码。\n注释。\n```"), "```\n代码。\n注释。\n```");
        // Chinese followed by an English word keeps the space Markdown gives it.
        assert_eq!(join("模型叫\nGPT。"), "模型叫\nGPT。");
        assert_eq!(join("这是办法。\ndropout 不必关。"), "这是办法。dropout 不必关。");
        assert_eq!(join("按下\n**开始**。"), "按下**开始**。");
    }
}
