# editor 的界面文字（简体中文）。

## model_editor.rs
editor-model = 模型
editor-estimate = { $parameters } 个参数 · 训练约需 { $total } MiB（其中注意力矩阵 { $attention } MiB）
editor-estimate-tip = 权重、梯度和 Adam 的两个矩估计，再加上为反向传播保留的激活值（估计值）。
editor-global = 全局
editor-positions = 位置编码
editor-none = 无
editor-sinusoidal = 正弦
editor-learned = 可学习
editor-rotary = 旋转（RoPE）
editor-alibi = ALiBi
editor-max-length = 最大长度
editor-dropout = dropout
editor-init-scale = 初始化尺度
editor-training = 训练
editor-optimizer = 优化器
editor-learning-rate = 学习率
editor-warmup-steps = 预热步数
editor-batch = 批大小
editor-steps = 步数
editor-layers = 层（{ $count }）
editor-add-layer = + 添加层
editor-add-layer-tip = 在层堆叠的末尾添加一层（复制最后一层）
editor-start-from = 起始权重
editor-random-weights = 随机权重
editor-problem-line = ⚠ { $message }；修正：{ $fix }

## bounded.rs（输入的数超出了旋钮的范围）
knob-clamped-high = { $typed } 超过了这个旋钮的上限：已设为最大值 { $kept }。
knob-clamped-low = { $typed } 低于这个旋钮的下限：已设为最小值 { $kept }。

## layer_card.rs
editor-hidden-for-bug-hunt-tip = 你载入的找 Bug 案例把 Bug 埋在了这些旋钮中的某一个里。请用各个面板把它找出来；一旦你说出这个 Bug 或按“显示答案”，这些旋钮就会重新显示。
editor-layer = 层 { $index }
editor-remove-layer-tip = 删除这一层
editor-copy = 复制
editor-copy-tip = 复制这一层（副本放在它下面）
editor-move-down-tip = 把这一层下移
editor-move-up-tip = 把这一层上移
editor-attention = 注意力
editor-on = 开启
editor-heads = 注意力头
editor-kind = 类型
editor-uniform-average = 均匀平均
editor-convolution = 卷积
editor-scale = 按 1/√d_k 缩放
editor-mask = 掩码
editor-causal = 因果
editor-bidirectional = 双向
editor-sliding-window = 滑动窗口
editor-window = 窗口
editor-feed-forward = 前馈网络
editor-activation = 激活函数
editor-residual = 残差连接
editor-layernorm = 层归一化
editor-post = 后置
editor-pre = 前置
editor-mask-details-hidden = 掩码细节：找 Bug 期间隐藏
editor-mask-details = 掩码细节（用于找 Bug）
editor-mask-read-as = 掩码读作
editor-true-keep = true = 保留
editor-true-masked = true = 遮蔽
editor-mask-applied-by = 掩码施加方式
editor-fill-large-negative = 用 -1e9 填充
editor-add-neg-inf = 加上 -inf
editor-multiply-after-softmax = softmax 之后相乘
editor-diagonal-offset = 对角线偏移
editor-padding-mask-on = 填充掩码作用于
editor-padding-keys = 键（正确的轴）
editor-padding-queries = 查询（错误的轴）
editor-off = 关闭
editor-ablate-heads = 消融注意力头
editor-first-16-shown = （只显示前 16 个）
editor-hidden = 找 Bug 期间隐藏
editor-problem-inline =
    ⚠ { $message }
    修正：{ $fix }

## knob_help.rs（旋钮的提示文字，顶栏也会用到）
editor-help-d-model = 每个词元向量的宽度。注意力头会把它分开：每个注意力头得到 d_model / heads 维。（第 06 课）
editor-help-max-len = 模型接受的最长序列。可学习位置为每个位置训练一行。（第 11 课）
editor-help-positional = 模型如何得知一个词元在什么位置。没有位置编码，注意力看到的只是一袋词元，分不清 'cat chases dog' 和 'dog chases cat'。正弦和可学习的位置编码加在词元向量上；旋转位置编码按位置转动每个注意力头的查询和键，ALiBi 则按距离从每个分数里扣掉一笔，两者看到的都只是两个词元相隔多远。（第 04、05、21 课）
editor-help-dropout = 训练时把激活值置零的概率；即使随机种子相同，也会让各次运行结果不同。0 = 关闭。（第 13 课）
editor-help-init-scale = 乘到每个初始权重上的系数。1 = PyTorch 的默认值；很大的值会让 softmax 饱和，并可能让训练发散。（第 14 课）
editor-help-seed = 权重、批次和 dropout 的随机种子：在 CPU 上，相同的随机种子给出完全相同的运行。（第 13 课）
editor-help-heads = 注意力头的个数。每个注意力头在自己的 d_model / heads 维上做注意力，因此各个注意力头可以各有专长。（第 06 课）
editor-help-attention = 关闭注意力子层，看看这一层没有它时会做什么。（第 01 课）
editor-help-attention-kind = softmax：每个查询自己选择读取什么。均匀平均：每个可见词元得到相同的权重，也就是注意力出现之前的模型所用的固定摘要。卷积：每个注意力头读取当前和之前 window − 1 个词元，权重是学出来的，只取决于相隔几个位置，与词元是什么无关（一个小的一维卷积）。（第 01、24 课）
editor-help-scale = 在 softmax 之前把分数除以 √d_k。不这样做，较大的 d_k 会让 softmax 饱和，并使梯度变小。（第 03 课）
editor-help-mask = 一个查询可以看到哪些键。因果：只看更早的词元和它自己。双向：全部都看。滑动窗口：最近的“窗口”个词元。填充总是被隐藏。（第 07、08 课）
editor-help-window = 滑动窗口的宽度：每个查询能看到多少个最近的词元（包括它自己）。（第 15 课）
editor-help-ffn = 逐位置的前馈网络：层中对每个词元单独作用的非线性部分。（第 10 课）
editor-help-d-ff = 前馈网络的隐藏层宽度，通常为 4 × d_model。（第 10 课）
editor-help-activation = 前馈网络里的非线性函数。GELU 是精确形式（x Φ(x)，BERT 这样算）；GELU（tanh 近似）是它的 tanh 近似，GPT-2 这样算。选“无”时，前馈网络只是一个线性映射，无法计算逐词元的非线性函数。（第 10 课）
editor-help-residual = 把每个子层的输入加到它的输出上，让信息和梯度可以绕过这个子层。没有残差连接，深层堆叠会训练停滞。（第 09 课）
editor-help-norm = 层归一化放在哪里。后置：LN(x + f(x))，即原始做法。前置：x + f(LN(x))，在深层堆叠中更稳定。无：不做归一化。（第 09 课）
editor-help-task = 生成训练序列的玩具任务。
editor-help-preset = 从一个有名字的模型开始：tiny（几秒钟）、lesson（默认）或 large。
editor-help-backend = 训练在哪里运行。GPU 使用 wgpu（Vulkan、Metal 或 DX12）；没有可用的适配器时会退回到 CPU，并给出提示。对课程里这样的小模型，CPU 通常更快：每一步都由许多小运算组成，GPU 要逐个等待它们（在 NVIDIA H200 上，lesson 预设每秒训练 43 步，两个 CPU 核心上是 73 步）。
editor-help-lr = 学习率：优化器每一步的步长。太大的话损失会爆炸。（第 14 课）
editor-help-batch = 每个训练步使用的序列数。越多曲线越平滑，但每一步越慢。
editor-help-steps = 一次运行要走多少个优化器步。
editor-help-init-from = 权重从哪里开始：随机（由随机种子决定），或者一个训练好的模型：随应用附带的模型（英文或中文的字符模型），或你保存的运行文件夹。权重按名称和形状匹配，字符按字符本身匹配，因此可以在含有其他字符的文本上微调模型。（第 16 课）
editor-help-mask-reading = 注意力代码如何解读布尔掩码。构建器约定 true = 查询可以看到该键；把 true 读作“被遮蔽”就把它反转了，这是经典的 Bug。（第 08 课）
editor-help-mask-application = 如何把隐藏的格子排除在外：用一个很大的负数填充分数、加上 -inf，或在 softmax 之后乘到权重上（这会通过归一化项泄漏）。（第 08 课）
editor-help-diagonal-offset = 平移因果掩码的对角线：0 是正确的，-1 让每个位置看不到自己，+1 让它能多看到后面一个词元。（第 07 课）
editor-help-padding-mask = 填充在哪个轴上被隐藏：键（正确）、查询（一个广播 Bug），或关闭。（第 07 课）
editor-help-optimizer = Adam 为每个权重自适应地调整步长，是常用的选择；SGD 直接沿梯度走普通的步。
editor-help-warmup = 学习率在这么多步内从 0 线性升到设定值；有助于深层模型或后置层归一化的模型起步。（第 09 课）
editor-help-ablate = 在输出投影之前把这个注意力头的输出置零。它的注意力图仍会计算并显示，因此你可以检验：注意力图上看起来重要的注意力头，是否真的影响答案。在编码器–解码器的解码器层里，交叉注意力中同号的头也会一起置零。（第 15 课）
editor-family = 模型类型
editor-family-decoder = 仅解码器
editor-family-encoder-decoder = 编码器–解码器
editor-family-rnn = RNN 编码器–解码器
editor-rnn-cell = 循环单元
editor-rnn-attention = RNN 注意力
editor-rnn-fixed-vector = 无（固定向量）
editor-rnn-dot = 点积
editor-rnn-additive = 加性（Bahdanau）
editor-cross-attention = 交叉注意力
editor-encoder-layer = 编码器层 { $index }
editor-encoder-layers = 编码器层（{ $count }）
editor-rnn-card = { $cell } 编码器 → { $cell } 解码器
editor-rnn-card-fixed = 解码器从编码器的最后一个状态出发，之后再也不读源句：整句话只靠一个固定向量带过去。
editor-rnn-card-attention = 每写一个目标词，解码器都给每个编码器状态打分，再读它们的加权和：对齐关系显示在“注意力”标签页里。
editor-help-family = 选哪种模型：仅解码器的 Transformer（GPT 式，一条序列）、编码器–解码器 Transformer（编码器读源句，解码器写目标句，并对编码器做交叉注意力），或循环（GRU/LSTM）编码器–解码器。后两种需要有源句的任务：翻译、复制、反转或排序。第 18–20 课。
editor-help-rnn-cell = 编码器和解码器用的循环单元：GRU（两个门）或 LSTM（三个门加一个细胞状态）。两者都是 burn 自带的模块。第 18 课。
editor-help-rnn-attention = 无：解码器只拿到编码器的最后一个状态，即固定向量。点积：每个解码器状态用点积给每个编码器状态打分。加性：用一个小网络 vᵀ tanh(W h + U e) 打分，和 Bahdanau 等人的做法一样。第 18 课。
editor-help-cross-attention = 解码器层的第二个子层：查询来自解码器，键和值来自编码器的输出。关掉它，解码器就再也看不到源句。第 19 课。
editor-gelu-tanh = GELU（tanh 近似）
editor-layer-norm-eps = LayerNorm ε
editor-help-layer-norm-eps = 每个 LayerNorm 在开平方之前加到方差上的小数，避免常数向量除以零。1e-5 是 PyTorch 和 GPT-2 的默认值；BERT 用 1e-12。
editor-token-types = 词元类型数
editor-help-token-types = 词元类型（句段）表的行数：同一句里的每个词元都加上同一个向量。BERT 有 2 行，分别给句子 A 和句子 B。0 表示没有。玩具任务把每个词元都标为类型 0。
editor-embedding-norm = 嵌入后的 LayerNorm
editor-help-embedding-norm = 在第一层之前，对词元、位置和类型向量之和做归一化，和 BERT 一样。
editor-tied-embeddings = 输出层共享嵌入
editor-help-tied-embeddings = 输出层复用词元嵌入表的转置，再加一个偏置：每个词元只有一个向量，读入和打分都用它。GPT-2 和 BERT 都这样做。
editor-head-transform = 预测头变换
editor-help-head-transform = BERT 在输出层之前的预测头变换：一个 d_model × d_model 的线性映射、最后一层的激活函数，再接一个 LayerNorm。
