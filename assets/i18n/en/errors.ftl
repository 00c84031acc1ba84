# errors strings (English).

## src/tasks/vocab.rs
err-vocab-unknown-token = unknown token "{ $token }"; this task's tokens are: { $tokens }{ $more }

## src/tasks/split.rs
err-split-too-few-examples = { $task } has too few distinct examples to hold any out for evaluation ({ $held_out } of { $draws } draws were held out); raise task.length or task.symbols
err-split-no-test-half = { $task } holds out too few distinct examples to divide them into a validation and a test half ({ $validation } and { $test } found); raise task.length or task.symbols

## src/lessons/parse.rs
err-lesson-front-matter-open = expected the front matter to open with a line of +++
err-lesson-front-matter-unclosed = the front matter (+++) is never closed with another +++ line
err-lesson-front-matter = front matter: { $why }
err-lesson-start-side-knobs = [start]: seed_offset and threads belong in a claim's [a] or [b] table
err-lesson-start = [start]: { $why }
err-lesson-block-unclosed = the ```{ $kind } block is never closed with ```
err-lesson-toml-at = { $why } (at `{ $line }`)
err-lesson-try-block = try block: { $why }
err-lesson-check-block = check block: { $why }
err-lesson-check-condition = check condition: { $why }
err-lesson-claim-block = claim block: { $why }
err-lesson-claim-expect = claim expect: { $why }
err-lesson-claim-no-condition = claim block: expect needs at least one condition
err-lesson-claim-side = claim [{ $side }]: { $why }
err-claim-threads-zero = threads must be at least 1
err-claim-steps-zero = steps must be at least 1 on every side: a claim about an untrained model says nothing about training (use steps = 1 to look at fresh weights)
err-claim-no-b-table = a condition names b.… but the claim has no [b] table; add [b] with the change to compare, or use a.… only
err-claim-b-same-as-a = [b] is the same experiment as [a] with the same steps, seed and threads, so the claim compares a run with itself; make [b] differ (a knob in set, a task, steps, seed_offset or threads)
err-claim-b-unused = the claim has a [b] table but no condition names b.…; compare the sides, or remove [b]
# Also used by src/lessons/mod.rs (a try button's preset or task).
err-lesson-unknown-preset = unknown preset "{ $name }"
err-lesson-unknown-task = unknown task "{ $name }"
err-lesson-experiment-invalid = the experiment is not valid: { $problem }

## src/lessons/check.rs
err-check-no-closing-parenthesis = attention(...) needs a closing parenthesis
err-check-expected-is-pattern = expected `attention(...) is PATTERN`
err-check-unknown-pattern = unknown pattern "{ $pattern }"; use anti-diagonal, diagonal, previous-token or uniform
err-check-expected-layer-head = "{ $arg }": expected layer=N or head=N|*
err-check-layer-not-number = layer "{ $value }" is not a number
err-check-head-not-number = head "{ $value }" is not a number or *
err-check-unknown-argument = unknown argument "{ $name }"; use layer and head
err-check-needs-layer = attention(...) needs layer=N
err-check-expected-metric-op = "{ $text }": expected METRIC OP NUMBER, e.g. eval_accuracy >= 0.9
err-check-not-number = "{ $value }" is not a number
# Also used by src/experiments/condition.rs.
err-unknown-metric = unknown metric "{ $name }"; the metrics are: { $metrics }

## src/lessons/translation.rs
err-pair-id-differs = id "{ $id }" differs from { $original }'s "{ $original_id }"
err-pair-start-differs = the [start] experiment differs from { $original }; only title, summary, the lock reason and the text may change
err-pair-lock-differs = the [lock] table differs from { $original }: a translation locks the same knobs ([lock] knobs = [{ $knobs }]); only its reason is in other words
err-pair-minutes-differ = minutes differs from { $original }: write minutes = { $minutes }
err-pair-block-count = has { $theirs } try/check/claim blocks but { $original } has { $ours }; translate every block and add none
err-pair-block-differs = { $why } (compared with { $original } line { $line }); only label, hint and statement may be translated
err-pair-try-differs = a try block changes different knobs or steps
err-pair-check-differs = a check block has another condition, id or task
err-pair-claim-differs = a claim block has other sides, steps or conditions
err-pair-order-differs = the blocks are in another order

## src/lessons/mod.rs
err-lessons-none-found = { $path }: no lesson.md found (a lesson pack holds one folder per lesson, each with a lesson.md)
err-lessons-no-such-path = { $path }: no such file or folder

## src/lessons/verify.rs
err-verify-could-not-run = { $statement } (could not run: { $why })

## src/experiments/condition.rs
err-cond-expected-comparison = "{ $text }": expected a comparison (<, <=, >, >=)
err-cond-offset-not-number = "{ $text }": the offset after { $sign } must be a number
err-cond-factor-not-number = "{ $text }": the factor before * must be a number
err-cond-two-numbers = "{ $text }" compares two numbers, so it cannot fail or pass because of a run; name a measured metric such as a.eval_accuracy
err-cond-expected-operand = "{ $text }": expected a number or a.METRIC / b.METRIC
err-cond-bad-side = "{ $side }": the side must be a or b

## src/experiments/claim.rs
err-claim-no-step-timed = no step was timed
err-claim-curve-diverged = a side diverged, so its curve stops early
err-claim-curve-not-finite = a loss on the curve is not a finite number
err-claim-curve-needs-b = the curve gap compares two sides; add a [b] table
err-claim-not-measured = not measured
err-claim-threads-failed = could not start { $threads } training threads: { $why }

## src/experiments/length_cost.rs
err-length-non-finite = training went non-finite at step { $step }

## src/probe/mod.rs
err-probe-no-padding = this task's sequences have no padding; try the brackets task
err-probe-one-symbol = the vocabulary has one symbol, so no token can be changed and the probe cannot tell whether anything leaks; give the task two or more symbols

## src/training/session.rs
err-session-invalid-config = invalid config:
err-session-probe-too-long = the probe has { $tokens } tokens but the model's max_len is { $max_len }

## src/runs/mod.rs
err-run-not-a-folder = not a run folder (it does not exist or is not a folder)
err-run-weights-mismatch = the weights do not fit the architecture in config.json: { $why }
err-run-cannot-create-folder = cannot create the folder: { $why }
err-run-invalid-json = not valid JSON for this file: { $why }
# Also used by src/lessons/mod.rs.
err-cannot-read = cannot read: { $why }

## src/runs/weights.rs
err-weights-cannot-write = cannot write the weights: { $why }
err-weights-parameter-missing = parameter { $parameter } (shape { $shape }) is missing from the file
err-weights-shape-differs = parameter { $parameter } has shape { $stored } in the file but the config needs { $needed }
err-weights-extra-parameter = the file has parameter { $parameter }, which the config's model does not
err-weights-cannot-load = cannot load the weights: { $why }
err-weights-reader-failed-on-file = cannot load the weights: the reader failed on this file
err-weights-unreadable = not a readable weights file (truncated, or not saved by Attention Workbench): { $why }
err-weights-missing = the weights file is missing
err-weights-reader-failed = the reader failed
err-lesson-answer-block = answer block: { $why }
err-lesson-answer-empty = this answer block has an empty text; write the answer in text = """…"""
err-lesson-id-malformed = id "{ $id }" must be a short name of letters, digits, - and _ (progress is kept by it, so keep it when you edit the text)
err-lesson-id-repeated = id "{ $id }" is already used by the block at line { $first }; every check, claim and answer needs its own id
err-lesson-lock-reason = [lock] needs a reason = "…" saying why the knobs are fixed (students see it beside every lock)
err-lesson-lock-knob = [lock] knob "{ $knob }" names no knob of the lesson's experiment; write a path like "seed", "backend", "task" or "model.layers[*].heads"
err-pair-answer-differs = the answer block has another id than the original's "{ $id }"
err-bug-case = bug-hunt case: { $why }
err-bug-case-answer = answers: "{ $answer }" is not a bug name; known: { $known }
err-bug-case-no-answer = answers is empty; list at least one of: { $known }
err-bug-case-side-knobs = [experiment] takes preset, task, set and steps only (seed_offset and threads are for claims)
err-bug-case-experiment = [experiment]: { $why }
err-bug-case-repeated = bug-hunt case id "{ $id }" is already used by { $first }; give this case another id
err-pack-manifest = { $file }:{ $line }: { $why } (pack.toml takes id = "short-name", title = "…", version = "…")
err-progress-read = { $file }: cannot read this progress file: { $why }
err-progress-not-progress = { $file }: not a progress file (make one with "Export my progress" in the window)
err-progress-version = { $file }: progress file version { $version }, this app reads version { $known }; update the app
err-pack-id-builtin = id "{ $id }" is the shipped pack's; give your pack its own id
err-lesson-id-taken = lesson id "{ $id }" is already used by { $other }; progress is kept by lesson id, so give this lesson its own id
err-session-probe-frame = the { $family } family reads a source and a target: type the source, a |, then the target (at most { $words } words each; copy, reverse and sort need exactly { $words } symbols each)
