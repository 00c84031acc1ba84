# editor strings (English).

## model_editor.rs
editor-model = Model
editor-estimate = { $parameters } parameters · ~{ $total } MiB to train ({ $attention } MiB attention matrices)
editor-estimate-tip = Weights, gradients and Adam's two moments, plus activations kept for the backward pass (an estimate).
editor-global = Global
editor-positions = positions
editor-none = none
editor-sinusoidal = sinusoidal
editor-learned = learned
editor-rotary = rotary (RoPE)
editor-alibi = ALiBi
editor-max-length = max length
editor-dropout = dropout
editor-init-scale = init scale
editor-training = Training
editor-optimizer = optimizer
editor-learning-rate = learning rate
editor-warmup-steps = warm-up steps
editor-batch = batch
editor-steps = steps
editor-layers = Layers ({ $count })
editor-add-layer = + Add layer
editor-add-layer-tip = Add a layer at the end of the stack (a copy of the last one)
editor-start-from = start from
editor-random-weights = random weights
editor-problem-line = ⚠ { $message }; fix: { $fix }

## bounded.rs (a typed number outside a knob's range)
knob-clamped-high = { $typed } is more than this knob takes: it is set to its largest, { $kept }.
knob-clamped-low = { $typed } is less than this knob takes: it is set to its smallest, { $kept }.

## layer_card.rs
editor-hidden-for-bug-hunt-tip = The bug-hunt case you loaded plants its bug in one of these knobs. Find it with the panels; the knobs show again once you name the bug or reveal the answer.
editor-layer = Layer { $index }
editor-remove-layer-tip = Remove this layer
editor-copy = copy
editor-copy-tip = Duplicate this layer (the copy goes below it)
editor-move-down-tip = Move this layer down
editor-move-up-tip = Move this layer up
editor-attention = attention
editor-on = on
editor-heads = heads
editor-kind = kind
editor-uniform-average = uniform average
editor-convolution = convolution
editor-scale = scale by 1/√d_k
editor-mask = mask
editor-causal = causal
editor-bidirectional = bidirectional
editor-sliding-window = sliding window
editor-window = window
editor-feed-forward = feed-forward
editor-activation = activation
editor-residual = residual
editor-layernorm = LayerNorm
editor-post = post
editor-pre = pre
editor-mask-details-hidden = mask details: hidden for the bug hunt
editor-mask-details = mask details (for bug hunting)
editor-mask-read-as = mask is read as
editor-true-keep = true = keep
editor-true-masked = true = masked
editor-mask-applied-by = mask applied by
editor-fill-large-negative = fill with -1e9
editor-add-neg-inf = add -inf
editor-multiply-after-softmax = multiply after softmax
editor-diagonal-offset = diagonal offset
editor-padding-mask-on = padding mask on
editor-padding-keys = keys (correct axis)
editor-padding-queries = queries (wrong axis)
editor-off = off
editor-ablate-heads = ablate heads
editor-first-16-shown = (first 16 shown)
editor-hidden = hidden for the bug hunt
editor-problem-inline =
    ⚠ { $message }
    fix: { $fix }

## knob_help.rs (tooltips of the knobs, also used by the top bar)
editor-help-d-model = Width of every token vector. Heads split it: each head gets d_model / heads dimensions. (Lesson 06)
editor-help-max-len = Longest sequence the model accepts. Learned positions have one trained row per position. (Lesson 11)
editor-help-positional = How the model learns where a token is. Without it, attention sees a bag of tokens and cannot tell 'cat chases dog' from 'dog chases cat'. Sinusoidal and learned positions are added to the token vectors; rotary turns each head's queries and keys by their position, and ALiBi takes a penalty for distance off every score, so both see only how far apart two tokens are. (Lessons 04, 05, 21)
editor-help-dropout = Probability of zeroing an activation while training; makes runs differ even with one seed. 0 = off. (Lesson 13)
editor-help-init-scale = Multiplies every initial weight. 1 = PyTorch's defaults; large values saturate softmax and can blow up training. (Lesson 14)
editor-help-seed = Seed for weights, batches and dropout: the same seed gives the same run on the CPU. (Lesson 13)
editor-help-heads = Attention heads. Each head attends on its own d_model / heads dimensions, so heads can specialise. (Lesson 06)
editor-help-attention = Turn the attention sublayer off to see what the layer does without it. (Lesson 01)
editor-help-attention-kind = softmax: each query chooses what to read. uniform average: every visible token gets the same weight, the fixed summary of pre-attention models. convolution: each head reads the current and the window − 1 previous tokens with learned weights that depend only on the offset, not on the tokens (a small 1-D convolution). (Lessons 01, 24)
editor-help-scale = Divide scores by √d_k before the softmax. Without it, large d_k saturates the softmax and shrinks gradients. (Lesson 03)
editor-help-mask = Which keys a query may see. causal: only earlier tokens and itself. bidirectional: all. sliding window: the last “window” tokens. Padding is always hidden. (Lessons 07, 08)
editor-help-window = Width of the sliding window: how many recent tokens (itself included) each query sees. (Lesson 15)
editor-help-ffn = The position-wise feed-forward network: the per-token non-linear part of a layer. (Lesson 10)
editor-help-d-ff = Hidden width of the feed-forward network, usually 4 × d_model. (Lesson 10)
editor-help-activation = Non-linearity inside the FFN. GELU is exact (x Φ(x), as BERT computes it); GELU (tanh) is its tanh approximation, as GPT-2 computes it. With none, the FFN is one linear map and cannot compute non-linear per-token functions. (Lesson 10)
editor-help-residual = Add each sublayer's input to its output, so information and gradients can skip the sublayer. Deep stacks stall without it. (Lesson 09)
editor-help-norm = Where LayerNorm sits. post: LN(x + f(x)), the original. pre: x + f(LN(x)), steadier in deep stacks. none: no normalisation. (Lesson 09)
editor-help-task = The toy task that generates training sequences.
editor-help-preset = Start from a named model: tiny (seconds), lesson (the default) or large.
editor-help-backend = Where training runs. GPU uses wgpu (Vulkan, Metal or DX12) and falls back to the CPU, with a message, when no adapter exists. For models as small as the lessons' the CPU is usually faster: a step is many small operations, and the GPU waits on each one (on an NVIDIA H200 the lesson preset trained at 43 steps/s, on two CPU cores at 73).
editor-help-lr = Learning rate: the step size of the optimizer. Too high and the loss explodes. (Lesson 14)
editor-help-batch = Sequences per training step. More is smoother but slower per step.
editor-help-steps = How many optimizer steps a run takes.
editor-help-init-from = Where the weights start: random (from the seed), or a trained model: one shipped with the app (a character model of English or Chinese), or a run folder you saved. Weights are matched by name and shape, characters by what they are, so a model can be fine-tuned on a text with other characters. (Lesson 16)
editor-help-mask-reading = How the attention code reads the boolean mask. The builder makes true = the query may see the key; reading true as masked inverts it, the classic bug. (Lesson 08)
editor-help-mask-application = How hidden cells are kept out: fill the scores with a large negative number, add -inf, or multiply the weights after the softmax (which leaks through the normaliser). (Lesson 08)
editor-help-diagonal-offset = Shifts the causal diagonal: 0 is right, -1 hides each position from itself, +1 lets it see one token ahead. (Lesson 07)
editor-help-padding-mask = Which axis padding is hidden on: keys (the correct axis), queries (a broadcasting bug), or off. (Lesson 07)
editor-help-optimizer = Adam adapts each weight's step size and is the usual choice; SGD takes plain gradient steps.
editor-help-warmup = Steps over which the learning rate rises linearly from 0 to its value; helps deep or post-LN models start. (Lesson 09)
editor-help-ablate = Zero this head's output before the output projection. Its attention map is still computed and shown, so you can see whether a head the map says is important really matters to the answer. In an encoder–decoder's decoder layer the same heads of its cross-attention are zeroed too. (Lesson 15)
editor-family = model family
editor-family-decoder = decoder only
editor-family-encoder-decoder = encoder–decoder
editor-family-rnn = RNN encoder–decoder
editor-rnn-cell = recurrent cell
editor-rnn-attention = RNN attention
editor-rnn-fixed-vector = none (fixed vector)
editor-rnn-dot = dot product
editor-rnn-additive = additive (Bahdanau)
editor-cross-attention = cross-attention
editor-encoder-layer = Encoder layer { $index }
editor-encoder-layers = Encoder layers ({ $count })
editor-rnn-card = { $cell } encoder → { $cell } decoder
editor-rnn-card-fixed = The decoder starts from the encoder's last state and never reads the source again: one fixed vector carries the whole sentence.
editor-rnn-card-attention = At every target word the decoder scores every encoder state and reads their weighted sum: the alignment shows in the Attention tab.
editor-help-family = Which model: a decoder-only Transformer (GPT-style, one sequence), an encoder–decoder Transformer (the encoder reads the source, the decoder writes the target and cross-attends to the encoder), or a recurrent (GRU/LSTM) encoder–decoder. The two seq2seq families need a task with a source: translate, copy, reverse or sort. Lessons 18–20.
editor-help-rnn-cell = The recurrent cell of the encoder and the decoder: GRU (two gates) or LSTM (three gates and a cell state). Both are burn's own modules. Lesson 18.
editor-help-rnn-attention = none: the decoder gets only the encoder's last state, the fixed vector. dot: each decoder state scores every encoder state by a dot product. additive: by a small network, vᵀ tanh(W h + U e), as Bahdanau et al. did. Lesson 18.
editor-help-cross-attention = The decoder layer's second sublayer: queries from the decoder, keys and values from the encoder's output. Switched off, the decoder never sees the source. Lesson 19.
editor-gelu-tanh = GELU (tanh)
editor-layer-norm-eps = LayerNorm ε
editor-help-layer-norm-eps = The small number every LayerNorm adds to the variance before its square root, so a constant vector does not divide by zero. 1e-5 is PyTorch's and GPT-2's default; BERT uses 1e-12.
editor-token-types = Token types
editor-help-token-types = Rows of the token-type (segment) table, one vector added to every token of a sentence: BERT has 2, for sentence A and sentence B. 0 = none. The toy tasks mark every token as type 0.
editor-embedding-norm = LayerNorm on the embeddings
editor-help-embedding-norm = Normalise the summed token, position and type vectors before the first layer, as BERT does.
editor-tied-embeddings = Tie output to embeddings
editor-help-tied-embeddings = The output layer reuses the token embedding table, transposed, plus a bias: each token has one vector, used to read it in and to score it out. GPT-2 and BERT do this.
editor-head-transform = Head transform
editor-help-head-transform = BERT's prediction-head transform before the output layer: a d_model × d_model linear map, the last layer's activation, then a LayerNorm.
