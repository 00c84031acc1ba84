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
rep-metric-max-head-ablation-drop = 任选一个注意力头置零时，最多损失的准确率
rep-metric-max-layer-ablation-drop = 把某一层的注意力头全部置零时，最多损失的准确率
rep-metric-heads-pick = 验证集准确率最高的注意力头数
rep-metric-heads-pick-test-gap = 选中者与最好的头数之间的测试集准确率差距
rep-metric-heads-test-spread = 各种头数之间测试集准确率的最高减最低
rep-metric-heads-refused = 注意力头数扫描没能测完每一种头数：{ $why }
rep-metric-heads-stopped = 注意力头数扫描在测完每一种头数之前已停止
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
rep-check-pin-and-retrain = 请点“固定此次运行”，按“重置”后再训练一遍
rep-check-press-measure = 请在“序列长度”标签页点击“测量”
rep-check-press-measure-heads = 请在“注意力头数”标签页点击“测量”
rep-check-not-measured = 尚未测量
rep-check-term = { $name } { $op } { $value }（{ $shown }）
rep-check-any-head = 任一注意力头
rep-check-head = 注意力头 { $head }
rep-check-attention = 第 { $layer } 层的 { $pattern } 注意力，{ $head }
rep-check-attention-no-map = { $what }（该层还没有注意力图）
rep-check-attention-seen = { $what }（现在已出现）
rep-check-attention-not-yet = { $what }（尚未出现）
rep-report-heading = 班级报告：{ $students } 名学生；{ $items } 项任务（检查、论断、找 Bug 案例），打开的答案另列。
rep-report-student = { $student }：完成 { $done } / { $total }（打开了 { $revealed } 个答案）
rep-report-items = 每一项有多少学生完成（从少到多）：
rep-report-other-pack = { $student }（{ $file }）来自课程包 { $pack }，第一个文件来自 { $first }
rep-report-answers = 打开过的答案（只显示，不计分）：
rep-answer-label = 「{ $lesson }」的第 { $number } 个答案
rep-cond-op-lt = 小于
rep-cond-op-le = 不超过
rep-cond-op-gt = 大于
rep-cond-op-ge = 至少为
rep-cond-above = 高
rep-cond-below = 低
rep-cond-sentence-number = { $side } 的{ $metric }{ $op } { $value }
rep-cond-sentence-times = { $side } 的{ $metric }{ $op } { $other } 的 { $factor } 倍
rep-cond-sentence-other = { $side } 的{ $metric }{ $op } { $other } 的
rep-cond-sentence-by = { $side } 的{ $metric }比 { $other } 的{ $direction }出{ $op } { $by }
rep-check-metric-loss = 训练损失（平滑后）
rep-check-metric-accuracy = 训练准确率（平滑后）
rep-check-metric-cache-speedup = KV 缓存带来的加速
rep-check-metric-pinned-gap = 与固定曲线的最大差距
rep-check-metric-length-growth = 256 个词元与 64 个词元的单步时间之比
rep-check-metric-held-out-stretch = 留出长度与训练长度之比
rep-check-metric-heads-pick-match = 模型用的是按验证集选中的注意力头数（1 = 是）
rep-check-heads-pick-term = 每一层都用按验证集选中的注意力头数（{ $shown }）
rep-check-heads-pick-other = 模型现在用的是别的头数
rep-check-heads-pick-has = 模型用的就是它
rep-check-metric-step = 步数
rep-cond-measured-only = { $plain } —— 测得 { $measured }
rep-metric-no-alignment = 任务 { $task } 没有逐词对齐可比（翻译、复制和反转有）
rep-metric-no-cross-attention = 这个模型没有交叉注意力（选 encoder_decoder 类型，或带注意力的 rnn 类型）
rep-metric-no-source = 任务 { $task } 没有源句（选翻译、复制、反转或排序）
rep-metric-no-gradient = 没有梯度传到输入
rep-metric-longest-accuracy = 最长源序列上的留出准确率
rep-metric-shortest-accuracy = 最短源序列上的留出准确率
rep-metric-alignment-weight = 落在对齐源词上的注意力
rep-metric-first-word-gradient = 传到第一个源词的梯度
rep-metric-empty-bucket = 没有一个留出句子的源句长 { $shortest }–{ $longest } 个词；调大 eval_size（或 task.length），让每个长度段都有句子
