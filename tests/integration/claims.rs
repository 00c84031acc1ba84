//! The claim machinery fails when a claim did not show its statement: undefined
//! metrics, diverged sides, conditions that compare only numbers, a missing or
//! identical [b], zero steps, and a pack without claims.

use std::process::Command;

use attention_workbench::experiments::{Claim, parse_condition};
use attention_workbench::lessons::{self, Lesson, verify_lesson};
use attention_workbench::tasks::TaskKind;

use super::experiment;

/// A lesson whose only claim has `claim` as the body of its block.
fn lesson_with_claim(claim: &str) -> String {
    format!(
        "+++\nid = \"98-test\"\ntitle = \"T\"\nsummary = \"S\"\n[start]\npreset = \"tiny\"\ntask = \"copy\"\nset = {{ \"task.length\" = 4 }}\n+++\n\n# T\n\n```claim\nid = \"c\"\n{claim}\n```\n\nWhy?\n"
    )
}

fn parse(claim: &str) -> Result<Lesson, lessons::LessonError> {
    lessons::parse_lesson("test.md", &lesson_with_claim(claim))
}

#[test]
fn a_diverged_side_fails_every_condition_on_it_and_says_where() {
    let lesson = parse(
        "statement = \"x\"\nsteps = 20\nexpect = [\"b.train_loss < 100\", \"b.eval_accuracy >= 0\"]\n[b]\nset = { \"lr\" = 1e30 }",
    )
    .unwrap();
    let report = &verify_lesson(&lesson, &[0])[0];
    assert!(!report.passed, "a diverged run must not pass: {report:#?}");
    let divergence = report.diverged.get("b").expect("side b diverged");
    assert!(divergence.starts_with("diverged at step "), "{divergence}");
    for condition in &report.conditions {
        assert!(!condition.passed);
        assert!(condition.describe().contains("diverged at step"), "{}", condition.describe());
    }
    assert!(report.measured["b.train_loss"].is_nan(), "no number for a diverged side");

    // A lesson may claim divergence on purpose.
    let on_purpose = parse(
        "statement = \"x\"\nsteps = 20\nexpect = [\"b.diverged >= 1\", \"a.diverged <= 0\"]\n[b]\nset = { \"lr\" = 1e30 }",
    )
    .unwrap();
    let report = &verify_lesson(&on_purpose, &[0])[0];
    assert!(report.passed, "{report:#?}");
}

#[test]
fn an_undefined_metric_fails_instead_of_reading_as_zero() {
    // copy has no padding: the padding probe has nothing to measure.
    let lesson = parse("statement = \"x\"\nsteps = 1\nexpect = [\"a.padding_leak < 0.5\"]").unwrap();
    let report = &verify_lesson(&lesson, &[0])[0];
    assert!(!report.passed, "{report:#?}");
    assert!(report.undefined["a.padding_leak"].contains("no padding"), "{report:#?}");
    assert!(report.conditions[0].describe().contains("no value"));

    // One head per layer: head diversity has no pair to compare.
    let lesson = parse(
        "statement = \"x\"\nsteps = 1\nexpect = [\"a.head_diversity < 0.5\"]\n[a]\nset = { \"model.layers[*].heads\" = 1 }",
    )
    .unwrap();
    assert!(!verify_lesson(&lesson, &[0])[0].passed);

    // No step at all: neither training loss nor first gradient norm exist.
    let mut claim = Claim {
        statement: "x".into(),
        a: experiment("tiny", TaskKind::Copy),
        b: None,
        steps: 0,
        run_a: Default::default(),
        run_b: Default::default(),
        conditions: vec![parse_condition("a.train_loss < 100").unwrap(), parse_condition("a.first_grad_norm < 1e9").unwrap()],
    };
    let result = claim.run(0).unwrap();
    assert!(!result.passed);
    assert!(result.conditions.iter().all(|c| !c.passed && c.undefined.is_some()), "{result:#?}");
    // ... and with a step, the same conditions pass: the failure came from the missing value.
    claim.steps = 1;
    assert!(claim.run(0).unwrap().passed);
}

#[test]
fn claims_that_could_not_show_anything_are_parse_errors_naming_file_and_line() {
    let claim_line = 13; // the ```claim line of `lesson_with_claim`
    let cases = [
        ("statement = \"x\"\nsteps = 10\nexpect = [\"1 >= 0\"]", "two numbers"),
        ("statement = \"x\"\nsteps = 0\nexpect = [\"a.eval_accuracy >= 0.5\"]", "at least 1"),
        ("statement = \"x\"\nsteps = 10\nexpect = [\"a.eval_accuracy >= 0.5\"]\n[a]\nsteps = 0", "at least 1"),
        ("statement = \"x\"\nsteps = 10\nexpect = [\"b.eval_accuracy >= 0.5\"]", "no [b]"),
        (
            "statement = \"x\"\nsteps = 10\nexpect = [\"b.eval_accuracy >= a.eval_accuracy\"]\n[a]\nset = { \"model.positional\" = \"none\" }\n[b]\nset = { \"model.positional\" = \"none\" }",
            "same experiment",
        ),
        (
            "statement = \"x\"\nsteps = 10\nexpect = [\"b.eval_accuracy >= a.eval_accuracy\"]\n[b]\nset = { \"seed\" = 5, \"steps\" = 99 }",
            "same experiment",
        ),
        ("statement = \"x\"\nsteps = 10\nexpect = [\"b.max_curve_gap <= 0\"]\n[a]\nthreads = 2\n[b]\nthreads = 2", "same experiment"),
        ("statement = \"x\"\nsteps = 10\nexpect = [\"b.max_curve_gap <= 0\"]\n[b]\nthreads = 0", "at least 1"),
        ("statement = \"x\"\nsteps = 10\nexpect = [\"a.max_curve_gap <= 0\"]", "no [b]"),
    ];
    for (claim, needle) in cases {
        let err = parse(claim).expect_err(claim);
        assert_eq!((err.file.as_str(), err.line), ("test.md", claim_line), "{err}");
        assert!(err.message.contains(needle), "{claim}: {err}");
    }
    // The same sides with different step budgets, seeds or threads are real comparisons.
    parse("statement = \"x\"\nsteps = 10\nexpect = [\"b.train_loss < a.train_loss\"]\n[a]\nsteps = 1\n[b]\nsteps = 10").unwrap();
    parse("statement = \"x\"\nsteps = 10\nexpect = [\"b.max_curve_gap > 0\"]\n[b]\nseed_offset = 1").unwrap();
    parse("statement = \"x\"\nsteps = 10\nexpect = [\"b.max_curve_gap <= 0\"]\n[a]\nthreads = 1\n[b]\nthreads = 2").unwrap();
    // The seed offset and threads belong to claim sides, not the lesson's start.
    let start = lesson_with_claim("statement = \"x\"\nsteps = 10\nexpect = [\"a.train_loss < 9\"]").replace("[start]\n", "[start]\nseed_offset = 1\n");
    let err = lessons::parse_lesson("test.md", &start).unwrap_err();
    assert!(err.message.contains("seed_offset and threads belong"), "{err}");
}

#[test]
fn the_curve_gap_is_zero_for_the_same_seed_on_other_threads_and_not_for_the_next_seed() {
    let gap = |b_side: &str| {
        let lesson = parse(&format!("statement = \"x\"\nsteps = 30\nexpect = [\"b.max_curve_gap <= 0\"]\n[a]\nthreads = 1\n[b]\n{b_side}")).unwrap();
        let reports = verify_lesson(&lesson, &[4]);
        (reports[0].passed, reports[0].measured["b.max_curve_gap"])
    };
    assert_eq!(gap("threads = 2"), (true, 0.0));
    let (passed, next_seed) = gap("threads = 2\nseed_offset = 1");
    assert!(!passed && next_seed > 0.0, "the next seed's curve differs: {next_seed}");
}

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_attention-workbench")).env("LC_ALL", "C.UTF-8").args(args).output().expect("run the binary")
}

#[test]
fn a_pack_without_claims_and_a_pack_with_a_broken_claim_fail_check_and_verify() {
    let pack = tempfile::tempdir().unwrap();
    let folder = pack.path().join("01-no-claim");
    std::fs::create_dir_all(&folder).unwrap();
    let no_claim = lesson_with_claim("x").replace("```claim\nid = \"c\"\nx\n```\n", "");
    std::fs::write(folder.join("lesson.md"), no_claim).unwrap();
    let path = pack.path().to_str().unwrap();
    for command in ["check", "verify"] {
        let out = cli(&["lesson", command, path]);
        assert!(!out.status.success(), "lesson {command} of a pack with no claims must fail");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("no claim") || text.contains("no lesson has a claim"), "{text}");
    }
    let broken = lesson_with_claim("statement = \"x\"\nsteps = 10\nexpect = [\"1 >= 0\"]");
    std::fs::write(folder.join("lesson.md"), broken).unwrap();
    for command in ["check", "verify"] {
        let out = cli(&["lesson", command, path]);
        assert!(!out.status.success(), "lesson {command} of a number-only claim must fail");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("lesson.md:13:") && text.contains("two numbers"), "{text}");
    }
}

#[test]
fn a_claim_result_carries_both_sides_loss_curves_for_the_chart() {
    let lesson = parse("statement = \"x\"\nsteps = 12\nexpect = [\"b.train_loss > 0\"]\n[b]\nset = { \"model.positional\" = \"none\" }").unwrap();
    let claim = lesson.claims().next().unwrap();
    let result = claim.claim.run(0).unwrap();
    // Only b is named, so only b trains; its curve has a loss for every step.
    assert_eq!(result.curves.keys().collect::<Vec<_>>(), vec!["b"]);
    assert_eq!(result.curves["b"].len(), 12);
    assert!(result.curves["b"].iter().all(|l| l.is_finite() && *l > 0.0));
    // And its attention maps, for the side-by-side view.
    assert_eq!(result.maps.keys().collect::<Vec<_>>(), vec!["b"]);
    let maps = &result.maps["b"];
    let seq = maps.tokens.len();
    let head0 = &maps.layers[0].as_ref().expect("layer 0 has attention")[0];
    assert_eq!(head0.len(), seq * seq);
    let first_row: f32 = head0[..seq].iter().sum();
    assert!((first_row - 1.0).abs() < 1e-4, "a row of weights sums to 1: {first_row}");
}
