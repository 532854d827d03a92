#pragma once
// How nccl-tests turns a run into the time it prints (NVIDIA/nccl-tests,
// src/common.cu, BenchTime): after one untimed operation and a barrier, every
// rank starts its timer, launches `iters` operations back to back on its
// stream, waits for them, and takes its own elapsed time / iters; the printed
// time is the mean of that over the ranks (-a 1, the default).
//
// Where every rank waits on the same slowest transfer in every operation (the
// rings, trees and all-to-all), every rank's time is the operation's. Not so
// for sendrecv_perf across nodes: rank r sends to r + 1 and receives from
// r - 1, ranks are numbered node by node, so only the first and last rank of
// a node use the network; with G >= 3 GPUs per node the ranks between them only
// use NVLink. An operation on a rank ends when both its send and its receive
// have; a transfer runs while both ends' operations run (the receiver's buffer
// holds a few steps, nothing like a whole message), so
//   C_r(k) = max(max(C_r, C_r+1)(k-1) + tau_r, max(C_r-1, C_r)(k-1) + tau_r-1),
//   C_r(0) = 0, tau_r = the network transfer T where r and r + 1 are on
//   different nodes, else the NVLink transfer t,
// and nccl-tests prints mean_r C_r(iters) / iters. The network ranks finish at
// iters x T; a rank d NVLink hops from the nearest of them started d
// operations ahead of it and finishes at (iters - d) T + d t: on 2 x 8 with
// 20 iterations the printed time is 0.925 T + 0.075 t, not T. An NVLink pair of
// a communicator across nodes runs on that communicator's channels per peer,
// a network peer's (nccl_send_recv_node_pair_cost): t is about T / 2 on two
// NDR nodes, so 0.96 T there.
#include <cstdint>

namespace dtcalc {

/// nccl-tests' printed time of sendrecv_perf on `nodes` x `gpus_per_node`
/// ranks (rank r on node r / gpus_per_node), in ns, where one operation's
/// network transfer takes `network_ns` and its NVLink transfer `nvlink_ns`,
/// over `iterations` timed operations. One node: nvlink_ns. Arguments:
/// nodes, gpus_per_node, iterations >= 1; times >= 0.
double nccl_tests_sendrecv_printed_ns(int nodes, int gpus_per_node, double network_ns, double nvlink_ns,
                                      std::int64_t iterations);

}  // namespace dtcalc
