#!/usr/bin/env python3
"""Writes resnet50_dp.txt: ResNet-50 data-parallel training as an ASTRA-sim 1.0 text workload.

Layer shapes: He, Zhang, Ren, Sun, "Deep Residual Learning for Image Recognition", CVPR 2016
(arXiv:1512.03385), Table 1, 50-layer column. Timing: a roofline on one NVIDIA H100 SXM
(dense BF16 989 TFLOP/s, HBM3 3350 GB/s), per-GPU batch 32. See README.md for every choice.

Usage: python3 make_resnet50_dp.py [OUTPUT]   (default: resnet50_dp.txt next to this script)
Standard library only.
"""
import math
import os
import sys
from fractions import Fraction

BATCH = 32                    # images per GPU
BYTES_PER_ELEMENT = 2         # BF16 activations, weights and gradients
PEAK_FLOP_PER_NS = 989_000    # 989 TFLOP/s dense BF16 = 989e3 FLOP per ns
HBM_BYTES_PER_NS = 3350       # 3350 GB/s = 3350 bytes per ns
UPDATE_PASSES = 3             # update: read gradient + read weight + write weight


def resnet50_layers():
    """(name, c_in, h_in, c_out, k, stride, h_out) for every convolution and the fc, in order.

    Caffe names of the authors' released model (conv1, resNx_branch1/2a/2b/2c, fc1000). The
    projection shortcut (branch1) is listed first in its block, as in that model's prototxt.
    Downsampling (stride 2) is on the first 1x1 convolution of conv3_1, conv4_1 and conv5_1 and
    on their projections, as in the original model ("ResNet v1"); this is the variant whose cost
    is Table 1's 3.8e9 multiply-adds (torchvision's "v1.5" moves the stride to the 3x3).
    """
    layers = []
    # conv1: 7x7, 64, stride 2, 224 -> 112 (padding 3). Then 3x3/2 max pool 112 -> 56 (no weights).
    layers.append(("conv1", 3, 224, 64, 7, 2, 112))
    h = 56
    c_in = 64
    stages = [(2, 64, 3), (3, 128, 4), (4, 256, 6), (5, 512, 3)]  # conv2_x..conv5_x
    for stage, width, blocks in stages:
        for b in range(blocks):
            name = "res%d%s" % (stage, "abcdef"[b])
            stride = 2 if (b == 0 and stage > 2) else 1
            h_out = h // stride
            if b == 0:
                layers.append((name + "_branch1", c_in, h, 4 * width, 1, stride, h_out))
            layers.append((name + "_branch2a", c_in, h, width, 1, stride, h_out))
            layers.append((name + "_branch2b", width, h_out, width, 3, 1, h_out))
            layers.append((name + "_branch2c", width, h_out, 4 * width, 1, 1, h_out))
            c_in = 4 * width
            h = h_out
    # 7x7 global average pool (no weights), then fc 2048 -> 1000 (as a 1x1 "conv" on 1x1).
    layers.append(("fc1000", 2048, 1, 1000, 1, 1, 1))
    return layers


def round_half_up(x):
    return math.floor(x + Fraction(1, 2))


def layer_costs(layer):
    name, c_in, h_in, c_out, k, stride, h_out = layer
    weights = k * k * c_in * c_out
    flops = 2 * BATCH * h_out * h_out * c_out * c_in * k * k
    in_elems = BATCH * h_in * h_in * c_in
    out_elems = BATCH * h_out * h_out * c_out
    weight_bytes = BYTES_PER_ELEMENT * weights
    # Forward reads x and W, writes y. Input gradient reads dy and W, writes dx. Weight gradient
    # reads x and dy, writes dW. All three move the same bytes.
    bytes_moved = BYTES_PER_ELEMENT * (in_elems + out_elems) + weight_bytes
    t = max(Fraction(flops, PEAK_FLOP_PER_NS), Fraction(bytes_moved, HBM_BYTES_PER_NS))
    compute_ns = round_half_up(t)
    update_ns = math.ceil(Fraction(UPDATE_PASSES * weight_bytes, HBM_BYTES_PER_NS))
    return {
        "name": name, "weights": weights, "weight_bytes": weight_bytes, "flops": flops,
        "bytes": bytes_moved, "compute_ns": compute_ns, "update_ns": update_ns,
        "compute_bound": Fraction(flops, PEAK_FLOP_PER_NS) >= Fraction(bytes_moved, HBM_BYTES_PER_NS),
    }


def check_against_paper(costs):
    # Table 1: 3.8e9 FLOPs (multiply-adds) per 224x224 image for the 50-layer net.
    macs_per_image = sum(c["flops"] for c in costs) // 2 // BATCH
    assert 3.75e9 <= macs_per_image <= 3.9e9, macs_per_image
    # 25,557,032 parameters in the released model (torchvision resnet50 counts the same) =
    # conv and fc weights + fc bias (1,000) + batch-norm scale and shift (2 x 26,560 channels).
    weights = sum(c["weights"] for c in costs)
    bn_channels = 64 + sum(w * (1 + 1 + 4) * n + 4 * w for w, n in [(64, 3), (128, 4), (256, 6), (512, 3)])
    assert weights + 1000 + 2 * bn_channels == 25_557_032, (weights, bn_channels)
    return macs_per_image, weights


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "resnet50_dp.txt")
    costs = [layer_costs(l) for l in resnet50_layers()]
    assert len(costs) == 54
    macs, weights = check_against_paper(costs)
    lines = ["DATA", str(len(costs))]
    for c in costs:
        t = c["compute_ns"]
        lines.append("%s -1 %d NONE 0 %d NONE 0 %d ALLREDUCE %d %d"
                     % (c["name"], t, t, t, c["weight_bytes"], c["update_ns"]))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    total_compute = sum(c["compute_ns"] for c in costs)
    print("wrote %s: %d layers, %d weights (%d bytes BF16), %.3e multiply-adds per image"
          % (out, len(costs), weights, 2 * weights, macs))
    print("per pass: forward %d ns, %d of %d layers compute-bound, updates %d ns"
          % (total_compute, sum(c["compute_bound"] for c in costs), len(costs),
             sum(c["update_ns"] for c in costs)))


if __name__ == "__main__":
    main()
