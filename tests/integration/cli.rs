//! The headless CLI, run as a real process.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_attention-workbench"))
        .args(args)
        .env("AW_DISABLE_GPU", "1")
        // English output whatever the machine's locale (`--lang` overrides it).
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("run the binary")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn train_json_prints_one_object_per_line_ending_with_finished_then_eval_reads_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = cli(&[
        "train", "--task", "copy", "--preset", "tiny", "--steps", "30", "--seed", "3", "--json", "--threads", "1",
        "--save", run.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    let steps: Vec<&serde_json::Value> = lines.iter().filter(|v| v["event"] == "step").collect();
    assert_eq!(steps.len(), 30);
    assert!(steps[0]["loss"].as_f64().unwrap() > 0.0);
    assert!(steps[0]["accuracy"].is_number());
    let finished = lines.iter().find(|v| v["event"] == "finished").expect("finished line");
    assert_eq!(finished["step"], 30);
    for key in ["loss", "accuracy", "eval_accuracy"] {
        assert!(finished[key].is_number(), "finished has {key}");
    }
    assert_eq!(lines.last().unwrap()["event"], "saved");

    let out = cli(&["eval", run.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let eval: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(eval["step"], 30);
    let trained_acc = finished["eval_accuracy"].as_f64().unwrap();
    assert!((eval["accuracy"].as_f64().unwrap() - trained_acc).abs() < 1e-6);
}

#[test]
fn bench_json_prints_both_presets() {
    let out = cli(&["bench", "--json", "--steps", "2", "--warmup", "1", "--repeats", "1", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let presets: Vec<&str> = lines.iter().map(|v| v["preset"].as_str().unwrap()).collect();
    assert_eq!(presets, vec!["lesson", "large"]);
    for line in &lines {
        assert!(line["steps_per_s"].as_f64().unwrap() > 0.0);
        // The bench task is the reference's: batch 64 of sequences of 33 tokens.
        let tokens_per_step = line["tokens_per_s"].as_f64().unwrap() / line["steps_per_s"].as_f64().unwrap();
        assert!((tokens_per_step / (64.0 * 33.0) - 1.0).abs() < 1e-3, "{tokens_per_step} tokens per step");
        assert_eq!(line["threads"], 1);
    }
}

#[test]
fn bad_flags_configs_and_files_exit_non_zero_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad_config = dir.path().join("bad.json");
    std::fs::write(&bad_config, r#"{"model": {"layers": [{"heads": 5}]}}"#).unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["train", "--task", "juggling"], "juggling"),
        (vec!["train", "--preset", "huge"], "huge"),
        (vec!["train", "--config", bad_config.to_str().unwrap()], "heads"),
        (vec!["train", "--config", broken.to_str().unwrap()], "broken.json"),
        (vec!["train", "--config", "/no/such/config.json"], "/no/such/config.json"),
        (vec!["eval", "/no/such/run"], "/no/such/run"),
        (vec!["train", "--steps", "many"], "many"),
    ];
    for (args, needle) in cases {
        let out = cli(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert!(err.contains(needle), "{args:?}: {err}");
        let lines = err.lines().filter(|l| !l.trim().is_empty()).count();
        assert!(lines <= 3, "{args:?}: keep errors short: {err}");
    }
}

#[test]
fn gpu_without_an_adapter_falls_back_and_says_so() {
    let out = cli(&["train", "--task", "copy", "--preset", "tiny", "--steps", "2", "--backend", "gpu"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("no usable GPU"), "{text}");
    assert!(text.contains("cpu"), "{text}");
}

#[test]
fn probe_causality_json_reports_leaks_per_layer_and_exits_zero_either_way() {
    let dir = tempfile::tempdir().unwrap();
    let sound = dir.path().join("sound.json");
    let out = cli(&["config", "--preset", "tiny", "--task", "copy"]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&sound, &out.stdout).unwrap();
    let out = cli(&["probe", "causality", "--config", sound.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(report["leak"], false);
    assert_eq!(report["layers"].as_array().unwrap().len(), 1);

    let mut config: serde_json::Value = serde_json::from_slice(&std::fs::read(&sound).unwrap()).unwrap();
    config["model"]["layers"][0]["diagonal_offset"] = serde_json::json!(1);
    let leaky = dir.path().join("leaky.json");
    std::fs::write(&leaky, config.to_string()).unwrap();
    let out = cli(&["probe", "causality", "--config", leaky.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "a leak is a finding, not a failure: {}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(report["leak"], true);
    assert_eq!(report["layers"][0]["first_leaking_position"], 0);

    let out = cli(&["probe", "padding", "--config", sound.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("no padding"), "{}", stdout(&out));
    let out = cli(&["probe", "causality"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--config"), "{}", stderr(&out));
}

#[test]
fn generate_writes_the_same_tokens_with_and_without_the_cache_and_refuses_what_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = cli(&["train", "--task", "char_lm", "--preset", "tiny", "--steps", "20", "--threads", "1", "--save", run.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let run = run.to_str().unwrap();

    let out = cli(&["generate", "--run", run, "--prompt", "The sea", "--tokens", "20", "--json", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "without and with the cache");
    assert_eq!(runs[0]["cache"], false);
    assert_eq!(runs[1]["cache"], true);
    assert_eq!(runs[0]["tokens"], runs[1]["tokens"], "greedy tokens are identical");
    assert_eq!(runs[1]["tokens"].as_array().unwrap().len(), 20);
    assert_eq!(runs[1]["ms_per_token"].as_array().unwrap().len(), 20, "a time for every token");
    assert_eq!(report["identical"], true);

    let out = cli(&["generate", "--run", run, "--prompt", "The sea", "--tokens", "5", "--no-cache"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Without cache") && !stdout(&out).contains("With KV cache"), "{}", stdout(&out));

    // In Chinese, the same command speaks Chinese.
    let out = cli(&["generate", "--run", run, "--prompt", "The sea", "--tokens", "5", "--lang", "zh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("带 KV 缓存") && stdout(&out).contains("每个词元"), "{}", stdout(&out));

    // 7 + 500 tokens is longer than any preset's max_len.
    let out = cli(&["generate", "--run", run, "--prompt", "The sea", "--tokens", "500"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("max_len") && stderr(&out).contains("at most"), "{}", stderr(&out));
    let out = cli(&["generate", "--run", run, "--prompt", "Thé", "--tokens", "2"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--prompt") && stderr(&out).contains("é"), "{}", stderr(&out));
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::process::Stdio;
    // `… | head -1`: the reader goes away after the first line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_attention-workbench"))
        .args(["lesson", "check", concat!(env!("CARGO_MANIFEST_DIR"), "/lessons")])
        .env("LC_ALL", "C.UTF-8")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    // Ended as `head`'s writers do: by SIGPIPE (or done before the reader left),
    // never by an error exit.
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert!(out.status.success() || out.status.signal() == Some(13), "ended with {:?}: {err}", out.status);
    }
}

#[test]
fn bench_tries_times_each_lessons_experiment_and_every_try_to_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let lesson = dir.path().join("lesson.md");
    std::fs::write(
        &lesson,
        "+++\nid = \"97-timed\"\ntitle = \"T\"\nsummary = \"S\"\n[start]\npreset = \"tiny\"\ntask = \"copy\"\nset = { \"task.length\" = 4, \"steps\" = 12 }\n+++\n\n# T\n\n\
         ```try\nlabel = \"Five steps\"\nset = { \"model.positional\" = \"none\" }\nsteps = 5\n```\n\n\
         ```try\nlabel = \"The lesson's budget\"\nset = { \"model.d_model\" = 32 }\n```\n\n\
         ```try\nlabel = \"Diverges\"\nset = { \"model.init_scale\" = 1.0, \"optimizer\" = \"sgd\", \"lr\" = 10.0 }\nsteps = 300\n```\n",
    )
    .unwrap();
    let out = cli(&["bench", "--tries", lesson.to_str().unwrap(), "--json", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let runs: Vec<(&str, u64)> = rows.iter().map(|r| (r["run"].as_str().unwrap(), r["steps"].as_u64().unwrap())).collect();
    assert_eq!(runs, [("Load this lesson's experiment", 12), ("Five steps", 5), ("The lesson's budget", 12), ("Diverges", 300)]);
    for row in &rows {
        assert_eq!(row["lesson"], "97-timed");
        assert!(row["seconds"].as_f64().unwrap() > 0.0, "{row}");
        assert!(row["error"].is_null(), "{row}");
    }
    // Each run trained the steps it asks for, as the window would.
    for row in &rows[..3] {
        assert_eq!(row["trained"], row["steps"], "{row}");
        assert!(row["stopped"].is_null(), "{row}");
    }
    // A try that makes its point by diverging ends there, timed, and says why.
    let trained = rows[3]["trained"].as_u64().unwrap();
    assert!((1..300).contains(&trained), "{}", rows[3]);
    let stopped = &rows[3]["stopped"];
    assert_eq!(stopped["step"].as_u64(), Some(trained + 1), "{stopped}");
    assert!(stopped["what"].as_str().unwrap().contains("NaN or infinite"), "{stopped}");

    // A lesson that cannot be read is named and fails the run; the others still run.
    let broken = dir.path().join("broken.md");
    std::fs::write(&broken, "+++\nid = \"96-broken\"\n").unwrap();
    let out = cli(&["bench", "--tries", lesson.to_str().unwrap(), broken.to_str().unwrap(), "--json", "--threads", "1"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("broken.md"), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 4, "{}", stdout(&out));

    // A lesson that is not there fails, naming it.
    let out = cli(&["bench", "--tries", "99-missing"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("99-missing"), "{}", stderr(&out));
}
