// NCCL_ALGO and NCCL_PROTO read as NCCL's parseList reads them
// (src/graph/tuning.cc): the examples are NCCL's own, from the comment above
// parseList, and the expected tables follow its rule by hand: an entry turns
// its function's names off ('^': on), then the listed ones on ('^': off).
// Then NCCL's choice among what is left, from the Hopper latency tables.
#include <doctest/doctest.h>

#include <string>

#include "collective/nccl/nccl_force.h"
#include "input_error.h"
#include "nccl_run.h"

using namespace dtcalc;


namespace {

NcclForce algo(const std::string& setting) {
    NcclForce f;
    apply_nccl_algo(f, setting, {"--algo", 0, 0, ""});
    return f;
}

NcclForce proto(const std::string& setting) {
    NcclForce f;
    apply_nccl_proto(f, setting, {"--proto", 0, 0, ""});
    return f;
}

constexpr CollectiveKind AG = CollectiveKind::AllGather;
constexpr CollectiveKind RS = CollectiveKind::ReduceScatter;
constexpr CollectiveKind AR = CollectiveKind::AllReduce;

// "ring, tree; LL, Simple" with LL128 off by default, for reading checks.
std::string left(const NcclForce& f, CollectiveKind kind) { return nccl_force_summary(f, kind, false); }

}  // namespace

TEST_CASE("NCCL_ALGO: a list, '^' and per-collective entries, as NCCL's parseList reads them") {
    CHECK(NcclForce{}.unset());
    CHECK(algo("").unset());
    // One name: that algorithm alone, for every collective.
    CHECK(left(algo("ring"), AG) == "ring; LL, Simple");
    CHECK(left(algo("RING"), AR) == "ring; LL, Simple");
    CHECK(algo("Ring") == NcclForce::only(NcclAlgorithm::Ring, std::nullopt));
    // '^': everything but the list.
    CHECK(left(algo("^nvls,nvlstree"), AR) == "ring, tree, pat; LL, Simple");
    // NCCL's example "ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring":
    // ring and CollNet for every function, then tree and CollNet for all-reduce
    // (CollNet is not modelled: it leaves nothing), broadcast read and unpriced.
    const NcclForce example = algo("ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring");
    CHECK(left(example, AG) == "ring; LL, Simple");
    CHECK(left(example, RS) == "ring; LL, Simple");
    CHECK(left(example, AR) == "tree; LL, Simple");
    // dtcalc's own spelling of NVLSTree, and point-to-point untouched.
    CHECK(algo("nvls-tree") == algo("NVLSTree"));
    CHECK(algo("tree").algorithm_enabled(CollectiveKind::AllToAll, NcclAlgorithm::Ring));
}

TEST_CASE("NCCL_PROTO: NCCL's examples, and LL128 named is LL128 on") {
    // Unset, LL128 follows the hardware's default.
    CHECK(NcclForce{}.protocol_enabled(AR, NcclProtocol::LL128, true));
    CHECK_FALSE(NcclForce{}.protocol_enabled(AR, NcclProtocol::LL128, false));
    // "LL,Simple;allreduce:^LL": LL and Simple everywhere, all but LL for
    // all-reduce, which names LL128 and so turns it on whatever the default.
    const NcclForce a = proto("LL,Simple;allreduce:^LL");
    CHECK(left(a, AG) == "ring, tree, nvls, nvls-tree, pat; LL, Simple");
    CHECK(left(a, AR) == "ring, tree, nvls, nvls-tree, pat; LL128, Simple");
    // "^LL128;allreduce:LL128": all but LL128, only LL128 for all-reduce.
    const NcclForce b = proto("^LL128;allreduce:LL128");
    CHECK(nccl_force_summary(b, RS, true) == "ring, tree, nvls, nvls-tree, pat; LL, Simple");
    CHECK(nccl_force_summary(b, AR, false) == "ring, tree, nvls, nvls-tree, pat; LL128");
    CHECK(proto("simple") == NcclForce::only(std::nullopt, NcclProtocol::Simple));
}

TEST_CASE("NCCL_NVLS_ENABLE=0 takes NVLS from every collective, over NCCL_ALGO; other whole numbers leave it") {
    // src/transport/nvls.cc, ncclNvlsInit: 0 leaves nvlsSupport 0, so no
    // nvls and no nvls-tree for any function; 2 (the default) and 1 leave it
    // to the hardware.
    NcclForce off;
    apply_nccl_nvls_enable(off, "0", {});
    for (CollectiveKind kind : {AG, RS, AR}) {
        CHECK_FALSE(off.algorithm_enabled(kind, NcclAlgorithm::Nvls));
        CHECK_FALSE(off.algorithm_enabled(kind, NcclAlgorithm::NvlsTree));
        CHECK(off.algorithm_enabled(kind, NcclAlgorithm::Ring));
    }
    CHECK(off == algo("^nvls,nvlstree"));
    NcclForce on;
    apply_nccl_nvls_enable(on, "2", {});
    apply_nccl_nvls_enable(on, "1", {});
    CHECK(on.unset());
    // After NCCL_ALGO=nvls,ring: only the ring is left.
    NcclForce both = algo("nvls,ring");
    apply_nccl_nvls_enable(both, "0", {});
    CHECK(both == algo("ring"));
    NcclForce bad;
    CHECK_INPUT_ERROR(apply_nccl_nvls_enable(bad, "off", {"f.log", 12, 0, ""}),
                      "f.log:12: NCCL_NVLS_ENABLE='off': expected a whole number (0 turns NVLS off; 1 and 2, the "
                      "default, leave it on where the GPUs have it)");
}

TEST_CASE("NCCL_ALGO / NCCL_PROTO: what NCCL rejects is an error at the flag") {
    CHECK_INPUT_ERROR(algo("ring,fast"),
                      "--algo: expected Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT (a list, '^' "
                      "first to exclude, 'allreduce:' for one collective), got 'fast' in 'ring,fast'");
    CHECK_INPUT_ERROR(algo("ring;tree"),
                      "--algo: every entry after the first needs its function, e.g. 'allreduce:tree', got 'tree' in "
                      "'ring;tree'");
    CHECK_INPUT_ERROR(algo("allreduces:tree"),
                      "--algo: expected a function Broadcast, Reduce, AllGather, ReduceScatter or AllReduce before "
                      "':', got 'allreduces' in 'allreduces:tree'");
    CHECK_INPUT_ERROR(proto("LL256"),
                      "--proto: expected LL, LL128 or Simple (a list, '^' first to exclude, 'allreduce:' for one "
                      "collective), got 'LL256'");
}

TEST_CASE("NCCL's choice among what NCCL_ALGO / NCCL_PROTO leave: 8-byte all-reduce on one HGX H100") {
    // NCCL's estimates for 8 B on 8 GPUs of one node (Hopper tables,
    // presets/nccl/hopper.toml; the 8 B over GB/s term is below 1 ns):
    //   ring   LL      6.6 + 14 x 0.6  = 15.0 us   (2 x 7 steps)
    //   tree   LL      6.8 + 2 x 7 x 0.6 = 15.2 us
    //   nvls   Simple  25.0 us (its NVLink latency, no base)
    //   tree   LL128   14.0 + 2 x 7 x 1.25 = 31.5 us
    //   ring   LL128   14.0 + 14 x 1.9 = 40.6 us
    //   ring   Simple  8.4 + 14 x 3.4 = 56.0 us
    //   tree   Simple  8.4 + 2 x 7 x 4.0 = 64.4 us
    const Preset hgx = load_preset("hgx-h100", dtcalc::testing::kDirs);
    auto choice = [&](const std::string& a, const std::string& p) {
        NcclForce f;
        apply_nccl_algo(f, a, {"--algo", 0, 0, ""});
        apply_nccl_proto(f, p, {"--proto", 0, 0, ""});
        return dtcalc::testing::run(hgx, AR, 8, 1, 8, f).algorithm;
    };
    CHECK(choice("", "") == "ring/LL");
    CHECK(choice("^ring", "") == "tree/LL");
    CHECK(choice("", "^LL") == "nvls/Simple");
    CHECK(choice("^nvls", "^LL") == "tree/LL128");
    CHECK(choice("ring", "^LL") == "ring/LL128");
    CHECK(choice("ring,tree", "Simple") == "ring/Simple");
    // Per collective: all-gather keeps its ring; all-reduce takes the tree.
    CHECK(choice("ring;allreduce:tree", "") == "tree/LL");
}
