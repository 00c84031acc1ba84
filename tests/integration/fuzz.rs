//! Bad input found by machines: every parser that reads a user's file gets damaged
//! and random input (arbtest, seeded from the shipped files), and must answer with
//! a value or an error, never a panic.
//!
//! The suite runs a few thousand cases per parser. The long run
//! (`AW_FUZZ_CASES=100000 cargo test --release --test integration fuzz -- --ignored --nocapture`,
//! see the README's reliability section) runs as many as asked for.
//! A failure prints arbtest's seed; `ARBTEST_SEED=<seed>` replays it.

use std::cell::Cell;
use std::path::Path;
use std::time::Instant;

use arbtest::arbitrary::{self, Unstructured};
use arbtest::arbtest;
use attention_workbench::workbench::state::PersistedState;
use attention_workbench::config::{ExperimentConfig, preset, validate};
use attention_workbench::lessons::parse_lesson;
use attention_workbench::runs::parse_json;
use attention_workbench::tasks::{TaskConfig, TaskKind, parse_probe};
use attention_workbench::training::Session;

/// Cases per parser: `AW_FUZZ_CASES`, or `default`.
fn cases(default: usize) -> usize {
    std::env::var("AW_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Run `property` on fresh random input until `target` cases have run. The property
/// says whether the parser accepted its input; both outcomes must occur, or the
/// damage is too weak (or too strong) to reach the code behind the first check.
fn fuzz(name: &str, target: usize, mut property: impl FnMut(&mut Unstructured) -> arbitrary::Result<bool>) {
    let (count, accepted) = (Cell::new(0usize), Cell::new(0usize));
    let start = Instant::now();
    while count.get() < target {
        arbtest(|u| {
            count.set(count.get() + 1);
            accepted.set(accepted.get() + property(u)? as usize);
            Ok(())
        })
        .budget_ms(250)
        .run();
    }
    let (n, ok) = (count.get(), accepted.get());
    println!("fuzz {name}: {n} cases in {:.1} s, {ok} accepted, {} refused with an error, no panic", start.elapsed().as_secs_f64(), n - ok);
    assert!(ok > 0 && ok < n, "{name}: the cases should be neither all accepted nor all refused ({ok} of {n} accepted)");
}

/// Tokens the parsers give meaning to, spliced into damaged inputs.
const TOKENS: &[&str] = &[
    "```", "```claim\n", "```check\n", "```try\n", "+++", "\n", "=", "\"", "{", "}", "[", "]", ",", ":", "-1", "0", "1e309", "NaN",
    "18446744073709551616", "null", "true", "a.", "b.", "and", "> ", "<", "*", "layers[9999]", "model.layers[*].heads", "\u{0}", "\u{feff}", "é", "注意",
    "attention(layer=0, head=*) is", "step", "\\", "\r\n", "#", "|",
];

/// `seed` with up to eight random edits: bit flips, cuts, deletions, repeats,
/// special tokens and raw random bytes.
fn damaged(u: &mut Unstructured, seed: &[u8]) -> arbitrary::Result<Vec<u8>> {
    let mut bytes = seed.to_vec();
    for _ in 0..u.int_in_range(0..=8)? {
        let len = bytes.len();
        match u.int_in_range(0..=6)? {
            0 if len > 0 => {
                let i = u.int_in_range(0..=len - 1)?;
                bytes[i] ^= 1 << u.int_in_range(0..=7)?;
            }
            1 if len > 0 => bytes.truncate(u.int_in_range(0..=len - 1)?),
            2 if len > 1 => {
                let a = u.int_in_range(0..=len - 1)?;
                let b = u.int_in_range(a..=(a + 200).min(len - 1))?;
                bytes.drain(a..=b);
            }
            3 if len > 1 => {
                let a = u.int_in_range(0..=len - 1)?;
                let b = u.int_in_range(a..=(a + 200).min(len - 1))?;
                let piece = bytes[a..=b].to_vec();
                let at = u.int_in_range(0..=len)?;
                bytes.splice(at..at, piece);
            }
            4 | 5 => {
                let token = *u.choose(TOKENS)?;
                let at = u.int_in_range(0..=len)?;
                bytes.splice(at..at, token.bytes());
            }
            _ => {
                let raw: Vec<u8> = u.arbitrary()?;
                let at = u.int_in_range(0..=len)?;
                bytes.splice(at..at, raw);
            }
        }
    }
    Ok(bytes)
}

fn damaged_text(u: &mut Unstructured, seeds: &[String]) -> arbitrary::Result<String> {
    let seed = u.choose(seeds)?;
    Ok(String::from_utf8_lossy(&damaged(u, seed.as_bytes())?).into_owned())
}

fn shipped_lessons() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        for file in ["lesson.md", "lesson.zh.md"] {
            if let Ok(text) = std::fs::read_to_string(entry.as_ref().unwrap().path().join(file)) {
                texts.push(text);
            }
        }
    }
    assert!(texts.len() >= 30, "the shipped lessons are the seeds");
    texts
}

fn lesson_cases(target: usize) {
    let seeds = shipped_lessons();
    let base = preset("lesson").unwrap();
    fuzz("lesson files", target, |u| {
        let text = damaged_text(u, &seeds)?;
        let Ok(lesson) = parse_lesson("fuzz.md", &text) else { return Ok(false) };
        let _ = validate(&lesson.start);
        for block in lesson.tries() {
            if let Ok(config) = block.apply_to(&base) {
                let _ = validate(&config);
            }
        }
        Ok(true)
    });
}

fn config_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = ["tiny", "lesson", "large"].iter().map(|n| preset(n).unwrap().to_json()).collect();
    for name in ["english", "chinese"] {
        seeds.push(std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/pretrained/{name}.json"))).unwrap());
    }
    seeds
}

fn config_cases(target: usize) {
    let seeds = config_seeds();
    fuzz("experiment configs", target, |u| {
        let text = damaged_text(u, &seeds)?;
        let Ok(config) = parse_json::<ExperimentConfig>(&text) else { return Ok(false) };
        Ok(validate(&config).is_empty() && config.task.build().is_ok())
    });
}

fn dataset_cases(target: usize) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/chinese.txt")).unwrap();
    let english = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/english.txt")).unwrap();
    fuzz("datasets", target, |u| {
        let bytes = match u.int_in_range(0..=3)? {
            0 => damaged(u, &corpus)?,
            1 => damaged(u, &english)?,
            2 => u.arbitrary::<Vec<u8>>()?,
            _ => vec![b'x'; u.int_in_range(0..=200_000)?], // one huge line of one symbol
        };
        let path = dir.path().join("corpus.txt");
        std::fs::write(&path, &bytes).unwrap();
        let mut config = TaskConfig::for_kind(TaskKind::CharLm);
        config.corpus = path.to_string_lossy().into_owned();
        config.length = u.int_in_range(1..=64)?;
        let Ok(task) = config.build() else { return Ok(false) };
        let mut rng = attention_workbench::tasks::Rng::new(u.arbitrary()?);
        let _ = task.batch(&mut rng, attention_workbench::tasks::Split::Train, 4);
        let _ = parse_probe(task.as_ref(), &String::from_utf8_lossy(&bytes[..bytes.len().min(80)]));
        Ok(true)
    });
}

fn probe_cases(target: usize) {
    let tasks: Vec<_> = [TaskKind::Copy, TaskKind::Reverse, TaskKind::Brackets, TaskKind::Lookup, TaskKind::ModAdd, TaskKind::WordOrder, TaskKind::CharLm]
        .iter()
        .map(|k| TaskConfig::for_kind(*k).build().unwrap())
        .collect();
    let seeds: Vec<String> = ["a b c | a b c", "( ( ) ) ( ) = Y", "3 + 4 =", "The keeper", "注意力", "k1 v1 k2 v2 ? k1", ""].iter().map(|s| s.to_string()).collect();
    fuzz("typed probes", target, |u| {
        let text = damaged_text(u, &seeds)?;
        let task = u.choose(&tasks)?;
        Ok(parse_probe(task.as_ref(), &text).is_ok())
    });
}

fn state_cases(target: usize) {
    let mut rich = PersistedState::default();
    rich.config = preset("large").unwrap();
    let seeds = vec![serde_json::to_string(&PersistedState::default()).unwrap(), serde_json::to_string_pretty(&rich).unwrap()];
    fuzz("saved window state", target, |u| {
        let text = damaged_text(u, &seeds)?;
        let (state, dropped) = PersistedState::from_stored_keeping(&text);
        let _ = state.effective_language();
        let _ = serde_json::to_string(&state).unwrap();
        Ok(dropped.is_empty())
    });
}

/// A teacher's files: bug-hunt cases (the shipped ones as seeds), pack manifests
/// and students' progress files, each damaged.
fn classroom_cases(target: usize) {
    use attention_workbench::lessons::bug_case::{BUILTIN_CASES, parse_bug_case};
    use attention_workbench::lessons::pack::{PackInfo, load_pack};
    use attention_workbench::progress::{Progress, export};
    let cases: Vec<String> = BUILTIN_CASES.iter().map(|(_, text)| text.to_string()).collect();
    let lesson = parse_lesson("l.md", attention_workbench::lessons::BUILTIN[0].1).unwrap();
    let bugs: Vec<_> = attention_workbench::bughunt::cases();
    let mut progress = Progress::default();
    progress.pass_check(&lesson.id, &lesson.checks().next().unwrap().id, 5);
    progress.solve_bug(&bugs[0].id, 6);
    let file = export::build(&PackInfo::builtin(), &[&lesson], &bugs.iter().collect::<Vec<_>>(), &progress, "Ada", 7);
    let progress_seed = vec![serde_json::to_string_pretty(&file).unwrap()];
    let manifests = vec!["id = \"week-3\"\ntitle = \"Week 3\"\nversion = \"2026.1\"\n".to_string()];
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("bugs")).unwrap();
    fuzz("bug-hunt cases, pack manifests and progress files", target, |u| {
        let lang = if u.arbitrary::<bool>()? { attention_workbench::i18n::Lang::En } else { attention_workbench::i18n::Lang::Zh };
        Ok(match u.int_in_range(0..=2)? {
            0 => parse_bug_case("fuzz.toml", &damaged_text(u, &cases)?, lang).is_ok(),
            1 => {
                std::fs::write(dir.path().join("pack.toml"), damaged_text(u, &manifests)?).unwrap();
                std::fs::write(dir.path().join("bugs/a.toml"), &cases[0]).unwrap();
                load_pack(dir.path(), lang).is_ok()
            }
            _ => {
                let path = dir.path().join("progress.json");
                std::fs::write(&path, damaged_text(u, &progress_seed)?).unwrap();
                let ok = export::read(&path).is_ok();
                let report = attention_workbench::progress::report::Report::merge(&[path]);
                let _ = (report.csv(), report.summary());
                ok
            }
        })
    });
}

/// A small trained run folder's files, the seeds of the run-folder cases.
fn run_files() -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    let mut config = preset("tiny").unwrap();
    config.task = TaskConfig::for_kind(TaskKind::Copy);
    let mut session = Session::new(config).unwrap();
    for _ in 0..3 {
        session.step(false);
    }
    session.save(dir.path()).unwrap();
    ["config.json", "metrics.json", "weights.bpk", "run.json"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read(dir.path().join(f)).unwrap()))
        .collect()
}

fn run_folder_cases(target: usize) {
    let files = run_files();
    let dir = tempfile::tempdir().unwrap();
    fuzz("run folders", target, |u| {
        let hit = u.int_in_range(0..=files.len() - 1)?;
        for (index, (name, bytes)) in files.iter().enumerate() {
            let path = dir.path().join(name);
            match (index == hit, u.int_in_range(0..=9)?) {
                (true, 0) => {
                    let _ = std::fs::remove_file(&path); // a missing file
                }
                (true, _) => std::fs::write(&path, damaged(u, bytes)?).unwrap(),
                (false, _) => std::fs::write(&path, bytes).unwrap(),
            }
        }
        let Ok(mut session) = Session::load(dir.path()) else { return Ok(false) };
        let _ = session.step(false);
        Ok(true)
    });
}

#[test]
fn damaged_lessons_configs_and_states_give_errors_not_panics() {
    lesson_cases(cases(3000));
    config_cases(cases(3000));
    state_cases(cases(2000));
    probe_cases(cases(3000));
    classroom_cases(cases(3000));
}

#[test]
fn damaged_datasets_and_run_folders_give_errors_not_panics() {
    dataset_cases(cases(2000));
    run_folder_cases(cases(1000));
}

/// The long run: `AW_FUZZ_CASES=100000` (every parser in turn).
#[test]
#[ignore]
fn fuzz_every_parser_long() {
    let n = cases(100_000);
    lesson_cases(n);
    config_cases(n);
    state_cases(n);
    probe_cases(n);
    dataset_cases(n);
    run_folder_cases(n);
    classroom_cases(n);
}
