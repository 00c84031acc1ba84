#!/usr/bin/env python3
# The PyTorch reference for `attention-workbench bench --compare-torch`: the same
# decoder-only Transformer as the `lesson` and `large` presets, written by hand in
# PyTorch eager, on the same reverse task. Kept in the repository so anyone can
# reproduce the README's performance table; the binary carries a copy of this file
# (include_str!) and runs it with a Python that has torch.
"""Reference CPU training benchmark: plain decoder-only Transformer on the toy
"reverse" task, written directly in PyTorch (no nn.Transformer, no SDPA).

Task: each sample = 16 random tokens from 0..15, separator 16, then the same
16 tokens reversed  -> seq_len 33, vocab 17.  The model sees all 33 tokens
(causal mask); the loss is next-token cross-entropy on the reversed half only,
i.e. logits at positions 16..31 predict tokens at positions 17..32.

Modes:
  --mode bench     : for each of --repeats repeats: --warmup steps, then time
                     --steps steps (fwd + bwd + optimizer.step + zero_grad).
                     Batches for the timed steps are generated beforehand.
  --mode converge  : train from scratch (seed --seed) until the training batch
                     loss on the reversed half < --target-loss (or --steps
                     steps); wall time includes per-step data generation.
                     Then evaluate on a held-out batch.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

N_SRC = 16          # tokens to reverse
N_SYM = 16          # symbols 0..15
SEP = 16            # separator token
VOCAB = 17
SEQ_LEN = 2 * N_SRC + 1  # 33


# ----------------------------------------------------------------- model ----
class Block(nn.Module):
    """Post-LN block: x = LN(x + MHA(x)); x = LN(x + FFN(x))."""

    def __init__(self, d_model, heads, d_ff):
        super().__init__()
        assert d_model % heads == 0
        self.h = heads
        self.dk = d_model // heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)
        self.ln1 = nn.LayerNorm(d_model)
        self.ff1 = nn.Linear(d_model, d_ff)
        self.ff2 = nn.Linear(d_ff, d_model)
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, causal_mask):
        B, T, D = x.shape
        q = self.wq(x).view(B, T, self.h, self.dk).transpose(1, 2)  # B,h,T,dk
        k = self.wk(x).view(B, T, self.h, self.dk).transpose(1, 2)
        v = self.wv(x).view(B, T, self.h, self.dk).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.dk)     # B,h,T,T
        scores = scores.masked_fill(causal_mask[:T, :T], float("-inf"))
        att = torch.softmax(scores, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        x = self.ln1(x + self.wo(y))
        x = self.ln2(x + self.ff2(F.gelu(self.ff1(x))))
        return x


class Decoder(nn.Module):
    def __init__(self, d_model, heads, d_ff, layers, vocab=VOCAB, max_len=SEQ_LEN):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(Block(d_model, heads, d_ff) for _ in range(layers))
        self.out = nn.Linear(d_model, vocab)
        # True above the diagonal = position j > i is masked out
        self.register_buffer(
            "causal_mask",
            torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1),
            persistent=False)

    def forward(self, idx):
        B, T = idx.shape
        pos = torch.arange(T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)[None]
        for blk in self.blocks:
            x = blk(x, self.causal_mask)
        return self.out(x)  # B,T,V


# ------------------------------------------------------------------ data ----
def make_batch(batch, gen):
    src = torch.randint(0, N_SYM, (batch, N_SRC), generator=gen)
    sep = torch.full((batch, 1), SEP, dtype=torch.long)
    return torch.cat([src, sep, src.flip(1)], dim=1)  # batch, 33


def loss_fn(logits, seq):
    # predict positions 17..32 (the reversed half) from positions 16..31
    pred = logits[:, N_SRC:SEQ_LEN - 1, :]
    tgt = seq[:, N_SRC + 1:]
    return F.cross_entropy(pred.reshape(-1, pred.size(-1)), tgt.reshape(-1))


# ----------------------------------------------------------------- flops ----
def flops_per_step(d, h, f, L, B, T=SEQ_LEN, V=VOCAB):
    """Matmul FLOPs per training step (1 FMA = 2 FLOPs), backward = 2x forward.
    Per layer forward: Q,K,V,O projections 4*2*B*T*d^2, FFN 2*2*B*T*d*f,
    QK^T 2*B*T^2*d, att@V 2*B*T^2*d (full TxT computed, mask not exploited).
    Output head 2*B*T*d*V.  Embedding lookups, bias adds, softmax, GELU,
    LayerNorm, loss and Adam are NOT counted."""
    fwd_dense = 2 * B * T * (L * (4 * d * d + 2 * d * f) + d * V)
    fwd_attn = 4 * B * T * T * d * L
    return 3 * (fwd_dense + fwd_attn), 3 * fwd_dense, 3 * fwd_attn


# ----------------------------------------------------- cpu contamination ----
def _busy_jiffies():
    with open("/proc/stat") as fh:
        p = fh.readline().split()[1:]
    v = list(map(int, p))
    idle = v[3] + v[4]  # idle + iowait
    return sum(v[:8]) - idle


def _self_cpu_s():
    t = os.times()
    return t.user + t.system


class CpuWatch:
    """Rough share of the machine's CPU capacity used by OTHER processes
    during a timed window (from /proc/stat minus this process's CPU time)."""

    def __enter__(self):
        self.hz = os.sysconf("SC_CLK_TCK")
        self.ncpu = os.cpu_count()
        self.j0, self.s0, self.t0 = _busy_jiffies(), _self_cpu_s(), time.perf_counter()
        return self

    def __exit__(self, *a):
        wall = time.perf_counter() - self.t0
        busy = (_busy_jiffies() - self.j0) / self.hz
        own = _self_cpu_s() - self.s0
        self.wall = wall
        self.own_cpu = own
        self.other_share = max(0.0, (busy - own) / (wall * self.ncpu))


def wait_idle(max_wait, thr=0.04, need=3, interval=2.0):
    """Block until the machine's total busy share stays < thr for `need`
    consecutive `interval`-second samples (this process is idle meanwhile)."""
    if max_wait <= 0:
        return 0.0
    hz, ncpu, t0, ok = os.sysconf("SC_CLK_TCK"), os.cpu_count(), time.perf_counter(), 0
    while time.perf_counter() - t0 < max_wait:
        j0 = _busy_jiffies()
        time.sleep(interval)
        ok = ok + 1 if (_busy_jiffies() - j0) / hz / (interval * ncpu) < thr else 0
        if ok >= need:
            break
    return time.perf_counter() - t0


# ------------------------------------------------------------------ main ----
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--d-ff", type=int, default=256)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps", type=int, default=300,
                    help="bench: timed steps per repeat; converge: max steps")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mode", choices=["bench", "converge"], default="bench")
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--target-loss", type=float, default=0.05)
    ap.add_argument("--eval-batch", type=int, default=1024)
    ap.add_argument("--compile", action="store_true",
                    help="wrap the model in torch.compile (default: eager)")
    ap.add_argument("--log-every", type=int, default=500)
    ap.add_argument("--max-other", type=float, default=None,
                    help="bench: discard a repeat if other processes used more than this "
                         "share of the machine's CPU during its timed window, and redo it")
    ap.add_argument("--max-tries", type=int, default=30,
                    help="bench: max repeats attempted when --max-other is set")
    ap.add_argument("--wait-idle", type=float, default=0.0,
                    help="before each repeat / converge run, wait (up to this many seconds) "
                         "until other processes use < 4%% of the CPU for ~6 s")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    model = Decoder(args.d_model, args.heads, args.d_ff, args.layers)
    n_params = sum(p.numel() for p in model.parameters())
    fwd_model = torch.compile(model) if args.compile else model
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    def train_step(seq):
        loss = loss_fn(fwd_model(seq), seq)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    tokens_per_step = args.batch * SEQ_LEN
    fl, fl_dense, fl_attn = flops_per_step(args.d_model, args.heads, args.d_ff,
                                           args.layers, args.batch)
    info = dict(torch=torch.__version__, mode=args.mode, compile=args.compile,
                d_model=args.d_model, heads=args.heads, d_ff=args.d_ff,
                layers=args.layers, batch=args.batch, seq_len=SEQ_LEN,
                threads=torch.get_num_threads(), seed=args.seed, params=n_params,
                flops_per_step=fl, flops_dense=fl_dense, flops_attn=fl_attn)
    print("# config", json.dumps(info), flush=True)

    if args.mode == "bench":
        reps, discarded, r = [], [], -1
        while len(reps) < args.repeats:
            r += 1
            if args.max_other is not None and r >= args.max_tries:
                break
            waited = wait_idle(args.wait_idle)
            t_w = time.perf_counter()
            for _ in range(args.warmup):
                train_step(make_batch(args.batch, gen))
            t_w = time.perf_counter() - t_w
            batches = [make_batch(args.batch, gen) for _ in range(args.steps)]
            with CpuWatch() as w:
                for seq in batches:
                    loss = train_step(seq)
            sps = args.steps / w.wall
            rec = dict(repeat=r, warmup_s=round(t_w, 3), wall_s=round(w.wall, 4),
                       steps_per_s=round(sps, 3),
                       tokens_per_s=round(sps * tokens_per_step, 1),
                       gflops=round(sps * fl / 1e9, 3),
                       own_cpu_util=round(w.own_cpu / w.wall, 3),
                       other_cpu_share=round(w.other_share, 3),
                       last_loss=round(loss.item(), 4), waited_idle_s=round(waited, 1))
            if args.max_other is not None and w.other_share > args.max_other:
                discarded.append(rec)
                print("# discarded", json.dumps(rec), flush=True)
                continue
            reps.append(rec)
            print("# repeat", json.dumps(rec), flush=True)
        if not reps:
            print("RESULT", json.dumps(dict(info, error="no clean repeat",
                                            discarded=len(discarded))), flush=True)
            return
        med = statistics.median(r["steps_per_s"] for r in reps)
        summary = dict(info, median_steps_per_s=round(med, 3),
                       median_tokens_per_s=round(med * tokens_per_step, 1),
                       median_gflops=round(med * fl / 1e9, 3),
                       all_steps_per_s=[r["steps_per_s"] for r in reps],
                       max_other_cpu_share=max(r["other_cpu_share"] for r in reps),
                       n_clean_repeats=len(reps), n_discarded=len(discarded),
                       discarded_steps_per_s=[r["steps_per_s"] for r in discarded])
        print("RESULT", json.dumps(summary), flush=True)
        return

    # ---- converge mode
    hit_step, hit_time = None, None
    waited = wait_idle(args.wait_idle)
    info["waited_idle_s"] = round(waited, 1)
    with CpuWatch() as w:
        t0 = time.perf_counter()
        for step in range(1, args.steps + 1):
            loss = train_step(make_batch(args.batch, gen)).item()
            if args.log_every and step % args.log_every == 0:
                print(f"# step {step} loss {loss:.4f} t {time.perf_counter() - t0:.1f}s",
                      flush=True)
            if loss < args.target_loss:
                hit_step, hit_time = step, time.perf_counter() - t0
                break
    final_step = step

    # held-out evaluation on a batch from an independent generator
    model.eval()
    eval_gen = torch.Generator().manual_seed(10_000 + args.seed)
    seq = make_batch(args.eval_batch, eval_gen)
    with torch.no_grad():
        logits = model(seq)
        eval_loss = loss_fn(logits, seq).item()
        pred = logits[:, N_SRC:SEQ_LEN - 1].argmax(-1)
        tgt = seq[:, N_SRC + 1:]
        tok_acc = (pred == tgt).float().mean().item()
        seq_acc_tf = (pred == tgt).all(1).float().mean().item()
        # greedy autoregressive decoding of the reversed half
        cur = seq[:, :N_SRC + 1].clone()
        for _ in range(N_SRC):
            nxt = model(cur)[:, -1].argmax(-1, keepdim=True)
            cur = torch.cat([cur, nxt], 1)
        gen_out = cur[:, N_SRC + 1:]
        ar_tok_acc = (gen_out == tgt).float().mean().item()
        ar_seq_acc = (gen_out == tgt).all(1).float().mean().item()
    res = dict(info, target_loss=args.target_loss, reached=hit_step is not None,
               steps_to_target=hit_step, seconds_to_target=(round(hit_time, 2) if hit_time else None),
               steps_run=final_step, final_train_loss=round(loss, 5),
               other_cpu_share=round(w.other_share, 3),
               heldout_batch=args.eval_batch, heldout_loss=round(eval_loss, 5),
               heldout_token_acc_teacher_forced=round(tok_acc, 5),
               heldout_seq_acc_teacher_forced=round(seq_acc_tf, 5),
               heldout_token_acc_greedy=round(ar_tok_acc, 5),
               heldout_seq_acc_greedy=round(ar_seq_acc, 5))
    print("RESULT", json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
