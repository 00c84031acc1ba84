//! One or two sentences per knob for tooltips: what it does, and which lesson
//! shows it happening.

pub const D_MODEL: &str = "Width of every token vector. Heads split it: each head gets d_model / heads dimensions. (Lesson 06)";
pub const MAX_LEN: &str = "Longest sequence the model accepts. Learned positions have one trained row per position. (Lesson 11)";
pub const POSITIONAL: &str = "How the model learns where a token is. Without it, attention sees a bag of tokens and cannot tell 'cat chases dog' from 'dog chases cat'. (Lessons 04, 05)";
pub const DROPOUT: &str = "Probability of zeroing an activation while training; makes runs differ even with one seed. 0 = off. (Lesson 13)";
pub const INIT_SCALE: &str = "Multiplies every initial weight. 1 = PyTorch's defaults; large values saturate softmax and can blow up training. (Lesson 14)";
pub const SEED: &str = "Seed for weights, batches and dropout: the same seed gives the same run on the CPU. (Lesson 13)";
pub const HEADS: &str = "Attention heads. Each head attends on its own d_model / heads dimensions, so heads can specialise. (Lesson 06)";
pub const ATTENTION: &str = "Turn the attention sublayer off to see what the layer does without it. (Lesson 01)";
pub const ATTENTION_KIND: &str = "softmax: each query chooses what to read. uniform average: every visible token gets the same weight, the fixed summary of pre-attention models. (Lesson 01)";
pub const SCALE: &str = "Divide scores by √d_k before the softmax. Without it, large d_k saturates the softmax and shrinks gradients. (Lesson 03)";
pub const MASK: &str = "Which keys a query may see. causal: only earlier tokens and itself. bidirectional: all. sliding window: the last `window` tokens. Padding is always hidden. (Lessons 07, 08)";
pub const WINDOW: &str = "Width of the sliding window: how many recent tokens (itself included) each query sees. (Lesson 15)";
pub const FFN: &str = "The position-wise feed-forward network: the per-token non-linear part of a layer. (Lesson 10)";
pub const D_FF: &str = "Hidden width of the feed-forward network, usually 4 × d_model. (Lesson 10)";
pub const ACTIVATION: &str = "Non-linearity inside the FFN. With none, the FFN is one linear map and cannot compute non-linear per-token functions. (Lesson 10)";
pub const RESIDUAL: &str = "Add each sublayer's input to its output, so information and gradients can skip the sublayer. Deep stacks stall without it. (Lesson 09)";
pub const NORM: &str = "Where LayerNorm sits. post: LN(x + f(x)), the original. pre: x + f(LN(x)), steadier in deep stacks. none: no normalisation. (Lesson 09)";
pub const TASK: &str = "The toy task that generates training sequences.";
pub const PRESET: &str = "Start from a named model: tiny (seconds), lesson (the default) or large.";
pub const BACKEND: &str = "Where training runs. GPU uses wgpu (Vulkan, Metal or DX12) and falls back to the CPU, with a message, when no adapter exists.";
pub const LR: &str = "Learning rate: the step size of the optimizer. Too high and the loss explodes. (Lesson 14)";
pub const BATCH: &str = "Sequences per training step. More is smoother but slower per step.";
pub const STEPS: &str = "How many optimizer steps a run takes.";
pub const INIT_FROM: &str = "Where the weights start: random (from the seed), or a trained model: one shipped with the app (a character model of English or Chinese), or a run folder you saved. Weights are matched by name and shape, characters by what they are, so a model can be fine-tuned on a text with other characters. (Lesson 16)";
pub const MASK_READING: &str = "How the attention code reads the boolean mask. The builder makes true = the query may see the key; reading true as masked inverts it, the classic bug. (Lesson 08)";
pub const MASK_APPLICATION: &str = "How hidden cells are kept out: fill the scores with a large negative number, add -inf, or multiply the weights after the softmax (which leaks through the normaliser). (Lesson 08)";
pub const DIAGONAL_OFFSET: &str = "Shifts the causal diagonal: 0 is right, -1 hides each position from itself, +1 lets it see one token ahead. (Lesson 07)";
pub const PADDING_MASK: &str = "Which axis padding is hidden on: keys (right), queries (a broadcasting bug), or off. (Lesson 07)";
pub const OPTIMIZER: &str = "Adam adapts each weight's step size and is the usual choice; SGD takes plain gradient steps.";
pub const WARMUP: &str = "Steps over which the learning rate rises linearly from 0 to its value; helps deep or post-LN models start. (Lesson 09)";

pub const ABLATE: &str = "Zero this head's output before the output projection. Its attention map is still computed and shown, so you can see whether a head the map says is important really matters to the answer. (Lesson 15)";
