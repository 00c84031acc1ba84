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
rep-case-peeking-title = The best training loss ever
rep-case-peeking-symptom = This character language model reaches a training loss far below its causal twin, yet what it writes on its own is gibberish.
rep-case-peeking-where = Mask inspector (intended vs applied), then Probe for leaks
rep-case-peeking-explanation = Every layer is bidirectional, so while training each position simply reads the next character, which is its answer. At generation time there is no next character to read. Set the mask back to causal.
rep-case-inverted-title = Looking the wrong way
rep-case-inverted-symptom = Each query puts all its weight on positions after it; the last query has nothing to look at.
rep-case-inverted-where = Attention maps and the mask inspector
rep-case-inverted-explanation = The mask builder says true = may see, but the attention reads true = hidden. Every query sees exactly what it must not. Read the mask with the builder's convention.
rep-case-blind-diagonal-title = The first token sees nothing
rep-case-blind-diagonal-symptom = The inspector flags the first row as having no visible key at all, and no position ever attends to itself.
rep-case-blind-diagonal-where = Mask inspector: rows with every position masked
rep-case-blind-diagonal-explanation = The causal mask was built with k < q instead of k ≤ q, so the diagonal is hidden. Use k ≤ q.
rep-case-one-ahead-title = Almost causal
rep-case-one-ahead-symptom = The training loss drops to nearly zero within a few hundred steps, the generated text is poor, and the causality probe reports a leak starting at position 0.
rep-case-one-ahead-where = Probe for leaks, then the mask inspector's leaking cells
rep-case-one-ahead-explanation = The mask was built with k ≤ q + 1: every position sees one token ahead, which is exactly its answer. Use k ≤ q.
rep-case-padding-axis-title = Padding that talks
rep-case-padding-axis-symptom = Changing only the padding tokens changes the model's outputs at real positions.
rep-case-padding-axis-where = Probe for leaks (padding), then the mask inspector's padded columns
rep-case-padding-axis-explanation = The padding mask was broadcast along the query axis: padded rows are hidden, but every real query still reads the padded keys. Hide padded keys (columns).
rep-case-padding-missing-title = Length matters too much
rep-case-padding-missing-symptom = The same bracket string gets a different answer depending on how much padding follows it.
rep-case-padding-missing-where = Probe for leaks (padding) and the padded columns of the attention maps
rep-case-padding-missing-explanation = No padding mask is applied, so real tokens attend to padding. Hide padded keys.
rep-case-padding-side-title = Silent first rows
rep-case-padding-side-symptom = The inspector flags several rows at the start of many sequences as having no visible key, and where the answer sits moves from example to example.
rep-case-padding-side-where = Mask inspector: rows with every position masked
rep-case-padding-side-explanation = The sequences were padded on the left. With a causal mask the padded queries at the start can see nothing, and the real tokens start at a different position in every example. Pad on the right.
rep-case-unshifted-title = Perfect and useless
rep-case-unshifted-symptom = Training and held-out accuracy reach 100% almost at once, yet generating the answer one token at a time gets almost nothing right.
rep-case-unshifted-where = The accuracy curves against greedy generation
rep-case-unshifted-explanation = Each position was asked to predict its own input token, which it can copy. The target at position t must be the token at t + 1.
rep-case-unscaled-title = Spiky from the start
rep-case-unscaled-symptom = Even before training, nearly every attention row puts almost all its weight on a single key.
rep-case-unscaled-where = Attention maps at step 0, and the gradient panel
rep-case-unscaled-explanation = With d_k = 256 the raw dot products are large, so the softmax saturates and its gradients vanish. Divide the scores by √d_k.
rep-case-mask-after-softmax-title = Zero weight, still leaking
rep-case-mask-after-softmax-symptom = Every future cell of the attention maps is exactly zero, rows sum to less than one, and yet the causality probe reports a leak.
rep-case-mask-after-softmax-where = Probe for leaks, and the row sums in the mask inspector
rep-case-mask-after-softmax-explanation = The softmax was taken over every key and the future zeroed afterwards. The normaliser still contains the future scores, so the past weights depend on future tokens. Mask before the softmax.
rep-case-huge-init-title = Decided before it learned
rep-case-huge-init-symptom = Even though the scores are scaled by 1/√d_k, every attention row is one-hot at step 1, and the held-out accuracy stays near chance.
rep-case-huge-init-where = Attention maps at step 1, then the gradient panel
rep-case-huge-init-explanation = The weights and embeddings start ten times larger than PyTorch's default, so the first layer's Q and K are about a hundred times larger and its scores far larger still. The softmax is saturated from the first step and passes almost no gradient. Use an init scale near 1.
rep-case-runaway-lr-title = Gone in twenty steps
rep-case-runaway-lr-symptom = The loss climbs steeply for about twenty steps, past 1e30, then the run stops with a non-finite loss, and the status line says at which step.
rep-case-runaway-lr-where = The loss and gradient-norm charts, and the status line
rep-case-runaway-lr-explanation = Plain SGD with a learning rate of 10 moves each weight by ten times its gradient. The updates overshoot, the weights and scores grow, and within about twenty steps a number overflows. Use a learning rate around 0.1 for SGD, or Adam at 0.001.

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
rep-check-not-measured = not measured yet
rep-check-term = { $name } { $op } { $value } ({ $shown })
rep-check-any-head = any head
rep-check-head = head { $head }
rep-check-attention = { $pattern } attention in layer { $layer }, { $head }
rep-check-attention-no-map = { $what } (no attention map of that layer yet)
rep-check-attention-seen = { $what } (seen now)
rep-check-attention-not-yet = { $what } (not yet)
