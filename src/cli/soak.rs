//! `bench --soak MINUTES`: a long run that should change nothing over time. The
//! trainer thread trains the `lesson` preset on the reverse task without end, with
//! an attention snapshot every 25 steps, an evaluation every 100 and a saved run
//! folder every minute, while this thread drains the events as the window does.
//! It prints the resident memory and the steps per second at regular times, then
//! the first and last of each: both should stay flat.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::config::preset;
use crate::t;
use crate::tasks::{TaskConfig, TaskKind};
use crate::training::{TrainCommand, TrainEvent, TrainerHandle, event_queue};

/// Resident memory of this process in MiB (Linux `/proc/self/statm`; None elsewhere).
pub fn resident_mib() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0 / (1024.0 * 1024.0))
}

/// One line of the soak's table.
#[derive(Clone, Copy, serde::Serialize)]
struct Sample {
    minute: f64,
    step: usize,
    resident_mib: f64,
    steps_per_s: f64,
}

pub fn run(minutes: f64, json: bool) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(minutes > 0.0 && minutes.is_finite(), "--soak takes a number of minutes above 0, e.g. --soak 60");
    let mut config = preset("lesson").expect("the lesson preset exists");
    config.task = TaskConfig::for_kind(TaskKind::Reverse);
    config.steps = 1_000_000_000;
    config.attention_interval = 25;
    config.eval_interval = 100;
    let total = Duration::from_secs_f64(minutes * 60.0);
    // About twenty lines, at least ten seconds apart.
    let every = (total / 20).max(Duration::from_secs(10));
    let save_every = Duration::from_secs(60);
    let folder = tempfile::tempdir()?;

    let (sender, events) = event_queue();
    let trainer = TrainerHandle::spawn(config, sender, None);
    trainer.send(TrainCommand::Start);
    if !json {
        println!("{}", t!("cli-soak-intro", minutes = format!("{minutes}"), threads = rayon::current_num_threads()));
        println!("{:>8} {:>10} {:>14} {:>10}", t!("cli-soak-minute"), t!("cli-soak-step"), t!("cli-soak-resident"), t!("cli-soak-rate"));
    }
    let start = Instant::now();
    let (mut step, mut snapshots, mut saves) = (0usize, 0usize, 0usize);
    let (mut last_at, mut last_step, mut next_save) = (start, 0usize, start + save_every);
    let mut samples: Vec<Sample> = Vec::new();
    while start.elapsed() < total {
        match events.recv_timeout(Duration::from_millis(50)) {
            Ok(TrainEvent::Step(m)) => step = m.step,
            Ok(TrainEvent::Attention(_)) => snapshots += 1,
            Ok(TrainEvent::Saved { .. }) => saves += 1,
            Ok(TrainEvent::NonFinite { step, .. }) => anyhow::bail!("the loss went non-finite at step {step}"),
            Ok(TrainEvent::Error { message }) => anyhow::bail!("{message}"),
            _ => {}
        }
        let now = Instant::now();
        if now >= next_save {
            trainer.send(TrainCommand::Save(folder.path().join("run")));
            next_save += save_every;
        }
        if now - last_at >= every {
            let sample = Sample {
                minute: start.elapsed().as_secs_f64() / 60.0,
                step,
                resident_mib: resident_mib().unwrap_or(f64::NAN),
                steps_per_s: (step - last_step) as f64 / (now - last_at).as_secs_f64(),
            };
            if json {
                println!("{}", serde_json::to_string(&sample)?);
            } else {
                println!("{:>8.1} {:>10} {:>14.1} {:>10.1}", sample.minute, sample.step, sample.resident_mib, sample.steps_per_s);
            }
            samples.push(sample);
            (last_at, last_step) = (now, step);
        }
    }
    trainer.shutdown();
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        anyhow::bail!("the soak ended before its first sample; give it more minutes");
    };
    let peak = samples.iter().map(|s| s.resident_mib).fold(f64::NAN, f64::max);
    if json {
        let summary = serde_json::json!({
            "minutes": minutes, "steps": step, "snapshots": snapshots, "saves": saves,
            "resident_mib_first": first.resident_mib, "resident_mib_last": last.resident_mib, "resident_mib_peak": peak,
            "steps_per_s_first": first.steps_per_s, "steps_per_s_last": last.steps_per_s,
        });
        println!("{summary}");
    } else {
        println!(
            "{}",
            t!(
                "cli-soak-summary",
                steps = step,
                snapshots = snapshots,
                saves = saves,
                first_mib = format!("{:.1}", first.resident_mib),
                last_mib = format!("{:.1}", last.resident_mib),
                peak_mib = format!("{peak:.1}"),
                first_rate = format!("{:.1}", first.steps_per_s),
                last_rate = format!("{:.1}", last.steps_per_s)
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}
