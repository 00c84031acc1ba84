# Bug hunt cases, claim and check reports (English).

## src/bughunt.rs
rep-bug-causal-mask-missing = the causal mask is missing
rep-bug-inverted-mask = the mask is read inverted (true = masked)
rep-bug-diagonal-hides-self = the causal diagonal is off by one: a position cannot see itself
rep-bug-diagonal-sees-ahead = the causal diagonal is off by one: a position sees one token ahead
rep-bug-padding-mask-wrong-axis = the padding mask hides queries instead of keys
rep-bug-padding-mask-missing = the padding mask is missing
rep-bug-padding-wrong-side = the padding is on the wrong side
rep-bug-labels-not-shifted = the labels are not shifted
rep-bug-scores-not-scaled = the scores are not scaled by 1/√d_k
rep-bug-softmax-then-mask = the mask is applied after the softmax
rep-bug-init-too-large = the initial weights are far too large
rep-bug-learning-rate-too-high = the learning rate is far too high

## src/experiments/metric.rs
rep-metric-train-loss = training loss
rep-metric-eval-loss = held-out loss
rep-metric-eval-accuracy = held-out accuracy
rep-metric-sequence-accuracy = share of held-out sequences fully right
rep-metric-generation-accuracy = accuracy when generating token by token
rep-metric-causal-leak = causality leak
rep-metric-padding-leak = padding leak
rep-metric-attention-entropy = attention spread (entropy, 1 = even)
rep-metric-first-grad-norm = gradient norm at step 1
rep-metric-hidden-weight = weight on hidden positions
rep-metric-head-diversity = difference between heads
rep-metric-generation-loss = generation loss
rep-metric-parameters = parameter count
rep-metric-grad-ratio = first-to-last layer gradient ratio
rep-metric-diverged = diverged (1 = yes)
rep-metric-max-curve-gap = largest gap between the two loss curves
rep-metric-sharp-head-weight = sharpest head's weight on one key
rep-metric-sharp-head-ablation-drop = accuracy lost when the sharpest head is zeroed
rep-metric-max-head-ablation-drop = the most accuracy lost when any one head is zeroed
rep-metric-max-layer-ablation-drop = the most accuracy lost when every head of one layer is zeroed
rep-metric-heads-pick = the head count with the best validation accuracy
rep-metric-heads-pick-test-gap = test-accuracy gap from the pick to the best head count
rep-metric-heads-test-spread = best minus worst test accuracy over the head counts
rep-metric-heads-refused = the head sweep could not measure every head count: { $why }
rep-metric-heads-stopped = the head sweep was stopped before it measured every head count
rep-metric-step-ms = milliseconds per step
rep-metric-uncached-ms-per-token = milliseconds per generated token without a cache
rep-metric-cached-ms-per-token = milliseconds per generated token with the KV cache
rep-metric-cache-mismatches = tokens where cached and uncached generation differ
rep-metric-phase-step = step of the steepest fall of the loss
rep-metric-phase-drop = how far the loss fell in its steepest 50 steps
rep-metric-no-step = no training step was taken
rep-metric-no-wide-row = no attention row sees two or more keys
rep-metric-no-attention = no layer has attention
rep-metric-one-head = no layer has two or more heads
rep-metric-grad-ratio-needs = needs a training step and two or more layers
rep-metric-needs-steps = needs at least { $steps } training steps
rep-metric-not-finite = measured { $value }, not a finite number
rep-metric-probe-no-layer = the probe measured no layer
rep-metric-probe-not-finite = the model's outputs are not finite numbers, so the probe cannot tell
rep-metric-no-sharp-head = no softmax head has a query row that sees two or more keys

## src/experiments/condition.rs
rep-cond-operand = { $side }: { $metric }
rep-cond-no-value = { $plain }: no value ({ $why })
rep-cond-measured = { $plain } — measured { $measured }, needed { $op } { $needed }
rep-cond-undefined = undefined

## src/experiments/claim.rs
rep-diverged-at = diverged at step { $step }
rep-diverged-at-in = diverged at step { $step } ({ $group })

## src/lessons/check.rs
rep-check-now = now { $value }
rep-check-next-evaluation = measured at the next evaluation
rep-check-press-write = press Write in the Generate tab at this step
rep-check-pin-and-retrain = press Pin this run, then Reset and train again
rep-check-press-measure = press Measure in the Sequence length tab
rep-check-press-measure-heads = press Measure in the Heads tab
rep-check-not-measured = not measured yet
rep-check-term = { $name } { $op } { $value } ({ $shown })
rep-check-any-head = any head
rep-check-head = head { $head }
rep-check-attention = { $pattern } attention in layer { $layer }, { $head }
rep-check-attention-no-map = { $what } (no attention map of that layer yet)
rep-check-attention-seen = { $what } (seen now)
rep-check-attention-not-yet = { $what } (not yet)
rep-report-heading = Class report: { $students ->
        [one] 1 student
       *[other] { $students } students
    }; { $items } things to do (checks, claims, bug-hunt cases), answers opened listed apart.
rep-report-student = { $student }: { $done } of { $total } done ({ $revealed ->
        [one] 1 answer
       *[other] { $revealed } answers
    } opened)
rep-report-items = How many students did each item (fewest first):
rep-report-other-pack = { $student } ({ $file }) is from pack { $pack }, the first file from { $first }
rep-report-answers = Answers opened (shown, not scored):
rep-answer-label = answer { $number } of “{ $lesson }”
rep-cond-op-lt = less than
rep-cond-op-le = at most
rep-cond-op-gt = more than
rep-cond-op-ge = at least
rep-cond-above = above
rep-cond-below = below
rep-cond-sentence-number = { $side }'s { $metric } is { $op } { $value }
rep-cond-sentence-times = { $side }'s { $metric } is { $op } { $factor } times { $other }'s
rep-cond-sentence-other = { $side }'s { $metric } is { $op } { $other }'s
rep-cond-sentence-by = { $side }'s { $metric } is { $op } { $by } { $direction } { $other }'s
rep-check-metric-loss = training loss (smoothed)
rep-check-metric-accuracy = training accuracy (smoothed)
rep-check-metric-cache-speedup = speed-up from the KV cache
rep-check-metric-pinned-gap = largest gap to the pinned loss curve
rep-check-metric-length-growth = step time at 256 tokens over step time at 64
rep-check-metric-held-out-stretch = held-out length over training length
rep-check-metric-heads-pick-match = the model has the head count picked on validation (1 = yes)
rep-check-heads-pick-term = the head count picked on validation in every layer ({ $shown })
rep-check-heads-pick-other = the model has a different head count now
rep-check-heads-pick-has = the model has it
rep-check-metric-step = step
rep-cond-measured-only = { $plain } — measured { $measured }
rep-metric-no-alignment = the task { $task } has no word-by-word alignment to compare with (translate, copy and reverse have one)
rep-metric-no-cross-attention = this model has no cross-attention (choose the encoder_decoder family, or the rnn family with attention)
rep-metric-no-source = the task { $task } has no source sentence (choose translate, copy, reverse or sort)
rep-metric-no-gradient = no gradient reached the input
rep-metric-longest-accuracy = held-out accuracy on the longest sources
rep-metric-shortest-accuracy = held-out accuracy on the shortest sources
rep-metric-alignment-weight = attention on the aligned source word
rep-metric-first-word-gradient = gradient reaching the first source word
rep-metric-empty-bucket = no held-out sentence has { $shortest }–{ $longest } source words; raise eval_size (or task.length) so every length bucket has sentences
