# views strings (English).

## src/ui/attention_panel.rs
views-attention-heading = Attention
views-attention-probe = probe:
views-attention-probe-hint = tokens, then Enter
views-attention-probe-tip = The sequence the maps are drawn for. Type tokens of the task's vocabulary (characters for char_lm) and press Enter; leave empty for the task's own example.
views-attention-show = Show
views-attention-show-tip = Draw the maps for this probe
views-attention-not-ready = The maps appear when the model is ready.
views-attention-caption = rows: queries · columns: keys · step { $step } · click a map to enlarge
views-attention-off = attention off
views-attention-head = head { $head }
views-attention-window = { $layer }, head { $head }
views-attention-predictions = predicted next tokens: { $tokens }
views-attention-cell =
    query { $query } "{ $q }" looks at key { $key } "{ $k }"
    weight { $weight }
views-attention-cell-masked =
    query { $query } "{ $q }" looks at key { $key } "{ $k }"
    masked: this query cannot see this key (weight { $weight })

## src/ui/mask_inspector.rs
views-mask-heading = Mask inspector
views-mask-probe = Probe for leaks
views-mask-probe-tip = Change the tokens after each position (and the padding tokens) and measure how much earlier (and real) outputs move, layer by layer. A sound mask moves nothing.
views-mask-not-ready = The inspector fills in when the model is ready.
views-mask-head = head
views-mask-no-attention = This layer has no attention.
views-mask-no-leak = ✔ no weight reaches a position the intended mask hides
views-mask-not-causal = This layer's intended mask is not causal (bidirectional or a window reaching ahead): positions are meant to see later ones, so the causality probe reports a leak here by design. It matters only for a model that must write one token at a time.
views-mask-leaking-cells = ⚠ { $count } cells leak: weight reaches a position the intended mask hides (outlined in red)
views-mask-empty-row = ⚠ 1 row sees no key at all: { $rows } (red mark). Defined result: zero weight everywhere, so the attention output there is the zero vector.
views-mask-empty-rows = ⚠ { $count } rows see no key at all: { $rows } (red mark). Defined result: zero weight everywhere, so the attention output there is the zero vector.
views-mask-differs = the applied mask differs from the intended one in { $count } cells
views-mask-short-rows = { $count } rows sum to less than 1: the mask was applied after the softmax
views-mask-padding = orange marks on the axes: padding positions
views-mask-intended = intended mask (config)
views-mask-applied = applied mask (inside attention)
views-mask-effective = effective attention (after softmax)
views-mask-legend = Masks: yellow = the query may see the key, grey and hatched = hidden. Attention: colour = weight.
views-mask-cell = query { $query } "{ $q }" looks at key { $key } "{ $k }": { $weight }
views-probe-note = { $probe } probe: { $note }
views-probe-layer-leak = layer { $layer }: leaks from position { $position } (outputs move by up to { $score })
views-probe-layer-padding-leak = layer { $layer }: the padding changes the output at position { $position } (by up to { $score })
views-probe-layer-ok = layer { $layer }: no leak
views-probe-leak = ⚠ { $probe } probe: LEAK · { $layers }
views-probe-leak-by-design = { $probe } probe: later positions reach earlier outputs, by design: this model is meant to see both ways (not a bug unless it must write one token at a time) · { $layers }
views-probe-no-leak = ✔ { $probe } probe: no leak · { $layers }
views-probe-causality = causality
views-probe-padding = padding

## src/ui/step_through.rs
views-step-q = Q
views-step-q-text = Queries: each row is what a position is looking for (x · W_q, this head's slice).
views-step-k = K
views-step-k-text = Keys: each row is what a position offers to be found by (x · W_k).
views-step-v = V
views-step-v-text = Values: each row is what a position hands over when chosen (x · W_v).
views-step-raw = QK^T
views-step-raw-text = Raw scores: row q, column k is the dot product of query q with key k.
views-step-scaled = ÷√d_k
views-step-scaled-text = Scaled scores: divided by √d_k so their spread stays near 1 whatever d_k is.
views-step-mask = mask
views-step-mask-text = The mask: which keys each query may see (red, 1) and which are hidden (white, 0).
views-step-softmax = softmax
views-step-softmax-text = Attention weights: softmax over each row of visible scores; each row sums to 1.
views-step-output = × V
views-step-output-text = Output: each row is the weighted sum of the value rows, using that row's weights.
views-step-heading = Step through one head
views-step-layer-prefix = layer{ " " }
views-step-head-prefix = head{ " " }
views-step-trace = Trace this head
views-step-trace-tip = Run the probe through the model and keep every stage of this head
views-step-not-traced = Press 'Trace this head' to see its computation on the probe sequence.
views-step-summary = { $layer }, head { $head }, d_k = { $dk }, step { $step }
views-step-summary-unscaled = { $layer }, head { $head }, d_k = { $dk }, step { $step } (scaling is off)
views-matrix-key = key { $key } "{ $token }"
views-matrix-dimension = dimension { $dimension }
views-matrix-cell = row { $row } "{ $token }", { $column }: { $value }
views-matrix-legend = colour: red positive, blue negative, white zero; largest magnitude { $max }

## src/ui/saturation_panel.rs
views-saturation-heading = Softmax saturation
views-saturation-intro = Random unit-variance queries and keys, 16 keys per query. Left: the largest softmax weight (1/16 = flat, 1 = one-hot). Right: how much gradient the softmax passes back.
views-saturation-computing = Computing the sweep (a second or two)…
views-saturation-unscaled = unscaled
views-saturation-scaled = scaled by 1/√d_k

## src/ui/length_cost_panel.rs
views-length-heading = Sequence length
views-length-intro = Measure trains the model on screen (its layers and width) for a few steps at each length and shows two things: the time of one step, and the memory of the attention matrices (scores, weights and their gradients). Attention grows with n², the rest of the model with n. It always uses the character task, whatever task is on screen, because only text can be any length. The time shown is the fastest step of about a second of steps: other work on the machine, the window included, can only slow a step down.
views-length-measure = Measure
views-length-measuring = Measuring…
views-length-measure-tip = Time at least { $steps } training steps, and at least a second of them, at each of the lengths { $lengths } (batch { $batch }); takes several seconds
views-length-stale = These times are from another experiment (its model, batch, optimizer, backend or memory limit have changed since): press Measure again.
views-length-progress = { $done } of { $total } lengths done
views-length-training = Training is running: Measure pauses it while the sweep measures and resumes it after.
views-length-axis = sequence length
views-length-measured = measured
views-length-quadratic = ∝ n² (from the first point)
views-length-linear = ∝ n (from the first point)
views-length-ms-per-step = ms per step
views-length-attention-mib = attention MiB
views-length-length = length
views-length-previous = × previous
views-length-total-mib = total MiB
views-length-refused = Length { $length } was refused: { $message }
views-refused-short = refused (why below)
views-heads-refused = { $heads } heads were refused: { $message }
views-sweep-stop = Stop
views-sweep-stopping = Stopping…
views-length-stop-tip = End the sweep after the length it is timing; the lengths timed so far stay.
views-heads-stop-tip = End the sweep at its next training step; the head counts measured so far stay.
views-length-stopped = Stopped after { $done } of { $total } lengths: press Measure to time them all.
views-heads-stopped = Stopped after { $done } of { $total } head counts: no pick is made from part of the sweep. Press Measure to train them all.
views-heads-heading = How many heads?
views-heads-intro = Measure trains the experiment on screen ({ $task }, d_model { $d_model }) for { $steps ->
        [one] one step
       *[other] { $steps } steps
    } with each number of heads; each head gets d_k = d_model / heads. The held-out examples are split in two: the pick is the best accuracy on the validation half, and the test half, never used to choose, says how good the pick really is.
views-heads-measure = Measure
views-heads-measuring = Measuring…
views-heads-measure-tip = Train { $steps ->
        [one] one step
       *[other] { $steps } steps
    } with each of { $counts } heads; takes a while (five trainings)
views-heads-few-steps = Each training would run only { $steps ->
        [one] one step
       *[other] { $steps } steps
    }: too few for any number of heads to learn the task, so every accuracy would sit near chance and the pick would mean nothing. Raise steps (Training) in the editor first: a few hundred at least.
views-heads-many-steps = Five trainings of { $steps } steps each, { $total } steps in all: the sweep may take many minutes. For a quicker one, lower steps (Training) in the editor first; Stop keeps what was measured.
views-heads-progress = { $done } of { $total } head counts done
views-heads-axis = heads
views-heads-accuracy = held-out accuracy
views-heads-validation = validation
views-heads-test = test
views-heads-pick = pick
views-heads-stale = These results are from another experiment (its task, width or knobs have changed since): press Measure again.
views-heads-verdict = Picked on validation: { $heads ->
        [one] 1 head
       *[other] { $heads } heads
    }. On the test half it scores { $test }; the best head count scores { $best } there.

## src/ui/positions_panel.rs
views-positions-heading = Sinusoidal positional encoding
views-positions-intro = Rows: positions 0 to { $last }. Columns: the { $d_model } dimensions. Early columns wave fast, later ones slowly; every row is a different pattern.
views-positions-not-used = This model does not add these waves (see the positional encoding knob); they are shown for reference.
views-positions-rotary-heading = Rotary positions: the turning angles
views-positions-rotary-intro = Positions 0 to { $last } across; one line for each of the { $pairs } pairs of numbers in a head: the cos of the angle that pair of the query and the key is turned by at that position. The first pairs turn fast, the last ones slowly. Two positions the same distance apart differ by the same turn, so scores see only the distance.
views-positions-alibi-heading = ALiBi: the penalty for distance
views-positions-alibi-intro = One line per head: what is taken off a query's score for a key at each distance from 0 to { $last }, slope × distance. Steep heads look only nearby; flat heads read far back. Nothing is added to the token vectors. { $heads } heads in the first attention layer.
views-positions-pair = pair { $pair }
views-positions-position = position
views-positions-head-slope = head { $head } (slope { $slope })
views-positions-distance = distance to the key
views-positions-penalty = taken off the score

## src/ui/bug_hunt.rs
views-bug-heading = Bug hunt
views-bug-intro = Each experiment hides one bug. Load it, train it, find the symptom with the panels, then name the bug.
views-bug-solved = { $solved } of { $total } solved
views-bug-symptom = Symptom: { $symptom }
views-bug-where = Where to look: { $where_to_look }
views-bug-load = Load this experiment
views-bug-load-tip = Replace the edited experiment with this one (Ctrl+Z brings yours back)
views-bug-question = What is the bug?
views-bug-choose = choose…
views-bug-check = Check
views-bug-train-first = Load this experiment and train it for a few steps first (Start, or Step): the symptom you see is the clue.
views-bug-right = ✔ Right.
views-bug-wrong = Not this one. Look again at the symptom with the suggested panel.
views-bug-answer = Answer: { $bug }. { $explanation }
views-bug-reveal = Reveal the answer

## src/ui/heatmap.rs
views-legend-weight-zero = weight 0
views-legend-masked = masked (cannot be seen)
views-unit-layer = layer { $layer }
views-unit-encoder = encoder { $layer }
views-unit-decoder-self = decoder { $layer } · self
views-unit-decoder-cross = decoder { $layer } · cross
views-unit-alignment = alignment (RNN attention)
views-by-length-heading = Accuracy against sentence length
views-by-length-intro = Held-out sentences grouped by how many source words they have: the share of target words each group gets right. Bahdanau, Cho and Bengio (2015) drew this for real translation: without attention the curve falls as sentences grow; with attention it stays up. Pin a run to compare two curves.
views-by-length-no-source = This view needs a task with a source and a target: choose translate, copy, reverse or sort in the Task section.
views-by-length-axis = source words
views-by-length-accuracy = words right (%)
views-by-length-pinned = pinned: { $label }
views-by-length-now = now (step { $step })
views-by-length-words = source words
views-by-length-sentences = held-out sentences
views-by-length-whole = whole sentences right
views-by-length-empty = no held-out sentence of this length: raise eval_size
views-reach-heading = How far the gradient reaches
views-reach-intro = For 64 held-out sentences: the gradient of the last target word's loss at each source word, over the largest at any source word of the sentence. Through a recurrent encoder it passes one step per word; through attention, one hop.
views-reach-measure = Measure gradient reach
views-reach-measure-tip = One forward and backward pass of the model on screen (no training step)
views-reach-not-measured = Not measured yet.
views-reach-result = Step { $step }: the first source word gets { $first } of the largest gradient.
views-reach-axis = source word (1 = first)
views-reach-share = share of the largest gradient
views-by-length-not-yet = No evaluation yet: train, and the chart fills in at the next evaluation.
