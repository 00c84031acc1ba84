# errors 的文字（简体中文）。

## src/tasks/vocab.rs
err-vocab-unknown-token = 未知词元“{ $token }”；这个任务的词元有：{ $tokens }{ $more }

## src/tasks/split.rs
err-split-too-few-examples = { $task } 的不同样本太少，留不出任何样本用于评估（{ $draws } 次抽取中有 { $held_out } 次被留出）；请增大 task.length 或 task.symbols
err-split-no-test-half = { $task } 留出的不同样本太少，分不成验证和测试两半（分别找到 { $validation } 个和 { $test } 个）；请增大 task.length 或 task.symbols

## src/lessons/parse.rs
err-lesson-front-matter-open = 前置元数据（front matter）应以一行 +++ 开头
err-lesson-front-matter-unclosed = 前置元数据（+++）没有用另一行 +++ 结束
err-lesson-front-matter = 前置元数据：{ $why }
err-lesson-start-side-knobs = [start]：seed_offset 和 threads 只能写在论断的 [a] 或 [b] 表中
err-lesson-start = [start]：{ $why }
err-lesson-block-unclosed = ```{ $kind } 块没有用 ``` 结束
err-lesson-toml-at = { $why }（位于 `{ $line }`）
err-lesson-try-block = try 块：{ $why }
err-lesson-check-block = check 块：{ $why }
err-lesson-check-condition = check 条件：{ $why }
err-lesson-claim-block = claim 块：{ $why }
err-lesson-claim-expect = claim 的 expect：{ $why }
err-lesson-claim-no-condition = claim 块：expect 至少需要一个条件
err-lesson-claim-side = claim [{ $side }]：{ $why }
err-claim-threads-zero = threads 至少为 1
err-claim-steps-zero = 每一侧的 steps 都至少为 1：关于未训练模型的论断说明不了训练（想看初始权重，请用 steps = 1）
err-claim-no-b-table = 有条件用到了 b.…，但论断没有 [b] 表；请添加写明要比较的改动的 [b]，或只使用 a.…
err-claim-b-same-as-a = [b] 与 [a] 是同一个实验，步数、随机种子和 threads 也都相同，论断等于拿一次运行和它自己比较；请让 [b] 有所不同（set 中的某个旋钮、任务、steps、seed_offset 或 threads）
err-claim-b-unused = 论断有 [b] 表，但没有条件用到 b.…；请比较两侧，或删除 [b]
# 也用于 src/lessons/mod.rs（试一试按钮的预设或任务）。
err-lesson-unknown-preset = 未知预设“{ $name }”
err-lesson-unknown-task = 未知任务“{ $name }”
err-lesson-experiment-invalid = 实验设置无效：{ $problem }

## src/lessons/check.rs
err-check-no-closing-parenthesis = attention(...) 缺少右括号
err-check-expected-is-pattern = 应写成 `attention(...) is PATTERN`
err-check-unknown-pattern = 未知模式“{ $pattern }”；请使用 anti-diagonal、diagonal、previous-token 或 uniform
err-check-expected-layer-head = “{ $arg }”：应写成 layer=N 或 head=N|*
err-check-layer-not-number = layer“{ $value }”不是数字
err-check-head-not-number = head“{ $value }”不是数字，也不是 *
err-check-unknown-argument = 未知参数“{ $name }”；请使用 layer 和 head
err-check-needs-layer = attention(...) 需要 layer=N
err-check-expected-metric-op = “{ $text }”：应写成 METRIC OP NUMBER（指标 比较符 数值），例如 eval_accuracy >= 0.9
err-check-not-number = “{ $value }”不是数字
# 也用于 src/experiments/condition.rs。
err-unknown-metric = 未知指标“{ $name }”；可用的指标有：{ $metrics }

## src/lessons/translation.rs
err-pair-id-differs = id“{ $id }”与 { $original } 的“{ $original_id }”不同
err-pair-start-differs = [start] 实验与 { $original } 不同；只有 title、summary、锁定的 reason 和正文可以改
err-pair-lock-differs = [lock] 表与 { $original } 不同：译文必须锁定同样的旋钮（[lock] knobs = [{ $knobs }]），只有 reason 可以换成另一种语言
err-pair-minutes-differ = minutes 与 { $original } 不同：请写 minutes = { $minutes }
err-pair-block-count = 有 { $theirs } 个 try/check/claim 块，但 { $original } 有 { $ours } 个；请翻译每一个块，不要增加新块
err-pair-block-differs = { $why }（对照 { $original } 第 { $line } 行）；只有 label、hint 和 statement 可以翻译
err-pair-try-differs = 某个 try 块改动的旋钮或步数不同
err-pair-check-differs = 某个 check 块的条件、id 或任务不同
err-pair-claim-differs = 某个 claim 块的两侧、步数或条件不同
err-pair-order-differs = 块的顺序不同

## src/lessons/mod.rs
err-lessons-none-found = { $path }：找不到 lesson.md（课程包里每节课一个文件夹，每个文件夹里有一个 lesson.md）
err-lessons-no-such-path = { $path }：没有这个文件或文件夹

## src/lessons/verify.rs
err-verify-could-not-run = { $statement }（无法运行：{ $why }）

## src/experiments/condition.rs
err-cond-expected-comparison = “{ $text }”：缺少比较符（<、<=、>、>=）
err-cond-offset-not-number = “{ $text }”：{ $sign } 后面的偏移量必须是数字
err-cond-factor-not-number = “{ $text }”：* 前面的系数必须是数字
err-cond-two-numbers = “{ $text }”比较的是两个数字，通过与否和运行无关；请写一个测得的指标，例如 a.eval_accuracy
err-cond-expected-operand = “{ $text }”：应为数字，或 a.METRIC / b.METRIC
err-cond-bad-side = “{ $side }”：侧只能是 a 或 b

## src/experiments/claim.rs
err-claim-no-step-timed = 没有任何一步被计时
err-claim-curve-diverged = 有一侧发散了，它的曲线提前中断
err-claim-curve-not-finite = 曲线上有一个损失不是有限数
err-claim-curve-needs-b = 曲线差距要比较两侧；请添加 [b] 表
err-claim-not-measured = 未测量
err-claim-threads-failed = 无法启动 { $threads } 个训练线程：{ $why }

## src/experiments/length_cost.rs
err-length-non-finite = 训练在第 { $step } 步出现了非有限值

## src/probe/mod.rs
err-probe-no-padding = 这个任务的序列没有填充；试试括号匹配（brackets）任务
err-probe-one-symbol = 词表只有一个符号，没有词元可以替换，所以探针无法判断是否泄漏；请给任务两个或更多符号

## src/training/session.rs
err-session-invalid-config = 配置无效：
err-session-probe-too-long = 探针序列有 { $tokens } 个词元，但模型的 max_len 是 { $max_len }

## src/runs/mod.rs
err-run-not-a-folder = 不是运行文件夹（不存在或不是文件夹）
err-run-weights-mismatch = 权重与 config.json 中的架构不符：{ $why }
err-run-cannot-create-folder = 无法创建文件夹：{ $why }
err-run-invalid-json = 不是这个文件可用的 JSON：{ $why }
# 也用于 src/lessons/mod.rs。
err-cannot-read = 无法读取：{ $why }

## src/runs/weights.rs
err-weights-cannot-write = 无法写入权重：{ $why }
err-weights-parameter-missing = 文件中缺少参数 { $parameter }（形状 { $shape }）
err-weights-shape-differs = 参数 { $parameter } 在文件中的形状是 { $stored }，但配置需要 { $needed }
err-weights-extra-parameter = 文件中有参数 { $parameter }，而配置的模型没有
err-weights-cannot-load = 无法载入权重：{ $why }
err-weights-reader-failed-on-file = 无法载入权重：读取器在这个文件上出错
err-weights-unreadable = 不是可读取的权重文件（文件被截断，或不是 Attention Workbench 保存的）：{ $why }
err-weights-missing = 权重文件不存在
err-weights-reader-failed = 读取器出错
err-lesson-answer-block = answer 块：{ $why }
err-lesson-answer-empty = 这个 answer 块的 text 是空的；请在 text = """…""" 中写出答案
err-lesson-id-malformed = id "{ $id }" 必须是由字母、数字、- 和 _ 组成的短名字（进度按它保存，编辑文字时请保持不变）
err-lesson-id-repeated = id "{ $id }" 已被第 { $first } 行的块使用；每个检查、论断和答案都需要自己的 id
err-lesson-lock-reason = [lock] 需要 reason = "…" 说明为什么固定这些旋钮（学生会在每把锁旁看到它）
err-lesson-lock-knob = [lock] 中的旋钮 "{ $knob }" 不是本课实验的旋钮；请写成 "seed"、"backend"、"task" 或 "model.layers[*].heads" 这样的路径
err-pair-answer-differs = 答案块的 id 与原文的 "{ $id }" 不同
err-bug-case = 找 Bug 案例：{ $why }
err-bug-case-answer = answers："{ $answer }" 不是已知的 Bug 名称；已知：{ $known }
err-bug-case-no-answer = answers 为空；至少列出以下之一：{ $known }
err-bug-case-side-knobs = [experiment] 只接受 preset、task、set 和 steps（seed_offset 和 threads 只用于论断）
err-bug-case-experiment = [experiment]：{ $why }
err-bug-case-repeated = 找 Bug 案例 id "{ $id }" 已被 { $first } 使用；请给这个案例换一个 id
err-pack-manifest = { $file }:{ $line }：{ $why }（pack.toml 接受 id = "短名字"、title = "…"、version = "…"）
err-progress-read = { $file }：无法读取这个进度文件：{ $why }
err-progress-not-progress = { $file }：不是进度文件（请在窗口中用“导出我的进度”生成）
err-progress-version = { $file }：进度文件版本为 { $version }，本应用只能读取版本 { $known }；请更新应用
err-pack-id-builtin = id "{ $id }" 是内置课程包的 id；请给你的课程包一个自己的 id
err-lesson-id-taken = 课程 id "{ $id }" 已被 { $other } 使用；进度按课程 id 保存，请给这一课一个自己的 id
err-session-probe-frame = { $family } 类型读一个源句和一个目标句：先输入源句，再输入 |，再输入目标句（各自最多 { $words } 个词；复制、反转和排序各自正好 { $words } 个符号）
