// A ring's network side in the nccl backend: NCCL's Simple slices and their
// network sends, the latency a Simple step's later slices hide as it runs, and
// LL128's data share of the NICs. Every expected value is worked out by hand
// beside it (H100 NDR preset: NIC payload 50 x 0.983 = 49.15 GB/s).
#include <doctest/doctest.h>

#include "collective/nccl/nccl_bandwidth.h"
#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_latency.h"
#include "config/preset.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

namespace {

NcclShape nodes_of(std::int64_t nodes, std::int64_t gpus_per_node) {
    NcclShape shape;
    shape.nodes = nodes;
    shape.gpus_per_node = gpus_per_node;
    shape.ranks = nodes * gpus_per_node;
    return shape;
}

}  // namespace

TEST_CASE("an LL128 ring's NICs carry 120 data bytes in every 128") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const NcclForce ll128 = NcclForce::only(NcclAlgorithm::Ring, NcclProtocol::LL128);
    // 10 x 2, all-gather: each channel's step is at least NCCL's 576,000-byte
    // LL128 step from 256 MiB on, so the 4 channels per NIC (8 over 2 NICs) could
    // send 4 x 576000 / (576000 / 49.15 + 4000 ns) = 146.6 GB/s: the NICs' payload
    // binds, 2 x 49.15 = 98.3 GB/s, of which 120/128 is data: 92.15625 GB/s (NVLink
    // side 360 x 0.92 = 331.2). Doubling 256 MiB adds 268435456 x 19/20 / 92.15625
    // = 2767188.15 ns, nothing else changing with the size there.
    const Run a = run(ib, CollectiveKind::AllGather, 256 * MiB, 10, 2, ll128);
    const Run b = run(ib, CollectiveKind::AllGather, 512 * MiB, 10, 2, ll128);
    CHECK(a.algorithm == "ring/LL128");
    CHECK((b.us - a.us) * 1000.0 == doctest::Approx(2767188.15).epsilon(1e-7));
}

TEST_CASE("a Simple ring channel sends NCCL's slices: two per 2 MiB chunk, one for a chunk of 32 KiB or less") {
    // collectives.h: chunk = NCCL_STEPS/2 = 4 steps of 512 KiB (2 MiB), slice =
    // NCCL_STEPS/4 = 2 steps (1 MiB), so 2 slices per chunk; prims_simple.h keeps
    // a slice at least 1/32 of 1 MiB (32 KiB), so a chunk of at most 32 KiB is
    // one slice.
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    CHECK(nccl_ring_network_sends(p, 1) == 1);
    CHECK(nccl_ring_network_sends(p, 32768) == 1);
    CHECK(nccl_ring_network_sends(p, 32769) == 2);
    CHECK(nccl_ring_network_sends(p, 2097152) == 2);          // one full chunk
    CHECK(nccl_ring_network_sends(p, 2097152 + 1000) == 3);   // and a 1000 B chunk: one slice
    CHECK(nccl_ring_network_sends(p, 3 * 2097152 + 40000) == 8);
    // Rate: m / (m / 22.43 + sends x 4550 ns). m = 1 MiB: 1048576 / 22.43 =
    // 46748.8 ns + 2 x 4550 = 55848.8 ns: 18.77526 GB/s. m = 16 KiB: 730.5 ns +
    // 4550 ns = 5280.5 ns: 3.10277 GB/s.
    CHECK(nccl_ring_network_channel_rate(p, 1048576) == doctest::Approx(18.775258).epsilon(1e-7));
    CHECK(nccl_ring_network_channel_rate(p, 16384) == doctest::Approx(3.102766).epsilon(1e-6));
}

TEST_CASE("a Simple ring step's later slices hide its network latency as it runs") {
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    // First network send of a step (NCCL's slices, as above): a 1 MiB slice of
    // a full 2 MiB chunk; half a smaller step, at least 32 KiB; a step of at
    // most 32 KiB in one send.
    CHECK(nccl_ring_first_send_bytes(p, 8.0 * 1048576) == 1048576);
    CHECK(nccl_ring_first_send_bytes(p, 2097152) == 1048576);
    CHECK(nccl_ring_first_send_bytes(p, 1048576) == 524288);
    CHECK(nccl_ring_first_send_bytes(p, 40000) == 32768);
    CHECK(nccl_ring_first_send_bytes(p, 20000) == 20000);
    // Hidden: the rest of the step at the channel's rate. 8 MiB at 20 GB/s:
    // (8388608 - 1048576) / 20 = 367001.6 ns; 1 MiB: 524288 / 20 = 26214.4 ns;
    // a one-send step hides nothing; LL and LL128 hide nothing.
    CHECK(nccl_ring_hidden_ns(p, NcclProtocol::Simple, 8.0 * 1048576, 20.0) == doctest::Approx(367001.6));
    CHECK(nccl_ring_hidden_ns(p, NcclProtocol::Simple, 1048576, 20.0) == doctest::Approx(26214.4));
    CHECK(nccl_ring_hidden_ns(p, NcclProtocol::Simple, 20000, 20.0) == 0.0);
    CHECK(nccl_ring_hidden_ns(p, NcclProtocol::LL128, 8.0 * 1048576, 20.0) == 0.0);
    CHECK(nccl_ring_hidden_ns(p, NcclProtocol::LL, 8.0 * 1048576, 20.0) == 0.0);
    // The ring's latency as it runs, 2 nodes of 8, all-gather, Simple (NCCL's
    // tables: base 8.4, NVLink step 3.4 (above the Intel host's 3 x 1 us proxy
    // cost), network step 14; 15 steps, 1 across nodes): nothing hidden, NCCL's 8.4 + 14 x 3.4 + 14 = 70.0 us; 5 us
    // hidden, 8.4 + 47.6 + 9 = 65.0 us; 20 us hidden, the network step is free
    // and the NVLink steps stay: 56.0 us.
    const NcclShape two_nodes = nodes_of(2, 8);
    CHECK(nccl_ring_latency_ns(CollectiveKind::AllGather, two_nodes, p, NcclProtocol::Simple) ==
          doctest::Approx(70000.0));
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllGather, two_nodes, p, NcclProtocol::Simple, 0.0) ==
          doctest::Approx(70000.0));
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllGather, two_nodes, p, NcclProtocol::Simple, 5000.0) ==
          doctest::Approx(65000.0));
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllGather, two_nodes, p, NcclProtocol::Simple, 20000.0) ==
          doctest::Approx(56000.0));
}

TEST_CASE("an LL128 ring across nodes of several GPUs takes the network's per-step latency on every step as it runs") {
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    // NCCL's tables for an LL128 ring: base 14.0, NVLink step 1.9 (above the
    // Intel host's 1 us proxy cost), network step 4.0.
    NcclShape shape = nodes_of(2, 4);
    // 2 x 4, all-gather: 7 steps, 1 across nodes. NCCL's choice charges
    // 14.0 + 6 x 1.9 + 1 x 4.0 = 29.4 us; as it runs every step takes 4.0 us,
    // the network step's in the NIC rate's per-send cost (not here), so
    // 14.0 + 6 x 4.0 = 38.0 us.
    CHECK(nccl_ring_latency_ns(CollectiveKind::AllGather, shape, p, NcclProtocol::LL128) == doctest::Approx(29400.0));
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllGather, shape, p, NcclProtocol::LL128, 0.0) ==
          doctest::Approx(38000.0));
    // 10 x 8, all-reduce: 158 steps, 18 across nodes: 14.0 + 140 x 4.0 = 574.0 us
    // (NCCL's choice: 14.0 + 140 x 1.9 + 18 x 4.0 = 352.0 us).
    shape = nodes_of(10, 8);
    CHECK(nccl_ring_latency_ns(CollectiveKind::AllReduce, shape, p, NcclProtocol::LL128) == doctest::Approx(352000.0));
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllReduce, shape, p, NcclProtocol::LL128, 0.0) ==
          doctest::Approx(574000.0));
    // Not LL: 10 x 8 all-reduce on LL (base 6.6, NVLink 0.6 -> the proxy's 1.0,
    // network 2.7): 6.6 + 140 x 1.0 + 18 x 2.7 = 195.2 us, as NCCL's choice.
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllReduce, shape, p, NcclProtocol::LL, 0.0) ==
          doctest::Approx(195200.0));
    // One GPU per node: every step is a network step, at NCCL's tree figure
    // for one GPU per node (8.5): 10 x 1 all-reduce, 18 steps: 14.0 + 18 x 8.5
    // = 167.0 us, as NCCL's choice.
    shape = nodes_of(10, 1);
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllReduce, shape, p, NcclProtocol::LL128, 0.0) ==
          doctest::Approx(167000.0));
    // One node: NCCL's tables, 8 GPUs, all-gather: 14.0 + 7 x 1.9 = 27.3 us.
    shape = nodes_of(1, 8);
    CHECK(nccl_ring_run_latency_ns(CollectiveKind::AllGather, shape, p, NcclProtocol::LL128, 0.0) ==
          doctest::Approx(27300.0));
}
