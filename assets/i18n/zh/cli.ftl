# cli 的文字（简体中文）。

## src/cli/mod.rs
cli-error = 错误：{ $message }
cli-list-tasks = 任务：
cli-list-presets = 预设：
cli-list-preset = d_model { $d_model }，{ $heads } 个注意力头，d_ff { $d_ff }，{ $layers } 层
cli-preset-or-config = --preset 和 --config 只能给一个，不能同时给
cli-unknown-preset = 没有预设“{ $name }”；可用的预设有：{ $presets }
cli-unknown-task = 没有任务“{ $name }”；可用的任务有：{ $tasks }

## src/cli/train.rs
cli-invalid-config = 配置无效：{ $problems }
cli-train-ready = 在 { $backend } 上训练 { $task }：{ $parameters } 个参数，序列长 { $seq_len } 个词元，词表 { $vocab } 个
cli-note = 提示：{ $message }
cli-train-adapter = 适配器：{ $adapter }
cli-train-step = 步数 { $step }/{ $total }  损失 { $loss }  准确率 { $accuracy }%  { $speed } 步/秒  剩余约 { $eta }
cli-train-eval = 评估 @ { $step }  损失 { $loss }  准确率 { $accuracy }%  整条序列全对 { $sequences }%
cli-train-stopped = 已停止：{ $hint }
cli-train-finished = 完成 { $step } 步，用时 { $time }：留出集准确率 { $accuracy }%
cli-train-saved = 已把这次运行保存到 { $dir }

## src/cli/eval.rs
cli-eval-result = { $dir }（{ $task }，训练 { $step } 步后）：留出集损失 { $loss }，准确率 { $accuracy }%，整条序列全对 { $sequences }%

## src/cli/probe.rs
cli-probe-give-source = 请给出 --config FILE 或 --run DIR
cli-probe-note = { $probe } 探针：{ $note }
cli-probe-leak = 有泄漏
cli-probe-no-leak = 无泄漏
cli-probe-verdict = { $probe } 探针：{ $verdict }（容差 { $tolerance }）
cli-probe-layer = 第 { $layer } 层：最大变化 { $score }，最早泄漏的位置 { $first }

## src/cli/lesson.rs
cli-lesson-all-lessons = 课程
cli-lesson-no-claim-to-verify = { $target }：没有可验证的论断；每个课程包至少需要一个 ```claim 块
cli-lesson-check-ok = { $id }（{ $source }）：{ $tries } 个试一试，{ $checks } 个检查，{ $claims } 个论断，{ $answers } 个答案
cli-lesson-pairs-with = { $id }（{ $source }）：对应 { $original }
cli-lesson-no-claim = { $path }：没有一课含有论断；每个课程包至少需要一个 ```claim 块
cli-lesson-list-entry = { $title }（{ $minutes } 分钟）
cli-lesson-report = { $lesson }（随机种子 { $seed }，{ $seconds } 秒）：{ $claim }
cli-lesson-undefined = { $name } = 未定义（{ $why }）
cli-lesson-measured = 测得：{ $values }
cli-lesson-side = { $side } 侧：{ $divergence }
cli-lesson-failed = 未通过：{ $condition }
cli-lesson-unknown = 没有课程“{ $target }”；可用的课程有：{ $lessons }

## src/cli/bench.rs
cli-bench-rate = { $threads } 个线程  { $steps } 步/秒  { $tokens } 词元/秒
cli-bench-path = 每步：{ $path }
cli-bench-lengths-intro = 预设 { $preset }，任务 char_lm，批大小 { $batch }，{ $threads } 个线程，取至少 { $steps } 步（且至少一秒）中最快的一步
cli-bench-heads-intro = 在 { $task } 上扫描注意力头数，d_model { $d_model }，每种训练 { $steps } 步，{ $threads } 个线程
cli-bench-heads = 头数
cli-bench-validation = 验证集
cli-bench-test = 测试集
cli-bench-train-loss = 训练损失
cli-bench-heads-pick = 按验证集选中：{ $heads } 个注意力头，测试集准确率 { $test }（各种头数里最好的：{ $best }）
cli-bench-length = 长度
cli-bench-step-ms = 每步毫秒
cli-bench-attention-mib = 注意力 MiB
cli-bench-total-mib = 总计 MiB
cli-bench-refused = 已拒绝：{ $message }
cli-soak-intro = 长时间运行：lesson 预设、reverse 任务，{ $minutes } 分钟，{ $threads } 个线程，每 25 步一次注意力快照，每 100 步一次评估，每分钟保存一次
cli-soak-minute = 分钟
cli-soak-step = 步
cli-soak-resident = 常驻内存 MiB
cli-soak-rate = 步/秒
cli-soak-summary = 共 { $steps } 步、{ $snapshots } 次快照、{ $saves } 次保存；常驻内存第一次采样 { $first_mib } MiB，最后一次 { $last_mib } MiB（峰值 { $peak_mib }）；速度第一次采样 { $first_rate } 步/秒，最后一次 { $last_rate } 步/秒
cli-lesson-check-case-ok = 找 Bug 案例 { $id }（{ $source }）
cli-lesson-id-repeated = { $source } 中的课程 id { $id } 已被 { $first } 使用；进度按课程 id 保存，请给每课一个自己的 id
cli-lesson-report-wrote = 已把表格写入 { $path }。
cli-train-lengths = {"  "}按源句长度：{ $buckets }
cli-train-length-bucket = { $shortest }–{ $longest } 词 { $accuracy }（{ $sentences } 句）
cli-warning = 警告：{ $message }
cli-list-preset-rnn = 不带注意力的 { $cell } 编码器–解码器，宽度 { $d_model }（任务：{ $task }）
cli-list-preset-encoder = 编码器–解码器：解码器 { $layers }，编码器 { $encoder } 层（任务：{ $task }）
cli-inspect-model = { $class }：{ $layers } 层 × { $heads } 个头，d_model { $d }（打开用时 { $open } 毫秒，前向用时 { $forward } 毫秒）
cli-inspect-tokens = 句子 { $sequence }：{ $tokens }
cli-inspect-head = 第 { $layer } 层，第 { $head } 个头，句子 { $sequence }（行：查询；列：键）
cli-inspect-hidden = 每个词元隐藏状态的长度（[0] 为嵌入，之后是每一层之后）：
cli-inspect-mask = 句子 { $sequence }，位置 { $position }：{ $top }
cli-inspect-continuation = 续写：{ $text }
cli-bench-tries-intro = 每课自己的实验和每个“试一试”，按窗口里的方式训练（{ $threads } 个线程；目标：每个不超过 { $goal } 秒）
cli-bench-tries-over = 超过目标
cli-bench-tries-no-finish = 训练线程在完成前停止了
cli-bench-tries-summary = 共 { $runs } 次运行，{ $over } 次超过 { $goal } 秒；最慢：{ $lesson }“{ $label }”，{ $secs } 秒
cli-bench-tries-stopped = （在第 { $step } 步停止：{ $what }）
cli-bench-tries-seconds = 秒
cli-bench-tries-steps = 步数
cli-bench-tries-run = 课程和运行
