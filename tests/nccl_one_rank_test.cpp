// One rank: NCCL runs no algorithm; out of place it copies the buffer on the
// GPU (src/enqueue.cc, taskAppend -> ncclLaunchOneRank), in place it does
// nothing (nccl_one_rank.h). H100 SXM: HBM 3,350 GB/s (datasheet); the Hopper
// tables' copy-efficiency 0.904 and copy-overhead-us 5.4 (presets/nccl/hopper.toml,
// measured on this card's copy kernels).
#include <doctest/doctest.h>

#include <string>

#include "collective/nccl/nccl_one_rank.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

namespace {

CollectiveResult one_rank(const System& system, CollectiveKind kind, std::uint64_t bytes, bool out_of_place) {
    const Network network = shape_cluster(system.network, 1, 1, system.node_gpus());
    CollectiveQuery q{kind, bytes, whole_network_group(network), {}};
    q.out_of_place = out_of_place;
    return collective_time(network, system.config, system.backend, q);
}

}  // namespace

TEST_CASE("one rank out of place: NCCL's device copy at the HBM rate") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    // 1 GiB: read and written once, 2 x 1,073,741,824 B at 3,350 x 0.904 =
    // 3,028.4 GB/s (B/ns) = 709,114.8 ns, + 5,400 ns = 714,514.8 ns.
    const CollectiveResult ar = one_rank(h100, CollectiveKind::AllReduce, GiB, true);
    CHECK(ar.time_ns == doctest::Approx(714514.8).epsilon(1e-6));
    CHECK(ar.algorithm == "copy");
    CHECK(ar.nccl_algorithm == "copy");
    CHECK(ar.nccl_protocol == "none");
    CHECK(ar.nics == 0);
    CHECK(ar.channels == 0);
    REQUIRE(ar.phases.size() == 1);
    CHECK(ar.phases[0].latency_ns == doctest::Approx(5400.0));
    CHECK(ar.phases[0].bandwidth_ns == doctest::Approx(709114.8).epsilon(1e-6));
    // All-gather and reduce-scatter copy the buffer nccl-tests counts, the same.
    CHECK(one_rank(h100, CollectiveKind::AllGather, GiB, true).time_ns == doctest::Approx(714514.8).epsilon(1e-6));
    CHECK(one_rank(h100, CollectiveKind::ReduceScatter, GiB, true).time_ns ==
          doctest::Approx(714514.8).epsilon(1e-6));
    // 8 B: the fixed cost and 16 B of traffic, 5,400 + 0.0053 ns.
    CHECK(one_rank(h100, CollectiveKind::AllReduce, 8, true).time_ns == doctest::Approx(5400.0053).epsilon(1e-6));
}

TEST_CASE("one rank in place, of 0 bytes, or by point-to-point: nothing priced, the keys still there") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    const CollectiveResult in_place = one_rank(h100, CollectiveKind::AllReduce, GiB, false);
    CHECK(in_place.time_ns == 0);
    CHECK(in_place.nccl_algorithm == "none");
    CHECK(in_place.nccl_protocol == "none");
    CHECK(in_place.phases.empty());
    CHECK(one_rank(h100, CollectiveKind::AllReduce, 0, true).time_ns == 0);
    // A rank's send to itself and its all-to-all share go through NCCL's
    // point-to-point kernel, not ncclLaunchOneRank: not priced.
    CHECK_FALSE(nccl_one_rank_copies(CollectiveKind::SendRecv));
    CHECK_FALSE(nccl_one_rank_copies(CollectiveKind::AllToAll));
    CHECK(one_rank(h100, CollectiveKind::AllToAll, GiB, true).time_ns == 0);
    CHECK(one_rank(h100, CollectiveKind::SendRecv, GiB, true).nccl_algorithm == "none");
}

TEST_CASE("one rank on A100: the Ampere tables' copy share at the card's own HBM rate") {
    // presets/nccl/ampere.toml: copy-efficiency 0.843 (GPUInspector.jl on an
    // A100-SXM4-40GB: 1220.7 of 1448.4 GiB/s), copy-overhead-us 5.4 (assumed,
    // the H100 fit). a100-ib-hdr200 has the A100 80GB: HBM2e 2,039 GB/s
    // (datasheet). 1 GiB: 2 x 1,073,741,824 B at 2,039 x 0.843 = 1,718.877
    // B/ns = 1,249,352.7 ns, + 5,400 ns = 1,254,752.7 ns.
    const System a100 = load_preset("a100-ib-hdr200", kDirs).system;
    CHECK(a100.nccl()->copy_efficiency == doctest::Approx(0.843));
    const CollectiveResult ar = one_rank(a100, CollectiveKind::AllReduce, GiB, true);
    CHECK(ar.time_ns == doctest::Approx(1254752.7).epsilon(1e-6));
    CHECK(ar.nccl_algorithm == "copy");
    // The 40 GB card's own HBM2, 1,555 GB/s: 2,147,483,648 / (1,555 x 0.843)
    // = 1,638,218.8 ns, + 5,400 ns.
    CHECK(nccl_one_rank_copy_ns(GiB, 1555, *a100.nccl()) == doctest::Approx(1643618.8).epsilon(1e-6));
}

TEST_CASE("one rank on a GPU whose tables state no copy rate: not priced") {
    // No parameters stated (presets/nccl/blackwell.toml states none: no B200
    // copy measured).
    NcclParameters none;
    CHECK(nccl_one_rank_copy_ns(GiB, 3350, none) == 0);
    CHECK(nccl_one_rank_copy_ns(GiB, 8000, none) == 0);
}
