//! The terms the lessons use, in both languages, each with a one-line meaning:
//! shown in the Glossary window (Help menu, and the lesson panel) and under the
//! tooltip of the knobs they explain.

use super::Lang;

pub struct Term {
    pub en: &'static str,
    pub zh: &'static str,
    pub meaning_en: &'static str,
    pub meaning_zh: &'static str,
    /// Config knob names (the last part of a knob path, e.g. "heads") this term explains.
    pub knobs: &'static [&'static str],
}

impl Term {
    /// The term in `lang`, then in the other language: "查询 (query)".
    pub fn name(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{} ({})", self.en, self.zh),
            Lang::Zh => format!("{}（{}）", self.zh, self.en),
        }
    }

    pub fn meaning(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.meaning_en,
            Lang::Zh => self.meaning_zh,
        }
    }

    /// Whether `query` (any case, either language) appears in the term or its meaning.
    pub fn matches(&self, query: &str) -> bool {
        let q = query.trim().to_lowercase();
        q.is_empty() || [self.en, self.zh, self.meaning_en, self.meaning_zh].iter().any(|s| s.to_lowercase().contains(&q))
    }
}

/// The terms explaining a knob (by its last path part, e.g. "mask").
pub fn for_knob(knob: &str) -> impl Iterator<Item = &'static Term> + '_ {
    TERMS.iter().filter(move |t| t.knobs.contains(&knob))
}

pub const TERMS: &[Term] = &[
    Term { en: "query (Q)", zh: "查询（Q）", meaning_en: "What a position is looking for; it is compared with every key to score how relevant each position is.", meaning_zh: "一个位置“想找什么”；它和每个键比较，给每个位置打相关程度的分。", knobs: &["heads"] },
    Term { en: "key (K)", zh: "键（K）", meaning_en: "What a position offers to be found by; queries are scored against it.", meaning_zh: "一个位置“用来被找到”的标签；查询和它比较打分。", knobs: &["heads"] },
    Term { en: "value (V)", zh: "值（V）", meaning_en: "What a position hands over once it is attended to; the output is the weighted sum of values.", meaning_zh: "一个位置被关注时交出去的内容；输出是值的加权和。", knobs: &["heads"] },
    Term { en: "scaled dot-product attention", zh: "缩放点积注意力", meaning_en: "softmax(QK^T / √d_k) V: scores are dot products, divided by √d_k so the softmax does not saturate.", meaning_zh: "softmax(QK^T / √d_k) V：分数是点积，再除以 √d_k，避免 softmax 饱和。", knobs: &["scale"] },
    Term { en: "multi-head attention", zh: "多头注意力", meaning_en: "Several attention heads side by side, each with its own Q, K, V projections, so each can follow a different relation.", meaning_zh: "几个注意力头并排工作，各有自己的 Q、K、V 投影，可以各自关注不同的关系。", knobs: &["heads", "ablated_heads"] },
    Term { en: "attention head", zh: "注意力头", meaning_en: "One attention computation with its own projections; its weights form one map in the attention grid.", meaning_zh: "一套带自己投影的注意力计算；它的权重就是注意力网格里的一张图。", knobs: &["heads", "ablated_heads"] },
    Term { en: "mask", zh: "掩码", meaning_en: "Which keys each query may see; hidden cells get zero weight.", meaning_zh: "规定每个查询能看到哪些键；被遮住的格子权重为零。", knobs: &["mask", "mask_reading", "mask_application", "diagonal_offset"] },
    Term { en: "causal mask", zh: "因果掩码", meaning_en: "Each position sees only itself and earlier positions, so a model that writes cannot read ahead.", meaning_zh: "每个位置只能看到自己和之前的位置，这样逐字生成的模型无法偷看后文。", knobs: &["mask", "diagonal_offset"] },
    Term { en: "padding mask", zh: "填充掩码", meaning_en: "Hides the padding tokens added to make sequences the same length.", meaning_zh: "遮住为了让序列等长而补上的填充词元。", knobs: &["padding_mask"] },
    Term { en: "sliding window", zh: "滑动窗口", meaning_en: "Each position sees only the last few positions (the window), including itself.", meaning_zh: "每个位置只看最近的几个位置（窗口），包括自己。", knobs: &["window"] },
    Term { en: "positional encoding", zh: "位置编码", meaning_en: "Numbers added to each token's vector to say where it is; without them attention cannot tell order.", meaning_zh: "加到每个词元向量上、表示它在哪个位置的数；没有它，注意力分不出顺序。", knobs: &["positional", "max_len"] },
    Term { en: "rotary positional encoding (RoPE)", zh: "旋转位置编码（RoPE）", meaning_en: "Turns each pair of numbers in a head's query and key by an angle that grows with the position, so a score depends only on how far apart the two tokens are.", meaning_zh: "把每个注意力头的查询和键里的数两两一组，按随位置增大的角度转动，于是分数只取决于两个词元相隔多远。", knobs: &["positional"] },
    Term { en: "ALiBi", zh: "ALiBi", meaning_en: "Attention with linear biases: each head subtracts its own slope times the distance from every score; nothing is added to the token vectors.", meaning_zh: "带线性偏置的注意力：每个注意力头从每个分数里减去自己的斜率乘以距离；词元向量上什么也不加。", knobs: &["positional"] },
    Term { en: "length extrapolation", zh: "长度外推", meaning_en: "Working on sequences longer than any seen in training; measured here with a held-out length longer than the training length.", meaning_zh: "在比训练时见过的都更长的序列上照样能用；这里用比训练长度更长的留出长度来测。", knobs: &["eval_length"] },
    Term { en: "validation set", zh: "验证集", meaning_en: "Held-out examples used to choose between models or settings; the chosen score is a little too good, because it won a comparison.", meaning_zh: "用来在几个模型或设置之间做选择的留出样本；选中者的分数会偏好一点，因为它是比较中的赢家。", knobs: &["heads"] },
    Term { en: "test set", zh: "测试集", meaning_en: "Held-out examples never used to choose anything, measured once at the end: an honest estimate of how the chosen model does on new data.", meaning_zh: "从不用于任何挑选、只在最后测一次的留出样本：对选中的模型在新数据上表现的诚实估计。", knobs: &[] },
    Term { en: "bag of tokens", zh: "一袋词元（词袋）", meaning_en: "A model that keeps which tokens are present and how often, but not their order; here: uniform-average attention over every token, with no positions.", meaning_zh: "只记得有哪些词元、各有几个，却不记顺序的模型；在这里就是：对所有词元做均匀平均的注意力，不加位置编码。", knobs: &["attention_kind"] },
    Term { en: "baseline", zh: "基线", meaning_en: "The simplest model worth comparing with; keep the bigger one only when it clearly beats the baseline on held-out data.", meaning_zh: "值得拿来比较的最简单的模型；只有当更大的模型在留出数据上明显胜过它时，才留下更大的那个。", knobs: &[] },
    Term { en: "sequence labelling (tagging)", zh: "序列标注", meaning_en: "Giving every token its own answer, read from that token's output vector (part of speech, names, bracket depth).", meaning_zh: "给每个词元一个自己的答案，从该词元的输出向量里读出（词性、人名地名、括号深度）。", knobs: &[] },
    Term { en: "subword tokenisation (byte-pair encoding)", zh: "子词切分（字节对编码）", meaning_en: "Splitting text into pieces learned from data by merging frequent pairs: common words become one token, rare ones several.", meaning_zh: "把文本切成从数据里学出的片段，做法是反复合并常一起出现的片段：常见词成为一个词元，少见词拆成几个。", knobs: &[] },
    Term { en: "1-D convolution", zh: "一维卷积", meaning_en: "Each position mixes the few positions just before it with weights that depend only on the offset, not on the tokens; here each head has one learned weight per offset over the last `window` tokens.", meaning_zh: "每个位置把它之前的几个位置混合起来，权重只取决于相隔几个位置，与词元无关；在这里每个注意力头对最后 `window` 个词元的每个偏移各有一个学出来的权重。", knobs: &["attention_kind", "window"] },
    Term { en: "residual connection", zh: "残差连接", meaning_en: "Adds a sublayer's input to its output (x + f(x)), giving gradients a direct path through deep stacks.", meaning_zh: "把子层的输入加到输出上（x + f(x)），让梯度在深层网络里有一条直通的路。", knobs: &["residual"] },
    Term { en: "layer normalisation", zh: "层归一化", meaning_en: "Rescales each position's vector to mean 0 and variance 1 (then a learned gain and bias).", meaning_zh: "把每个位置的向量缩放到均值 0、方差 1（再乘上可学习的增益、加偏置）。", knobs: &["norm"] },
    Term { en: "feed-forward network (FFN)", zh: "前馈网络（FFN）", meaning_en: "Two linear layers with a non-linearity between them, applied to each position on its own.", meaning_zh: "两层线性变换，中间夹一个非线性激活，对每个位置单独作用。", knobs: &["ffn", "d_ff", "activation"] },
    Term { en: "softmax", zh: "softmax", meaning_en: "Turns scores into weights that are positive and sum to 1; large scores take almost all the weight.", meaning_zh: "把分数变成为正且和为 1 的权重；分数很大时几乎全部权重都给它。", knobs: &["attention_kind", "scale"] },
    Term { en: "embedding", zh: "嵌入", meaning_en: "The learned vector of d_model numbers that stands for each token.", meaning_zh: "代表每个词元的、可学习的 d_model 维向量。", knobs: &["d_model"] },
    Term { en: "token", zh: "词元", meaning_en: "One unit of input: a character, a word or a symbol of a toy task.", meaning_zh: "输入的一个单位：一个字符、一个词，或玩具任务里的一个符号。", knobs: &[] },
    Term { en: "d_model", zh: "模型宽度 d_model", meaning_en: "The length of every token's vector inside the model.", meaning_zh: "模型内部每个词元向量的长度。", knobs: &["d_model"] },
    Term { en: "d_k", zh: "每头维度 d_k", meaning_en: "The width of one head's queries and keys: d_model / heads.", meaning_zh: "一个注意力头的查询和键的宽度：d_model / 头数。", knobs: &["heads", "d_model"] },
    Term { en: "dropout", zh: "dropout", meaning_en: "During training, zeroes a random share of values so the model cannot rely on any single one.", meaning_zh: "训练时随机把一部分数值置零，让模型不依赖任何单个数值。", knobs: &["dropout"] },
    Term { en: "learning rate", zh: "学习率", meaning_en: "How big each optimizer step is; too large and training blows up, too small and it crawls.", meaning_zh: "优化器每一步走多大；太大训练会发散，太小则进展缓慢。", knobs: &["lr", "warmup_steps"] },
    Term { en: "warm-up", zh: "预热", meaning_en: "Raising the learning rate from 0 over the first steps, so early large gradients do less harm.", meaning_zh: "在最初几步把学习率从 0 逐渐升高，减轻早期大梯度的破坏。", knobs: &["warmup_steps"] },
    Term { en: "initialisation scale", zh: "初始化尺度", meaning_en: "How large the random starting weights are; too large saturates attention from the first step.", meaning_zh: "随机初始权重有多大；太大会让注意力从第一步起就饱和。", knobs: &["init_scale"] },
    Term { en: "gradient", zh: "梯度", meaning_en: "How the loss changes with each weight; training moves the weights against it.", meaning_zh: "损失随每个权重怎样变化；训练让权重沿着梯度的反方向移动。", knobs: &[] },
    Term { en: "held-out set", zh: "留出集", meaning_en: "Examples never used in training; accuracy on them shows what the model really learned.", meaning_zh: "训练中从未用过的样本；在它们上的准确率才说明模型真正学到了什么。", knobs: &[] },
    Term { en: "seed", zh: "随机种子", meaning_en: "Starts every random choice (weights, batches, dropout); the same seed gives the same run on the CPU.", meaning_zh: "决定所有随机选择（权重、批次、dropout）的起点；同一个种子在 CPU 上得到同样的运行。", knobs: &["seed"] },
    Term { en: "KV cache", zh: "KV 缓存", meaning_en: "Keeping each layer's keys and values while generating, so each new token computes only its own.", meaning_zh: "生成时保存每一层已经算好的键和值，新词元只需计算自己的。", knobs: &[] },
    Term { en: "teacher forcing", zh: "教师强制", meaning_en: "Training on the real text at every position in one pass, instead of the model's own guesses.", meaning_zh: "训练时每个位置都用真实文本、一次算完，而不是用模型自己的猜测。", knobs: &[] },
    Term { en: "induction head", zh: "归纳头", meaning_en: "A head that finds the earlier occurrence of the current token and copies what followed it.", meaning_zh: "找到当前词元上一次出现的位置，并把它后面的词元复制过来的注意力头。", knobs: &[] },
    Term { en: "pretrained model", zh: "预训练模型", meaning_en: "A model already trained on a large text, used as the starting point for a new task.", meaning_zh: "已经在大量文本上训练过的模型，作为新任务的起点。", knobs: &["init_from"] },
    Term { en: "fine-tuning", zh: "微调", meaning_en: "Training a pretrained model further on new data, usually with a small learning rate.", meaning_zh: "在新数据上继续训练预训练模型，通常用较小的学习率。", knobs: &["init_from", "lr"] },
    Term { en: "encoder–decoder", zh: "编码器–解码器", meaning_en: "Two parts: the encoder reads the source sentence, the decoder writes the target one word at a time, reading the encoder's result.", meaning_zh: "由两部分组成：编码器读源句，解码器一次写一个目标词，并读取编码器的结果。", knobs: &["family"] },
    Term { en: "cross-attention", zh: "交叉注意力", meaning_en: "Attention between two sequences: queries from the decoder, keys and values from the encoder's output.", meaning_zh: "两个序列之间的注意力：查询来自解码器，键和值来自编码器的输出。", knobs: &["family", "cross_attention"] },
    Term { en: "recurrent network (RNN, GRU, LSTM)", zh: "循环网络（RNN、GRU、LSTM）", meaning_en: "Reads a sequence one step at a time, folding each token into a state it carries to the next step; GRU and LSTM add gates that decide what to keep.", meaning_zh: "一次读一步，把每个词元折进一个状态并带到下一步；GRU 和 LSTM 加了决定保留什么的门。", knobs: &["family", "rnn_cell"] },
    Term { en: "fixed vector", zh: "固定向量", meaning_en: "The RNN encoder's last state: the only thing a decoder without attention learns about the source, whatever its length.", meaning_zh: "RNN 编码器的最后一个状态：没有注意力的解码器对源句所知的全部，不管句子多长。", knobs: &["rnn_attention"] },
    Term { en: "alignment", zh: "对齐", meaning_en: "Which source word each target word reads; attention weights learn it without being told (Bahdanau et al., 2015).", meaning_zh: "每个目标词读的是哪个源词；注意力权重在没人告诉的情况下学会了它（Bahdanau 等，2015）。", knobs: &["rnn_attention", "cross_attention"] },
    Term { en: "teacher forcing", zh: "教师强制", meaning_en: "Training a writer on the true previous words rather than its own guesses, so every position trains at once.", meaning_zh: "训练时喂给写作模型真实的前文，而不是它自己猜的词，这样每个位置可以同时训练。", knobs: &["family"] },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_terms_are_all_there_in_both_languages() {
        for zh in ["查询（Q）", "键（K）", "值（V）", "缩放点积注意力", "多头注意力", "掩码", "填充掩码", "因果掩码", "位置编码", "残差连接", "层归一化", "前馈网络（FFN）"] {
            let term = TERMS.iter().find(|t| t.zh == zh).unwrap_or_else(|| panic!("{zh} is in the glossary"));
            assert!(!term.en.is_empty() && !term.meaning_en.is_empty() && !term.meaning_zh.is_empty());
        }
        assert!(for_knob("mask").any(|t| t.zh == "因果掩码"));
        assert!(TERMS.iter().find(|t| t.en == "causal mask").unwrap().matches("因果"));
    }
}
