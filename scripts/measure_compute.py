#!/usr/bin/env python3
"""Measure on one GPU what dtcalc's compute model assumes, and write it as CSV.

    python3 scripts/measure_compute.py OUTDIR [--budget-s SECONDS]

Needs PyTorch with CUDA (and pynvml, from nvidia-ml-py, for clocks and power).
Writes into OUTDIR:

  env.json          the device, driver, library versions, clocks and power limit as found
  gemm.csv          torch.mm (bf16, fp16) and torch._scaled_mm (fp8 e4m3) by shape and layout
  attention.csv     causal scaled-dot-product attention, forward and forward+backward, by backend
  elementwise.csv   memory-bound kernels (copy, add, norms, activations, casts, fused Adam)
  sustained.csv     SM clock and power sampled while one GEMM shape runs back to back
  attention_sequence.csv  causal attention (cuDNN) forward and backward run back to back for
                    seconds, each timed by events inside the running loop (--only attention-sequence)
  layer.csv         a Llama-style decoder layer forward and backward back to back, and its GEMMs
                    and attention alone: what remains is the layer's other work (--only layer)
  layer_kernels.csv the same layer's kernels from the profiler, each with its time per step
  layer_compiled.csv, layer_compiled_kernels.csv  the same through torch.compile (--only layer-compiled)
  output_layer.csv  the embedding lookup, output-layer GEMMs, Megatron's cross-entropy loss and the
                    embedding's gradient, per tensor-parallel rank, back to back (--only output-layer)
  output_layer_in_step.csv  the same on the last pipeline stage, between four layers' GEMMs
                    (--only output-layer-in-step)
  optimizer.csv     Megatron's distributed-optimizer step op by op: gradients to fp32, their norm,
                    fused Adam, parameters back to bf16 (--only optimizer)
  loss_variants.csv the loss forward and backward: Megatron's unfused and fused cross entropy,
                    torchtitan's F.cross_entropy (--only loss-variants)
  moe.csv, moe_ops.csv  an MoE layer's expert GEMMs grouped and one per expert, forward and
                    backward, and the token routing around them (--only moe)
  sequence.csv      one transformer layer's GEMMs (forward, dgrad, wgrad) run back to back for
                    seconds, as a training step runs them: no L2 flush, no idle gaps, the card
                    at its power cap; each GEMM timed by events inside the running sequence

How each time is taken (scripts/measure_compute.py is the method of record):
  * inputs are random normal (never zeros: zeros run faster than real data);
  * before every timed call a 256 MiB buffer is zeroed, so L2 (50 MB on H100)
    holds none of the operands: each call runs from HBM, as in a training step;
  * each call is timed alone with CUDA events around it; the median of the
    repeats is reported, with the 10th and 90th percentiles;
  * warm-up calls run first, so handle creation and kernel selection stay out.
The card's clocks, power limit and settings are measured as found, never changed.
"""
import argparse
import csv
import json
import math
import os
import platform
import subprocess
import sys
import threading
import time

import torch
import torch.nn.functional as F

DEV = torch.device("cuda")
FLUSH = None


def flush_l2():
    FLUSH.zero_()


def quantile(ts, p):
    """The p-quantile of the times ts (nearest rank)."""
    ts = sorted(ts)
    return ts[min(len(ts) - 1, int(p * (len(ts) - 1) + 0.5))]


def timed_passes(fwd, bwd, warm_s, iters):
    """Seconds of fwd() and of bwd(fwd's result) in each of `iters` back-to-back runs, events
    recorded inside the running loop, after warm_s of the same loop."""
    t_end = time.time() + warm_s
    while time.time() < t_end:
        bwd(fwd())
        torch.cuda.synchronize()
    ev = [[torch.cuda.Event(enable_timing=True) for _ in range(3)] for _ in range(iters)]
    for it in range(iters):
        ev[it][0].record()
        r = fwd()
        ev[it][1].record()
        bwd(r)
        ev[it][2].record()
    torch.cuda.synchronize()
    return [e[0].elapsed_time(e[1]) * 1e-3 for e in ev], [e[1].elapsed_time(e[2]) * 1e-3 for e in ev]


def times_in_sequence(fns, iters, warm_s=0.0):
    """Seconds of each of fns in each of `iters` back-to-back runs of them all, in order: an
    event recorded before the first and after each, inside the running loop, after warm_s
    seconds of the same loop. One list per fn."""
    t_end = time.time() + warm_s
    while time.time() < t_end:
        for fn in fns:
            fn()
        torch.cuda.synchronize()
    ev = [[torch.cuda.Event(enable_timing=True) for _ in range(len(fns) + 1)] for _ in range(iters)]
    for it in range(iters):
        ev[it][0].record()
        for i, fn in enumerate(fns):
            fn()
            ev[it][i + 1].record()
    torch.cuda.synchronize()
    return [[ev[it][i].elapsed_time(ev[it][i + 1]) * 1e-3 for it in range(iters)] for i in range(len(fns))]


def clock_and_power(nv):
    """The SM clock (MHz) and the board's power (W) now, as CSV cells; empty without NVML."""
    pynvml, h = nv
    if not pynvml:
        return "", ""
    return pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM), f"{pynvml.nvmlDeviceGetPowerUsage(h)/1000:.0f}"


def time_call(fn, min_reps=10, max_reps=100, target_s=0.25, warmup=5):
    """Median, p10, p90 seconds of fn() per call, L2 flushed before each."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    # one timed call to size the repeats
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    flush_l2()
    s.record()
    fn()
    e.record()
    torch.cuda.synchronize()
    est = max(s.elapsed_time(e) * 1e-3, 1e-6)
    reps = int(min(max_reps, max(min_reps, target_s / (est + 100e-6))))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        flush_l2()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    ts = [a.elapsed_time(b) * 1e-3 for a, b in zip(starts, ends)]
    return quantile(ts, 0.5), quantile(ts, 0.1), quantile(ts, 0.9), reps


def nvml():
    try:
        import pynvml
        pynvml.nvmlInit()
        return pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
    except Exception as ex:  # noqa: BLE001 - recorded, not fatal
        print("pynvml unavailable:", ex)
        return None, None


def environment(path):
    p = torch.cuda.get_device_properties(0)
    env = {
        "device_name": p.name,
        "multiprocessors": p.multi_processor_count,
        "total_memory_bytes": p.total_memory,
        "l2_cache_bytes": getattr(p, "L2_cache_size", None),
        "compute_capability": f"{p.major}.{p.minor}",
        "torch": torch.__version__,
        "cuda_runtime": torch.version.cuda,
        "cublas": None,
        "cudnn": torch.backends.cudnn.version(),
        "python": platform.python_version(),
    }
    try:
        env["cublas"] = torch._C._cuda_getCompiledVersion()
    except Exception:  # noqa: BLE001
        pass
    try:
        q = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,pci.bus_id,power.limit,power.default_limit,"
             "power.max_limit,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,temperature.gpu,"
             "persistence_mode,compute_mode,mig.mode.current,ecc.mode.current",
             "--format=csv"], capture_output=True, text=True, timeout=30)
        env["nvidia_smi_query"] = q.stdout.strip()
        q = subprocess.run(["nvidia-smi", "-q", "-d", "CLOCK,POWER,PERFORMANCE"],
                           capture_output=True, text=True, timeout=30)
        env["nvidia_smi_clock_power"] = q.stdout
    except Exception as ex:  # noqa: BLE001
        env["nvidia_smi_error"] = str(ex)
    with open(path, "w") as f:
        json.dump(env, f, indent=1)
    print(json.dumps({k: v for k, v in env.items() if not k.startswith("nvidia_smi_clock")}, indent=1))
    return env


class Csv:
    def __init__(self, path, fields):
        self.f = open(path, "w", newline="")
        self.w = csv.DictWriter(self.f, fieldnames=fields)
        self.w.writeheader()
        self.rows = 0

    def row(self, **kw):
        self.w.writerow(kw)
        self.f.flush()
        self.rows += 1


# ---------------------------------------------------------------- GEMM shapes

def transformer_gemms():
    """(model, layer, m_tokens, n, k) of one transformer layer's forward GEMMs per TP rank."""
    models = [
        # name, hidden, ffn, heads, kv_heads, gated ffn, tp list
        ("llama3-8b", 4096, 14336, 32, 8, True, [1, 2, 4, 8]),
        ("llama3-70b", 8192, 28672, 64, 8, True, [2, 4, 8]),
        ("gpt3-175b", 12288, 49152, 96, 96, False, [4, 8]),
    ]
    out = []
    for name, h, ffn, heads, kv, gated, tps in models:
        d = h // heads
        for tp in tps:
            qkv = (heads + 2 * kv) * d // tp
            fc1 = (2 if gated else 1) * ffn // tp
            for tokens in (4096, 8192):
                tag = f"{name}/tp{tp}"
                out += [(tag, "qkv", tokens, qkv, h), (tag, "proj", tokens, h, h // tp),
                        (tag, "fc1", tokens, fc1, h), (tag, "fc2", tokens, h, ffn // tp)]
    return out


def gemm_shapes():
    """(family, pass, m, n, k) of the sweep."""
    shapes = []
    for s in (256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384):
        shapes.append(("square", "fwd", s, s, s))
    for mn in (2048, 4096, 8192):
        for k in (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768):
            shapes.append(("k-sweep", "fwd", mn, mn, k))
    for n in range(128, 4352 + 1, 128):  # tile and wave quantisation: 128 x 256 tiles over 132 SMs
        shapes.append(("n-sweep", "fwd", 4096, n, 8192))
    for m in (128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768):
        shapes.append(("m-sweep", "fwd", m, 8192, 8192))
    for tag, layer, t, n, k in transformer_gemms():
        fam = f"{tag}/{layer}"
        shapes.append((fam, "fwd", t, n, k))     # Y = X W        (t x k)(k x n)
        shapes.append((fam, "dgrad", t, k, n))   # dX = dY W^T    (t x n)(n x k)
        shapes.append((fam, "wgrad", k, n, t))   # dW = X^T dY    (k x t)(t x n)
    return shapes


# Transformer Engine's defaults: fast (single) accumulation in the forward fp8 GEMM, split
# accumulation in dgrad and wgrad (transformer_engine/pytorch/module/base.py, _2X_ACC_FPROP
# False, _2X_ACC_DGRAD and _2X_ACC_WGRAD True).
def fp8_fast_accum(pas):
    return pas == "fwd"


def make_gemm(prec, pas, m, n, k):
    """(callable, layout) of one GEMM of the given pass. bf16 and fp16 in the layout cuBLAS sees
    for Megatron's passes: fwd X W (NN), dgrad dY W^T (NT), wgrad X^T dY (TN). fp8 e4m3 with a
    bf16 output in the one layout Hopper's fp8 GEMMs take, A row-major and B column-major (TN),
    as Transformer Engine arranges them."""
    if prec in ("bf16", "fp16"):
        dt = torch.bfloat16 if prec == "bf16" else torch.float16
        if pas == "wgrad":
            a, b, layout = torch.randn(k, m, device=DEV, dtype=dt).t(), torch.randn(k, n, device=DEV, dtype=dt), "TN"
        elif pas == "dgrad":
            a, b, layout = torch.randn(m, k, device=DEV, dtype=dt), torch.randn(n, k, device=DEV, dtype=dt).t(), "NT"
        else:
            a, b, layout = torch.randn(m, k, device=DEV, dtype=dt), torch.randn(k, n, device=DEV, dtype=dt), "NN"
        c = torch.empty(m, n, device=DEV, dtype=dt)
        return (lambda: torch.mm(a, b, out=c)), layout
    a = torch.randn(m, k, device=DEV).to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device=DEV).to(torch.float8_e4m3fn).t()
    one = torch.ones((), device=DEV)
    fast = fp8_fast_accum(pas)
    return (lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                     use_fast_accum=fast)), "TN"


def run_gemms(out, deadline):
    w = Csv(os.path.join(out, "gemm.csv"),
            ["family", "pass", "precision", "layout", "m", "n", "k", "median_us", "p10_us", "p90_us",
             "reps", "tflops", "fp8_fast_accum"])
    shapes = gemm_shapes()
    print(f"gemm: {len(shapes)} shapes")
    for prec in ("bf16", "fp8", "fp16"):
        for fam, pas, m, n, k in shapes:
            if time.time() > deadline:
                print("gemm: budget reached")
                return w.rows
            if prec == "fp16" and fam not in ("square", "k-sweep"):
                continue
            if prec == "fp8" and (k % 16 or n % 16 or m % 16):
                continue  # fp8 GEMMs need dimensions in multiples of 16
            fn = None
            try:
                fn, layout = make_gemm(prec, pas, m, n, k)
                med, p10, p90, reps = time_call(fn)
                w.row(family=fam, **{"pass": pas}, precision=prec, layout=layout, m=m, n=n, k=k,
                      median_us=f"{med*1e6:.2f}", p10_us=f"{p10*1e6:.2f}", p90_us=f"{p90*1e6:.2f}",
                      reps=reps, tflops=f"{2*m*n*k/med/1e12:.1f}",
                      fp8_fast_accum=(int(fp8_fast_accum(pas)) if prec == "fp8" else ""))
            except Exception as ex:  # noqa: BLE001 - one shape failing must not lose the rest
                print(f"gemm {prec} {fam} {pas} {m}x{n}x{k}: {type(ex).__name__}: {ex}")
            finally:
                fn = None
    return w.rows


# ---------------------------------------------------------------- attention

def run_attention(out, deadline):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    w = Csv(os.path.join(out, "attention.csv"),
            ["backend", "batch", "heads", "seq", "head_dim", "causal", "fwd_us", "fwd_bwd_us",
             "fwd_tflops", "bwd_tflops"])
    configs = []
    for seq in (1024, 2048, 4096, 8192, 16384, 32768):
        for heads in (8, 16, 32, 64):
            batch = max(1, 16384 // seq)
            configs.append((batch, heads, seq, 128))
    configs += [(1, 32, 4096, 64), (2, 16, 4096, 64), (1, 48, 4096, 128), (1, 24, 8192, 128)]
    backends = [("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)]
    for name, be in backends:
        for b, h, s, d in configs:
            if time.time() > deadline:
                print("attention: budget reached")
                return w.rows
            try:
                q, k, v = (torch.randn(b, h, s, d, device=DEV, dtype=torch.bfloat16, requires_grad=True)
                           for _ in range(3))
                g = torch.randn(b, h, s, d, device=DEV, dtype=torch.bfloat16)
                with sdpa_kernel([be]):
                    fwd = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)

                    def fb():
                        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                        o.backward(g)
                    tf, _, _, _ = time_call(fwd, max_reps=50, target_s=0.15)
                    tfb, _, _, _ = time_call(fb, max_reps=30, target_s=0.2)
                # causal: half of the 4 b h s^2 d forward FLOPs; backward 2.5x forward (5 matmuls vs 2)
                ff = 4 * b * h * s * s * d / 2
                w.row(backend=name, batch=b, heads=h, seq=s, head_dim=d, causal=1,
                      fwd_us=f"{tf*1e6:.1f}", fwd_bwd_us=f"{tfb*1e6:.1f}",
                      fwd_tflops=f"{ff/tf/1e12:.1f}", bwd_tflops=f"{2.5*ff/max(tfb-tf,1e-9)/1e12:.1f}")
            except Exception as ex:  # noqa: BLE001
                print(f"attention {name} b{b} h{h} s{s} d{d}: {type(ex).__name__}: {str(ex)[:200]}")
            finally:
                q = k = v = g = None
    return w.rows


# ---------------------------------------------------------------- memory-bound kernels

def run_elementwise(out, deadline):
    w = Csv(os.path.join(out, "elementwise.csv"),
            ["op", "dtype", "rows", "cols", "bytes_moved", "median_us", "gbps"])
    for rows, cols in ((2048, 4096), (8192, 4096), (8192, 8192), (16384, 12288), (65536, 8192)):
        n = rows * cols
        x = torch.randn(rows, cols, device=DEV, dtype=torch.bfloat16)
        y = torch.randn(rows, cols, device=DEV, dtype=torch.bfloat16)
        o = torch.empty_like(x)
        gw = torch.randn(cols, device=DEV, dtype=torch.bfloat16)
        gb = torch.randn(cols, device=DEV, dtype=torch.bfloat16)
        x2 = torch.randn(rows, 2 * cols, device=DEV, dtype=torch.bfloat16)
        scale = torch.ones((), device=DEV)
        E = 2  # bytes per bf16 element
        ops = [
            ("copy", lambda: o.copy_(x), 2 * n * E),
            ("add", lambda: torch.add(x, y, out=o), 3 * n * E),
            ("gelu", lambda: F.gelu(x, approximate="tanh"), 2 * n * E),
            ("swiglu", lambda: F.silu(x2[:, :cols]) * x2[:, cols:], 3 * n * E),
            ("layer_norm", lambda: F.layer_norm(x, (cols,), gw, gb), 2 * n * E),
            ("rms_norm", lambda: F.rms_norm(x, (cols,), gw), 2 * n * E),
            ("softmax", lambda: torch.softmax(x, dim=-1), 2 * n * E),
            ("dropout_add", lambda: F.dropout(x, 0.1, training=True) + y, 3 * n * E + n),
            ("cast_fp8", lambda: (x * scale).to(torch.float8_e4m3fn), n * E + n),
        ]
        for op, fn, moved in ops:
            if time.time() > deadline:
                return w.rows
            try:
                med, _, _, _ = time_call(fn, max_reps=50, target_s=0.1)
                w.row(op=op, dtype="bf16", rows=rows, cols=cols, bytes_moved=moved,
                      median_us=f"{med*1e6:.2f}", gbps=f"{moved/med/1e9:.1f}")
            except Exception as ex:  # noqa: BLE001
                print(f"elementwise {op} {rows}x{cols}: {type(ex).__name__}: {ex}")
        x = y = o = x2 = None
    # fused Adam over fp32 master weights: reads param, grad, m, v and writes param, m, v (28 B/param)
    for nparams in (256 * 2**20, 1024 * 2**20):
        if time.time() > deadline:
            break
        try:
            p = torch.nn.Parameter(torch.randn(nparams, device=DEV))
            p.grad = torch.randn(nparams, device=DEV)
            opt = torch.optim.Adam([p], lr=1e-4, fused=True)
            opt.step()
            med, _, _, _ = time_call(opt.step, max_reps=30, target_s=0.2)
            moved = 28 * nparams
            w.row(op="adam_fused_fp32", dtype="fp32", rows=nparams, cols=1, bytes_moved=moved,
                  median_us=f"{med*1e6:.2f}", gbps=f"{moved/med/1e9:.1f}")
        except Exception as ex:  # noqa: BLE001
            print(f"adam {nparams}: {type(ex).__name__}: {ex}")
        finally:
            p = opt = None
    return w.rows


# ---------------------------------------------------------------- sustained clock

def run_sustained(out, seconds, nv):
    pynvml, h = nv
    w = Csv(os.path.join(out, "sustained.csv"),
            ["precision", "t_s", "sm_clock_mhz", "mem_clock_mhz", "power_w", "temp_c", "tflops_window"])
    if pynvml is None:
        return 0
    for prec in ("bf16", "fp8"):
        m = n = k = 8192
        if prec == "bf16":
            a = torch.randn(m, k, device=DEV, dtype=torch.bfloat16)
            b = torch.randn(k, n, device=DEV, dtype=torch.bfloat16)
            fn = lambda: torch.mm(a, b)
        else:
            a = torch.randn(m, k, device=DEV).to(torch.float8_e4m3fn)
            b = torch.randn(n, k, device=DEV).to(torch.float8_e4m3fn).t()
            one = torch.ones((), device=DEV)
            fn = lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
        fn()
        torch.cuda.synchronize()
        t0 = time.time()
        while time.time() - t0 < seconds:
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(20):
                fn()
            e.record()
            e.synchronize()
            dt = s.elapsed_time(e) * 1e-3
            w.row(precision=prec, t_s=f"{time.time()-t0:.2f}",
                  sm_clock_mhz=pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
                  mem_clock_mhz=pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM),
                  power_w=f"{pynvml.nvmlDeviceGetPowerUsage(h)/1000:.0f}",
                  temp_c=pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU),
                  tflops_window=f"{20*2*m*n*k/dt/1e12:.1f}")
        a = b = None
    return w.rows


# ---------------------------------------------------------------- GEMMs back to back

def run_sequence(out, deadline, nv, warm_s=0.6, iters=10):
    w = Csv(os.path.join(out, "sequence.csv"),
            ["family", "pass", "precision", "m", "n", "k", "median_us", "p10_us", "p90_us", "tflops",
             "sm_clock_mhz", "power_w"])
    configs = {}
    for tag, layer, t, n, k in transformer_gemms():
        configs.setdefault((tag, t), []).append((layer, t, n, k))
    first = True
    for prec in ("bf16", "fp8"):
        for (tag, t), layers in configs.items():
            if time.time() > deadline:
                print("sequence: budget reached")
                return w.rows
            try:
                seq = []
                for layer, m, n, k in layers:  # forward of every layer, then the backward passes
                    seq.append((f"{tag}/{layer}", "fwd", m, n, k))
                for layer, m, n, k in reversed(layers):
                    seq += [(f"{tag}/{layer}", "dgrad", m, k, n), (f"{tag}/{layer}", "wgrad", k, n, m)]
                fns = [make_gemm(prec, p, m, n, k)[0] for _, p, m, n, k in seq]
                times = times_in_sequence(fns, iters, 3.0 if first else warm_s)
                first = False
                clock, power = clock_and_power(nv)
                for (fam, p, m, n, k), ts in zip(seq, times):
                    q = lambda x: quantile(ts, x)
                    w.row(family=fam, **{"pass": p}, precision=prec, m=m, n=n, k=k,
                          median_us=f"{q(0.5)*1e6:.2f}", p10_us=f"{q(0.1)*1e6:.2f}", p90_us=f"{q(0.9)*1e6:.2f}",
                          tflops=f"{2*m*n*k/q(0.5)/1e12:.1f}", sm_clock_mhz=clock, power_w=power)
            except Exception as ex:  # noqa: BLE001
                print(f"sequence {prec} {tag} {t}: {type(ex).__name__}: {ex}")
            finally:
                fns = None
    return w.rows


def run_attention_sequence(out, deadline, nv, warm_s=0.5, iters=10):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    pynvml, h = nv
    w = Csv(os.path.join(out, "attention_sequence.csv"),
            ["backend", "batch", "heads", "seq", "head_dim", "fwd_us", "bwd_us", "fwd_p10_us", "fwd_p90_us",
             "bwd_p10_us", "bwd_p90_us", "fwd_tflops", "bwd_tflops", "sm_clock_mhz", "power_w"])
    configs = []
    for seq in (1024, 2048, 4096, 8192, 16384, 32768):
        for heads in (8, 16, 32, 64):
            configs.append((max(1, 16384 // seq), heads, seq, 128))
    first = True
    for b, hh, sl, d in configs:
        if time.time() > deadline:
            print("attention-sequence: budget reached")
            break
        try:
            q, k, v = (torch.randn(b, hh, sl, d, device=DEV, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
            g = torch.randn(b, hh, sl, d, device=DEV, dtype=torch.bfloat16)
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                fw, bw = timed_passes(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                                      lambda o: o.backward(g), 3.0 if first else warm_s, iters)
                first = False
            clock = pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM) if pynvml else ""
            power = f"{pynvml.nvmlDeviceGetPowerUsage(h)/1000:.0f}" if pynvml else ""
            ff = 4 * b * hh * sl * sl * d / 2  # causal half of the forward's FLOPs; backward 2.5x
            w.row(backend="cudnn", batch=b, heads=hh, seq=sl, head_dim=d,
                  fwd_us=f"{quantile(fw, .5)*1e6:.1f}", bwd_us=f"{quantile(bw, .5)*1e6:.1f}",
                  fwd_p10_us=f"{quantile(fw, .1)*1e6:.1f}", fwd_p90_us=f"{quantile(fw, .9)*1e6:.1f}",
                  bwd_p10_us=f"{quantile(bw, .1)*1e6:.1f}", bwd_p90_us=f"{quantile(bw, .9)*1e6:.1f}",
                  fwd_tflops=f"{ff/quantile(fw, .5)/1e12:.1f}", bwd_tflops=f"{2.5*ff/quantile(bw, .5)/1e12:.1f}",
                  sm_clock_mhz=clock, power_w=power)
        except Exception as ex:  # noqa: BLE001
            print(f"attention-sequence b{b} h{hh} s{sl}: {type(ex).__name__}: {str(ex)[:200]}")
        finally:
            q = k = v = g = None
    return w.rows


# ---------------------------------------------------------------- a whole layer

def _median_passes(fwd, bwd, warm_s, iters):
    """Median seconds of fwd() and of bwd(fwd's result) run back to back (timed_passes)."""
    fw, bw = timed_passes(fwd, bwd, warm_s, iters)
    return quantile(fw, 0.5), quantile(bw, 0.5)


def run_layer(out, deadline, nv, warm_s=1.0, iters=10, compiled=False):
    """One Llama-style decoder layer per tensor-parallel rank (bf16, eager PyTorch: rms_norm,
    the qkv GEMM, rotary embedding, causal cuDNN attention, the projection, residual adds, the
    gated MLP), forward and backward run back to back; then the same GEMMs (forward, dgrad,
    wgrad) and the same attention alone, back to back. What the layer takes beyond them is its
    other work (norms, rotary, activations, residuals, copies, launches): the part dtcalc times
    at the device's elementwise rate. Its ratio between two cards says how that work moves
    from one to the other. compiled: the same layer through torch.compile, whose generated
    kernels fuse the elementwise work as a fused framework does (layer_compiled.csv,
    layer_compiled_kernels.csv; fewer shapes, each compiled first)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    pynvml, h = nv
    name_of = "layer_compiled" if compiled else "layer"
    w = Csv(os.path.join(out, f"{name_of}.csv"),
            ["model", "tp", "tokens", "hidden", "layer_fwd_us", "layer_bwd_us", "gemm_fwd_us", "gemm_bwd_us",
             "attention_fwd_us", "attention_bwd_us", "rest_fwd_us", "rest_bwd_us", "rest_fwd_ps_per_element",
             "rest_bwd_ps_per_element", "sm_clock_mhz", "power_w"])
    kernels = []
    models = [("llama3-8b", 4096, 14336, 32, 8, (1, 2, 4, 8)), ("llama3-70b", 8192, 28672, 64, 8, (4, 8))]
    if compiled:
        models = [("llama3-8b", 4096, 14336, 32, 8, (2, 8)), ("llama3-70b", 8192, 28672, 64, 8, (8,))]
    b, s, d = 2, 4096, 128
    tokens = b * s
    configs = [(m, tp) for m in models for tp in m[5]]
    for (name, hid, ffn, heads, kv, _), tp in configs:
        if time.time() > deadline:
            print("layer: budget reached")
            break
        try:
            hq, hk, f = heads // tp, max(1, kv // tp), ffn // tp
            mk = lambda *shape, grad=True: torch.randn(*shape, device=DEV, dtype=torch.bfloat16).mul_(0.02).requires_grad_(grad)
            wqkv, wo, w1, w2 = mk(hid, (hq + 2 * hk) * d), mk(hq * d, hid), mk(hid, 2 * f), mk(f, hid)
            g1, g2 = mk(hid), mk(hid)
            x = torch.randn(tokens, hid, device=DEV, dtype=torch.bfloat16, requires_grad=True)
            pos = torch.arange(s, device=DEV, dtype=torch.float32)
            inv = 1.0 / (10000 ** (torch.arange(0, d, 2, device=DEV, dtype=torch.float32) / d))
            ang = torch.outer(pos, inv)
            cos = torch.cat([ang.cos(), ang.cos()], -1).to(torch.bfloat16)
            sin = torch.cat([ang.sin(), ang.sin()], -1).to(torch.bfloat16)

            def rope(t):
                t1, t2 = t[..., : d // 2], t[..., d // 2:]
                return t * cos + torch.cat([-t2, t1], -1) * sin

            def attend(q, k, v):
                """Causal attention; grouped keys and values expanded where the kernel wants them so."""
                try:
                    return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=hq != hk)
                except RuntimeError:
                    k, v = (t.repeat_interleave(hq // hk, dim=1) for t in (k, v))
                    return F.scaled_dot_product_attention(q, k, v, is_causal=True)

            def body(attention):
                y = F.rms_norm(x, (hid,), g1)
                q, k, v = (y @ wqkv).split([hq * d, hk * d, hk * d], dim=-1)
                q = rope(q.view(b, s, hq, d).transpose(1, 2))
                k = rope(k.view(b, s, hk, d).transpose(1, 2))
                v = v.view(b, s, hk, d).transpose(1, 2)
                o = attention(q, k, v)
                x2 = x + o.transpose(1, 2).reshape(tokens, hq * d) @ wo
                a, c = (F.rms_norm(x2, (hid,), g2) @ w1).chunk(2, dim=-1)
                return x2 + (F.silu(a) * c) @ w2

            def direct(q, k, v):  # what torch.compile traces: no fallback inside
                return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=hq != hk)

            layer = torch.compile(lambda: body(direct)) if compiled else (lambda: body(attend))

            grad = torch.randn(tokens, hid, device=DEV, dtype=torch.bfloat16)
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION]):
                if compiled:  # compile (forward and backward) before anything is timed
                    layer().backward(grad)
                    torch.cuda.synchronize()
                lf, lb = _median_passes(layer, lambda r: r.backward(grad), warm_s, iters)
                # the GEMMs alone: forward, then dgrad and wgrad of each, in the layer's order
                shapes = [(tokens, (hq + 2 * hk) * d, hid), (tokens, hid, hq * d), (tokens, 2 * f, hid),
                          (tokens, hid, f)]
                fw = [make_gemm("bf16", "fwd", m, n, k)[0] for m, n, k in shapes]
                bw = [g for m, n, k in reversed(shapes)
                      for g in (make_gemm("bf16", "dgrad", m, k, n)[0], make_gemm("bf16", "wgrad", k, n, m)[0])]
                gf, gb = _median_passes(lambda: [g() for g in fw], lambda _: [g() for g in bw], warm_s / 2, iters)
                fw = bw = None
                qa = torch.randn(b, hq, s, d, device=DEV, dtype=torch.bfloat16, requires_grad=True)
                ka, va = (torch.randn(b, hk, s, d, device=DEV, dtype=torch.bfloat16, requires_grad=True)
                          for _ in range(2))
                go = torch.randn(b, hq, s, d, device=DEV, dtype=torch.bfloat16)
                af, ab = _median_passes(
                    lambda: attend(qa, ka, va),
                    lambda o: o.backward(go), warm_s / 2, iters)
                kernels.extend(_layer_kernels(name, tp, layer, grad))
            clock = pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM) if pynvml else ""
            power = f"{pynvml.nvmlDeviceGetPowerUsage(h)/1000:.0f}" if pynvml else ""
            rf, rb = lf - gf - af, lb - gb - ab
            w.row(model=name, tp=tp, tokens=tokens, hidden=hid, layer_fwd_us=f"{lf*1e6:.1f}",
                  layer_bwd_us=f"{lb*1e6:.1f}", gemm_fwd_us=f"{gf*1e6:.1f}", gemm_bwd_us=f"{gb*1e6:.1f}",
                  attention_fwd_us=f"{af*1e6:.1f}", attention_bwd_us=f"{ab*1e6:.1f}",
                  rest_fwd_us=f"{rf*1e6:.1f}", rest_bwd_us=f"{rb*1e6:.1f}",
                  rest_fwd_ps_per_element=f"{rf*1e12/(tokens*hid):.2f}",
                  rest_bwd_ps_per_element=f"{rb*1e12/(tokens*hid):.2f}", sm_clock_mhz=clock, power_w=power)
        except Exception as ex:  # noqa: BLE001
            print(f"layer {name} tp{tp}: {type(ex).__name__}: {str(ex)[:300]}")
        finally:
            wqkv = wo = w1 = w2 = g1 = g2 = x = qa = ka = va = go = grad = None
    with open(os.path.join(out, f"{name_of}_kernels.csv"), "w", newline="") as f:
        kw = csv.writer(f)
        kw.writerow(["model", "tp", "category", "kernel", "calls_per_step", "us_per_step"])
        kw.writerows(kernels)
    return w.rows


def _kernel_category(name):
    n = name.lower()
    if any(t in n for t in ("flash", "fmha", "sdpa", "attn", "attention")):
        return "attention"
    if any(t in n for t in ("gemm", "xmma", "cutlass", "nvjet", "cublas", "sm90_")):
        return "gemm"
    if "memcpy" in n or "memset" in n:
        return "copy"
    return "other"


def _layer_kernels(name, tp, layer, grad, steps=3):
    """Each kernel the layer's forward and backward run, from the profiler: [model, tp,
    category, kernel, calls per step, microseconds per step]."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            layer().backward(grad)
        torch.cuda.synchronize()
    agg = {}
    for e in prof.events():
        if e.device_type != DeviceType.CUDA:
            continue
        k = agg.setdefault(e.name, [0, 0.0])
        k[0] += 1
        k[1] += e.time_range.elapsed_us()
    return [[name, tp, _kernel_category(k), k[:160], f"{c / steps:.1f}", f"{t / steps:.1f}"]
            for k, (c, t) in sorted(agg.items(), key=lambda kv: -kv[1][1])]


# ---------------------------------------------------------------- output layer, loss, embedding, optimizer

# (model, hidden, vocab as Megatron pads it, tp list): the last stage's output layer and the
# first stage's embedding, per tensor-parallel rank. Megatron pads the vocabulary to a multiple
# of 128 x tp (megatron/training/tokenizer: _vocab_size_with_padding, make-vocab-size-divisible-by
# 128); 128,256 and 32,000 already are, GPT-2's 50,257 becomes 51,200 at tp 8.
OUTPUT_LAYER_MODELS = [
    ("llama3-8b", 4096, 128256, (1, 2, 4, 8)),
    ("llama3-70b", 8192, 128256, (1, 2, 4, 8)),
    ("llama2-7b", 4096, 32000, (1, 2, 4, 8)),
    ("gpt3-175b", 12288, 51200, (1, 2, 4, 8)),
]


def cross_entropy_unfused(logits_bf16, target):
    """Megatron-Core's vocab-parallel cross entropy forward at tp 1 (megatron/core/tensor_parallel/
    cross_entropy.py, _VocabParallelCrossEntropy.forward, no label smoothing), op for op: the logits
    to fp32, their max, subtracted in place, the target's logit gathered, exp in place, the row
    sums, the loss, the softmax by an in-place divide. Returns (loss, softmax, masked target)."""
    x = logits_bf16.float()
    mx = torch.max(x, dim=-1)[0]
    x -= mx.unsqueeze(-1)
    rows = torch.arange(x.size(0), device=x.device)
    pred = x[rows, target].clone()
    torch.exp(x, out=x)
    s = x.sum(dim=-1)
    loss = torch.log(s) - pred
    x.div_(s.unsqueeze(-1))
    return loss, x, target


def cross_entropy_unfused_backward(softmax, target, grad_loss):
    """Its backward: one subtracted at each target, scaled by the loss gradient in place, and the
    autograd cast back to the logits' bf16."""
    rows = torch.arange(softmax.size(0), device=softmax.device)
    softmax[rows, target] -= 1.0
    softmax.mul_(grad_loss.unsqueeze(-1))
    return softmax.to(torch.bfloat16)


def run_output_layer(out, deadline, nv, warm_s=0.5, iters=10, layers_around=0):
    """One microbatch's embedding lookup, output-layer GEMMs, loss and embedding gradient, back to
    back as a step runs them, each op timed by events inside the running loop. With
    layers_around > 0 (output_layer_in_step.csv), the last pipeline stage's view: the forward
    GEMMs of that many transformer layers run before the output layer and their input and weight
    gradients after it, in bf16, so the output layer's ops run at the clock a step holds them at
    (only the configurations whose layer GEMMs transformer_gemms lists)."""
    layer_gemms = {}
    for tag, layer, t, n, k in transformer_gemms():
        layer_gemms.setdefault((tag, t), []).append((layer, t, n, k))
    name = "output_layer_in_step.csv" if layers_around else "output_layer.csv"
    w = Csv(os.path.join(out, name),
            ["model", "tp", "tokens", "hidden", "vocab_per_rank", "op", "m", "n", "k", "elements",
             "median_us", "p10_us", "p90_us", "sm_clock_mhz", "power_w"] + (["layers_around"] if layers_around else []))
    first = True
    for tokens in (4096, 8192):
        for model, hid, vocab, tps in OUTPUT_LAYER_MODELS:
            for tp in tps:
                if time.time() > deadline:
                    print("output-layer: budget reached")
                    return w.rows
                if layers_around and (f"{model}/tp{tp}", tokens) not in layer_gemms:
                    continue
                v = vocab // tp
                try:
                    wt = torch.randn(v, hid, device=DEV, dtype=torch.bfloat16) * 0.02
                    main_grad = torch.zeros(v, hid, device=DEV, dtype=torch.float32)
                    ids = torch.randint(0, v, (tokens,), device=DEV)
                    xin = torch.randn(tokens, hid, device=DEV, dtype=torch.bfloat16)
                    gl = torch.full((tokens,), 1.0 / tokens, device=DEV)
                    st = {}

                    def emb_fwd():
                        st["emb"] = F.embedding(ids, wt)

                    def logits_fwd():  # Y = X W^T, Megatron's output layer (F.linear)
                        st["logits"] = torch.mm(xin, wt.t())

                    def loss_fwd():
                        st["loss"], st["sm"], _ = cross_entropy_unfused(st["logits"], ids)

                    def loss_bwd():
                        st["dlogits"] = cross_entropy_unfused_backward(st["sm"], ids, gl)

                    def logits_dgrad():  # dX = dY W
                        st["dx"] = torch.mm(st["dlogits"], wt)

                    def logits_wgrad():  # dW = dY^T X, accumulated into fp32 main_grad
                        st["dw"] = torch.mm(st["dlogits"].t(), xin)

                    def emb_bwd():  # the embedding's dense gradient, then main_grad += grad
                        gw = torch.ops.aten.embedding_dense_backward(st["dx"], ids, v, -1, False)
                        main_grad.add_(gw)

                    ops = [("embedding_fwd", emb_fwd, tokens, hid, 0), ("logits_fwd", logits_fwd, tokens, v, hid),
                           ("loss_fwd", loss_fwd, tokens, v, 0), ("loss_bwd", loss_bwd, tokens, v, 0),
                           ("logits_dgrad", logits_dgrad, tokens, hid, v), ("logits_wgrad", logits_wgrad, v, hid, tokens),
                           ("embedding_bwd", emb_bwd, v, hid, 0)]
                    before, after = [], []
                    if layers_around:  # the last stage: its layers' forward, the output layer, their backward
                        ops = ops[1:-1]  # the embedding is the first stage's
                        shapes = layer_gemms[(f"{model}/tp{tp}", tokens)]
                        for _ in range(layers_around):
                            before += [make_gemm("bf16", "fwd", m, n, k)[0] for _, m, n, k in shapes]
                            after += [g for _, m, n, k in reversed(shapes)
                                      for g in (make_gemm("bf16", "dgrad", m, k, n)[0], make_gemm("bf16", "wgrad", k, n, m)[0])]
                    fns = before + [f for _, f, *_ in ops] + after
                    times = times_in_sequence(fns, iters, 3.0 if first else warm_s)[len(before):len(before) + len(ops)]
                    first = False
                    clock, power = clock_and_power(nv)
                    for (op, _, m, n, k), ts in zip(ops, times):
                        elements = m * n
                        extra = {"layers_around": layers_around} if layers_around else {}
                        w.row(model=model, tp=tp, tokens=tokens, hidden=hid, vocab_per_rank=v, op=op, m=m, n=n, k=k,
                              elements=elements, median_us=f"{quantile(ts, 0.5)*1e6:.2f}",
                              p10_us=f"{quantile(ts, 0.1)*1e6:.2f}", p90_us=f"{quantile(ts, 0.9)*1e6:.2f}",
                              sm_clock_mhz=clock, power_w=power, **extra)
                except Exception as ex:  # noqa: BLE001
                    print(f"output-layer {model} tp {tp} {tokens}: {type(ex).__name__}: {ex}")
                finally:
                    st = wt = main_grad = ids = xin = ops = fns = before = after = None
                    torch.cuda.empty_cache()
    return w.rows


def run_optimizer(out, deadline, nv, iters=10):
    """Megatron-Core's distributed-optimizer step on one rank's shard, op for op
    (megatron/core/optimizer/distrib_optimizer.py and optimizer.py, bf16 with fp32 main params):
    the bf16 gradients copied to fp32 main gradients, their global norm (clip_grad_norm_fp32),
    the fused Adam step over fp32 params, grads, exp_avg, exp_avg_sq, and the fp32 params copied
    back to the bf16 model params. Tensors shaped as a Llama-3 8B layer's weights; each op over the
    whole shard timed by events inside the running loop."""
    w = Csv(os.path.join(out, "optimizer.csv"),
            ["params", "tensors", "op", "bytes_per_param", "median_us", "p10_us", "p90_us", "gbps",
             "sm_clock_mhz", "power_w"])
    layer = [(4096, 4096), (1024, 4096), (1024, 4096), (4096, 4096), (14336, 4096), (14336, 4096), (4096, 14336)]
    for nlayers in (1, 4):  # 218 M and 872 M parameters: 20 B each in fp32 and bf16 copies
        if time.time() > deadline:
            break
        try:
            shapes = layer * nlayers
            n = sum(a * b for a, b in shapes)
            model_g = [torch.randn(a, b, device=DEV, dtype=torch.bfloat16) for a, b in shapes]
            model_p = [torch.empty(a, b, device=DEV, dtype=torch.bfloat16) for a, b in shapes]
            main = [torch.nn.Parameter(torch.randn(a, b, device=DEV)) for a, b in shapes]
            for p in main:
                p.grad = torch.empty_like(p)
            opt = torch.optim.AdamW(main, lr=1e-4, weight_decay=0.1, fused=True)
            grads = [p.grad for p in main]
            ops = [("grad_to_fp32", lambda: torch._foreach_copy_(grads, model_g), 6),
                   ("grad_norm", lambda: torch.linalg.vector_norm(torch.stack(torch._foreach_norm(grads))), 4),
                   ("adam_fused", opt.step, 28),
                   ("param_to_bf16", lambda: torch._foreach_copy_(model_p, main), 6)]
            for _ in range(3):
                for _, f, _ in ops:
                    f()
            torch.cuda.synchronize()
            times = times_in_sequence([f for _, f, _ in ops], iters)
            clock, power = clock_and_power(nv)
            for (op, _, bpp), ts in zip(ops, times):
                med = quantile(ts, 0.5)
                w.row(params=n, tensors=len(shapes), op=op, bytes_per_param=bpp, median_us=f"{med*1e6:.2f}",
                      p10_us=f"{quantile(ts, 0.1)*1e6:.2f}", p90_us=f"{quantile(ts, 0.9)*1e6:.2f}",
                      gbps=f"{bpp*n/med/1e9:.1f}", sm_clock_mhz=clock, power_w=power)
        except Exception as ex:  # noqa: BLE001
            print(f"optimizer {nlayers} layers: {type(ex).__name__}: {ex}")
        finally:
            model_g = model_p = main = opt = grads = ops = None
            torch.cuda.empty_cache()
    return w.rows


def run_loss_variants(out, deadline, nv, warm_s=0.5, iters=10):
    """The loss over one microbatch's logits three ways, forward and backward timed apart inside a
    running loop: Megatron-Core's unfused cross entropy (as run_output_layer), its fused path
    (--cross-entropy-loss-fusion: the logits' cast and max, the subtract and exp in place, the
    divide in place and the backward's scaling each one kernel through torch.compile, as
    megatron/core/fusions/fused_cross_entropy.py groups them), and torchtitan's
    F.cross_entropy on the logits cast to fp32 (torchtitan/components/loss.py)."""
    pynvml, h = nv
    w = Csv(os.path.join(out, "loss_variants.csv"),
            ["variant", "tokens", "vocab_per_rank", "elements", "pass", "median_us", "p10_us", "p90_us",
             "sm_clock_mhz", "power_w"])

    @torch.compile(dynamic=False)
    def fused_max(x):
        xf = x.float()
        return xf, torch.max(xf, dim=-1)[0]

    @torch.compile(dynamic=False)
    def fused_exp(xf, mx):
        xf.sub_(mx.unsqueeze(-1))
        xf.exp_()

    @torch.compile(dynamic=False)
    def fused_div(xf, s, pred):
        loss = torch.log(s) - pred
        xf.div_(s.unsqueeze(-1))
        return loss

    @torch.compile(dynamic=False)
    def fused_scale(xf, g):
        xf.mul_(g.unsqueeze(-1))

    def fused_fwd(logits, ids, st):
        xf, mx = fused_max(logits)
        rows = torch.arange(xf.size(0), device=xf.device)
        pred = xf[rows, ids] - mx
        fused_exp(xf, mx)
        s = xf.sum(dim=-1)
        st["loss"] = fused_div(xf, s, pred)
        st["sm"] = xf

    def fused_bwd(ids, gl, st):
        sm = st["sm"]
        rows = torch.arange(sm.size(0), device=sm.device)
        sm[rows, ids] -= 1.0
        fused_scale(sm, gl)
        st["d"] = sm.to(torch.bfloat16)

    def unfused_fwd(logits, ids, st):
        st["loss"], st["sm"], _ = cross_entropy_unfused(logits, ids)

    def unfused_bwd(ids, gl, st):
        st["d"] = cross_entropy_unfused_backward(st["sm"], ids, gl)

    def torch_fwd(logits, ids, st):
        lg = logits.detach().requires_grad_(True)
        st["lg"] = lg
        st["loss"] = F.cross_entropy(lg.float(), ids)

    def torch_bwd(ids, gl, st):
        st["loss"].backward()
        st["d"] = st["lg"].grad
        st["lg"].grad = None

    variants = [("megatron-unfused", unfused_fwd, unfused_bwd), ("megatron-fused", fused_fwd, fused_bwd),
                ("torch-cross-entropy", torch_fwd, torch_bwd)]
    for tokens, v in ((8192, 128256), (8192, 16032), (8192, 32000), (4096, 64128)):
        for name, fwd, bwd in variants:
            if time.time() > deadline:
                print("loss-variants: budget reached")
                return w.rows
            try:
                logits = torch.randn(tokens, v, device=DEV, dtype=torch.bfloat16)
                ids = torch.randint(0, v, (tokens,), device=DEV)
                gl = torch.full((tokens,), 1.0 / tokens, device=DEV)
                st = {}
                t_end = time.time() + warm_s
                while True:
                    fwd(logits, ids, st)
                    bwd(ids, gl, st)
                    torch.cuda.synchronize()
                    if time.time() > t_end:
                        break
                ev = [[torch.cuda.Event(enable_timing=True) for _ in range(3)] for _ in range(iters)]
                for it in range(iters):
                    ev[it][0].record()
                    fwd(logits, ids, st)
                    ev[it][1].record()
                    bwd(ids, gl, st)
                    ev[it][2].record()
                torch.cuda.synchronize()
                clock = pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM) if pynvml else ""
                power = f"{pynvml.nvmlDeviceGetPowerUsage(h)/1000:.0f}" if pynvml else ""
                for j, pas in ((0, "fwd"), (1, "bwd")):
                    ts = [ev[it][j].elapsed_time(ev[it][j + 1]) * 1e-3 for it in range(iters)]
                    w.row(variant=name, tokens=tokens, vocab_per_rank=v, elements=tokens * v, **{"pass": pas},
                          median_us=f"{quantile(ts, 0.5)*1e6:.2f}", p10_us=f"{quantile(ts, 0.1)*1e6:.2f}",
                          p90_us=f"{quantile(ts, 0.9)*1e6:.2f}", sm_clock_mhz=clock, power_w=power)
            except Exception as ex:  # noqa: BLE001
                print(f"loss-variants {name} {tokens}x{v}: {type(ex).__name__}: {ex}")
            finally:
                logits = st = None
                torch.cuda.empty_cache()
    return w.rows


# ---------------------------------------------------------------- mixture of experts

# (model, hidden, ffn per expert, experts, top_k): Mixtral 8x7B (Jiang et al. 2024, Table 1), and a
# fine-grained router of DeepSeek-V2-Lite's shape (64 routed experts of 1,408, top 6; DeepSeek-AI
# 2024, its config.json), where each expert's GEMMs are small.
MOE_MODELS = [
    ("mixtral-8x7b", 4096, 14336, 8, 2),
    ("deepseek-v2-lite", 2048, 1408, 64, 6),
]


def _grouped(a, b, offs):
    return torch._grouped_mm(a, b, offs=offs)


def run_moe(out, deadline, nv, warm_s=0.5, iters=10):
    """One MoE layer's expert GEMMs for one micro-batch, tokens spread evenly over the experts on
    this rank, forward (fc1 with its gate, fc2), input and weight gradients, in bf16: as one
    grouped GEMM per pass (torch._grouped_mm, cuBLAS's grouped kernels: Transformer Engine's
    GroupedLinear and Megatron-Core's TEGroupedMLP do the same) and as one GEMM per expert
    (Megatron-Core's SequentialMLP); and the token routing around them (router GEMM, softmax and
    top-k, the permutation and its inverse). Back to back, events inside the running loop.
    moe.csv takes the GEMMs: m is the tokens of every expert together, as dataset kind gemm reads
    it; m_per_expert and experts say how they were split. moe_ops.csv takes the routing."""
    w = Csv(os.path.join(out, "moe.csv"),
            ["family", "variant", "pass", "precision", "experts", "m_per_expert", "m", "n", "k", "median_us",
             "p10_us", "p90_us", "tflops", "sm_clock_mhz", "power_w"])
    wo = Csv(os.path.join(out, "moe_ops.csv"),
             ["family", "op", "tokens", "hidden", "experts", "top_k", "bytes_moved", "median_us", "p10_us", "p90_us"])
    has_grouped = hasattr(torch, "_grouped_mm")
    print("torch._grouped_mm:", has_grouped)
    first = True
    for model, hid, ffn, n_exp, top_k in MOE_MODELS:
        for tokens in (4096, 8192):
            for tp, ep in ((1, 1), (2, 1), (1, 8 if n_exp == 8 else 8)):
                if time.time() > deadline:
                    print("moe: budget reached")
                    return w.rows
                e_here = n_exp // ep
                f = ffn // tp
                routed = tokens * top_k  # per rank on average, whatever ep (each rank receives as many as it sends)
                me = routed // e_here
                fam = f"{model}/tp{tp}ep{ep}/t{tokens}"
                try:
                    dt = torch.bfloat16
                    x = torch.randn(routed, hid, device=DEV, dtype=dt)
                    w1 = torch.randn(e_here, hid, 2 * f, device=DEV, dtype=dt) * 0.02
                    w2 = torch.randn(e_here, f, hid, device=DEV, dtype=dt) * 0.02
                    a1 = torch.randn(routed, f, device=DEV, dtype=dt)
                    dy2 = torch.randn(routed, hid, device=DEV, dtype=dt)
                    dy1 = torch.randn(routed, 2 * f, device=DEV, dtype=dt)
                    offs = torch.arange(1, e_here + 1, device=DEV, dtype=torch.int32) * me
                    w1t = w1.transpose(1, 2)  # the dgrad operand, no copy
                    w2t = w2.transpose(1, 2)
                    gemms = [  # (pass, layer, n, k, grouped fn, loop fn)
                        ("fwd", "fc1", 2 * f, hid, lambda: _grouped(x, w1, offs),
                         lambda: [torch.mm(x[i * me:(i + 1) * me], w1[i]) for i in range(e_here)]),
                        ("fwd", "fc2", hid, f, lambda: _grouped(a1, w2, offs),
                         lambda: [torch.mm(a1[i * me:(i + 1) * me], w2[i]) for i in range(e_here)]),
                        ("dgrad", "fc2", f, hid, lambda: _grouped(dy2, w2t, offs),
                         lambda: [torch.mm(dy2[i * me:(i + 1) * me], w2t[i]) for i in range(e_here)]),
                        ("wgrad", "fc2", hid, me, lambda: _grouped(a1.t(), dy2, offs),
                         lambda: [torch.mm(a1[i * me:(i + 1) * me].t(), dy2[i * me:(i + 1) * me]) for i in range(e_here)]),
                        ("dgrad", "fc1", hid, 2 * f, lambda: _grouped(dy1, w1t, offs),
                         lambda: [torch.mm(dy1[i * me:(i + 1) * me], w1t[i]) for i in range(e_here)]),
                        ("wgrad", "fc1", 2 * f, me, lambda: _grouped(x.t(), dy1, offs),
                         lambda: [torch.mm(x[i * me:(i + 1) * me].t(), dy1[i * me:(i + 1) * me]) for i in range(e_here)]),
                    ]
                    for variant in (("grouped", "loop") if has_grouped else ("loop",)):
                        try:
                            fns, labels = [], []
                            for pas, layer, n, k, g, l in gemms:
                                fn, label = (g, "grouped") if variant == "grouped" else (l, "loop")
                                try:  # fail early, outside the timed loop
                                    fn()
                                    torch.cuda.synchronize()
                                except Exception as ex:  # noqa: BLE001 - this pass one GEMM per expert
                                    print(f"moe {fam} {pas} {layer} grouped: {type(ex).__name__}: {ex}")
                                    fn, label = l, "loop-fallback"
                                fns.append(fn)
                                labels.append(label)
                            times = times_in_sequence(fns, iters, 3.0 if first else warm_s)
                            first = False
                            clock, power = clock_and_power(nv)
                            for i, ((pas, layer, n, k, _, _), ts) in enumerate(zip(gemms, times)):
                                med = quantile(ts, 0.5)
                                # m, n, k of the whole: fwd and dgrad (routed x k)(k x n) per expert slice;
                                # wgrad (k_dim x routed)(routed x n) summed per expert: m = hid or f rows.
                                if pas == "wgrad":
                                    mm_, nn_, kk_ = (f if layer == "fc2" else hid), n, routed
                                    rows_m = mm_
                                    flops = 2 * mm_ * nn_ * me * e_here
                                else:
                                    mm_, nn_, kk_ = routed, n, k
                                    rows_m = me
                                    flops = 2 * routed * n * k
                                w.row(family=f"{fam}/{layer}", variant=labels[i], **{"pass": pas}, precision="bf16",
                                      experts=e_here, m_per_expert=rows_m, m=mm_, n=nn_, k=kk_,
                                      median_us=f"{med*1e6:.2f}", p10_us=f"{quantile(ts, 0.1)*1e6:.2f}",
                                      p90_us=f"{quantile(ts, 0.9)*1e6:.2f}", tflops=f"{flops/med/1e12:.1f}",
                                      sm_clock_mhz=clock, power_w=power)
                        except Exception as ex:  # noqa: BLE001 - one variant failing leaves the other
                            print(f"moe {fam} {variant}: {type(ex).__name__}: {ex}")
                    x = w1 = w2 = a1 = dy1 = dy2 = w1t = w2t = gemms = fns = None
                    torch.cuda.empty_cache()
                    if tp != 1 or ep != 1:
                        continue
                    # The routing of this rank's tokens (tp 1, ep 1): router GEMM, fp32 softmax and top-k,
                    # the permutation (tokens sorted by expert, rows gathered) and its inverse (rows
                    # scaled by their probability and added back).
                    xt = torch.randn(tokens, hid, device=DEV, dtype=dt)
                    wr = torch.randn(hid, n_exp, device=DEV, dtype=dt) * 0.02
                    st = {}

                    def router():
                        st["p"], st["i"] = torch.topk(torch.softmax(torch.mm(xt, wr).float(), dim=-1), top_k, dim=-1)

                    def permute():
                        flat = st["i"].reshape(-1)
                        st["order"] = torch.argsort(flat, stable=True)
                        st["xp"] = xt.index_select(0, st["order"] // top_k)

                    def unpermute():
                        y = st["xp"] * st["p"].reshape(-1)[st["order"]].unsqueeze(-1).to(dt)
                        o = torch.zeros(tokens, hid, device=DEV, dtype=dt)
                        o.index_add_(0, st["order"] // top_k, y)
                        st["o"] = o

                    ops = [("router", router, tokens * hid * 2), ("permute", permute, 2 * routed * hid * 2),
                           ("unpermute", unpermute, 4 * routed * hid * 2 + 2 * tokens * hid * 2)]
                    for _ in range(3):
                        for _, fn, _ in ops:
                            fn()
                    torch.cuda.synchronize()
                    times = times_in_sequence([fn for _, fn, _ in ops], iters)
                    for (op, _, moved), ts in zip(ops, times):
                        wo.row(family=f"{model}/t{tokens}", op=op, tokens=tokens, hidden=hid, experts=n_exp, top_k=top_k,
                               bytes_moved=moved, median_us=f"{quantile(ts, 0.5)*1e6:.2f}",
                               p10_us=f"{quantile(ts, 0.1)*1e6:.2f}", p90_us=f"{quantile(ts, 0.9)*1e6:.2f}")
                except Exception as ex:  # noqa: BLE001
                    print(f"moe {fam}: {type(ex).__name__}: {ex}")
                finally:
                    x = w1 = w2 = a1 = dy1 = dy2 = w1t = w2t = gemms = fns = st = xt = None
                    torch.cuda.empty_cache()
    return w.rows


def main():
    global FLUSH
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--budget-s", type=float, default=300, help="stop starting new measurements after this")
    ap.add_argument("--sustained-s", type=float, default=8, help="seconds of back-to-back GEMMs per precision")
    ap.add_argument("--only", choices=["all", "sequence", "attention-sequence", "elementwise", "sustained", "gemm",
                                       "attention", "layer", "layer-compiled", "output-layer", "output-layer-in-step", "optimizer", "loss-variants", "moe"],
                    default="all",
                    help="one part alone: sequence (sequence.csv), attention-sequence (attention_sequence.csv), "
                         "elementwise, sustained, gemm or attention (the isolated kernels), layer (layer.csv), "
                         "layer-compiled (the same layer through torch.compile), output-layer (output_layer.csv), "
                         "output-layer-in-step (the same among 4 layers' GEMMs: output_layer_in_step.csv), "
                         "optimizer (optimizer.csv), loss-variants (loss_variants.csv), moe (moe.csv, moe_ops.csv)")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    t0 = time.time()
    torch.manual_seed(0)
    FLUSH = torch.empty(256 * 2**20, dtype=torch.uint8, device=DEV)
    env = environment(os.path.join(args.outdir, "env.json"))
    nv = nvml()
    # budget: GEMMs until 60 %, attention until 85 %, memory-bound kernels until the end
    b = args.budget_s
    counts = {}
    if args.only != "all":
        parts = {
            "sequence": lambda: run_sequence(args.outdir, t0 + b, nv),
            "attention-sequence": lambda: run_attention_sequence(args.outdir, t0 + b, nv),
            "elementwise": lambda: run_elementwise(args.outdir, t0 + b),
            "sustained": lambda: run_sustained(args.outdir, args.sustained_s, nv),
            "gemm": lambda: run_gemms(args.outdir, t0 + b),
            "attention": lambda: run_attention(args.outdir, t0 + b),
            "layer": lambda: run_layer(args.outdir, t0 + b, nv),
            "layer-compiled": lambda: run_layer(args.outdir, t0 + b, nv, compiled=True),
            "output-layer": lambda: run_output_layer(args.outdir, t0 + b, nv),
            "output-layer-in-step": lambda: run_output_layer(args.outdir, t0 + b, nv, layers_around=4),
            "optimizer": lambda: run_optimizer(args.outdir, t0 + b, nv),
            "loss-variants": lambda: run_loss_variants(args.outdir, t0 + b, nv),
            "moe": lambda: run_moe(args.outdir, t0 + b, nv),
        }
        counts[args.only] = parts[args.only]()
        print("rows:", counts, f"in {time.time()-t0:.0f} s on {env['device_name']}")
        return
    counts["sustained"] = run_sustained(args.outdir, args.sustained_s, nv)
    counts["gemm"] = run_gemms(args.outdir, t0 + 0.6 * b)
    counts["attention"] = run_attention(args.outdir, t0 + 0.85 * b)
    counts["elementwise"] = run_elementwise(args.outdir, t0 + b)
    counts["sequence"] = run_sequence(args.outdir, t0 + 1.3 * b, nv)
    counts["attention-sequence"] = run_attention_sequence(args.outdir, t0 + 1.5 * b, nv)
    print("rows:", counts, f"in {time.time()-t0:.0f} s on {env['device_name']}")


if __name__ == "__main__":
    main()
