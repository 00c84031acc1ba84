# lesson strings (English).

## src/ui/lesson_panel.rs
lesson-heading = Lessons
lesson-open-pack = Open lesson pack…
lesson-open-pack-tip = Add a teacher's lessons: a folder of lesson folders, each with a lesson.md (or drop it on the window)
lesson-previous = Previous lesson
lesson-next = Next lesson
lesson-no-lessons = no lessons
lesson-list-count-tip = Each lesson ends in (passed/total): the checks you have passed out of all its checks. A claim is not a check: verifying one does not change these numbers.
lesson-unreadable =
    This lesson could not be read:
    { $error }
lesson-none-loaded = No lessons loaded.
lesson-summary = { $summary } · about { $minutes } minutes
lesson-load-start = Load this lesson's experiment
lesson-load-start-tip = Your current experiment is kept; restore it with the next button
lesson-not-loaded = ⚠ The experiment on screen is not this lesson's (its task, model or settings differ): load it to follow the text.
lesson-restore = Restore my experiment
lesson-try = ▶ Try it: { $label }
lesson-try-tip = Change the live experiment
lesson-try-tip-steps = Change the live experiment and train { $steps ->
        [one] one step
       *[other] { $steps } steps
    }
lesson-try-unchanged = nothing changed: the experiment already had these settings
lesson-try-changed =
    changed:
    { $text }
lesson-check-now = Check now
lesson-check-tip = Ticks by itself when { $condition } holds on the live run
lesson-check-waiting = Waiting for { $condition }
lesson-check-own-runs = Judged on this lesson's own runs: press one of its ▶ Try it buttons or "Load this lesson's experiment" first.
lesson-check-hint = Not yet. { $hint }
lesson-claim = Claim
lesson-claim-verify = Verify it (seeds { $seeds })
lesson-claim-verify-again = Verify again (seeds { $seeds })
lesson-claim-verify-tip = Trains the claim's runs in the background with seeds { $seeds }, the same runs as the command line's lesson verify; it must hold for each
lesson-claim-verifying = verifying with seeds { $seeds }…
lesson-claim-holds = ✔ holds with seeds { $seeds }
lesson-claim-fails = ✖ does not hold with seed { $failing } (of { $seeds })
lesson-claim-side-note = a is the claim's run; each line gives the measured value and what it needed.
lesson-claim-sides-note = a and b are the claim's two runs; each line gives the measured value and what it needed.
lesson-claim-maps = attention of a and b, seed { $seed }
lesson-claim-diverged = seed { $seed }: side { $side } { $divergence }
lesson-claim-condition = seed { $seed }: { $mark } { $condition }
lesson-claim-curves = training loss of a and b, seed { $seed } (log scale)
lesson-claim-curves-x = step
lesson-claim-steepest-fall = { $side }: steepest fall

## src/ui/plots_panel.rs
lesson-chart-loss = loss
lesson-chart-loss-tip = Training and held-out loss
lesson-chart-accuracy = accuracy
lesson-chart-accuracy-tip = Training and held-out accuracy
lesson-chart-grad-norm = gradient norm per layer
lesson-chart-grad-norm-tip = How large each layer's gradient is: vanishing or exploding gradients show here
lesson-chart-update-ratio = update / weight per layer
lesson-chart-update-ratio-tip = How much each step changes each layer's weights, relative to their size
lesson-chart-lr = learning rate
lesson-chart-lr-tip = The learning rate at each step (warm-up, then constant)
lesson-plots-log-scale = log scale
lesson-plots-log-scale-tip = Plot losses, norms and ratios on a log10 axis: slow late progress becomes visible.
lesson-plots-smoothing = smoothing
lesson-plots-smoothing-tip = Exponential moving average over steps: 0 shows raw values. Sparse curves (evaluations) decay by the steps between their points, and their measured points are marked. Each curve keeps at most { $capacity } points; older ones are merged.
lesson-plots-charts = Charts ({ $shown } of { $total }) ⏷
lesson-plots-charts-tip = Choose which charts to show: fewer charts, each wider
lesson-plots-pin = Pin this run
lesson-plots-pin-tip = Keep this run's loss and accuracy curves, drawn dashed, to compare the next run (a try, a new seed, a reset) against
lesson-plots-unpin = Unpin
lesson-plots-unpin-tip = Remove the pinned run (kept at { $label })
lesson-plots-step = step
lesson-plots-lr = lr
lesson-plots-embedding = embedding
lesson-plots-output-head = output layer
lesson-plots-train = train
lesson-plots-eval = eval
lesson-plots-pinned-train = pinned train
lesson-plots-pinned-eval = pinned eval

## src/ui/banner.rs
lesson-banner-dismiss = Dismiss

## src/ui/path_prompt.rs
lesson-path-no-dialog = No file dialog could be opened on this desktop, so type the path here.
lesson-path-folder = A folder path.
lesson-path-file = A file path; a relative path starts in the folder the app was started from.
lesson-path-exists = A file by this name is already there: OK replaces it.
lesson-path-folder-exists = A folder by this name is already there: OK replaces the files the save writes into it.
lesson-path-is-file = A file by this name is already there, and this is saved as a folder: choose another name.
lesson-path-ok = OK
lesson-path-cancel = Cancel

## src/ui/ab_maps.rs
lesson-ab-layer = layer
lesson-ab-head = head
lesson-ab-no-head = no head { $head } in layer { $layer }
lesson-ab-largest-change = largest change { $largest }, mean change { $mean }; red: { $name } attends more there, blue: less, grey: the same
lesson-ab-different-probes = the two runs looked at different probe sequences, so cells do not line up
lesson-ab-missing-head = one run has no such head

## src/app/mod.rs (compare with the pinned run)
lesson-compare-pinned = Compare with the pinned run ({ $label })
lesson-compare-pinned-tip = The pinned run's map, this run's map and their difference, one head at a time

## src/app/perform.rs
lesson-msg-continued = The run had finished all its steps, so it continues for { $more } more (steps is now { $total }). Press Reset (R) to start over instead.
lesson-msg-bug-case-loaded = Loaded "{ $title }". Train it and look for the symptom; its mask knobs are hidden until you name the bug.
lesson-msg-lesson-loaded = Loaded this lesson's experiment with fresh weights. Press Start (Space) to train it.
lesson-msg-restored = your experiment is back
lesson-msg-try-one-step = “{ $label }”: the changed model starts from fresh weights and trains one step.
lesson-msg-try-steps = “{ $label }”: the changed model starts from fresh weights and trains { $steps } steps.
lesson-msg-try-no-steps = “{ $label }”: the model changed and starts from fresh weights. Press Start (Space) to train it.
lesson-msg-try-failed = this button's change does not apply: { $error }
lesson-msg-lesson-invalid = the lesson's experiment is not valid here; see the model editor
lesson-msg-pack-added = added { $count } lessons from { $path }
lesson-msg-pack-partly = added { $count } lessons from { $path }; { $failed } could not be read: { $errors }
lesson-confirm-title = Start from fresh weights?
lesson-confirm-text = This change alters the shape of some weights, so the model trained for { $steps ->
        [one] one step
       *[other] { $steps } steps
    } cannot keep them. Apply it and start from fresh weights?
lesson-confirm-apply = Apply and reset
lesson-confirm-keep = Keep training the current model

## src/app/file_actions.rs
lesson-msg-opened = opened { $path }
lesson-msg-open-failed = could not open the experiment: { $error }; the current one is unchanged
lesson-msg-saved = saved { $path }
lesson-msg-dialog-open = A file dialog is already open: answer it first.
lesson-msg-save-failed = could not save the experiment: { $error }
lesson-msg-load-run-failed = could not load the run: { $error }; the current run is unchanged
lesson-msg-panel-hidden = That panel is hidden; show it first (View menu).
lesson-msg-wrote = wrote { $path }
lesson-msg-export-failed = could not export: { $error }

lesson-glossary-tip = Every term of the lessons in English and Chinese, with a one-line meaning
lesson-answer = Answer
lesson-show-answer = Show the answer
lesson-show-answer-tip = Try it yourself first. Opening the answer is recorded in your progress, and your teacher sees it in the report.
lesson-locks = Locked by this lesson: { $knobs }. { $reason }
lesson-locks-active-tip = While this lesson's experiment is loaded, these knobs keep the lessons values; a change is put back.
lesson-locks-idle-tip = The locks hold once you load this lesson's experiment.
lesson-locked-tip = Locked by this lesson: { $reason }
lesson-student-name = Your name:
lesson-student-name-tip = Goes into your progress file, so your teacher's report shows who did what.
lesson-student-name-hint = for the report
lesson-export-progress = Export my progress…
lesson-export-progress-tip = Write a small file with this pack's checks, claims, answers opened and bug-hunt cases solved, each with when; hand it to your teacher.
lesson-msg-locked = 🔒 { $knobs } stays as the lesson set it: { $reason }
lesson-msg-pack-reopen-failed = A lesson pack opened before could not be opened again: { $errors }
lesson-msg-progress-written = Wrote your progress to { $path }. Hand this file to your teacher.
handout-locks = Fixed for the whole class: { $knobs }. { $reason }
handout-try-steps = (then train { $steps ->
        [one] one step
       *[other] { $steps } steps
    })
handout-hint = Hint: { $hint }
handout-answer-elsewhere = Answer { $number } is in { $file }.
handout-figure = Attention maps
handout-answers = Answers
lesson-claim-one-at-a-time = One claim is verified at a time: wait for the one running, or cancel it.
lesson-claim-wait-sweep = The sweep in the { $tab } tab is measuring: verify when it ends (or press Stop in that tab). Two measurements at once would share the cores.
lesson-claim-cancel = Cancel
lesson-claim-crashed = The verification stopped on an internal error, so the claim is not verified; the live run carries on. Press Verify again to retry.
lesson-claim-cancelling = Cancelling…
lesson-claim-cancel-tip = Stop this verification; the claim stays unverified and the live run carries on.
lesson-claim-steps = { $done } / { $total } training steps
lesson-claim-measuring = { $total } training steps done · measuring the runs…
lesson-msg-claim-paused-run = Paused the live run while the claim is verified; it resumes when the verification ends.
lesson-msg-claim-running = A claim is being verified: the live run starts when the verification ends (Cancel stops the verification).
lesson-msg-claim-cancelled = Verification cancelled; the claim is not verified.
lesson-msg-claim-cancelled-kept = Verification cancelled; the earlier verdict stands.
lesson-answer-hidden-presenter = (An answer is here; it stays hidden in the presenter view.)
handout-experiment = Experiment: task { $task } ({ $task_detail }), d_model { $d_model }, { $layers ->
        [one] 1 layer
       *[other] { $layers } layers
    } of { $heads ->
        [one] 1 head
       *[other] { $heads } heads
    }, { $steps ->
        [one] one step
       *[other] { $steps } steps
    }, seed { $seed }. In the app: "Load this lesson's experiment".
handout-task-symbols = length { $length }, { $symbols } symbols
handout-task-text = text "{ $corpus }", windows of { $length } characters
lesson-check-other-task = This check judges a run on the { $task } task; the model now trains on { $now }. Load this lesson's experiment to work on it.
change-line = { $knob }: { $old } → { $new }
change-in-layer = { $layer } · { $knob }
change-layer-count = layers: { $old } → { $new }
lesson-msg-handout-written = Handout written to the folder { $folder }: lesson.md, answers.md when the lesson has answers{ $figure ->
        [yes] , attention.png
       *[other] {""}
    } and the lesson's pictures.
change-every-layer = every layer
change-list-separator = {", "}
change-setting = { $knob }: { $value }
change-layer-setting = { $count } layers
lesson-claim-sides = a: { $a } · b: { $b }
lesson-claim-side-threads = CPU threads: { $threads }
lesson-claim-side-default = as the app's
lesson-claim-side-seed = seed + { $offset }
lesson-claim-side-steps = { $steps ->
        [one] one step
       *[other] { $steps } steps
    }
lesson-claim-maps-open = Open the maps large
lesson-claim-maps-open-tip = Show run a's and run b's maps and their difference in a window of their own, as large as the attention grid's.
lesson-not-loaded-tip = The model on screen was set up elsewhere (another lesson, or your own edits), and the text below describes this lesson's own. "Load this lesson's experiment" puts it in place; your experiment is kept and comes back with "Restore my experiment".
lesson-plots-rnn = RNN
handout-experiment-rnn = Experiment: task { $task } ({ $task_detail }), a { $cell } encoder–decoder of width { $d_model }, { $steps ->
        [one] one step
       *[other] { $steps } steps
    }, seed { $seed }. In the app: "Load this lesson's experiment".
change-encoder-layer-count = encoder layers: { $old } → { $new }
change-encoder-layer-setting = { $count } encoder layers
