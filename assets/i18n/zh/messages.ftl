# messages 的界面文字（简体中文）。

## src/config/validate.rs
msg-problem-line = { $knob }：{ $message }；修改方法：{ $fix }
msg-validate-d-model-zero = d_model 为 0
msg-validate-d-model-zero-fix = 使用一个正的宽度，例如 64
msg-validate-max-len-zero = max_len 为 0
msg-validate-max-len-zero-fix = 至少设为任务的序列长度
msg-validate-no-layers = 模型一层都没有
msg-validate-no-layers-fix = 至少添加一层
msg-validate-dropout = dropout { $value } 不在 [0, 1) 范围内
msg-validate-dropout-fix = 用 0 表示不用 dropout，或者用一个概率，例如 0.1
msg-validate-init-scale = 初始化尺度 { $value } 不是正数
msg-validate-init-scale-fix = 用 1.0 即为 PyTorch 的默认初始化
msg-validate-zero-heads = 注意力头数为 0
msg-validate-zero-heads-fix = 至少使用 1 个注意力头
msg-validate-heads-divide = d_model { $d } 不能被 { $heads } 个注意力头整除（d_k = d_model / heads 必须是整数）
msg-validate-heads-divide-fix = 把注意力头数改为 { $divisors } 之一，或者修改 d_model
msg-validate-rotary-odd = 旋转位置编码把每个注意力头的数两两一组地旋转，但 d_model { $d } / { $heads } 个注意力头得到 d_k = { $d_k }，是奇数
msg-validate-rotary-odd-fix = 把注意力头数改为 { $heads } 之一，或者换一种位置编码
msg-validate-eval-length-too-long = 留出长度 { $length } 会得到 { $seq } 个词元的序列，超过了最大长度 { $max_len }
msg-validate-eval-length-too-long-fix = 把 model.max_len 调到 { $seq }，或者缩短 task.eval_length
msg-validate-eval-length-seq2seq = { $family } 这一族只读一种长度的源序列，所以它的留出集不能换成别的长度
msg-validate-eval-length-seq2seq-fix = 把 task.eval_length 设为 0（与长度相同），或者改用 decoder 这一族
msg-validate-eval-length-vocab = 在留出长度下，{ $task } 有 { $held_out } 个词元，而训练时有 { $train } 个：模型叫不出新增的那些
msg-validate-eval-length-vocab-fix = 把 task.eval_length 设为 0，或者换一个词元不随长度变化的任务（char_lm、copy、reverse、sort、induction）
msg-validate-ablated = 注意力头 { $head } 被消融了，但这一层只有注意力头 0–{ $last }
msg-validate-ablated-fix = 只消融这一层确实有的注意力头，或者清除消融
msg-validate-window-zero = 滑动窗口只有 0 个位置
msg-validate-window-zero-fix = 窗口至少设为 1
msg-validate-d-ff-zero = 前馈网络的宽度为 0
msg-validate-d-ff-zero-fix = 使用例如 4 × d_model 的宽度，或者关闭前馈网络
msg-validate-lr = 学习率 { $value } 不是正数
msg-validate-lr-fix = 使用例如 0.001 这样的值
msg-validate-batch-zero = 批大小为 0
msg-validate-batch-zero-fix = 至少设为 1，例如 64
msg-validate-steps-zero = 训练步数为 0
msg-validate-steps-zero-fix = 至少训练 1 步
msg-validate-eval-empty = 评估集是空的
msg-validate-eval-empty-fix = 至少使用 1 个序列，例如 256
msg-validate-clip = 梯度裁剪值 { $value } 不是正数
msg-validate-clip-fix = 使用例如 1.0 这样的值，或者去掉它
msg-validate-task-fix = 修改任务的设置
msg-validate-seq-too-long = 任务的序列有 { $seq } 个词元，但最大长度（max_len）只有 { $max_len }
msg-validate-seq-too-long-fix = 把最大长度提高到至少 { $seq }，或者缩短任务的长度（任务设置；task.length）
msg-validate-vocab = 模型有 { $vocab } 个词元，但任务 { $task } 用到 { $task_vocab } 个
msg-validate-vocab-fix = 把 vocab_size 设为 { $task_vocab }，或者删掉它，让它跟随任务
msg-validate-memory = 训练大约需要 { $total } MiB（其中注意力矩阵占 { $attention } MiB），超过了 { $limit } MiB 的上限
msg-validate-memory-fix = 降低批大小（训练；batch_size）、任务的长度（任务设置；task.length）、注意力头数或层数，或实验文件里的 eval_size（注意力占用的内存随长度² 增长）
msg-validate-init-from-fix = 选择随机权重、随应用附带的模型，或由本应用保存的文件夹

## src/config/init_source.rs
msg-init-no-shipped-model = 没有名为“{ $from }”的附带模型；附带的模型是 { $first } 和 { $second }
msg-init-shipped-missing = 附带模型 { $from } 不在 assets/pretrained/{ $name } 里；请在项目文件夹中运行本应用（或把它的 assets 文件夹放在程序旁边）
msg-init-not-run-folder = { $dir } 不是运行文件夹（里面没有 { $file }）；请给出由本应用或 `train --save` 保存的文件夹，或者 { $first } 或 { $second }

## src/training/init_from.rs
msg-init-every-weight = 保留了全部权重
msg-init-some-weights = 保留了 { $kept } 个权重（{ $fresh } 个从新开始：{ $names }）
msg-init-report = 从 { $from } 开始：{ $kept }；这个任务的词元（字符）中有 { $known } 个是它认识的，{ $new } 个是新的
msg-init-d-model-differs = { $dir } 的 d_model 是 { $source }，而这个实验是 { $d }：请把 model.d_model（以及各层）设成和来源一致
msg-init-different-model = { $dir } 的模型不一样：它有 { $count } 个权重与这个实验的模型不匹配（{ $names }）；请载入它的配置，或者让层数和宽度与它一致

## src/training/worker.rs
msg-worker-nothing-to-save = 没有可保存的内容：配置无效
msg-worker-no-head-to-trace = 第 { $layer } 层没有可追踪的注意力头 { $head }
msg-worker-cannot-start = 无法开始：请先修正配置
msg-worker-applied-untrained = 修改已应用到尚未训练的模型。
msg-sweep-running = 正在扫描测量：扫描结束后实时训练才会开始（点扫描下方的“停止”可提前结束）。
msg-sweep-paused-run = 扫描期间已暂停实时训练（两者会共用 CPU 核心，拖慢每一步）；扫描结束后会继续。
msg-measure-while-sweep = “{ $tab }”标签页里的扫描正在测量：等它结束后再点一次（或在那个标签页里点“停止”）。两项测量同时进行会共用 CPU 核心。
msg-measure-while-claim = 正在验证论断：等验证结束后再点一次“测量”（顶栏的“取消”可提前停止验证）。两项测量同时进行会共用 CPU 核心。
msg-try-after-measuring = 已按这个尝试设置好实验；当前的测量结束后就会开始训练。
msg-step-while-measuring = 正在验证论断或扫描测量：等它结束后再点“单步”（两者会共用 CPU 核心）。
msg-loss-climbed = 训练损失已从开始时的 { $first } 升到 { $loss }（没有变成 NaN）：每一步更新都迈得太大。请点“暂停”，在“训练”里调低学习率，然后点“重置”。
msg-loss-climbed-bug-hunt = 训练损失已从开始时的 { $first } 升到 { $loss }（没有变成 NaN）。是什么让它不降反升？这就是要找的 Bug。
msg-worker-applied-kept-all = 修改已应用。模型保留了到目前为止学到的一切。
msg-worker-applied-all-fresh = 修改已应用。模型的形状变了，所以从新的权重重新开始。
msg-worker-applied-some-fresh = 修改已应用。{ $total } 个权重矩阵中有 { $kept } 个保留了学到的内容；形状改变的 { $fresh } 个从新的权重开始。
msg-worker-non-finite = 第 { $step } 步：{ $what }；这一步没有被应用，训练已暂停。常见原因：学习率太高、初始权重太大（初始化尺度），或者 d_k 很大而分数没有缩放。请降低学习率或初始化尺度，然后点“重置”（R）：现在的权重可能已经太大，无法接着训练。
msg-worker-non-finite-in-group = 第 { $step } 步：{ $what }（最先出现在 { $group }）；这一步没有被应用，训练已暂停。常见原因：学习率太高、初始权重太大（初始化尺度），或者 d_k 很大而分数没有缩放。请降低学习率或初始化尺度，然后点“重置”（R）：现在的权重可能已经太大，无法接着训练。

## src/training/events.rs
msg-non-finite-loss = 损失变成了 NaN 或无穷大
msg-non-finite-gradient = 有梯度变成了 NaN 或无穷大

## src/app/run_view.rs
msg-pinned-label = 第 { $step } 步
msg-pinned-label-task = { $task } 的第 { $step } 步
msg-saved-run = 已把运行保存到 { $dir }
msg-wrote-file = 已写入 { $path }
msg-non-finite-bug-hunt = 第 { $step } 步：{ $what }；这一步没有被应用，训练已暂停。是什么让数值爆掉了？这就是要找的 Bug。

## src/app/files.rs
msg-empty-screenshot-region = 截图区域是空的
msg-dialog-open-experiment = 打开实验
msg-dialog-save-experiment = 保存实验
msg-dialog-save-run = 把运行保存到文件夹
msg-dialog-load-run = 载入运行文件夹
msg-dialog-export-csv = 把指标导出为 CSV
msg-dialog-export-plots = 把图表导出为 PNG
msg-dialog-export-attention = 把注意力网格导出为 PNG
msg-dialog-open-lesson-pack = 打开课程包
msg-dialog-filter-experiment = 实验
msg-cancelled-open-experiment = 已取消打开：什么都没有改变。
msg-cancelled-load-run = 已取消载入：当前运行保持不变。
msg-cancelled-open-lesson-pack = 已取消打开：课程保持不变。
msg-cancelled-save = 已取消保存：没有写入任何内容。
msg-cancelled-export = 已取消导出：没有写入任何内容。

## src/tasks/mod.rs
msg-task-describe-copy = 在分隔符之后重复一段随机序列
msg-task-describe-reverse = 在分隔符之后把一段随机序列倒着写出来
msg-task-describe-sort = 在分隔符之后把一段随机序列按顺序排好写出来
msg-task-describe-lookup = 先给出若干键值对，再给出一个键：回答它对应的值
msg-task-describe-induction = 一段随机序列出现两次：预测重复的部分
msg-task-describe-mod-add = a + b = ?，对一个素数取模
msg-task-describe-brackets = 一串括号是否配对平衡？（长度可变，带填充）
msg-task-describe-word-order = “猫 追 狗”：是谁在追？
msg-task-describe-char-lm = 预测一小段文本中的下一个字符
msg-task-length-range = { $task } 需要的长度在 { $min } 到 { $max } 之间
msg-task-symbols-range = { $task } 需要的符号数在 { $min } 到 { $max } 之间
msg-task-lookup-distinct-keys = 键值查找（lookup）需要互不相同的键：{ $pairs } 个键值对至少需要 { $pairs } 个符号
msg-task-mod-add-prime = 模加法（mod_add）需要一个素数作模数，{ $modulus } 不是素数
msg-task-length-range-fix = 把“长度”设为 { $min } 到 { $max } 之间的值
msg-task-symbols-range-fix = 把“符号数”设为 { $min } 到 { $max } 之间的值
msg-task-lookup-distinct-keys-fix = 把“符号数”提高到至少 { $pairs }，或把“长度”降到最多 { $symbols }
msg-task-lookup-distinct-keys-fix-length = 把“长度”降到最多 { $symbols }
msg-task-mod-add-prime-fix = 把“符号数”设为一个素数，例如 { $prime }
msg-task-corpus-error = 语料 { $path }：{ $why }
msg-probe-empty = 请至少输入一个词元
msg-probe-too-long = { $tokens } 个词元超过了这个任务的序列长度（{ $seq_len }）；请缩短探针序列

## src/tasks/charlm.rs
msg-corpus-too-short = 只有 { $chars } 个字符；窗口为 { $window } 时至少需要 { $needed } 个（十分之一留作留出集）；请换一段更长的文本，或者减小 task.length
msg-corpus-unreadable = { $error }（请使用 "english"、"chinese"、"english_large"、"chinese_large"，或一个 UTF-8 文本文件的路径）
msg-corpus-empty = 是空的；请选择一个有文字的文件
msg-corpus-binary = 看起来是二进制文件（含有零字节），不是文本；请选择一个 .txt 文件
msg-corpus-not-utf8 = 不是 UTF-8 文本（位置 { $position } 处有无效字节）；请把它另存为 UTF-8 后再试

## src/model/decode.rs
msg-cache-unsupported = 第 { $index } 层{ $why }，所以缓存之前的键和值无法得到相同的结果（请不用缓存来生成）
msg-cache-blocker-bidirectional = 是双向的（每个词元都能看到后面的词元）
msg-cache-blocker-diagonal = 的因果对角线被移动了
msg-cache-blocker-mask-inverted = 把掩码读反了
msg-cache-blocker-after-softmax = 在 softmax 之后才施加掩码（它的权重依赖于被隐藏的后面的键）
msg-cache-blocker-uniform = 不是 softmax 注意力（而是均匀平均或卷积）

msg-state-dropped = 部分保存的设置无法读取，已恢复为默认值：{ $parts }。其余内容（课程进度、已解决的 Bug）都已保留。
msg-dialog-export-progress = 导出我的进度
msg-dialog-export-handout = 导出讲义（选择文件夹）
msg-validate-eval-huge = eval_size { $size } 超过了 { $max } 个留出样本：每次评估都要读完全部样本，耗时会超过训练
msg-validate-eval-huge-fix = 把 eval_size 设为 { $max } 或更少（一节课用 512 就足够）

# 界面上显示的任务名（任务菜单、检查、改动列表）。
task-kind-copy = 复制
task-kind-reverse = 反转
task-kind-sort = 排序
task-kind-lookup = 键值查找
task-kind-induction = 归纳续写
task-kind-mod-add = 模加法
task-kind-brackets = 括号匹配
task-kind-word-order = 词序
task-kind-char-lm = 字符语言模型
task-kind-translate = 翻译
msg-task-describe-translate = 翻译一门玩具语言：每个分句的动词移到句末，形容词放到名词之后
task-kind-bracket-depth = 括号深度
msg-task-describe-bracket-depth = 给每个括号标上它之后的深度：( ( ) ( ) ) → 1 2 1 2 1 0；每个位置都计分
msg-probe-source-too-long = { $words } 个词超过了这个任务最长的句子（{ $most }，旋钮 task.length）；请缩短句子或调大 task.length
msg-cache-decoder-only = 这里的 KV 缓存只用于仅解码器模型；这个模型的类型是 { $family }
msg-validate-family-needs-source = { $family } 类型读一个源序列、写一个目标序列，但任务 { $task } 没有源序列
msg-validate-family-needs-source-fix = 选一个有源和目标的任务（翻译、复制、反转或排序），或者选 decoder 类型
msg-validate-rnn-layers = rnn 类型没有 Transformer 层，这里的 { $count } 层（它们的头、掩码和归一化）不会起任何作用
msg-validate-rnn-layers-fix = 把层数设为 0，或者选 decoder 或 encoder_decoder 类型
msg-validate-rnn-positions = rnn 类型一次读一个词、按顺序读：位置编码对它不适用
msg-validate-rnn-positions-fix = 把 model.positional 设为 none
msg-validate-not-rnn = { $knob } 属于 rnn 类型；{ $family } 类型会忽略它
msg-validate-not-rnn-fix = 把 model.family 设为 rnn，或把这个旋钮改回默认值
msg-validate-no-encoder = encoder_decoder 类型至少需要一个编码器层
msg-validate-no-encoder-fix = 把编码器层数设为 1 或更多
msg-validate-encoder-unused = 只有 encoder_decoder 类型有编码器；{ $family } 类型会忽略这 { $count } 个编码器层
msg-validate-encoder-unused-fix = 把编码器层数设为 0，或者选 encoder_decoder 类型
msg-writing-seq2seq = “{ $family }”模型一次翻译一整句源句；接着提示往下写需要模型类型“{ $decoder }”（留出准确率本身就是贪心解码的结果）
msg-writing-empty-prompt = 请输入至少一个词元作为提示
msg-writing-no-count = 请至少生成一个新词元
msg-writing-too-long = 提示（{ $prompt } 个词元）加上 { $count } 个新词元超过了模型的最大长度（max_len = { $max_len }）；最多生成 { $most } 个词元，或缩短提示
msg-validate-cross-unused = 只有 encoder_decoder 类型的解码器层才有交叉注意力；在这里关掉它不起任何作用
msg-validate-cross-unused-fix = 把交叉注意力重新打开，或者选 encoder_decoder 类型
msg-worker-rnn-no-trace = RNN 的对齐没有 Q、K、V 投影可以逐步计算：它的权重在“注意力”标签页里，每个解码器步骤对每个源词一格
msg-validate-layer-norm-eps = LayerNorm ε 是 { $value }；它必须大于 0 且不超过 1
msg-validate-layer-norm-eps-fix = 设为 1e-5（PyTorch 和 GPT-2 的默认值）或 1e-12（BERT 的值）
msg-validate-token-types = 模型有 { $value } 种词元类型；最多允许 { $max } 种
msg-validate-token-types-fix = 设为 0（没有）或 2（BERT 的句子 A 和 B）
