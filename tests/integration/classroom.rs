//! A classroom, end to end: a teacher's pack opened with `--pack`, a locked knob,
//! a "Your turn" answer opened, a pack-defined bug-hunt case solved, a check
//! ticked on the lesson's own run, and the progress file exported; then the
//! teacher's `lesson report` merging three students' files.

use std::path::Path;

use attention_workbench::app::WorkbenchApp;
use attention_workbench::workbench::actions::AppAction;
use attention_workbench::workbench::run_view::RunStatus;
use attention_workbench::lessons::Bug;
use attention_workbench::progress::export::ProgressFile;

use super::window::step_until;
use clap::Parser;
use eframe::egui;
use egui_kittest::Harness;
use egui::accesskit::Role;
use egui_kittest::kittest::{By, NodeT, Queryable};

const LESSON: &str = r#"+++
id = "w3-copy"
title = "Week 3: copying"
summary = "Train a copier with the whole class."
minutes = 5
[start]
preset = "tiny"
task = "copy"
set = { "task.length" = 4, "steps" = 40, "eval_interval" = 10 }
[lock]
knobs = ["seed", "task", "model.layers[*].heads"]
reason = "Everyone trains the same run, so the curves on the projector match yours."
+++

# Week 3: copying

Train the copier.

```check
id = "trained"
label = "Train at least 30 steps"
condition = "step >= 30"
hint = "Press Start."
```

## Your turn

Why does a copier need attention at all?

```answer
id = "why-attention"
text = """
Each output position must fetch the token from its input position: a lookup by position, which is what attention does.
"""
```

```claim
id = "positions-help"
statement = "Positions help the copier."
steps = 5
expect = ["a.train_loss > 0"]
```
"#;

const CASE: &str = r#"
id = "w3-peek"
answers = ["causal-mask-missing"]
title = "Week 3: too good to be true"
symptom = "The copier's loss drops to nearly nothing at once."
where = "Mask inspector"
explanation = "Every layer is bidirectional."

[experiment]
preset = "tiny"
task = "copy"
steps = 50
set = { "task.length" = 4, "model.layers[*].mask" = "bidirectional" }
"#;

/// A teacher's pack folder: manifest, one lesson, one bug-hunt case.
pub fn write_pack(dir: &Path) {
    std::fs::write(dir.join("pack.toml"), "id = \"cs-week-3\"\ntitle = \"CS 101, week 3\"\nversion = \"2026.1\"\n").unwrap();
    std::fs::create_dir_all(dir.join("01-copy")).unwrap();
    std::fs::write(dir.join("01-copy/lesson.md"), LESSON).unwrap();
    std::fs::create_dir_all(dir.join("bugs")).unwrap();
    std::fs::write(dir.join("bugs/01-peek.toml"), CASE).unwrap();
}

#[test]
fn a_student_works_through_a_teachers_pack_and_exports_the_progress() {
    let pack = tempfile::tempdir().unwrap();
    write_pack(pack.path());
    let out = tempfile::tempdir().unwrap();
    // The window opens the packs named on its command line.
    let cli = attention_workbench::cli::Cli::try_parse_from(["attention-workbench", "--pack", pack.path().to_str().unwrap()]).unwrap();
    let mut app = WorkbenchApp::new(egui::Context::default(), super::window::small_state());
    app.files_dir = out.path().to_path_buf();
    app.open_packs(&cli.pack);
    assert!(app.state.packs.iter().any(|p| p.ends_with(pack.path().file_name().unwrap())), "the pack is remembered for the next launch");
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    harness.run_steps(3);
    assert_eq!(harness.state().lessons.lesson().map(|l| l.id.as_str()), Some("w3-copy"), "the pack's lesson is open");

    // The lesson's experiment, with its locks.
    harness.get_by_label("Load this lesson's experiment").click();
    harness.run_steps(2);
    step_until(&mut harness, "the lesson's model", |app| app.view.status == RunStatus::Ready);
    assert!(harness.query_by_label_contains("🔒 Seed").is_some(), "the seed shows a lock");
    assert!(harness.query_all_by_label_contains("🔒 heads").count() >= 1, "so does each layer's heads knob in the editor");
    assert!(harness.query_by_label_contains("🔒 learning rate").is_none(), "an unlocked knob shows none");
    assert!(harness.query_all_by_label_contains("Everyone trains the same run").count() >= 1, "and says why");
    let task = harness.state().state.config.task.kind;
    harness.state_mut().perform(AppAction::SetTask(attention_workbench::tasks::TaskKind::Reverse));
    assert!(harness.state().view.banner.as_ref().is_some_and(|b| b.text.contains("🔒")), "the window says why");
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.task.kind, task, "a locked task stays");

    // The "Your turn" answer: hidden until asked, and the asking is recorded.
    assert!(harness.query_by_label_contains("a lookup by position").is_none());
    harness.get_by_label("Show the answer").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("a lookup by position").is_some());

    // The check ticks on the lesson's own run.
    harness.get_by_label("Start").click();
    step_until(&mut harness, "the check to tick", |app| app.state.progress.check_passed("w3-copy", "trained"));

    // The teacher's bug-hunt case, named right.
    harness.get_by_label("Bug hunt").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Week 3: too good to be true").click();
    harness.run_steps(2);
    let guess = harness
        .query_all(By::new().role(Role::ComboBox))
        .find(|n| n.accesskit_node().value().is_some_and(|v| v.contains("choose")) || n.accesskit_node().label().is_some_and(|v| v.contains("choose")))
        .expect("the 'what is the bug?' list");
    guess.click();
    harness.run_steps(2);
    harness.get_by_label(&Bug::CausalMaskMissing.name()).click();
    harness.run_steps(2);
    // A guess waits until the case has been loaded and trained: the symptom is the clue.
    assert!(harness.get_by_label("Check").accesskit_node().is_disabled(), "Check waits for a trained case");
    let before = harness.state().view.generation;
    harness.get_by_label("Load this experiment").click();
    step_until(&mut harness, "the case's model", |app| app.view.status == RunStatus::Ready && app.view.generation > before);
    harness.run_steps(2);
    assert!(harness.get_by_label("Check").accesskit_node().is_disabled(), "loaded, not yet trained");
    harness.get_by_label("Step").click();
    step_until(&mut harness, "a step of the case", |app| app.view.step > 0);
    assert!(!harness.get_by_label("Check").accesskit_node().is_disabled(), "trained: the guess can be checked");
    harness.get_by_label("Check").click();
    harness.run_steps(2);
    assert!(harness.state().state.progress.bugs_solved.contains_key("w3-peek"));

    // Export, named for the teacher.
    harness.state_mut().state.student_name = "Ada".into();
    let path = out.path().join("ada.json");
    harness.state_mut().export_progress(&path);
    // Written off the window's thread: the status strip says when it is done.
    step_until(&mut harness, "the progress file", |app| app.view.banner.as_ref().is_some_and(|b| b.text.contains("ada.json")));
    let file: ProgressFile = attention_workbench::progress::export::read(&path).unwrap();
    assert_eq!((file.student.as_str(), file.pack.id.as_str(), file.pack.version.as_str()), ("Ada", "cs-week-3", "2026.1"));
    let lesson = &file.lessons[0];
    assert!(lesson.checks.iter().all(|c| c.done && c.at.is_some()), "{lesson:?}");
    assert!(lesson.answers_revealed.iter().any(|a| a.id == "why-attention" && a.done));
    assert!(!lesson.claims[0].done, "a claim never verified is not passed");
    assert_eq!(file.bug_cases.len(), 1, "only the pack's own case: {:?}", file.bug_cases);
    assert!(file.bug_cases[0].done);
    assert!(!file.bug_answers_revealed[0].done, "solved without opening its answer");
}

#[test]
fn lesson_report_merges_three_students_into_one_table() {
    let dir = tempfile::tempdir().unwrap();
    let lesson = attention_workbench::lessons::parse_lesson("w3.md", LESSON).unwrap();
    let case = attention_workbench::lessons::bug_case::parse_bug_case("peek.toml", CASE, attention_workbench::i18n::Lang::En).unwrap();
    let info = attention_workbench::lessons::pack::PackInfo { id: "cs-week-3".into(), title: "W3".into(), version: "1".into(), root: None };
    let mut paths = Vec::new();
    for (i, name) in ["Ada", "Grace", ""].iter().enumerate() {
        let mut progress = attention_workbench::progress::Progress::default();
        if i < 2 {
            progress.pass_check("w3-copy", "trained", 1_796_035_200 + i as u64 * 60);
        }
        if i == 1 {
            progress.reveal_answer("w3-copy", "why-attention", 1_796_035_300);
            progress.solve_bug("w3-peek", 1_796_035_400);
        }
        let file = attention_workbench::progress::export::build(&info, &[&lesson], &[&case], &progress, name, 1_796_036_000);
        let path = dir.path().join(format!("student{i}.json"));
        std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
        paths.push(path);
    }
    let csv_path = dir.path().join("class.csv");
    let mut args = vec!["lesson".to_string(), "report".into()];
    args.extend(paths.iter().map(|p| p.display().to_string()));
    args.extend(["--csv".into(), csv_path.display().to_string()]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_attention-workbench")).args(&args).env("LC_ALL", "C.UTF-8").output().unwrap();
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{summary}{}", String::from_utf8_lossy(&out.stderr));
    assert!(summary.contains("3 students"), "{summary}");
    assert!(summary.contains("Grace: 2 of 3 done (1 answer opened)"), "{summary}");
    assert!(summary.contains("student2: 0 of 3 done"), "a file without a name goes by its file name: {summary}");
    assert!(summary.contains("2/3  w3-copy/check/trained"), "{summary}");
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 4, "a header and one row per student:\n{csv}");
    assert!(rows[0].contains("w3-copy/check/trained") && rows[0].contains("w3-copy/claim/positions-help") && rows[0].contains("bug/w3-peek"), "{}", rows[0]);
    assert!(rows[1].starts_with("Ada,") && rows[1].contains("2026-11-30 10:40"), "{}", rows[1]);
    assert!(rows[2].starts_with("Grace,") && rows[2].contains("2026-11-30 10:41"), "{}", rows[2]);
    // A damaged file is named, and the others still merge.
    std::fs::write(&paths[2], "{ not json").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_attention-workbench")).args(&args[..5]).env("LC_ALL", "C.UTF-8").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success() && text.contains("student2.json") && text.contains("2 students"), "{text}");
}

#[test]
fn lesson_check_reads_a_pack_with_its_cases_and_names_a_malformed_one() {
    let pack = tempfile::tempdir().unwrap();
    write_pack(pack.path());
    let check = lesson_check;
    let (ok, text) = check(pack.path());
    assert!(ok, "{text}");
    assert!(text.contains("bug-hunt case w3-peek") && text.contains("1 answer"), "{text}");
    std::fs::write(pack.path().join("bugs/02-bad.toml"), CASE.replace("causal-mask-missing", "mask-is-sad")).unwrap();
    let (ok, text) = check(pack.path());
    assert!(!ok && text.contains("02-bad.toml") && text.contains("mask-is-sad") && text.contains("inverted-mask"), "{text}");
    std::fs::write(pack.path().join("bugs/02-bad.toml"), CASE).unwrap();
    let (ok, text) = check(pack.path());
    assert!(!ok && text.contains("w3-peek") && text.contains("already used"), "two cases with one id: {text}");
    std::fs::remove_file(pack.path().join("bugs/02-bad.toml")).unwrap();
    std::fs::write(pack.path().join("01-copy/lesson.md"), LESSON.replace("id = \"why-attention\"", "id = \"trained\"")).unwrap();
    let (ok, text) = check(pack.path());
    assert!(!ok && text.contains("\"trained\" is already used"), "{text}");
}

#[test]
fn f5_switches_the_presenter_view_and_each_pack_remembers_it() {
    let pack = tempfile::tempdir().unwrap();
    write_pack(pack.path());
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), WorkbenchApp::new(egui::Context::default(), super::window::small_state()));
    harness.run_steps(2);
    assert!(harness.query_by_label("Model").is_some(), "the editor shows in the normal view");
    let name_fields = |h: &Harness<'static, WorkbenchApp>| {
        h.query_all(By::new().role(Role::TextInput)).filter(|n| n.accesskit_node().placeholder() == Some("for the report")).count()
    };
    assert_eq!(name_fields(&harness), 1, "one name field for the progress export");
    harness.key_press(egui::Key::F5);
    harness.run_steps(2);
    assert!(harness.state().presenter());
    assert!(harness.query_by_label("Model").is_none(), "the editor is folded away for the projector");
    assert_eq!(name_fields(&harness), 0, "no student's name field on the projector");
    assert_eq!(harness.ctx.zoom_factor(), attention_workbench::ui::presenter::ZOOM, "everything is drawn larger");
    // Another pack keeps its own choice; coming back to the first brings the view back.
    harness.state_mut().add_lesson_pack(pack.path());
    harness.run_steps(2);
    assert!(!harness.state().presenter(), "the new pack starts in the normal view");
    assert_eq!(harness.ctx.zoom_factor(), 1.0);
    harness.state_mut().perform(AppAction::OpenLesson(0));
    harness.run_steps(2);
    assert!(harness.state().presenter(), "the shipped pack remembers its presenter view");
    let saved = harness.state_mut().state_to_save().clone();
    assert!(saved.presenter_packs.contains("attention-workbench") && !saved.presenter_packs.contains("cs-week-3"));
}

#[test]
fn locks_hold_while_another_lesson_is_read_and_a_vanished_pack_survives_a_language_switch() {
    let pack = tempfile::tempdir().unwrap();
    write_pack(pack.path());
    let mut app = WorkbenchApp::new(egui::Context::default(), super::window::small_state());
    app.open_packs(&[pack.path().to_path_buf()]);
    app.perform(AppAction::LoadLessonStart);
    let task = app.state.config.task.kind;
    // Reading the first shipped lesson does not unlock the loaded lesson's knobs.
    app.perform(AppAction::OpenLesson(0));
    app.perform(AppAction::SetTask(attention_workbench::tasks::TaskKind::Reverse));
    assert_eq!(app.state.config.task.kind, task, "the pack lesson's run keeps its locked task");
    // The pack's folder goes away; switching language reads every pack again.
    let last = app.lessons.lessons.len() - 1;
    app.perform(AppAction::OpenLesson(last));
    let root = pack.path().canonicalize().unwrap();
    drop(pack);
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    harness.state_mut().perform(AppAction::SetLanguage(attention_workbench::i18n::Lang::Zh));
    harness.run_steps(2);
    let app = harness.state();
    assert!(app.lessons.current < app.lessons.lessons.len());
    // The shipped lessons came back in Chinese, the vanished pack is still remembered
    // (a drive may come back) and listed as not found, and its lock no longer holds.
    assert!(app.lessons.lessons.iter().flatten().any(|l| l.id == "01-why-attention" && l.title.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))), "the shipped lessons read again in Chinese");
    assert!(app.state.packs.contains(&root), "the vanished pack stays remembered");
    assert_eq!(app.lessons.not_open(&app.state.packs), vec![root], "and is listed as not found");
    harness.get_by_label("课堂").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("找不到").is_some(), "the Classroom menu says so in Chinese");
}

#[test]
fn a_pack_lesson_or_case_with_a_shipped_id_is_refused_naming_the_fix() {
    let pack = tempfile::tempdir().unwrap();
    write_pack(pack.path());
    std::fs::write(pack.path().join("01-copy/lesson.md"), LESSON.replace("id = \"w3-copy\"", "id = \"01-why-attention\"")).unwrap();
    std::fs::write(pack.path().join("bugs/01-peek.toml"), CASE.replace("id = \"w3-peek\"", "id = \"peeking\"")).unwrap();
    let mut runner = attention_workbench::workbench::lesson_runner::LessonRunner::default();
    let (_, errors) = runner.add_pack(pack.path()).unwrap();
    assert!(errors.iter().any(|e| e.contains("01-why-attention") && e.contains("own id")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("peeking")), "{errors:?}");
    assert_eq!(runner.lessons.iter().flatten().filter(|l| l.id == "01-why-attention").count(), 1, "the shipped lesson keeps its id");
    let (ok, text) = lesson_check(pack.path());
    assert!(!ok && text.contains("01-why-attention") && text.contains("peeking"), "{text}");
}

#[test]
fn lesson_check_refuses_an_unchanged_copy_of_a_shipped_lesson_or_case_as_the_window_does() {
    // A teacher copies lesson 07 and the "inverted" case into a pack unchanged.
    let pack = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(pack.path().join("07-masks")).unwrap();
    std::fs::create_dir_all(pack.path().join("bugs")).unwrap();
    for file in ["lesson.md", "lesson.zh.md"] {
        std::fs::copy(Path::new("lessons/07-masks").join(file), pack.path().join("07-masks").join(file)).unwrap();
    }
    std::fs::copy("lessons/bugs/02-inverted.toml", pack.path().join("bugs/02-inverted.toml")).unwrap();
    // The window refuses both...
    let mut runner = attention_workbench::workbench::lesson_runner::LessonRunner::default();
    let (_, errors) = runner.add_pack(pack.path()).unwrap();
    assert_eq!(errors.len(), 2, "{errors:?}");
    // ...so lesson check fails, with the same messages.
    let (ok, text) = lesson_check(pack.path());
    assert!(!ok, "lesson check passed a pack the window refuses: {text}");
    for error in &errors {
        assert!(text.contains(error.as_str()), "lesson check does not say `{error}`:\n{text}");
    }
    // The shipped folder itself still passes.
    let (ok, text) = lesson_check(Path::new("lessons"));
    assert!(ok, "{text}");
}

/// `lesson check DIR` in English: whether it passed, and what it printed.
fn lesson_check(dir: &Path) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_attention-workbench"))
        .args(["lesson", "check", dir.to_str().unwrap()])
        .env("LC_ALL", "C.UTF-8")
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).to_string())
}
