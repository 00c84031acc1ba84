//! `attention-workbench lesson verify|check|list|report`: run lesson claims headlessly,
//! validate lesson packs (lessons and bug-hunt cases), list lessons, merge a
//! class's progress files.

use std::path::Path;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::experiments::plain_number;
use crate::lessons::{self, Lesson, Loaded, verify_lessons};
use crate::t;
use crate::training::backend::set_cpu_threads;

#[derive(Args, Debug)]
pub struct LessonArgs {
    #[command(subcommand)]
    command: LessonCommand,
}

#[derive(Subcommand, Debug)]
enum LessonCommand {
    /// Run every claim of a lesson (an id like 05, a lesson file or folder, or a pack);
    /// all shipped lessons when none is given. Exits non-zero if any claim fails.
    Verify {
        /// Lesson ids (or their numbers: `18 19 20`), or paths to lesson files,
        /// folders or packs; all shipped lessons when none is given.
        targets: Vec<String>,
        /// Seeds to run each claim with (comma-separated); the window's "Verify it"
        /// uses the same default.
        #[arg(long, value_delimiter = ',', default_value = "0,1,2")]
        seeds: Vec<u64>,
        /// One JSON object per claim and seed.
        #[arg(long)]
        json: bool,
        /// CPU threads for the backend (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Validate lesson files without running them (for teachers writing lessons).
    Check {
        /// A lesson file, a lesson folder, or a pack of lesson folders.
        path: String,
    },
    /// List the shipped lessons.
    List,
    /// Merge students' progress files ("Export my progress" in the window) into
    /// one report: a summary on the screen, and a table with --csv.
    Report {
        /// Progress files (JSON), one per student.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Write the table as CSV to this file ("-" prints it instead of the summary).
        #[arg(long)]
        csv: Option<std::path::PathBuf>,
    },
}

pub fn run(args: LessonArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        LessonCommand::Verify { targets, seeds, json, threads } => {
            if let Some(threads) = threads {
                set_cpu_threads(threads);
            }
            let (ready, mut failed) = select_all(&targets)?;
            let claims: usize = ready.iter().map(|l| l.claims().count()).sum();
            let ready: Vec<&Lesson> = ready.iter().collect();
            verify_lessons(&ready, &seeds, &mut |report| {
                failed += usize::from(!report.passed);
                if json {
                    println!("{}", serde_json::json!({
                        "lesson": report.lesson,
                        "claim": report.claim,
                        "seed": report.seed,
                        "passed": report.passed,
                        "measured": report.measured,
                        "undefined": report.undefined,
                        "diverged": report.diverged,
                        "conditions": report.conditions,
                        "seconds": report.seconds,
                    }));
                } else {
                    print_report(&report);
                }
            });
            if claims == 0 {
                failed += 1;
                let target = if targets.is_empty() { t!("cli-lesson-all-lessons") } else { targets.join(" ") };
                eprintln!("{}", t!("cli-error", message = t!("cli-lesson-no-claim-to-verify", target = target)));
            }
            Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        LessonCommand::Report { files, csv } => {
            let report = crate::progress::report::Report::merge(&files);
            if report.students.is_empty() {
                anyhow::bail!("{}", report.unreadable.join("\n"));
            }
            match csv {
                Some(path) if path.as_os_str() == "-" => print!("{}", report.csv()),
                Some(path) => {
                    crate::runs::write_atomic(&path, report.csv().as_bytes()).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                    print!("{}", report.summary());
                    println!("{}", t!("cli-lesson-report-wrote", path = path.display().to_string()));
                }
                None => print!("{}", report.summary()),
            }
            Ok(if report.unreadable.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        LessonCommand::Check { path } => {
            let pack = crate::lessons::pack::load_pack(Path::new(&path), crate::i18n::Lang::En).map_err(anyhow::Error::msg)?;
            let loaded = pack.lessons.clone();
            let mut bad = 0;
            for case in &pack.cases {
                match case {
                    Ok(case) => println!("ok   {}", t!("cli-lesson-check-case-ok", id = case.id.as_str(), source = case.source.as_str())),
                    Err(err) => {
                        bad += 1;
                        println!("FAIL {err}");
                    }
                }
            }
            for err in crate::lessons::pack::duplicate_case_ids(&pack.cases) {
                bad += 1;
                println!("FAIL {err}");
            }
            // An id the shipped pack already uses would share its progress: the window
            // refuses it, so check refuses it too, with the window's message, even for
            // an unchanged copy of a shipped file. Only the shipped folder itself (the
            // source of the lessons built into the app) is the shipped pack.
            if !is_shipped_folder(Path::new(&path)) {
                for err in crate::lessons::pack::ids_taken_by_shipped(&pack) {
                    bad += 1;
                    println!("FAIL {err}");
                }
            }
            let mut lesson_ids = std::collections::BTreeMap::new();
            for lesson in loaded.iter().flatten() {
                if let Some(first) = lesson_ids.insert(lesson.id.clone(), lesson.source.clone()) {
                    bad += 1;
                    println!("FAIL {}", t!("cli-lesson-id-repeated", id = lesson.id.as_str(), source = lesson.source.as_str(), first = first));
                }
            }
            for result in &loaded {
                match result {
                    Ok(lesson) => println!(
                        "ok   {}",
                        t!(
                            "cli-lesson-check-ok",
                            id = lesson.id.as_str(),
                            source = lesson.source.as_str(),
                            tries = lesson.tries().count(),
                            checks = lesson.checks().count(),
                            claims = lesson.claims().count(),
                            answers = lesson.answers().count()
                        )
                    ),
                    Err(err) => {
                        bad += 1;
                        println!("FAIL {err}");
                    }
                }
            }
            // Each translation beside a lesson must be the same lesson in other words.
            for lang in crate::i18n::Lang::ALL.into_iter().filter(|l| *l != crate::i18n::Lang::En) {
                let Ok(translated) = lessons::load_path_in(Path::new(&path), lang) else { continue };
                for (original, result) in loaded.iter().zip(&translated) {
                    match (original, result) {
                        (Ok(o), Ok(tr)) if tr.source != o.source => println!(
                            "ok   {}",
                            t!("cli-lesson-pairs-with", id = tr.id.as_str(), source = tr.source.as_str(), original = o.source.as_str())
                        ),
                        (Ok(_), Err(err)) => {
                            bad += 1;
                            println!("FAIL {err}");
                        }
                        _ => {}
                    }
                }
            }
            let claims: usize = loaded.iter().flatten().map(|l| l.claims().count()).sum();
            if claims == 0 && bad == 0 && !loaded.is_empty() {
                bad += 1;
                println!("FAIL {}", t!("cli-lesson-no-claim", path = path.as_str()));
            }
            Ok(if bad == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        LessonCommand::List => {
            for loaded in lessons::builtin_in(crate::i18n::lang()) {
                match loaded {
                    Ok(l) => println!("{:<28} {}", l.id, t!("cli-lesson-list-entry", title = l.title.as_str(), minutes = l.minutes)),
                    Err(err) => println!("{}", t!("cli-error", message = err.to_string())),
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A claim's verdict for one seed, its measurements, and each failed condition.
fn print_report(report: &lessons::ClaimReport) {
    let verdict = if report.passed { "PASS" } else { "FAIL" };
    println!(
        "{verdict} {}",
        t!(
            "cli-lesson-report",
            lesson = report.lesson.as_str(),
            seed = report.seed.to_string(),
            seconds = format!("{:.1}", report.seconds),
            claim = report.claim.as_str()
        )
    );
    let measured: Vec<String> = report
        .measured
        .iter()
        .map(|(k, v)| match report.undefined.get(k) {
            Some(why) => t!("cli-lesson-undefined", name = k.as_str(), why = why.as_str()),
            None => format!("{k} = {}", plain_number(*v)),
        })
        .collect();
    println!("     {}", t!("cli-lesson-measured", values = measured.join(", ")));
    for (side, divergence) in &report.diverged {
        println!("     {}", t!("cli-lesson-side", side = side.as_str(), divergence = divergence.as_str()));
    }
    for c in report.conditions.iter().filter(|c| !c.passed) {
        println!("     {}", t!("cli-lesson-failed", condition = c.describe()));
    }
}

/// The lessons `targets` name (all shipped ones when empty), and how many could
/// not be read (each said on stderr).
pub(super) fn select_all(targets: &[String]) -> anyhow::Result<(Vec<Lesson>, usize)> {
    let lessons = if targets.is_empty() {
        select(None)?
    } else {
        let mut all = Vec::new();
        for target in targets {
            all.extend(select(Some(target))?);
        }
        all
    };
    let mut unreadable = 0;
    let mut ready = Vec::new();
    for loaded in lessons {
        match loaded {
            Ok(lesson) => ready.push(lesson),
            Err(err) => {
                unreadable += 1;
                eprintln!("{}", t!("cli-error", message = err.to_string()));
            }
        }
    }
    Ok((ready, unreadable))
}

/// Lessons named by an id prefix ("05", "05-positional-encoding") or a path.
fn select(target: Option<&str>) -> anyhow::Result<Vec<Loaded>> {
    let Some(target) = target else { return Ok(lessons::builtin_in(crate::i18n::lang())) };
    if Path::new(target).exists() {
        return lessons::load_path(Path::new(target)).map_err(anyhow::Error::msg);
    }
    let matching: Vec<Loaded> = lessons::builtin_in(crate::i18n::lang())
        .into_iter()
        .filter(|l| match l {
            Ok(lesson) => lesson.id == target || lesson.id.starts_with(&format!("{target}-")),
            Err(err) => err.file.contains(target),
        })
        .collect();
    if matching.is_empty() {
        let ids: Vec<String> = lessons::builtin_in(crate::i18n::lang()).into_iter().filter_map(|l| l.ok().map(|l: Lesson| l.id)).collect();
        anyhow::bail!("{}", t!("cli-lesson-unknown", target = target, lessons = ids.join(", ")));
    }
    Ok(matching)
}

/// Whether `path` is the `lessons/` folder the app's shipped lessons are built from
/// (or a lesson folder or file inside it).
fn is_shipped_folder(path: &Path) -> bool {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    match (path.canonicalize(), shipped.canonicalize()) {
        (Ok(path), Ok(shipped)) => path.starts_with(shipped),
        _ => false,
    }
}
