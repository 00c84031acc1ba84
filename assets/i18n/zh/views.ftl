# views 的界面文字（简体中文）。

## src/ui/attention_panel.rs
views-attention-heading = 注意力
views-attention-probe = 探针序列：
views-attention-probe-hint = 输入词元，然后按回车
views-attention-probe-tip = 这些图所用的序列。输入任务词表里的词元（字符语言模型任务输入字符），然后按回车；留空则使用任务自带的示例。
views-attention-show = 显示
views-attention-show-tip = 为这条探针序列画出注意力图
views-attention-not-ready = 模型准备好后，这里会显示注意力图。
views-attention-caption = 行：查询 · 列：键 · 第 { $step } 步 · 点击一张图可以放大
views-attention-off = 注意力已关闭
views-attention-head = 注意力头 { $head }
views-attention-window = { $layer }，注意力头 { $head }
views-attention-predictions = 预测的下一个词元：{ $tokens }
views-attention-cell =
    查询 { $query }“{ $q }”看向键 { $key }“{ $k }”
    权重 { $weight }
views-attention-cell-masked =
    查询 { $query }“{ $q }”看向键 { $key }“{ $k }”
    已被掩码遮住：这个查询看不到这个键（权重 { $weight }）

## src/ui/mask_inspector.rs
views-mask-heading = 掩码检查器
views-mask-probe = 探测泄漏
views-mask-probe-tip = 改变每个位置之后的词元（以及填充词元），逐层测量前面的（以及真实的）输出变化了多少。正确的掩码不会让它们有任何变化。
views-mask-not-ready = 模型准备好后，检查器会显示内容。
views-mask-head = 注意力头
views-mask-no-attention = 这一层没有注意力。
views-mask-no-leak = ✔ 没有权重落在预期掩码遮住的位置上
views-mask-not-causal = 这一层的预期掩码不是因果掩码（双向，或者滑动窗口能看到后面）：各位置本来就应该看到后面的位置，所以因果性探测在这里报告泄漏是设计使然。只有必须一次写一个词元的模型才需要在意这一点。
views-mask-leaking-cells = ⚠ { $count } 个格子泄漏：权重落在了预期掩码遮住的位置上（红框标出）
views-mask-empty-row = ⚠ 有 1 行看不到任何键：{ $rows }（红色标记）。规定的结果：所有权重都为零，所以那里的注意力输出是零向量。
views-mask-empty-rows = ⚠ 有 { $count } 行看不到任何键：{ $rows }（红色标记）。规定的结果：所有权重都为零，所以那里的注意力输出是零向量。
views-mask-differs = 实际应用的掩码与预期掩码有 { $count } 个格子不同
views-mask-short-rows = 有 { $count } 行的和小于 1：掩码是在 softmax 之后才应用的
views-mask-padding = 坐标轴上的橙色标记：填充位置
views-mask-intended = 预期掩码（配置）
views-mask-applied = 实际应用的掩码（注意力内部）
views-mask-effective = 实际注意力（softmax 之后）
views-mask-legend = 掩码：黄色 = 查询可以看到这个键，灰色带斜线 = 被遮住。注意力：颜色 = 权重。
views-mask-cell = 查询 { $query }“{ $q }”看向键 { $key }“{ $k }”：{ $weight }
views-probe-note = { $probe }探测：{ $note }
views-probe-layer-leak = 层 { $layer }：从位置 { $position } 开始泄漏（输出最多变化 { $score }）
views-probe-layer-padding-leak = 层 { $layer }：填充改变了位置 { $position } 的输出（最多 { $score }）
views-probe-layer-ok = 层 { $layer }：无泄漏
views-probe-leak = ⚠ { $probe }探测：有泄漏 · { $layers }
views-probe-leak-by-design = { $probe }探测：后面的位置影响了前面的输出，这是设计使然：这个模型本来就双向可见（除非它要逐个词元地生成，否则不是 Bug）· { $layers }
views-probe-no-leak = ✔ { $probe }探测：无泄漏 · { $layers }
views-probe-causality = 因果性
views-probe-padding = 填充

## src/ui/step_through.rs
views-step-q = Q
views-step-q-text = 查询：每一行是一个位置想要寻找的东西（x · W_q，本注意力头的那一部分）。
views-step-k = K
views-step-k-text = 键：每一行是一个位置让别人找到自己的依据（x · W_k）。
views-step-v = V
views-step-v-text = 值：每一行是一个位置被选中时交出去的内容（x · W_v）。
views-step-raw = QK^T
views-step-raw-text = 原始分数：第 q 行第 k 列是查询 q 与键 k 的点积。
views-step-scaled = ÷√d_k
views-step-scaled-text = 缩放后的分数：除以 √d_k，使分数的离散程度无论 d_k 多大都保持在 1 左右。
views-step-mask = 掩码
views-step-mask-text = 掩码：每个查询可以看到哪些键（红色，1），哪些被遮住（白色，0）。
views-step-softmax = softmax
views-step-softmax-text = 注意力权重：对每一行可见的分数做 softmax；每一行的和为 1。
views-step-output = × V
views-step-output-text = 输出：每一行是各个值行的加权和，权重取自这一行。
views-step-heading = 逐步查看一个注意力头
views-step-layer-prefix = 层{ " " }
views-step-head-prefix = 注意力头{ " " }
views-step-trace = 追踪这个注意力头
views-step-trace-tip = 让探针序列通过模型，并保留这个注意力头的每一个计算阶段
views-step-not-traced = 按“追踪这个注意力头”，查看它在探针序列上的计算过程。
views-step-summary = { $layer }，注意力头 { $head }，d_k = { $dk }，第 { $step } 步
views-step-summary-unscaled = { $layer }，注意力头 { $head }，d_k = { $dk }，第 { $step } 步（缩放已关闭）
views-matrix-key = 键 { $key }“{ $token }”
views-matrix-dimension = 维度 { $dimension }
views-matrix-cell = 行 { $row }“{ $token }”，{ $column }：{ $value }
views-matrix-legend = 颜色：红色为正，蓝色为负，白色为零；最大绝对值 { $max }

## src/ui/saturation_panel.rs
views-saturation-heading = Softmax 饱和
views-saturation-intro = 随机生成方差为 1 的查询和键，每个查询对应 16 个键。左图：softmax 的最大权重（1/16 = 完全平坦，1 = one-hot）。右图：softmax 向回传递了多少梯度。
views-saturation-computing = 正在计算（一两秒）……
views-saturation-unscaled = 未缩放
views-saturation-scaled = 乘以 1/√d_k 缩放

## src/ui/length_cost_panel.rs
views-length-heading = 序列长度
views-length-intro = “测量”会把屏幕上的模型（它的层和宽度）按每种长度各训练几步，并显示两样东西：一步的耗时，以及注意力矩阵（分数、权重及其梯度）占用的内存。注意力随 n² 增长，模型的其余部分随 n 增长。不论屏幕上是什么任务，这里都用字符任务，因为只有文本可以取任意长度。显示的耗时是约一秒内各步中最快的一步：机器上的其他工作，包括窗口自身的显示，只会让步变慢。
views-length-measure = 测量
views-length-measuring = 正在测量…
views-length-measure-tip = 在长度 { $lengths } 下各计时至少 { $steps } 个训练步，且至少一秒（批大小 { $batch }）；需要几秒钟
views-length-stale = 这些时间来自另一个实验（此后它的模型、批大小、优化器、后端或内存上限变了）：请再点一次“测量”。
views-length-progress = 已完成 { $done } / { $total } 个长度
views-length-training = 训练正在进行：按“测量”会在扫描期间暂停训练，测完再继续。
views-length-axis = 序列长度
views-length-measured = 实测
views-length-quadratic = ∝ n²（从第一个点算起）
views-length-linear = ∝ n（从第一个点算起）
views-length-ms-per-step = 每步毫秒数
views-length-attention-mib = 注意力 MiB
views-length-length = 长度
views-length-previous = × 上一个
views-length-total-mib = 总计 MiB
views-length-refused = 长度 { $length } 已拒绝：{ $message }
views-refused-short = 已拒绝（原因见下）
views-heads-refused = { $heads } 个头已拒绝：{ $message }
views-sweep-stop = 停止
views-sweep-stopping = 正在停止…
views-length-stop-tip = 当前这个长度测完后即停止；已测得的长度会保留。
views-heads-stop-tip = 下一个训练步之前即停止；已测得的头数结果会保留。
views-length-stopped = 已在测完 { $done } / { $total } 个长度后停止：点“测量”可重新测量全部长度。
views-heads-stopped = 已在测完 { $done } / { $total } 种头数后停止：只测了一部分，因此不做挑选。点“测量”可把每种头数都重新训练一遍。
views-heads-heading = 用几个注意力头？
views-heads-intro = “测量”会把屏幕上的实验（{ $task }，d_model { $d_model }）分别用每一种注意力头数训练 { $steps } 步；每个注意力头分到 d_k = d_model / 头数。留出的样本分成两半：在验证那一半上准确率最高的就是选中者；测试那一半从不参与挑选，它告诉你选中者到底有多好。
views-heads-measure = 测量
views-heads-measuring = 正在测量…
views-heads-measure-tip = 分别用 { $counts } 个注意力头各训练 { $steps } 步；要花一些时间（五次训练）
views-heads-few-steps = 每次训练只有 { $steps } 步：太少了，任何头数都学不会这个任务，准确率都会停在随机猜测附近，选出的头数没有意义。请先在编辑器“训练”一栏里调高“步数”，至少几百步。
views-heads-many-steps = 要训练五次，每次 { $steps } 步，共 { $total } 步：这次测量可能要花很多分钟。想快一些，先在编辑器里调低“步数”（训练）；中途按“停止”，已测的结果会保留。
views-heads-progress = 已完成 { $done } / { $total } 种头数
views-heads-axis = 注意力头数
views-heads-accuracy = 留出集准确率
views-heads-validation = 验证集
views-heads-test = 测试集
views-heads-pick = 选中
views-heads-stale = 这些结果来自另一个实验（此后它的任务、宽度或旋钮变了）：请再点一次“测量”。
views-heads-verdict = 按验证集选中：{ $heads } 个注意力头。它在测试那一半上得 { $test }；那里最好的头数得 { $best }。

## src/ui/positions_panel.rs
views-positions-heading = 正弦位置编码
views-positions-intro = 行：位置 0 到 { $last }。列：{ $d_model } 个维度。靠前的列波动得快，靠后的列波动得慢；每一行都是不同的图案。
views-positions-not-used = 这个模型没有加上这些波（见位置编码这个旋钮）；这里画出来只作参考。
views-positions-rotary-heading = 旋转位置编码：转动的角度
views-positions-rotary-intro = 横轴是位置 0 到 { $last }；一个注意力头里的 { $pairs } 对数各画一条线：在该位置上，查询和键里这一对数所转角度的 cos 值。前面几对转得快，后面几对转得慢。相隔同样距离的两个位置，差的是同一个转角，所以分数只看得到距离。
views-positions-alibi-heading = ALiBi：距离的惩罚
views-positions-alibi-intro = 每个注意力头一条线：键与查询相距 0 到 { $last } 时，分数要扣掉多少，等于斜率 × 距离。斜率陡的注意力头只看附近；平缓的能读到很远。词元向量上什么也不加。第一个注意力层有 { $heads } 个注意力头。
views-positions-pair = 第 { $pair } 对
views-positions-position = 位置
views-positions-head-slope = 注意力头 { $head }（斜率 { $slope }）
views-positions-distance = 与键的距离
views-positions-penalty = 从分数里扣掉的量

## src/ui/bug_hunt.rs
views-bug-heading = 找 Bug
views-bug-intro = 每个实验都藏着一个 Bug。载入它、训练它，用各个面板找到症状，然后说出是什么 Bug。
views-bug-solved = 已解决 { $solved } / { $total }
views-bug-symptom = 症状：{ $symptom }
views-bug-where = 在哪里找：{ $where_to_look }
views-bug-load = 载入这个实验
views-bug-load-tip = 用这个实验替换你正在编辑的实验（Ctrl+Z 可以找回你的实验）
views-bug-question = Bug 是什么？
views-bug-choose = 请选择…
views-bug-check = 检查
views-bug-train-first = 请先载入这个实验并训练几步（“开始”或“单步”）：你看到的症状就是线索。
views-bug-right = ✔ 答对了。
views-bug-wrong = 不是这个。用建议的面板再看看症状。
views-bug-answer = 答案：{ $bug }。{ $explanation }
views-bug-reveal = 显示答案

## src/ui/heatmap.rs
views-legend-weight-zero = 权重 0
views-legend-masked = 被掩码遮住（看不到）
views-unit-layer = 层 { $layer }
views-unit-encoder = 编码器 { $layer }
views-unit-decoder-self = 解码器 { $layer } · 自注意力
views-unit-decoder-cross = 解码器 { $layer } · 交叉注意力
views-unit-alignment = 对齐（RNN 注意力）
views-by-length-heading = 准确率与句子长度
views-by-length-intro = 把留出句子按源句词数分组：每组译对的目标词所占比例。Bahdanau、Cho 和 Bengio（2015）在真实翻译上画过这张图：没有注意力，句子越长曲线越低；有注意力，曲线一直很高。固定一次运行，就能对比两条曲线。
views-by-length-no-source = 这个视图需要有源句和目标句的任务：在“任务”一节里选翻译、复制、反转或排序。
views-by-length-axis = 源句词数
views-by-length-accuracy = 译对的词（%）
views-by-length-pinned = 已固定：{ $label }
views-by-length-now = 当前（第 { $step } 步）
views-by-length-words = 源句词数
views-by-length-sentences = 留出句子数
views-by-length-whole = 整句全对
views-by-length-empty = 没有这个长度的留出句子：调大 eval_size
views-reach-heading = 梯度能传多远
views-reach-intro = 取 64 个留出句子：最后一个目标词的损失在每个源词处的梯度，除以该句所有源词中最大的那个。经过循环编码器，每个词要走一步；经过注意力，只要一跳。
views-reach-measure = 测量梯度传递
views-reach-measure-tip = 用屏幕上的模型做一次前向和反向计算（不训练）
views-reach-not-measured = 还没有测量。
views-reach-result = 第 { $step } 步：第一个源词得到的梯度是最大值的 { $first }。
views-reach-axis = 源词（1 = 第一个）
views-reach-share = 占最大梯度的比例
views-by-length-not-yet = 还没有评估：开始训练，图表会在下一次评估时出现。
