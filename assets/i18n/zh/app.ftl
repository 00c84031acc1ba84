# Attention Workbench：界面文字，简体中文。
# 这里的每个键都必须在 en.ftl 里也有（有测试双向检查）。

lang-name = 中文（简体）
test-greeting = 你好，{ $name }

## 菜单
menu-file = 文件
menu-open-experiment = 打开实验…
menu-save-experiment = 保存实验…
menu-save-run = 保存运行文件夹…
menu-load-run = 载入运行文件夹…
menu-export-plots = 把图表导出为 PNG…
menu-export-attention = 把注意力网格导出为 PNG…
menu-export-csv = 把指标导出为 CSV…
menu-edit = 编辑
menu-undo = 撤销配置修改
menu-redo = 重做配置修改
menu-view = 视图
menu-view-editor = 模型编辑器
menu-view-lesson = 课程
menu-view-plots = 图表
menu-view-attention = 注意力
menu-view-dark = 深色主题
menu-language = 语言
menu-help = 帮助
menu-getting-started = 入门
menu-shortcuts = 键盘快捷键
menu-about = 关于 Attention Workbench
about-licence = 许可证：{ $licence }
about-description = 通过在线编辑和训练一个小型 Transformer，学习注意力机制和 Transformer 的工作原理。
about-built = 基于 egui、egui_plot、egui_commonmark 和 burn 构建。

## 键盘快捷键
key-space = 开始 / 暂停 / 继续训练
key-s = 训练一步
key-r = 重置为新的权重
key-open = 打开实验
key-save = 保存实验
key-undo = 撤销一次配置修改
key-redo = 重做一次配置修改
key-f1 = 显示本列表
keys-note = 在文本框里输入时，不带 Ctrl 的快捷键不起作用。

## 入门
start-1 = 右边的课程一次讲一个概念，本课的实验已经载入。
start-1-not-loaded = 右边的课程一次讲一个概念。先点课程里的“载入本课实验”，把它的模型放到屏幕上。
start-2 = 按“开始”（或空格键）训练它，看底部图表里的损失下降。
start-3 = 按课程里的 ▶ 试一试 按钮：它会修改模型（课程会列出改了什么），再重新训练。
start-4 = 打开注意力网格（“注意力”标签页），看每个注意力头在看哪里；把鼠标停在格子上可以看到权重。
start-5 = 当你的运行体现出课程讲的概念时，课程里的检查会自动打勾；每条论断都可以用三个随机种子验证。
start-close = 关闭本窗口开始学习；“帮助 → 入门”可以再次打开它。

## 顶栏
top-task = 任务
top-preset = 预设
top-backend = 后端
top-step-fused = 快速 CPU 训练步
top-step-fused-tip = 每个训练步怎样计算。现在用的是手写的 CPU 例程：算出的数和通用例程相同，速度约快一倍。应用会自动选择，不需要你做什么。
top-step-composed = 通用训练步
top-step-composed-tip = 每个训练步怎样计算。现在用的是通用例程（burn 的自动求导），原因：{ $reason }。算出的数和快速 CPU 训练步相同，只是速度不同。快速训练步适用于 CPU（flex）上的仅解码器和编码器–解码器 Transformer 以及 GRU，LSTM 和打开的 BERT、GPT-2 检查点的额外部件除外。
top-seed = 随机种子
top-start = 开始
top-start-tip = 开始训练（空格键）
top-pause = 暂停
top-pause-tip = 暂停训练（空格键）
top-resume = 继续
top-resume-tip = 继续训练（空格键）
top-continue = 接着训练
top-continue-tip = 这次运行已经训练完设定的步数：可以接着训练（空格键），或按“重置”（R）从头开始
top-fix-first = 请先修正模型编辑器里显示的问题
top-step = 单步
top-step-tip = 只训练一步（S）
top-reset = 重置
top-reset-tip = 用随机种子重新生成权重（R）
top-apply = 应用修改
top-apply-tip = 立即使用你的修改：形状没变的已训练权重会保留，并重新测量留出集准确率
top-step-of = 第 { $step } / { $total } 步
top-speed = 每秒 { $speed } 步
top-eta = 预计还需 { $eta }
top-heldout = 留出集准确率 { $percent }% · 损失 { $loss }
status-invalid = 配置无效
status-ready = 就绪
status-training = 训练中
status-paused = 已暂停
status-finished = 已完成

## 视图标签页
tab-attention = 注意力
tab-attention-tip = 每一层、每个注意力头在探针序列上的注意力
tab-mask-inspector = 掩码检查器
tab-mask-inspector-tip = 并排显示预期的掩码、实际使用的掩码和生效的注意力，并检查泄漏
tab-step-through = 逐步计算
tab-step-through-tip = 一个注意力头的计算过程，一步一步：Q、K、V、QK^T、÷√d_k、掩码、softmax、× V
tab-positions = 位置编码
tab-positions-tip = 模型的位置编码画成数：正弦表、旋转的角度，或 ALiBi 的惩罚
tab-saturation = Softmax 饱和
tab-saturation-tip = 为什么要把分数除以 √d_k
tab-sequence-length = 序列长度
tab-sequence-length-tip = 训练一步的时间和注意力占用的内存随序列长度的变化（第 11 课）
tab-heads = 注意力头数
tab-heads-tip = 同一个模型分别用 1、2、4、8、16 个注意力头：在验证集上选，在测试集上核对（第 22 课）
tab-generate = 生成
tab-generate-tip = 模型根据提示逐个词元续写，分别带和不带 KV 缓存，逐词元计时（第 12 课）
tab-bug-hunt = 找 Bug
tab-bug-hunt-tip = 埋了 Bug 的实验，等你来诊断

## 生成
gen-heading = 根据提示续写
gen-intro = 模型在你的提示后面一次写一个词元，每次都取它认为最可能的下一个词元。它会写两遍：一遍在每写一个新词元时都把到目前为止的整段文字重新送进模型；另一遍把每一层的键和值保存起来（KV 缓存），只计算新的词元。
gen-prompt = 提示
gen-prompt-hint = 要续写的文字
gen-prompt-hint-example = 例如 { $example }
gen-prompt-tip = 字符模型按字符输入，其他任务用空格分隔词元
gen-tokens = 新词元数
gen-tokens-tip = 最多 { $most } 个：提示加新词元不能超过模型的 max_len（{ $max_len }）
gen-tokens-capped = （上限 { $most }：模型的 max_len 是 { $max_len }）
gen-write = 写出
gen-writing = 正在写…
gen-write-tip = 分别带缓存和不带缓存写一遍，并为每个词元计时
gen-empty = 输入提示后按“写出”。没有训练过的模型写出的是噪声（计时结果不受影响）。
gen-without = 不带缓存
gen-with = 带 KV 缓存
gen-no-cache = 第 { $step } 步：这个模型不能使用缓存。
gen-same = 词元完全相同
gen-different = 有 { $count } 个词元不同
gen-summary = 第 { $step } 步：{ $same }；不带缓存每个词元 { $without } 毫秒，带缓存 { $with } 毫秒（快 { $speedup } 倍）。缓存保存了 { $bytes } 的键和值。
gen-not-run = 未运行
gen-timing = { $count } 个词元用时 { $total } 毫秒：每个词元 { $mean } 毫秒
gen-axis-x = 目前文字的长度
gen-axis-y = 这个词元的毫秒数
gen-line-without = 不带缓存
gen-line-with = 带 KV 缓存

## 命令行
cli-ms-per-token = 每个词元 { $ms } 毫秒
cli-tokens-differ = 词元不同
cli-cache-faster = 缓存让每个词元快 { $speedup } 倍

## 术语表
menu-glossary = 术语表
glossary-title = 术语表
glossary-search = 搜索
glossary-search-hint = 输入中文或英文术语
glossary-none = 没有匹配的术语。

## 任务参数
task-heading = 任务设置
task-length = 长度
task-length-tip = 任务样本有多长：要复制、反转或排序的词元数，查找任务的键值对数，归纳任务里重复片段的长度，最长的括号串，字符模型的窗口，翻译任务里最长的源句。模型的最大长度会随之增大。
task-eval-length = 留出长度
task-eval-length-tip = 留出集样本的长度；0 表示与长度相同。更长的留出长度考的是模型从没训练过的长度：它的位置编码能不能外推？模型的最大长度会随之增大。（第 21 课）
task-symbols = 符号数
task-symbols-tip = 任务从多少种不同的符号里抽取：复制、反转、排序和归纳任务的字母表，查找任务的键，模加法的模数，词序任务和翻译任务的名词。
task-corpus = 文本
task-corpus-tip = 字符模型要学着续写的文本：内置的短文本（几 KB，几秒就能训练完），长文本（超过 100 KB，为本项目撰写），或你自己的 UTF-8 文本文件。最后十分之一留作留出集。
task-corpus-size = { $kb } KB
task-corpus-file = 一个文本文件…
task-corpus-path-hint = UTF-8 .txt 文件的路径
task-corpus-path-tip = 输入或粘贴文本文件（UTF-8）的路径。空文件、二进制文件或非 UTF-8 文件会被拒绝，并说明原因。
task-words = 词语
task-words-tip = 句子用哪种语言：“cat chases dog ?” 或 “猫 追 狗 ？”。两种语言里都是词序决定谁做了什么。
task-words-english = 英文（cat chases dog）
task-words-chinese = 中文（猫 追 狗）

## 状态栏
hint-ready = 按“开始”（空格键）训练这个实验，或者按课程里的 ▶ 试一试 按钮。F1 列出所有快捷键。
hint-ready-bug-case = 按“开始”（空格键）训练这个 Bug 案例，再看它的注意力图（掩码检查器能帮上忙）。F1 列出所有快捷键。
hint-finished = 这次运行已经结束：“接着训练”（空格键）继续训练，“重置”（R）从头开始，或者进行课程的下一步。
hint-paused = 已暂停：“继续”（空格键），训练一步（S），或者查看各个面板。
hint-other = 关于这次运行的消息会显示在这里。F1 列出键盘快捷键。
compare-pinned = 固定的
compare-now = 当前
attention-hidden = 注意力面板已隐藏（在“视图”菜单里打开）。
menu-lessons = 课堂
menu-packs-open = 已打开的课程包（每次启动都会重新打开）：
menu-pack-close-tip = 关闭这个课程包，启动时不再打开（它的文件和你的进度都保留）。
menu-export-handout = 导出讲义…
menu-presenter = 演示视图
menu-presenter-tip = 用于投影仪：大字号、高对比度，课文和注意力图放大，编辑器收起。对本课程包记住此设置。
key-f5 = 打开或关闭演示视图
menu-pack-missing = ⚠ 找不到：{ $path }
menu-pack-forget-tip = 启动时不再尝试打开这个课程包。
status-verifying = 正在验证论断
status-sweeping = 扫描测量中
preset-tiny = 微型
preset-lesson = 课程
preset-large = 大型
preset-custom = 自定义
tab-by-length = 按长度
tab-by-length-tip = 留出准确率随源句长度的变化，当前与固定的两次运行对比（Bahdanau 的那张图），以及有多少梯度传到每个源词（第 18–20 课）
tab-pretrained = 预训练模型
tab-pretrained-tip = 从磁盘打开的 BERT 或 GPT-2 检查点，可用于所有注意力视图
menu-open-pretrained = 打开预训练模型…
