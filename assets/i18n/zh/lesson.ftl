# lesson 的界面文字（简体中文）。

## src/ui/lesson_panel.rs
lesson-heading = 课程
lesson-open-pack = 打开课程包…
lesson-open-pack-tip = 添加老师的课程：一个装着若干课程文件夹的文件夹，每个课程文件夹里有一个 lesson.md（也可以把它拖到窗口上）
lesson-previous = 上一课
lesson-next = 下一课
lesson-no-lessons = 没有课程
lesson-list-count-tip = 每课标题后括号里的数字是已通过的检查数和检查总数。论断不算检查：验证论断不会改变这两个数字。
lesson-unreadable =
    无法读取这一课：
    { $error }
lesson-none-loaded = 没有载入任何课程。
lesson-summary = { $summary } · 约 { $minutes } 分钟
lesson-load-start = 载入本课实验
lesson-load-start-tip = 你当前的实验会被保留；可以用旁边的按钮恢复它
lesson-not-loaded = ⚠ 屏幕上不是本课的实验（任务、模型或设置不同）：先载入它再往下做。
lesson-restore = 恢复我的实验
lesson-try = ▶ 试一试：{ $label }
lesson-try-tip = 修改正在运行的实验
lesson-try-tip-steps = 修改正在运行的实验，并训练 { $steps } 步
lesson-try-unchanged = 没有任何改动：实验本来就是这些设置
lesson-try-changed =
    改动：
    { $text }
lesson-check-now = 现在检查
lesson-check-tip = 当正在进行的运行满足 { $condition } 时会自动打勾
lesson-check-waiting = 等待：{ $condition }
lesson-check-own-runs = 只根据本课自己的运行来判断：请先按本课的某个“▶ 试一试”按钮，或按“载入本课实验”。
lesson-check-hint = 还没有。{ $hint }
lesson-claim = 论断
lesson-claim-verify = 验证（随机种子 { $seeds }）
lesson-claim-verify-again = 再验证一次（随机种子 { $seeds }）
lesson-claim-verify-tip = 在后台用随机种子 { $seeds } 训练论断的各次运行，与命令行的 lesson verify 相同；每个种子下论断都必须成立
lesson-claim-verifying = 正在用随机种子 { $seeds } 验证…
lesson-claim-holds = ✔ 在随机种子 { $seeds } 下成立
lesson-claim-fails = ✖ 在随机种子 { $failing } 下不成立（共 { $seeds }）
lesson-claim-side-note = a 是论断的那一次运行；每一行给出测得的值以及它需要满足的条件。
lesson-claim-sides-note = a 和 b 是论断的两次运行；每一行给出测得的值以及它需要满足的条件。
lesson-claim-maps = a 和 b 的注意力，随机种子 { $seed }
lesson-claim-diverged = 随机种子 { $seed }：{ $side } 方 { $divergence }
lesson-claim-condition = 随机种子 { $seed }：{ $mark } { $condition }
lesson-claim-curves = a 和 b 的训练损失，随机种子 { $seed }（对数坐标）
lesson-claim-curves-x = 步
lesson-claim-steepest-fall = { $side }：下降最快处

## src/ui/plots_panel.rs
lesson-chart-loss = 损失
lesson-chart-loss-tip = 训练损失和留出集损失
lesson-chart-accuracy = 准确率
lesson-chart-accuracy-tip = 训练准确率和留出集准确率
lesson-chart-grad-norm = 每层的梯度范数
lesson-chart-grad-norm-tip = 每一层的梯度有多大：梯度消失或梯度爆炸会在这里显现
lesson-chart-update-ratio = 每层的更新量 / 权重
lesson-chart-update-ratio-tip = 每一步让每层的权重改变了多少（相对于权重本身的大小）
lesson-chart-lr = 学习率
lesson-chart-lr-tip = 每一步的学习率（先预热，然后保持不变）
lesson-plots-log-scale = 对数坐标
lesson-plots-log-scale-tip = 把损失、范数和比值画在 log10 坐标轴上：后期缓慢的进展也能看得见。
lesson-plots-smoothing = 平滑
lesson-plots-smoothing-tip = 按步数做指数移动平均：0 表示显示原始值。稀疏的曲线（评估）按其相邻点之间的步数衰减，并标出实际测得的点。每条曲线最多保留 { $capacity } 个点；更早的点会被合并。
lesson-plots-charts = 图表（显示 { $shown } / { $total }）⏷
lesson-plots-charts-tip = 选择要显示哪些图表：图表越少，每张越宽
lesson-plots-pin = 固定此次运行
lesson-plots-pin-tip = 保留这次运行的损失和准确率曲线（画成虚线），用来和下一次运行（试一试、换随机种子、重置）对比
lesson-plots-unpin = 取消固定
lesson-plots-unpin-tip = 移除固定的运行（固定于 { $label }）
lesson-plots-step = 步
lesson-plots-lr = 学习率
lesson-plots-embedding = 嵌入
lesson-plots-output-head = 输出层
lesson-plots-train = 训练
lesson-plots-eval = 留出集
lesson-plots-pinned-train = 固定的训练
lesson-plots-pinned-eval = 固定的留出集

## src/ui/banner.rs
lesson-banner-dismiss = 关闭

## src/ui/path_prompt.rs
lesson-path-no-dialog = 这个桌面环境无法打开文件对话框，请在这里输入路径。
lesson-path-folder = 一个文件夹路径。
lesson-path-file = 一个文件路径；相对路径从启动本程序时所在的文件夹算起。
lesson-path-exists = 这个文件已经存在：按「确定」会替换它。
lesson-path-folder-exists = 这个名字的文件夹已经存在：按「确定」会替换保存写入其中的同名文件。
lesson-path-is-file = 这里已有同名文件，而这项内容以文件夹保存：请换一个名字。
lesson-path-ok = 确定
lesson-path-cancel = 取消

## src/ui/ab_maps.rs
lesson-ab-layer = 层
lesson-ab-head = 注意力头
lesson-ab-no-head = 第 { $layer } 层没有注意力头 { $head }
lesson-ab-largest-change = 最大变化 { $largest }，平均变化 { $mean }；红色：{ $name } 在这里关注得更多，蓝色：更少，灰色：不变
lesson-ab-different-probes = 两次运行看的是不同的探针序列，所以格子对不上
lesson-ab-missing-head = 有一次运行没有这个注意力头

## src/app/mod.rs (compare with the pinned run)
lesson-compare-pinned = 与固定的运行对比（{ $label }）
lesson-compare-pinned-tip = 固定运行的注意力图、本次运行的注意力图以及两者之差，一次显示一个注意力头

## src/app/perform.rs
lesson-msg-continued = 这次运行已经训练完全部步数，所以再接着训练 { $more } 步（步数现在是 { $total }）。如果想从头开始，请按“重置”（R）。
lesson-msg-bug-case-loaded = 已载入“{ $title }”。训练它并寻找症状；在你说出 Bug 之前，它的掩码设置会被隐藏。
lesson-msg-lesson-loaded = 已用全新的权重载入本课实验。按“开始”（空格键）训练它。
lesson-msg-restored = 你的实验已恢复
lesson-msg-try-one-step = “{ $label }”：修改后的模型从全新的权重开始，训练一步。
lesson-msg-try-steps = “{ $label }”：修改后的模型从全新的权重开始，训练 { $steps } 步。
lesson-msg-try-no-steps = “{ $label }”：模型已修改，并从全新的权重开始。按“开始”（空格键）训练它。
lesson-msg-try-failed = 这个按钮的修改无法应用：{ $error }
lesson-msg-lesson-invalid = 本课的实验在这里无效；请查看模型编辑器
lesson-msg-pack-added = 已从 { $path } 添加 { $count } 课
lesson-msg-pack-partly = 已从 { $path } 添加 { $count } 课；有 { $failed } 课无法读取：{ $errors }
lesson-confirm-title = 从全新的权重开始？
lesson-confirm-text = 这个修改会改变部分权重的形状，所以已经训练了 { $steps } 步的模型无法保留它们。要应用修改并从全新的权重开始吗？
lesson-confirm-apply = 应用并重置
lesson-confirm-keep = 继续训练当前模型

## src/app/file_actions.rs
lesson-msg-opened = 已打开 { $path }
lesson-msg-open-failed = 无法打开实验：{ $error }；当前实验没有改变
lesson-msg-saved = 已保存 { $path }
lesson-msg-dialog-open = 已有一个文件对话框打开：请先处理它。
lesson-msg-save-failed = 无法保存实验：{ $error }
lesson-msg-load-run-failed = 无法载入运行：{ $error }；当前运行没有改变
lesson-msg-panel-hidden = 那个面板是隐藏的；请先显示它（视图菜单）。
lesson-msg-wrote = 已写入 { $path }
lesson-msg-export-failed = 无法导出：{ $error }

lesson-glossary-tip = 课程里的每个术语，中英对照，各附一句解释
lesson-answer = 答案
lesson-show-answer = 显示答案
lesson-show-answer-tip = 先自己试一试。打开答案会记录在你的进度里，老师会在报告中看到。
lesson-locks = 本课锁定：{ $knobs }。{ $reason }
lesson-locks-active-tip = 本课的实验加载期间，这些旋钮保持本课的取值；改动会被还原。
lesson-locks-idle-tip = 加载本课的实验后锁定生效。
lesson-locked-tip = 本课锁定：{ $reason }
lesson-student-name = 你的名字：
lesson-student-name-tip = 会写进你的进度文件，老师的报告据此显示谁完成了什么。
lesson-student-name-hint = 用于报告
lesson-export-progress = 导出我的进度…
lesson-export-progress-tip = 写出一个小文件，记录本课程包的检查、论断、打开的答案和解决的找 Bug 案例，以及各自的时间；把它交给老师。
lesson-msg-locked = 🔒 { $knobs } 保持本课设定的值：{ $reason }
lesson-msg-pack-reopen-failed = 之前打开的课程包无法再次打开：{ $errors }
lesson-msg-progress-written = 已把你的进度写入 { $path }。把这个文件交给老师。
handout-locks = 全班固定：{ $knobs }。{ $reason }
handout-try-steps = （然后训练 { $steps } 步）
handout-hint = 提示：{ $hint }
handout-answer-elsewhere = 答案 { $number } 在 { $file } 中。
handout-figure = 注意力图
handout-answers = 答案
lesson-claim-one-at-a-time = 一次只验证一个论断：请等待正在运行的验证结束，或取消它。
lesson-claim-wait-sweep = “{ $tab }”标签页里的扫描正在测量：等它结束后再验证（或在那个标签页里点“停止”）。两项测量同时进行会共用 CPU 核心。
lesson-claim-cancel = 取消
lesson-claim-crashed = 验证因内部错误而中止，论断未被验证；实时训练继续。按“再验证一次”可以重试。
lesson-claim-cancelling = 正在取消…
lesson-claim-cancel-tip = 停止这次验证；论断保持未验证，实时训练继续。
lesson-claim-steps = 训练步数 { $done } / { $total }
lesson-claim-measuring = 已训练 { $total } 步 · 正在测量每次运行…
lesson-msg-claim-paused-run = 验证论断期间已暂停实时训练；验证结束后会继续。
lesson-msg-claim-running = 正在验证论断：验证结束后实时训练才会开始（“取消”可停止验证）。
lesson-msg-claim-cancelled = 已取消验证；论断未被验证。
lesson-msg-claim-cancelled-kept = 验证已取消；之前的结论仍然有效。
lesson-answer-hidden-presenter = （这里有答案；演示视图中保持隐藏。）
handout-experiment = 实验：任务“{ $task }”（{ $task_detail }），d_model { $d_model }，{ $layers } 层、每层 { $heads } 个头，{ $steps } 步，种子 { $seed }。在应用中：“载入本课实验”。
handout-task-symbols = 长度 { $length }，{ $symbols } 个符号
handout-task-text = 文本“{ $corpus }”，每段 { $length } 个字符
lesson-check-other-task = 这项检查只看{ $task }任务上的训练；现在的模型在训练{ $now }。先载入本课的实验。
change-line = { $knob }：{ $old } → { $new }
change-in-layer = { $layer } · { $knob }
change-layer-count = 层数：{ $old } → { $new }
lesson-msg-handout-written = 讲义已写入文件夹 { $folder }：lesson.md、有答案时的 answers.md{ $figure ->
        [yes] 、attention.png
       *[other] {""}
    }，以及课程自带的图片。
change-every-layer = 每一层
change-list-separator = 、
change-setting = { $knob }：{ $value }
change-layer-setting = { $count } 层
lesson-claim-sides = a：{ $a } · b：{ $b }
lesson-claim-side-threads = CPU 线程：{ $threads }
lesson-claim-side-default = 与应用相同
lesson-claim-side-seed = 种子 + { $offset }
lesson-claim-side-steps = { $steps } 步
lesson-claim-maps-open = 放大查看注意力图
lesson-claim-maps-open-tip = 在单独的窗口里显示 a、b 两次运行的注意力图和它们的差，大小与注意力网格中的图相同。
lesson-not-loaded-tip = 屏幕上的模型来自别处（另一课，或你自己的修改），而下面的文字讲的是本课自己的模型。“载入本课实验”会把它放到屏幕上；你的实验会保留下来，用“恢复我的实验”可以找回。
lesson-plots-rnn = RNN
handout-experiment-rnn = 实验：任务“{ $task }”（{ $task_detail }），宽度 { $d_model } 的 { $cell } 编码器–解码器，{ $steps } 步，种子 { $seed }。在应用中：“载入本课实验”。
change-encoder-layer-count = 编码器层数：{ $old } → { $new }
change-encoder-layer-setting = { $count } 个编码器层
