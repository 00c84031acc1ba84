//! A lesson names every control as the window of its language does: each tab,
//! button, menu item, knob, view and bug-hunt case that a lesson quotes in bold or
//! italics, next to the word that says what it is ("the **Generate** tab",
//! "*掩码读作* 旋钮", "*File → Open pretrained model…*"), is an interface string or a
//! case title of the same language.

use std::path::Path;

use attention_workbench::i18n::Lang;

/// Words after a quoted name that say it names a control.
const EN_KINDS: [&str; 9] = ["tab", "button", "menu", "knob", "view", "case", "field", "checkbox", "list"];
const ZH_KINDS: [&str; 8] = ["标签页", "按钮", "菜单", "旋钮", "视图", "复选框", "字段", "下拉"];

/// Every value of the language's interface messages, and every bug-hunt case title.
fn interface_names(lang: Lang) -> Vec<String> {
    let mut names: Vec<String> = lang
        .source()
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(_, v)| v.trim().to_string()))
        .collect();
    let bugs = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/bugs");
    for entry in std::fs::read_dir(bugs).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        names.extend(text.lines().filter_map(|l| l.strip_prefix("title = ")).map(|t| t.trim_matches('"').to_string()));
    }
    names
}

/// (name, the line it is on) for every quoted name a control word follows.
fn quoted_names(text: &str, kinds: &[&str]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for line in text.lines() {
        for marker in ["**", "*"] {
            let mut rest = line;
            while let Some(start) = rest.find(marker) {
                let after = &rest[start + marker.len()..];
                let Some(end) = after.find(marker) else { break };
                let name = &after[..end];
                let next = after[end + marker.len()..].trim_start();
                let tail = next.strip_prefix("（").and_then(|n| n.split_once('）')).map_or(next, |(_, t)| t.trim_start());
                if !name.is_empty() && !name.starts_with('*') && kinds.iter().any(|k| next.starts_with(k) || tail.starts_with(k)) {
                    found.push((name.to_string(), line.to_string()));
                }
                rest = &after[end + marker.len()..];
            }
        }
    }
    found
}

/// The quoted names of every lesson of one language that the interface lacks.
fn unknown_names(lang: Lang) -> Vec<String> {
    let names = interface_names(lang);
    let (file, kinds): (&str, &[&str]) = match lang {
        Lang::En => ("lesson.md", &EN_KINDS),
        Lang::Zh => ("lesson.zh.md", &ZH_KINDS),
    };
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut unknown = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(lessons).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join(file).is_file()).collect();
    dirs.sort();
    assert!(dirs.len() >= 20, "the lessons are found");
    for dir in dirs {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (name, line) in quoted_names(&text, kinds) {
            // A menu path names each step: "File → Open pretrained model…".
            for part in name.split(" → ") {
                if !names.iter().any(|n| n == part) {
                    unknown.push(format!("{}: \"{part}\" in: {line}", dir.file_name().unwrap().to_string_lossy()));
                }
            }
        }
    }
    unknown
}

#[test]
fn every_control_a_lesson_names_is_in_the_interface_of_its_language() {
    for lang in [Lang::En, Lang::Zh] {
        let unknown = unknown_names(lang);
        assert!(unknown.is_empty(), "{lang:?}: names the window does not show:\n{}", unknown.join("\n"));
    }
}

#[test]
fn the_name_check_finds_a_wrong_name() {
    let names = quoted_names("Open the **Attention** tab, then the *Mask inspektor* view and the *掩码读作* 旋钮.", &EN_KINDS);
    assert_eq!(names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["Attention", "Mask inspektor"]);
    let known = interface_names(Lang::En);
    assert!(known.iter().any(|n| n == "Attention") && !known.iter().any(|n| n == "Mask inspektor"));
}
