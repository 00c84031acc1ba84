# messages strings (English).

## src/config/validate.rs
msg-problem-line = { $knob }: { $message }; fix: { $fix }
msg-validate-d-model-zero = d_model is 0
msg-validate-d-model-zero-fix = use a positive width such as 64
msg-validate-max-len-zero = max_len is 0
msg-validate-max-len-zero-fix = use at least the task's sequence length
msg-validate-no-layers = the model has zero layers
msg-validate-no-layers-fix = add at least one layer
msg-validate-dropout = dropout { $value } is outside [0, 1)
msg-validate-dropout-fix = use 0 for none, or a probability such as 0.1
msg-validate-init-scale = init scale { $value } is not a positive number
msg-validate-init-scale-fix = use 1.0 for PyTorch's default initialisation
msg-validate-zero-heads = 0 heads
msg-validate-zero-heads-fix = use at least 1 head
msg-validate-heads-divide = d_model { $d } is not divisible by { $heads } heads (d_k = d_model / heads must be whole)
msg-validate-heads-divide-fix = use one of { $divisors } heads, or change d_model
msg-validate-rotary-odd = rotary positions turn each head's numbers in pairs, but d_model { $d } / { $heads } heads gives d_k = { $d_k }, which is odd
msg-validate-rotary-odd-fix = use one of { $heads } heads, or another positional encoding
msg-validate-eval-length-too-long = a held-out length of { $length } makes sequences of { $seq } tokens, longer than max length { $max_len }
msg-validate-eval-length-too-long-fix = raise model.max_len to { $seq }, or shorten task.eval_length
msg-validate-eval-length-seq2seq = the { $family } family reads sources of one length, so its held-out set cannot have another
msg-validate-eval-length-seq2seq-fix = set task.eval_length to 0 (the same as the length), or use the decoder family
msg-validate-eval-length-vocab = at the held-out length, { $task } has { $held_out } tokens where training has { $train }: the model could not name the new ones
msg-validate-eval-length-vocab-fix = set task.eval_length to 0, or use a task whose tokens do not depend on the length (char_lm, copy, reverse, sort, induction)
msg-validate-ablated = head { $head } is ablated but the layer has heads 0–{ $last }
msg-validate-ablated-fix = ablate only heads the layer has, or clear the ablation
msg-validate-window-zero = a sliding window of 0 positions
msg-validate-window-zero-fix = use a window of at least 1
msg-validate-d-ff-zero = the feed-forward width is 0
msg-validate-d-ff-zero-fix = use a width such as 4 × d_model, or turn the FFN off
msg-validate-lr = learning rate { $value } is not a positive number
msg-validate-lr-fix = use a value such as 0.001
msg-validate-batch-zero = batch size is 0
msg-validate-batch-zero-fix = use at least 1, such as 64
msg-validate-steps-zero = 0 training steps
msg-validate-steps-zero-fix = use at least 1 step
msg-validate-eval-empty = the evaluation set is empty
msg-validate-eval-empty-fix = use at least 1 sequence, such as 256
msg-validate-clip = clip value { $value } is not positive
msg-validate-clip-fix = use a value such as 1.0, or remove it
msg-validate-task-fix = change the task's settings
msg-validate-seq-too-long = the task's sequences have { $seq } tokens but max length (max_len) is { $max_len }
msg-validate-seq-too-long-fix = raise max length to at least { $seq }, or shorten the task's length (Task settings; task.length)
msg-validate-vocab = the model has { $vocab } tokens but task { $task } uses { $task_vocab }
msg-validate-vocab-fix = set vocab_size to { $task_vocab }, or remove it to follow the task
msg-validate-memory = training needs about { $total } MiB ({ $attention } MiB of it attention matrices), over the { $limit } MiB limit
msg-validate-memory-fix = lower the batch (Training; batch_size), the task's length (Task settings; task.length), heads or layers, or eval_size in an experiment file (attention memory grows with length²)
msg-validate-init-from-fix = choose random weights, a shipped model, or a folder saved by the app

## src/config/init_source.rs
msg-init-no-shipped-model = there is no shipped model "{ $from }"; the shipped ones are { $first } and { $second }
msg-init-shipped-missing = the shipped model { $from } is not in assets/pretrained/{ $name }; run the app from the project folder (or keep its assets folder beside the program)
msg-init-not-run-folder = { $dir } is not a run folder (it has no { $file }); give a folder saved by the app or by `train --save`, or { $first } or { $second }

## src/training/init_from.rs
msg-init-every-weight = every weight
msg-init-some-weights = { $kept } weights ({ $fresh } start fresh: { $names })
msg-init-report = started from { $from }: kept { $kept }; { $known } of this task's tokens (characters) were known to it, { $new } are new
msg-init-d-model-differs = { $dir } has d_model { $source } but this experiment has { $d }: set model.d_model (and the layers) to the source's
msg-init-different-model = { $dir } has a different model: { $count } of its weights do not fit this experiment's ({ $names }); load its config, or match its layers and widths

## src/training/worker.rs
msg-worker-nothing-to-save = nothing to save: the config is invalid
msg-worker-no-head-to-trace = layer { $layer } has no attention head { $head } to trace
msg-worker-cannot-start = cannot start: fix the config first
msg-worker-applied-untrained = Change applied to the untrained model.
msg-sweep-running = A sweep is measuring: the live run starts when it ends (press Stop under the sweep to end it sooner).
msg-sweep-paused-run = Paused the live run while the sweep measures (the two would share the cores and slow its steps); it resumes when the sweep ends.
msg-measure-while-sweep = The sweep in the { $tab } tab is measuring: press this again when it ends (or press Stop in that tab). Two measurements at once would share the cores.
msg-measure-while-claim = A claim is being verified: press Measure again when it ends (Cancel in the top bar stops it sooner). Two measurements at once would share the cores.
msg-try-after-measuring = The try is set up; it trains when the measurement that runs now ends.
msg-step-while-measuring = A claim or a sweep is measuring on the CPU: Step waits until it ends (the two would share the cores).
msg-loss-climbed = The training loss has climbed to { $loss }, from { $first } at the start, without becoming NaN: the updates overshoot. Pause, lower the learning rate (Training), then press Reset.
msg-loss-climbed-bug-hunt = The training loss has climbed to { $loss }, from { $first } at the start, without becoming NaN. What makes it climb? That is the bug to find.
msg-worker-applied-kept-all = Change applied. The model keeps everything it has learned so far.
msg-worker-applied-all-fresh = Change applied. The model's shape changed, so it starts again from fresh weights.
msg-worker-applied-some-fresh = Change applied. { $kept } of { $total } weight matrices keep what they learned; the { $fresh } whose shape changed start fresh.
msg-worker-non-finite = { $what } at step { $step }; that step was not applied and training is paused. Usual causes: a learning rate that is too high, initial weights that are too large (init scale), or unscaled scores with a large d_k. Lower the learning rate or the init scale, then press Reset (R): the weights may already be too large to resume from.
msg-worker-non-finite-in-group = { $what } at step { $step } (first in { $group }); that step was not applied and training is paused. Usual causes: a learning rate that is too high, initial weights that are too large (init scale), or unscaled scores with a large d_k. Lower the learning rate or the init scale, then press Reset (R): the weights may already be too large to resume from.

## src/training/events.rs
msg-non-finite-loss = The loss became NaN or infinite
msg-non-finite-gradient = A gradient became NaN or infinite

## src/app/run_view.rs
msg-pinned-label = step { $step }
msg-pinned-label-task = step { $step } of { $task }
msg-saved-run = saved the run to { $dir }
msg-wrote-file = wrote { $path }
msg-non-finite-bug-hunt = { $what } at step { $step }; that step was not applied and training is paused. What made the numbers blow up? That is the bug to find.

## src/app/files.rs
msg-empty-screenshot-region = empty screenshot region
msg-dialog-open-experiment = Open an experiment
msg-dialog-save-experiment = Save the experiment
msg-dialog-save-run = Save the run into a folder
msg-dialog-load-run = Load a run folder
msg-dialog-export-csv = Export metrics as CSV
msg-dialog-export-plots = Export the plots as PNG
msg-dialog-export-attention = Export the attention grid as PNG
msg-dialog-open-lesson-pack = Open a lesson pack
msg-dialog-filter-experiment = experiment
msg-cancelled-open-experiment = Open cancelled: nothing changed.
msg-cancelled-load-run = Load cancelled: the current run is unchanged.
msg-cancelled-open-lesson-pack = Open cancelled: the lessons are unchanged.
msg-cancelled-save = Save cancelled: nothing was written.
msg-cancelled-export = Export cancelled: nothing was written.

## src/tasks/mod.rs
msg-task-describe-copy = repeat a random sequence after a separator
msg-task-describe-reverse = write a random sequence backwards after a separator
msg-task-describe-sort = write a random sequence in sorted order after a separator
msg-task-describe-lookup = key-value pairs, then a key: answer its value
msg-task-describe-induction = a random sequence shown twice: predict the repeat
msg-task-describe-mod-add = a + b = ? modulo a prime
msg-task-describe-brackets = is a bracket string balanced? (variable length, padded)
msg-task-describe-word-order = "cat chases dog": who does the chasing?
msg-task-describe-char-lm = predict the next character of a small text
msg-task-length-range = { $task } needs a length from { $min } to { $max }
msg-task-symbols-range = { $task } needs symbols from { $min } to { $max }
msg-task-lookup-distinct-keys = lookup needs distinct keys: { $pairs } pairs need at least { $pairs } symbols
msg-task-mod-add-prime = mod_add needs a prime modulus, { $modulus } is not prime
msg-task-length-range-fix = set length to a value from { $min } to { $max }
msg-task-symbols-range-fix = set symbols to a value from { $min } to { $max }
msg-task-lookup-distinct-keys-fix = raise symbols to at least { $pairs }, or lower length to at most { $symbols }
msg-task-lookup-distinct-keys-fix-length = lower length to at most { $symbols }
msg-task-mod-add-prime-fix = set symbols to a prime, such as { $prime }
msg-task-corpus-error = corpus { $path }: { $why }
msg-probe-empty = type at least one token
msg-probe-too-long = { $tokens } tokens is longer than this task's sequences ({ $seq_len }); shorten the probe

## src/tasks/charlm.rs
msg-corpus-too-short = has { $chars } characters; a window of { $window } needs at least { $needed } (a tenth is held out); use a longer text or a smaller task.length
msg-corpus-unreadable = { $error } (use "english", "chinese", "english_large", "chinese_large" or the path of a UTF-8 text file)
msg-corpus-empty = is empty; choose a file with text in it
msg-corpus-binary = looks like a binary file (it contains zero bytes), not text; choose a .txt file
msg-corpus-not-utf8 = is not UTF-8 text (invalid byte at position { $position }); save it as UTF-8 and try again

## src/model/decode.rs
msg-cache-unsupported = layer { $index } { $why }, so a cache of earlier keys and values would not give the same result (write without the cache)
msg-cache-blocker-bidirectional = is bidirectional (every token sees the later ones)
msg-cache-blocker-diagonal = has its causal diagonal shifted
msg-cache-blocker-mask-inverted = reads its mask inverted
msg-cache-blocker-after-softmax = masks after the softmax (its weights depend on the hidden later keys)
msg-cache-blocker-uniform = is not softmax attention (a uniform average or a convolution)

msg-state-dropped = Some saved settings could not be read and were reset to their defaults: { $parts }. Everything else (lesson progress, solved bugs) was kept.
msg-dialog-export-progress = Export my progress
msg-dialog-export-handout = Export handout (choose a folder)
msg-validate-eval-huge = eval_size { $size } is more than { $max } held-out examples: every evaluation would read them all and take longer than the training
msg-validate-eval-huge-fix = set eval_size to { $max } or fewer (512 is plenty for a lesson)

# Task names as the interface shows them (the task menu, checks, the changed list).
task-kind-copy = copy
task-kind-reverse = reverse
task-kind-sort = sort
task-kind-lookup = lookup
task-kind-induction = induction
task-kind-mod-add = mod_add
task-kind-brackets = brackets
task-kind-word-order = word_order
task-kind-char-lm = char_lm
task-kind-translate = translate
msg-task-describe-translate = translate a toy language: the verb moves to the end of each clause, adjectives follow their noun
task-kind-bracket-depth = bracket depth
msg-task-describe-bracket-depth = tag every bracket with the depth after it: ( ( ) ( ) ) → 1 2 1 2 1 0; every position is scored
msg-probe-source-too-long = { $words } words is more than this task's longest sentence ({ $most }, the knob task.length); shorten the sentence or raise task.length
msg-cache-decoder-only = the KV cache here writes with decoder-only models; this model's family is { $family }
msg-validate-family-needs-source = the { $family } family reads a source and writes a target, but the task { $task } has no source
msg-validate-family-needs-source-fix = choose a task with a source and a target (translate, copy, reverse or sort), or the decoder family
msg-validate-rnn-layers = the rnn family has no Transformer layers, so the { $count } layer(s) here (their heads, masks and norms) would do nothing
msg-validate-rnn-layers-fix = set the number of layers to 0, or choose the decoder or encoder_decoder family
msg-validate-rnn-positions = the rnn family reads words in order, one at a time: a positional encoding does not apply to it
msg-validate-rnn-positions-fix = set model.positional to none
msg-validate-not-rnn = { $knob } belongs to the rnn family; the { $family } family would ignore it
msg-validate-not-rnn-fix = set model.family to rnn, or put the knob back to its default
msg-validate-no-encoder = the encoder_decoder family needs at least one encoder layer
msg-validate-no-encoder-fix = set the number of encoder layers to 1 or more
msg-validate-encoder-unused = only the encoder_decoder family has an encoder; the { $family } family would ignore these { $count } encoder layer(s)
msg-validate-encoder-unused-fix = set the number of encoder layers to 0, or choose the encoder_decoder family
msg-writing-seq2seq = an "{ $family }" model translates a whole source sentence at once; writing on from a prompt needs model family "{ $decoder }" (the held-out accuracy already decodes greedily)
msg-writing-empty-prompt = type a prompt of at least one token
msg-writing-no-count = ask for at least one new token
msg-writing-too-long = the prompt ({ $prompt } tokens) plus { $count } new tokens is longer than the model's max length (max_len = { $max_len }); ask for at most { $most } tokens or shorten the prompt
msg-validate-cross-unused = only the decoder layers of the encoder_decoder family have cross-attention; switching it off here would do nothing
msg-validate-cross-unused-fix = switch cross-attention back on, or choose the encoder_decoder family
msg-worker-rnn-no-trace = the RNN's alignment has no Q, K and V projections to step through: its weights are in the Attention tab, one map per decoder step and source word
msg-validate-layer-norm-eps = LayerNorm ε is { $value }; it must be a number above 0 and at most 1
msg-validate-layer-norm-eps-fix = set it to 1e-5 (PyTorch's and GPT-2's default) or 1e-12 (BERT's)
msg-validate-token-types = the model has { $value } token types; at most { $max } are allowed
msg-validate-token-types-fix = use 0 (none) or 2 (BERT's sentence A and B)
