# cli strings (English).

## src/cli/mod.rs
cli-error = error: { $message }
cli-list-tasks = tasks:
cli-list-presets = presets:
cli-list-preset = d_model { $d_model }, { $heads } heads, d_ff { $d_ff }, { $layers ->
        [one] 1 layer
       *[other] { $layers } layers
    }
cli-preset-or-config = give either --preset or --config, not both
cli-unknown-preset = unknown preset "{ $name }"; the presets are: { $presets }
cli-unknown-task = unknown task "{ $name }"; the tasks are: { $tasks }

## src/cli/train.rs
cli-invalid-config = invalid config: { $problems }
cli-train-ready = training { $task } on { $backend }: { $parameters } parameters, sequences of { $seq_len } tokens, vocabulary of { $vocab }
cli-note = note: { $message }
cli-train-adapter = adapter: { $adapter }
cli-train-step = step { $step }/{ $total }  loss { $loss }  accuracy { $accuracy }%  { $speed } steps/s  ETA { $eta }
cli-train-eval = eval @ { $step }  loss { $loss }  accuracy { $accuracy }%  whole sequences right { $sequences }%
cli-train-stopped = stopped: { $hint }
cli-train-finished = finished { $step ->
        [one] one step
       *[other] { $step } steps
    } in { $time }: held-out accuracy { $accuracy }%
cli-train-saved = saved the run to { $dir }

## src/cli/eval.rs
cli-eval-result = { $dir } ({ $task } after { $step ->
        [one] one step
       *[other] { $step } steps
    }): held-out loss { $loss }, accuracy { $accuracy }%, whole sequences right { $sequences }%

## src/cli/probe.rs
cli-probe-give-source = give --config FILE or --run DIR
cli-probe-note = { $probe } probe: { $note }
cli-probe-leak = LEAK
cli-probe-no-leak = no leak
cli-probe-verdict = { $probe } probe: { $verdict } (tolerance { $tolerance })
cli-probe-layer = layer { $layer }: largest change { $score }, first leaking position { $first }

## src/cli/lesson.rs
cli-lesson-all-lessons = lessons
cli-lesson-no-claim-to-verify = { $target }: no claim to verify; every lesson pack needs at least one ```claim block
cli-lesson-check-ok = { $id } ({ $source }): { $tries ->
        [one] 1 try
       *[other] { $tries } tries
    }, { $checks ->
        [one] 1 check
       *[other] { $checks } checks
    }, { $claims ->
        [one] 1 claim
       *[other] { $claims } claims
    }, { $answers ->
        [one] 1 answer
       *[other] { $answers } answers
    }
cli-lesson-pairs-with = { $id } ({ $source }): pairs with { $original }
cli-lesson-no-claim = { $path }: no lesson has a claim; every lesson pack needs at least one ```claim block
cli-lesson-list-entry = { $title } ({ $minutes } min)
cli-lesson-report = { $lesson } (seed { $seed }, { $seconds }s): { $claim }
cli-lesson-undefined = { $name } = undefined ({ $why })
cli-lesson-measured = measured: { $values }
cli-lesson-side = side { $side } { $divergence }
cli-lesson-failed = failed: { $condition }
cli-lesson-unknown = no lesson "{ $target }"; the lessons are: { $lessons }

## src/cli/bench.rs
cli-bench-rate = { $threads } threads  { $steps } steps/s  { $tokens } tokens/s
cli-bench-path = step: { $path }
cli-bench-lengths-intro = preset { $preset } on char_lm, batch { $batch }, { $threads } threads, the fastest of at least { $steps } steps (and at least a second of them)
cli-bench-heads-intro = head sweep on { $task }, d_model { $d_model }, { $steps } steps each, { $threads } threads
cli-bench-heads = heads
cli-bench-validation = validation
cli-bench-test = test
cli-bench-train-loss = train loss
cli-bench-heads-pick = picked on validation: { $heads } heads, test accuracy { $test } (best of any head count: { $best })
cli-bench-length = length
cli-bench-step-ms = step ms
cli-bench-attention-mib = attention MiB
cli-bench-total-mib = total MiB
cli-bench-refused = refused: { $message }
cli-soak-intro = soak: the lesson preset on reverse, { $minutes } minutes, { $threads } threads, snapshots every 25 steps, an evaluation every 100, a save every minute
cli-soak-minute = minute
cli-soak-step = step
cli-soak-resident = resident MiB
cli-soak-rate = steps/s
cli-soak-summary = { $steps } steps, { $snapshots } snapshots, { $saves } saves; resident memory { $first_mib } MiB at the first sample, { $last_mib } MiB at the last (peak { $peak_mib }); { $first_rate } steps/s at the first sample, { $last_rate } at the last
cli-lesson-check-case-ok = bug-hunt case { $id } ({ $source })
cli-lesson-id-repeated = lesson id { $id } in { $source } is already used by { $first }; progress is kept by lesson id, so give each lesson its own
cli-lesson-report-wrote = Wrote the table to { $path }.
cli-train-lengths = {"  "}by source length: { $buckets }
cli-train-length-bucket = { $shortest }–{ $longest } words { $accuracy } ({ $sentences })
cli-warning = warning: { $message }
cli-list-preset-rnn = a { $cell } encoder–decoder without attention, width { $d_model } (on { $task })
cli-list-preset-encoder = encoder–decoder: { $layers } in the decoder and { $encoder } in the encoder (on { $task })
cli-inspect-model = { $class }: { $layers } layers × { $heads } heads, d_model { $d } (opened in { $open } ms, forward in { $forward } ms)
cli-inspect-tokens = sentence { $sequence }: { $tokens }
cli-inspect-head = layer { $layer }, head { $head }, sentence { $sequence } (rows: queries; columns: keys)
cli-inspect-hidden = hidden-state length per token ([0] = embeddings, then after each layer):
cli-inspect-mask = sentence { $sequence }, position { $position }: { $top }
cli-inspect-continuation = continued: { $text }
cli-bench-tries-intro = each lesson's own experiment and every Try it, trained as the window trains them ({ $threads } threads; goal: { $goal } s each)
cli-bench-tries-over = over the goal
cli-bench-tries-no-finish = the trainer stopped before finishing
cli-bench-tries-summary = { $runs } runs, { $over } over { $goal } s; slowest: { $lesson } "{ $label }", { $secs } s
cli-bench-tries-stopped = (stopped at step { $step }: { $what })
cli-bench-tries-seconds = seconds
cli-bench-tries-steps = steps
cli-bench-tries-run = lesson and run
