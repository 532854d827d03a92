#!/usr/bin/env python3
"""Independent reference for `dtcalc run` on ASTRA-sim 1.0 text workloads.

Re-implements, without calling dtcalc and without sharing its code:
  * the ring collectives of ASTRA-sim 2.0's congestion-unaware analytical backend on one Switch
    dimension (as described in /work/shared/data/astrasim/SEMANTICS.md), cross-checked here
    against every congestion_unaware/Switch row of validation/astrasim/reference_runs.csv;
  * the training loop documented in src/workload/astra_v1_workload.h, on one compute stream and
    one network dimension, each running its ops in issue order (= the loop's program order);
    exposed communication = wall - compute busy.

Usage:
  python3 v1_reference.py                       the DLRM and ResNet-50 tables (1 and 2 passes)
  python3 v1_reference.py FILE [--passes N]     any DATA / MODEL / HYBRID_DLRM workload

System: preset astrasim-hgx-h100-validated with the astra-unaware backend: Switch, 8 NPUs,
400 GB/s, 936.25 ns per hop, preferred-dataset-splits 4, active-chunks-per-dimension 2,
endpoint-delay 10 ns, local-mem-bw 3350 GB/s, ring for every collective.
Standard library only. All arithmetic is exact (fractions); every result is a whole ns.
"""
import csv
import math
import os
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATION = os.path.dirname(HERE)


# ----------------------------------------------------------------------------------------------
# Collectives: ring algorithm, one Switch dimension, congestion-unaware (stateless) network.
# ----------------------------------------------------------------------------------------------
class Net:
    def __init__(self, npus=8, gbps=400, latency_ns=Fraction(93625, 100), splits=4, active=2,
                 endpoint_ns=10, local_mem_gbps=3350, hops=2):
        self.p = npus
        self.bytes_per_ns = Fraction(gbps) * 2**30 / 10**9   # "1 GB is 2^30 B" in the backend
        self.latency = Fraction(latency_ns)
        self.splits = splits
        self.active = active
        self.endpoint = endpoint_ns
        self.mem = Fraction(local_mem_gbps)                  # GB/s read as 1e9 B/s = B/ns
        self.hops = hops                                     # NPU -> switch -> NPU


def message_ns(net, nbytes):
    """One message on the stateless network: hops * latency + bytes / B, truncated."""
    return math.floor(net.hops * net.latency + Fraction(nbytes) / net.bytes_per_ns)


def collective_ns(net, kind, size):
    """ASTRA-sim comm_size `size` (all-gather: each NPU's input) -> cycles."""
    p = net.p
    chunk = size // net.splits
    if kind != "ALLGATHER" and chunk < p:
        chunk = p
    m = chunk // p
    reduction = 3 * math.floor(Fraction(m) / net.mem)
    if kind == "ALLREDUCE":
        steps, step_bytes, reducing = 2 * (p - 1), m, p - 1
    elif kind == "REDUCESCATTER":
        steps, step_bytes, reducing = p - 1, m, p - 1
    elif kind == "ALLGATHER":
        steps, step_bytes, reducing = p - 1, chunk, 0
    elif kind == "ALLTOALL":
        steps, step_bytes, reducing = p * (p - 1) // 2, m, 0
    else:
        raise ValueError(kind)
    one_chunk = steps * message_ns(net, step_bytes) + (steps + 1) * net.endpoint + reducing * reduction
    batches = -(-net.splits // net.active)     # chunks run `active` at a time
    return batches * one_chunk


def check_against_astrasim():
    """Every congestion-unaware Switch row of ASTRA-sim 2.0's own outputs, to the cycle."""
    names = {"all_reduce": "ALLREDUCE", "all_gather": "ALLGATHER",
             "reduce_scatter": "REDUCESCATTER", "all_to_all": "ALLTOALL"}
    rows = 0
    with open(os.path.join(VALIDATION, "astrasim", "reference_runs.csv")) as f:
        for r in csv.DictReader(f):
            if r["backend"] != "congestion_unaware" or r["topology"] != "Switch":
                continue
            net = Net(npus=int(r["npus_per_dim"]), gbps=Fraction(r["bandwidth_GBps_per_dim"]),
                      latency_ns=Fraction(r["latency_ns_per_dim"]), splits=int(r["splits"]),
                      active=int(r["active_chunks"]), endpoint_ns=int(r["endpoint_delay"]))
            assert r["impl_per_dim"] == "ring"
            got = collective_ns(net, names[r["collective"]], int(r["size_bytes"]))
            assert got == int(r["sim_cycles"]), (r, got)
            rows += 1
    assert rows >= 24, rows
    # The worked example of SEMANTICS.md, spelled out: 1 MiB all-reduce = 2 x 27,611.
    assert collective_ns(Net(), "ALLREDUCE", 1048576) == 55222
    return rows


# ----------------------------------------------------------------------------------------------
# Workload file.
# ----------------------------------------------------------------------------------------------
def read_workload(path):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    head = lines[0]
    kind, param = head[0], None
    if len(head) == 2:
        param = int(head[1])
    elif "_" in kind and kind.rsplit("_", 1)[1].isdigit():
        kind, param = kind.rsplit("_", 1)[0], int(kind.rsplit("_", 1)[1])
    count = int(lines[1][0])
    layers = []
    for f in lines[2:]:
        assert len(f) == 12, f
        layers.append({
            "name": f[0], "fwd": int(f[2]), "fwd_comm": (f[3], int(f[4])),
            "ig": int(f[5]), "ig_comm": (f[6], int(f[7])),
            "wg": int(f[8]), "wg_comm": (f[9], int(f[10])), "update": int(f[11])})
    assert len(layers) == count
    if kind not in ("DATA", "MODEL", "HYBRID_DLRM"):
        raise SystemExit("only DATA, MODEL and HYBRID_DLRM are modelled here (all collectives on every NPU)")
    return kind, param, layers


# ----------------------------------------------------------------------------------------------
# The training loop (astra_v1_workload.h), simulated on two in-order resources.
# ----------------------------------------------------------------------------------------------
class Machine:
    """One compute stream and one network dimension; each serves its ops in issue order.

    An op starts at max(its inputs are ready, its resource is free). The loop below issues ops
    in program order, which is the issue order on both resources, so one pass over it is exact.
    Times are the end times of earlier ops (or 0 for "nothing to wait for").
    """

    def __init__(self, net):
        self.net = net
        self.compute_free = 0
        self.network_free = 0
        self.compute_busy = 0
        self.wall = 0
        self.cache = {}

    def compute(self, duration, *ready):
        start = max((self.compute_free,) + ready)
        self.compute_free = start + duration
        self.compute_busy += duration
        self.wall = max(self.wall, self.compute_free)
        return self.compute_free

    def collective(self, comm, ready):
        kind, size = comm
        if (kind, size) not in self.cache:
            self.cache[(kind, size)] = collective_ns(self.net, kind, size)
        start = max(self.network_free, ready)
        self.network_free = start + self.cache[(kind, size)]
        self.wall = max(self.wall, self.network_free)
        return self.network_free


def train(kind, param, layers, passes, net):
    """Returns (wall, compute busy, exposed) in ns for `passes` passes plus the final drain."""
    m = Machine(net)
    n = len(layers)
    dlrm = kind == "HYBRID_DLRM"
    first_top = param + 1 if dlrm else None
    has = lambda comm: comm[0] != "NONE"
    # wg_done[i]: when layer i's weight-gradient collective of the previous pass ends (None: no
    # such collective, so nothing to wait for and no update to apply).
    wg_done = [None] * n
    t = 0   # when the loop may take its next step (the last blocking thing ended)
    for _ in range(passes):
        # Forward, layers 0..n-1.
        emb_fwd_exchange = 0
        for i, l in enumerate(layers):
            gate = 0
            if wg_done[i] is not None:
                # Wait for last pass's gradient collective, then apply the update on the stream.
                gate = m.compute(l["update"], wg_done[i]) if l["update"] > 0 else wg_done[i]
                wg_done[i] = None
            extra = emb_fwd_exchange if (dlrm and i == first_top) else 0
            t = m.compute(l["fwd"], t, gate, extra)
            if has(l["fwd_comm"]):
                end = m.collective(l["fwd_comm"], t)
                if dlrm and i == 0:
                    emb_fwd_exchange = end      # not blocking; the first top layer awaits it
                else:
                    t = end                     # blocks the next layer
        # Backward, layers n-1..0.
        emb_bwd_exchange = 0
        for i in range(n - 1, -1, -1):
            l = layers[i]
            output_gradient = t                 # what this layer's gradients are computed from
            if i > 0:
                t = m.compute(l["ig"], t)
                if has(l["ig_comm"]):
                    # Blocking: the next layer's backward waits for it. This layer's
                    # weight-gradient compute only needs the output gradient, so it runs under
                    # the collective (ASTRA-sim 1.0's Workload.cc: the loop waits for the
                    # input-gradient collective after the weight-gradient compute).
                    t = m.collective(l["ig_comm"], t)
                if dlrm and i == first_top and has(layers[0]["ig_comm"]):
                    # The embedding's backward exchange, once the top MLP's input gradients are done.
                    emb_bwd_exchange = m.collective(layers[0]["ig_comm"], t)
            w = m.compute(l["wg"], output_gradient, emb_bwd_exchange if i == 0 else 0)
            if i == 0:
                t = w
            if has(l["wg_comm"]):
                wg_done[i] = m.collective(l["wg_comm"], w)    # not blocking
    # Drain: every outstanding collective awaited, every update applied (layer order, as the
    # next forward pass would).
    for i, l in enumerate(layers):
        if wg_done[i] is not None and l["update"] > 0:
            m.compute(l["update"], wg_done[i])
    wall = max(m.wall, m.compute_free, m.network_free)
    return wall, m.compute_busy, wall - m.compute_busy


def main(argv):
    rows = check_against_astrasim()
    net = Net()
    if len(argv) > 1:
        path = argv[1]
        passes = int(argv[argv.index("--passes") + 1]) if "--passes" in argv else 1
        wall, busy, exposed = train(*read_workload(path), passes, net)
        print("%s passes=%d wall_ns=%d compute_ns=%d exposed_ns=%d" % (path, passes, wall, busy, exposed))
        return
    print("collective model: %d congestion_unaware Switch rows of reference_runs.csv reproduced exactly" % rows)
    print("system: Switch 8 NPUs, 400 GB/s, 936.25 ns, splits 4, active 2, endpoint 10 ns, local-mem-bw 3350")
    for name in ("DLRM_HybridParallel.txt", "resnet50_dp.txt"):
        kind, param, layers = read_workload(os.path.join(HERE, name))
        sizes = sorted({l[c] for l in layers for c in ("fwd_comm", "ig_comm", "wg_comm") if l[c][0] != "NONE"})
        print()
        print("%s (%s%s, %d layers); collectives:" % (name, kind, " %d" % param if param else "", len(layers)))
        for kind_size in sizes:
            print("  %-9s %9d B  %9d ns" % (kind_size + (collective_ns(net, *kind_size),)))
        print("  passes       wall_ns  compute_busy_ns  exposed_comm_ns")
        for passes in (1, 2):
            wall, busy, exposed = train(kind, param, layers, passes, net)
            print("  %6d  %12d  %15d  %15d" % (passes, wall, busy, exposed))


if __name__ == "__main__":
    main(sys.argv)
