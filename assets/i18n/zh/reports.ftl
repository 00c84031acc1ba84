# 找 Bug 的案例、论断和检查报告（简体中文）。

## src/bughunt.rs
rep-bug-causal-mask-missing = 缺少因果掩码
rep-bug-inverted-mask = 掩码被反过来读了（true = 遮住）
rep-bug-diagonal-hides-self = 因果掩码的对角线差了一位：位置看不到它自己
rep-bug-diagonal-sees-ahead = 因果掩码的对角线差了一位：位置能看到后面一个词元
rep-bug-padding-mask-wrong-axis = 填充掩码遮住的是查询而不是键
rep-bug-padding-mask-missing = 缺少填充掩码
rep-bug-padding-wrong-side = 填充加在了错误的一侧
rep-bug-labels-not-shifted = 标签没有错开一位
rep-bug-scores-not-scaled = 分数没有乘以 1/√d_k 进行缩放
rep-bug-softmax-then-mask = 掩码是在 softmax 之后才应用的
rep-bug-init-too-large = 初始权重大得太多了
rep-bug-learning-rate-too-high = 学习率高得太多了
rep-case-peeking-title = 史上最好的训练损失
rep-case-peeking-symptom = 这个字符语言模型的训练损失远低于它的因果版孪生模型，可它自己写出来的却是一堆乱码。
rep-case-peeking-where = 掩码检查器（预期掩码与实际应用的掩码对比），然后点“探测泄漏”
rep-case-peeking-explanation = 每一层都是双向的，所以训练时每个位置直接读到下一个字符，而那正是它的答案。生成时并没有下一个字符可读。把掩码改回因果掩码。
rep-case-inverted-title = 看错了方向
rep-case-inverted-symptom = 每个查询都把全部权重放在它后面的位置上；最后一个查询没有任何东西可看。
rep-case-inverted-where = 注意力图和掩码检查器
rep-case-inverted-explanation = 构建掩码的代码约定 true = 可以看到，而注意力却把 true 读成被遮住。每个查询看到的恰恰是它不该看的。按照构建掩码时的约定来读掩码。
rep-case-blind-diagonal-title = 第一个词元什么也看不到
rep-case-blind-diagonal-symptom = 检查器标出第一行完全看不到任何键，而且没有任何位置关注它自己。
rep-case-blind-diagonal-where = 掩码检查器：所有位置都被遮住的行
rep-case-blind-diagonal-explanation = 因果掩码是用 k < q 而不是 k ≤ q 构建的，所以对角线被遮住了。应该用 k ≤ q。
rep-case-one-ahead-title = 几乎是因果的
rep-case-one-ahead-symptom = 几百步之内训练损失就降到接近零，生成的文本却很差，而且因果性探测报告从位置 0 开始就有泄漏。
rep-case-one-ahead-where = 先点“探测泄漏”，再看掩码检查器中泄漏的格子
rep-case-one-ahead-explanation = 掩码是用 k ≤ q + 1 构建的：每个位置都能看到后面一个词元，而那恰好就是它的答案。应该用 k ≤ q。
rep-case-padding-axis-title = 会说话的填充
rep-case-padding-axis-symptom = 只改变填充词元，模型在真实位置上的输出也会跟着变。
rep-case-padding-axis-where = 先点“探测泄漏”（填充），再看掩码检查器中被填充的列
rep-case-padding-axis-explanation = 填充掩码是沿查询轴广播的：被填充的行被遮住了，但每个真实的查询仍然会读取被填充的键。应该遮住被填充的键（列）。
rep-case-padding-missing-title = 长度的影响太大了
rep-case-padding-missing-symptom = 同一个括号串，后面跟的填充多少不同，得到的答案也不同。
rep-case-padding-missing-where = “探测泄漏”（填充），以及注意力图中被填充的列
rep-case-padding-missing-explanation = 没有应用填充掩码，所以真实词元会关注填充。应该遮住被填充的键。
rep-case-padding-side-title = 沉默的开头几行
rep-case-padding-side-symptom = 检查器标出许多序列开头的好几行看不到任何键，而且答案所在的位置在不同样本之间变来变去。
rep-case-padding-side-where = 掩码检查器：所有位置都被遮住的行
rep-case-padding-side-explanation = 序列是在左侧填充的。在因果掩码下，开头那些被填充的查询什么也看不到，而且每个样本的真实词元都从不同的位置开始。应该在右侧填充。
rep-case-unshifted-title = 完美却没用
rep-case-unshifted-symptom = 训练准确率和留出集准确率几乎立刻就达到 100%，可是逐个词元生成答案时几乎全错。
rep-case-unshifted-where = 把准确率曲线与贪心生成的结果对照着看
rep-case-unshifted-explanation = 每个位置被要求预测它自己的输入词元，而它可以直接照抄。位置 t 的目标必须是位置 t + 1 的词元。
rep-case-unscaled-title = 一开始就很尖锐
rep-case-unscaled-symptom = 甚至在训练之前，几乎每一行注意力都把几乎全部权重放在单个键上。
rep-case-unscaled-where = 第 0 步的注意力图，以及梯度面板
rep-case-unscaled-explanation = d_k = 256 时原始点积很大，所以 softmax 饱和，它的梯度也随之消失。应该把分数除以 √d_k。
rep-case-mask-after-softmax-title = 权重为零，照样泄漏
rep-case-mask-after-softmax-symptom = 注意力图中所有未来的格子都恰好为零，每行的和小于 1，可因果性探测还是报告有泄漏。
rep-case-mask-after-softmax-where = “探测泄漏”，以及掩码检查器中每行的和
rep-case-mask-after-softmax-explanation = softmax 是在所有键上计算的，之后才把未来的部分清零。归一化的分母里仍然包含未来的分数，所以过去位置的权重依赖于未来的词元。应该在 softmax 之前应用掩码。
rep-case-huge-init-title = 还没学就已经定了
rep-case-huge-init-symptom = 虽然分数已经乘以 1/√d_k 进行了缩放，但在第 1 步时每一行注意力都是 one-hot 的，而且留出集准确率一直接近随机猜测的水平。
rep-case-huge-init-where = 第 1 步的注意力图，然后看梯度面板
rep-case-huge-init-explanation = 权重和嵌入一开始就比 PyTorch 的默认值大十倍，所以第一层的 Q 和 K 大约大了一百倍，分数则还要大得多。softmax 从第一步起就已饱和，几乎传不回任何梯度。把初始化缩放设为接近 1。
rep-case-runaway-lr-title = 二十步就没了
rep-case-runaway-lr-symptom = 损失在大约二十步内急剧攀升，超过 1e30，然后运行因损失不是有限数而停止，状态栏会显示是在哪一步。
rep-case-runaway-lr-where = 损失和梯度范数图表，以及状态栏
rep-case-runaway-lr-explanation = 学习率为 10 的普通 SGD 每次把每个权重移动其梯度的十倍。更新步子迈得太大，权重和分数不断增长，大约二十步之内就有数值溢出。SGD 应该用 0.1 左右的学习率，或者改用学习率 0.001 的 Adam。

## src/experiments/metric.rs
rep-metric-train-loss = 训练损失
rep-metric-eval-loss = 留出集损失
rep-metric-eval-accuracy = 留出集准确率
rep-metric-sequence-accuracy = 留出集中完全正确的序列占比
rep-metric-generation-accuracy = 逐个词元生成时的准确率
rep-metric-causal-leak = 因果泄漏
rep-metric-padding-leak = 填充泄漏
rep-metric-attention-entropy = 注意力的分散程度（熵，1 = 均匀）
rep-metric-first-grad-norm = 第 1 步的梯度范数
rep-metric-hidden-weight = 落在被遮住位置上的权重
rep-metric-head-diversity = 注意力头之间的差异
rep-metric-generation-loss = 生成损失
rep-metric-parameters = 参数数量
rep-metric-grad-ratio = 第一层与最后一层的梯度之比
rep-metric-diverged = 是否发散（1 = 是）
rep-metric-max-curve-gap = 两条损失曲线之间的最大差距
rep-metric-sharp-head-weight = 最尖锐的注意力头放在单个键上的权重
rep-metric-sharp-head-ablation-drop = 把最尖锐的注意力头置零后损失的准确率
rep-metric-step-ms = 每步的毫秒数
rep-metric-uncached-ms-per-token = 不用缓存时每生成一个词元的毫秒数
rep-metric-cached-ms-per-token = 使用 KV 缓存时每生成一个词元的毫秒数
rep-metric-cache-mismatches = 带缓存与不带缓存生成结果不同的词元数
rep-metric-phase-step = 损失下降最快处所在的步数
rep-metric-phase-drop = 损失在下降最快的 50 步中降了多少
rep-metric-no-step = 还没有进行任何训练步
rep-metric-no-wide-row = 没有哪一行注意力能看到两个或更多的键
rep-metric-no-attention = 没有任何一层有注意力
rep-metric-one-head = 没有任何一层有两个或更多注意力头
rep-metric-grad-ratio-needs = 需要至少一个训练步，以及两层或更多的层
rep-metric-needs-steps = 至少需要 { $steps } 个训练步
rep-metric-not-finite = 测得 { $value }，不是有限数
rep-metric-probe-no-layer = 探针没有测量到任何层
rep-metric-probe-not-finite = 模型的输出不是有限数，所以探针无法判断
rep-metric-no-sharp-head = 没有哪个 softmax 注意力头有能看到两个或更多键的查询行

## src/experiments/condition.rs
rep-cond-operand = { $side }：{ $metric }
rep-cond-no-value = { $plain }：没有数值（{ $why }）
rep-cond-measured = { $plain } —— 测得 { $measured }，需要 { $op } { $needed }
rep-cond-undefined = 未定义

## src/experiments/claim.rs
rep-diverged-at = 在第 { $step } 步发散
rep-diverged-at-in = 在第 { $step } 步发散（{ $group }）

## src/lessons/check.rs
rep-check-now = 当前为 { $value }
rep-check-next-evaluation = 将在下一次评估时测量
rep-check-press-write = 请在这一步到“生成”标签页点击“写出”
rep-check-not-measured = 尚未测量
rep-check-term = { $name } { $op } { $value }（{ $shown }）
rep-check-any-head = 任一注意力头
rep-check-head = 注意力头 { $head }
rep-check-attention = 第 { $layer } 层的 { $pattern } 注意力，{ $head }
rep-check-attention-no-map = { $what }（该层还没有注意力图）
rep-check-attention-seen = { $what }（现在已出现）
rep-check-attention-not-yet = { $what }（尚未出现）
