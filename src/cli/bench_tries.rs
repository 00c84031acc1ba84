//! `attention-workbench bench --tries`: how long a learner waits for each lesson's
//! runs. Every lesson's own experiment ("Load this lesson's experiment", then
//! Train) and every *Try it* trains as the window trains it: the same trainer
//! thread, with its evaluations and attention snapshots, from the lesson's start
//! to the steps the try asks for (the lesson's budget when it names none, as if
//! the learner then pressed Start). The seconds run from the start command to the
//! finished event, session creation included; the window adds its own drawing on
//! the same cores, so they are the least a learner waits.

use std::process::ExitCode;
use std::time::Instant;

use crate::config::ExperimentConfig;
use crate::lessons::Lesson;
use crate::t;
use crate::training::{TrainCommand, TrainEvent, TrainerHandle};

/// The goal of issue 26: every try reaches its point within this many seconds.
const GOAL_SECS: f64 = 15.0;

/// One run a learner starts from a lesson, and how long it took.
struct Timed {
    lesson: String,
    label: String,
    /// The steps it asks for (None when its experiment could not be built).
    steps: Option<usize>,
    outcome: Result<Ran, String>,
}

/// A run that ended: its seconds, the steps it trained, and why it stopped early
/// if it did (lesson 14's planted learning rate of 10 makes its point by
/// diverging).
struct Ran {
    secs: f64,
    trained: usize,
    /// The step that went non-finite, and what did.
    stopped: Option<(usize, String)>,
}

/// `unreadable`: lessons that could not be read (already said); they fail the
/// run, as does a run that cannot start. Runs over the goal are marked, not failed.
pub fn run(lessons: &[Lesson], unreadable: usize, json: bool) -> anyhow::Result<ExitCode> {
    let threads = rayon::current_num_threads();
    if !json {
        println!("{}", t!("cli-bench-tries-intro", threads = threads, goal = format!("{GOAL_SECS:.0}")));
        println!("{:>8} {:>6}  {}", t!("cli-bench-tries-seconds"), t!("cli-bench-tries-steps"), t!("cli-bench-tries-run"));
    }
    let mut timed = Vec::new();
    for lesson in lessons {
        let mut runs = vec![(t!("lesson-load-start"), Ok(lesson.start.clone()))];
        runs.extend(lesson.tries().map(|block| (block.label.clone(), block.apply_to(&lesson.start))));
        for (label, config) in runs {
            let steps = config.as_ref().ok().map(|c| c.steps);
            let outcome = config.and_then(train_timed);
            let row = Timed { lesson: lesson.id.clone(), label, steps, outcome };
            print_row(&row, json);
            timed.push(row);
        }
    }
    let failed = unreadable + timed.iter().filter(|r| r.outcome.is_err()).count();
    let secs = |r: &Timed| r.outcome.as_ref().ok().map(|ran| ran.secs);
    let slowest = timed.iter().filter_map(|r| secs(r).map(|s| (r, s))).max_by(|a, b| a.1.total_cmp(&b.1));
    if !json && let Some((row, secs_max)) = slowest {
        let over = timed.iter().filter(|r| secs(r).is_some_and(|s| s > GOAL_SECS)).count();
        println!(
            "{}",
            t!(
                "cli-bench-tries-summary",
                runs = timed.len(),
                over = over,
                goal = format!("{GOAL_SECS:.0}"),
                lesson = row.lesson.as_str(),
                label = row.label.as_str(),
                secs = format!("{secs_max:.1}")
            )
        );
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Train `config` on a trainer thread to its budget (or until it goes
/// non-finite): seconds from the start command to the end.
fn train_timed(config: ExperimentConfig) -> Result<Ran, String> {
    let (events_tx, events) = crate::training::event_queue();
    let start = Instant::now();
    let trainer = TrainerHandle::spawn(config, events_tx, None);
    trainer.send(TrainCommand::Start);
    let mut outcome = Err(t!("cli-bench-tries-no-finish"));
    for event in events.iter() {
        let secs = start.elapsed().as_secs_f64();
        match event {
            TrainEvent::Finished { step, .. } => {
                outcome = Ok(Ran { secs, trained: step, stopped: None });
                break;
            }
            TrainEvent::NonFinite { step, kind, .. } => {
                // The step that went non-finite was not applied.
                outcome = Ok(Ran { secs, trained: step - 1, stopped: Some((step, kind.describe())) });
                break;
            }
            TrainEvent::Error { message } => {
                outcome = Err(message);
                break;
            }
            _ => {}
        }
    }
    trainer.shutdown();
    outcome
}

fn print_row(row: &Timed, json: bool) {
    if json {
        let (seconds, trained, stopped, error) = match &row.outcome {
            Ok(ran) => (
                // Unrounded: a run of a few tiny steps takes under 5 ms.
                Some(ran.secs),
                Some(ran.trained),
                ran.stopped.as_ref().map(|(step, what)| serde_json::json!({ "step": step, "what": what })),
                None,
            ),
            Err(why) => (None, None, None, Some(why.as_str())),
        };
        let line = serde_json::json!({
            "lesson": row.lesson,
            "run": row.label,
            "steps": row.steps,
            "trained": trained,
            "seconds": seconds,
            "stopped": stopped,
            "error": error,
        });
        println!("{line}");
        return;
    }
    let steps = row.steps.map_or("—".to_string(), |s| s.to_string());
    let line = match &row.outcome {
        Ok(Ran { secs, stopped, .. }) => {
            let mut line = format!("{secs:>8.1} {steps:>6}  {}  {}", row.lesson, row.label);
            if *secs > GOAL_SECS {
                line = format!("{line}  {}", t!("cli-bench-tries-over"));
            }
            if let Some((step, what)) = stopped {
                line = format!("{line}  {}", t!("cli-bench-tries-stopped", step = *step, what = what.as_str()));
            }
            line
        }
        Err(why) => format!("{:>8} {steps:>6}  {}  {}  {}", "—", row.lesson, row.label, t!("cli-error", message = why.as_str())),
    };
    println!("{}", line.trim_end());
}
