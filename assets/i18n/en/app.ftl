# Attention Workbench: interface strings, English.
# Every key here must also be in zh.ftl (a test checks both ways).

lang-name = English
test-greeting = Hello, { $name }

## Menus
menu-file = File
menu-open-experiment = Open experiment…
menu-save-experiment = Save experiment…
menu-save-run = Save run folder…
menu-load-run = Load run folder…
menu-export-plots = Export plots as PNG…
menu-export-attention = Export attention grid as PNG…
menu-export-csv = Export metrics as CSV…
menu-edit = Edit
menu-undo = Undo config edit
menu-redo = Redo config edit
menu-view = View
menu-view-editor = Model editor
menu-view-lesson = Lesson
menu-view-plots = Plots
menu-view-attention = Attention
menu-view-dark = Dark theme
menu-language = Language
menu-help = Help
menu-getting-started = Getting started
menu-shortcuts = Keyboard shortcuts
menu-about = About Attention Workbench
about-licence = Licence: { $licence }
about-description = Learn how attention and Transformers work by editing and training a small one live.
about-built = Built with egui, egui_plot, egui_commonmark and burn.

## Keyboard shortcuts
key-space = start / pause / resume training
key-s = train one step
key-r = reset to fresh weights
key-open = open an experiment
key-save = save the experiment
key-undo = undo a config edit
key-redo = redo a config edit
key-f1 = this list
keys-note = Shortcuts without Ctrl are ignored while you type in a text box.

## Getting started
start-1 = The lesson on the right explains one idea at a time. Its experiment is already loaded.
start-1-not-loaded = The lesson on the right explains one idea at a time. Press "Load this lesson's experiment" in it to put its model on screen.
start-2 = Press Start (or Space) to train it, and watch the loss fall in the plots at the bottom.
start-3 = Press a ▶ Try it button in the lesson: it changes the model (the lesson shows what changed) and trains it again.
start-4 = Open the attention grid (Attention tab) to see where each head looks; hover a cell for its weight.
start-5 = Checks in the lesson tick by themselves when your run shows the idea; each claim can be verified with three seeds.
start-close = Close this window to begin; Help → Getting started brings it back.

## Top bar
top-task = Task
top-preset = Preset
top-backend = Backend
top-step-fused = fast CPU step
top-step-fused-tip = How each training step is computed. Here: a hand-written CPU routine that gives the same numbers as the general one, about twice as fast. It is chosen for you; nothing to do.
top-step-composed = general step
top-step-composed-tip = How each training step is computed. Here: the general routine (burn's automatic differentiation), because of: { $reason }. The numbers are the same as the fast CPU step's; only the speed differs. The fast one covers the decoder and encoder–decoder Transformers and the GRU on the CPU (flex), except the LSTM and the extras of opened BERT and GPT-2 checkpoints.
top-seed = Seed
top-start = Start
top-start-tip = Start training (Space)
top-pause = Pause
top-pause-tip = Pause training (Space)
top-resume = Resume
top-resume-tip = Resume training (Space)
top-continue = Continue
top-continue-tip = The run has finished its steps: train it further (Space), or press Reset (R) to start over
top-fix-first = Fix the problems shown in the model editor first
top-step = Step
top-step-tip = Train exactly one step (S)
top-reset = Reset
top-reset-tip = Fresh weights from the seed (R)
top-apply = Apply edits
top-apply-tip = Use your edits now: trained weights are kept wherever their shapes still match, and the held-out accuracy is measured again
top-step-of = step { $step } / { $total }
top-speed = { $speed } steps/s
top-eta = ETA { $eta }
top-heldout = held-out accuracy { $percent }% · loss { $loss }
status-invalid = invalid config
status-ready = ready
status-training = training
status-paused = paused
status-finished = finished

## View tabs
tab-attention = Attention
tab-attention-tip = Every layer's and head's attention on the probe
tab-mask-inspector = Mask inspector
tab-mask-inspector-tip = Intended mask, applied mask and effective attention side by side, with leak checks
tab-step-through = Step-through
tab-step-through-tip = One head's computation, stage by stage: Q, K, V, QK^T, ÷√d_k, mask, softmax, × V
tab-positions = Positions
tab-positions-tip = The model's positions as numbers: the sinusoidal table, rotary's angles or ALiBi's penalties
tab-saturation = Softmax saturation
tab-saturation-tip = Why scores are divided by √d_k
tab-sequence-length = Sequence length
tab-sequence-length-tip = Step time and attention memory against sequence length (lesson 11)
tab-heads = Heads
tab-heads-tip = The same model with 1, 2, 4, 8 and 16 heads: chosen on validation, checked on test (lesson 22)
tab-generate = Generate
tab-generate-tip = The model writes from a prompt, with and without a KV cache, timed token by token (lesson 12)
tab-bug-hunt = Bug hunt
tab-bug-hunt-tip = Planted-bug experiments to diagnose

## Generate
gen-heading = Writing from a prompt
gen-intro = The model writes after your prompt one token at a time, always taking its most likely next token. It writes twice: once running the whole text so far through the model for every new token, and once keeping each layer's keys and values (the KV cache) so only the new token is computed.
gen-prompt = Prompt
gen-prompt-hint = text to continue
gen-prompt-hint-example = e.g. { $example }
gen-prompt-tip = Characters for a character model, space-separated tokens otherwise
gen-tokens = New tokens
gen-tokens-tip = At most { $most }: prompt and new tokens must fit the model's max_len ({ $max_len })
gen-tokens-capped = (capped at { $most }: the model's max_len is { $max_len })
gen-write = Write
gen-writing = Writing…
gen-write-tip = Write with and without the cache and time every token
gen-empty = Type a prompt and press Write. An untrained model writes noise (the timings hold either way).
gen-without = Without cache
gen-with = With KV cache
gen-no-cache = At step { $step }: no cache for this model.
gen-same = the same tokens
gen-different = { $count } different tokens
gen-summary = At step { $step }: { $same }; { $without } ms per token without the cache, { $with } ms with it ({ $speedup }× faster). The cache held { $bytes } of keys and values.
gen-not-run = not run
gen-timing = { $count } tokens in { $total } ms: { $mean } ms per token
gen-axis-x = length of the text so far
gen-axis-y = ms for this token
gen-line-without = without cache
gen-line-with = with KV cache

## Command line
cli-ms-per-token = { $ms } ms per token
cli-tokens-differ = DIFFERENT tokens
cli-cache-faster = the cache is { $speedup }x faster per token

## Glossary
menu-glossary = Glossary
glossary-title = Glossary
glossary-search = Search
glossary-search-hint = a term in English or Chinese
glossary-none = No term matches.

## Task knobs
task-heading = Task settings
task-length = length
task-length-tip = How long the task's examples are: tokens to copy, reverse or sort, key-value pairs for lookup, the repeated segment for induction, the longest bracket string, the character model's window, the longest source sentence of translate. The model's max length grows to fit.
task-eval-length = held-out length
task-eval-length-tip = The length of the held-out examples; 0 means the same as the length. A longer one asks the model about lengths it never trained on: can its positions travel? The model's max length grows to fit. (Lesson 21)
task-symbols = symbols
task-symbols-tip = How many different symbols the task draws from: the alphabet for copy, reverse, sort and induction, the keys for lookup, the modulus for modular addition, the nouns for word order and for translate.
task-corpus = text
task-corpus-tip = What the character model learns to continue: a short built-in text (a few KB, trains in seconds), a long one (over 100 KB, written for this project), or a UTF-8 text file of your own. The last tenth is held out.
task-corpus-size = { $kb } KB
task-corpus-file = a text file…
task-corpus-path-hint = path of a UTF-8 .txt file
task-corpus-path-tip = Type or paste the path of a text file (UTF-8). An empty, binary or non-UTF-8 file is refused with the reason.
task-words = words
task-words-tip = Which language the sentences are in: "cat chases dog ?" or "猫 追 狗 ？". Word order carries who does what in both.
task-words-english = English (cat chases dog)
task-words-chinese = Chinese (猫 追 狗)

## Status strip
hint-ready = Press Start (Space) to train this experiment, or a ▶ Try it button in the lesson. F1 lists the shortcuts.
hint-ready-bug-case = Press Start (Space) to train the bug case, then read its maps (the mask inspector helps). F1 lists the shortcuts.
hint-finished = The run has finished: Continue (Space) trains further, Reset (R) starts over, or try the next step of the lesson.
hint-paused = Paused: Resume (Space), train one step (S), or inspect the panels.
hint-other = Messages about your run appear here. F1 lists the keyboard shortcuts.
compare-pinned = pinned
compare-now = now
attention-hidden = The attention panel is hidden (View menu).
menu-lessons = Classroom
menu-packs-open = Open packs (reopened at every launch):
menu-pack-close-tip = Close this pack and stop opening it at launch (its files and your progress stay).
menu-export-handout = Export handout…
menu-presenter = Presenter view
menu-presenter-tip = For a projector: large type, high contrast, the lesson and the attention maps large, the editor folded away. Remembered for this pack.
key-f5 = Presenter view on or off
menu-pack-missing = ⚠ not found: { $path }
menu-pack-forget-tip = Stop trying to open this pack at launch.
status-verifying = verifying a claim
status-sweeping = a sweep is measuring
preset-tiny = tiny
preset-lesson = lesson
preset-large = large
preset-custom = custom
tab-by-length = By length
tab-by-length-tip = Held-out accuracy against source length, live and pinned (the Bahdanau figure), and how much gradient reaches each source word (lessons 18–20)
tab-pretrained = Pretrained
tab-pretrained-tip = A BERT or GPT-2 checkpoint from disk, in every attention view
menu-open-pretrained = Open pretrained model…
