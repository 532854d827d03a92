// Error messages of parallel plans: every rule of a plan broken one at a
// time, huge degrees, and groups that do not divide the network's dimensions.
// Each case pins the whole problem text, written from the rule the plan
// checker states, never copied from a run.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/model_loader.h"
#include "config/network_config.h"
#include "core/error.h"
#include "plan/group_mapping.h"
#include "plan/parallel_plan.h"
#include "input_error.h"

using namespace dtcalc;
using dtcalc::testing::error_of;

namespace {

ModelSpec transformer(int layers, int heads, int seq, int experts = 1) {
    ModelSpec m;
    m.name = "t";
    m.layers = layers;
    m.hidden = 64 * heads;
    m.ffn_hidden = 256 * heads;
    m.heads = heads;
    m.kv_heads = heads;
    m.vocab = 1000;
    m.seq = seq;
    m.experts = experts;
    return m;
}

std::vector<std::string> problems_of(const ModelSpec& m, long long npus, auto&& edit) {
    ParallelPlan p;
    edit(p);
    return plan_problems(m, p, npus);
}

}  // namespace

TEST_CASE("error message: every rule of a plan, one broken at a time") {
    const ModelSpec dense = transformer(32, 32, 2048);
    const ModelSpec moe = transformer(32, 32, 2048, 8);
    ModelSpec listed;
    listed.name = "resnet";
    listed.kind = ModelKind::LayerList;
    listed.default_batch = 32;
    listed.listed.push_back({"conv", 1e9, 1e4, 1e6, 0, false});
    using V = std::vector<std::string>;
    CHECK(problems_of(dense, 8, [](ParallelPlan& p) { p.dp = 8; p.mbs = 0; }) == V{"mbs must be at least 1 (got 0)"});
    CHECK(problems_of(dense, 8, [](ParallelPlan& p) { p.dp = 8; p.zero = 7; }) == V{"zero must be 0, 1, 2 or 3 (got 7)"});
    CHECK(problems_of(dense, 8, [](ParallelPlan& p) { p.dp = 4; p.pp = 2; p.vpp = 2; p.gbs = 8; p.schedule = PipelineSchedule::GPipe; }) ==
          V{"vpp > 1 needs the interleaved schedule (vpp 2, schedule gpipe)"});
    // dp 4, mbs 1, gbs 12: 3 micro-batches on 2 stages.
    CHECK(problems_of(dense, 8, [](ParallelPlan& p) { p.dp = 4; p.pp = 2; p.gbs = 12; p.schedule = PipelineSchedule::Interleaved; }) ==
          V{"the interleaved schedule needs the micro-batch count (3) to be a multiple of pp (2)"});
    CHECK(problems_of(dense, 8, [](ParallelPlan& p) { p.dp = 8; p.ep = 2; }) == V{"ep > 1 needs a mixture-of-experts model"});
    CHECK(problems_of(moe, 6, [](ParallelPlan& p) { p.dp = 3; p.tp = 2; p.ep = 2; p.gbs = 6; }) ==
          V{"ep (2) must divide dp (3)"});
    CHECK(problems_of(moe, 6, [](ParallelPlan& p) { p.dp = 6; p.ep = 3; }) == V{"ep (3) must divide experts (8)"});
    CHECK(problems_of(listed, 8, [](ParallelPlan& p) { p.dp = 4; p.tp = 2; }) ==
          V{"resnet is described layer by layer: only data parallelism applies (tp, pp, cp, ep must be 1)"});
    CHECK(problems_of(dense, 6, [](ParallelPlan& p) { p.dp = 2; p.cp = 3; }) == V{"cp (3) must divide the sequence length (2048)"});
    // seq 2050 = 2 x 1025: cp 2 divides it, tp 2 x cp 2 = 4 does not.
    CHECK(problems_of(dense, 4, [](ParallelPlan& p) { p.tp = 2; p.cp = 2; p.seq = 2050; p.sequence_parallel = true; }) ==
          V{"sequence parallelism needs the sequence (2050) divisible by tp x cp"});
}

TEST_CASE("error message: plans with huge degrees are problems, not crashes or wrapped numbers") {
    using V = std::vector<std::string>;
    const ModelSpec dense = transformer(96, 96, 2048);
    // pp x vpp = 2^32 wrapped to 0 in int and divided the layer count: SIGFPE.
    const auto wide = problems_of(dense, 8, [](ParallelPlan& p) { p.pp = 65536; p.vpp = 65536; p.schedule = PipelineSchedule::Interleaved; });
    CHECK(std::find(wide.begin(), wide.end(), "layers (96) must be divisible by pp x vpp (4294967296)") != wide.end());
    // dp x tp x pp x cp = (2^31 - 1)^4 does not fit in 64 bits; it used to print a wrapped product.
    const auto huge = problems_of(dense, 8, [](ParallelPlan& p) { p.dp = p.tp = p.pp = p.cp = 2147483647; });
    REQUIRE(!huge.empty());
    CHECK(huge.front() ==
          "dp x tp x pp x cp (2147483647 x 2147483647 x 2147483647 x 2147483647 = more than 2^63) must equal the NPU count (8)");
    // gbs 10^8 on dp 8 x mbs 1 is 12,500,000 micro-batches: the step would not fit in memory.
    CHECK(problems_of(dense, 8, [](ParallelPlan& p) { p.dp = 8; p.gbs = 100000000; }) ==
          V{"the global batch (100000000) makes 12500000 micro-batches through pp x vpp = 1 pipeline chunks, more than "
            "1000000 micro-batch passes (use a smaller gbs or a larger mbs)"});
}

TEST_CASE("error message: a plan whose groups do not divide the network's dimensions") {
    // Dimensions of 2 and 3 NPUs: tp 3, placed innermost first, meets the dimension of 2.
    Network network;
    network.dimensions = {Dimension{Topology::Ring, 2, 100, 10}, Dimension{Topology::Ring, 3, 100, 10}};
    ParallelPlan p;
    p.tp = 3;
    p.dp = 2;
    CHECK(error_of([&] { map_parallel_groups(network, p); }) ==
          "plan: tp (3 ranks left) does not divide what is left of network dimension 0 (2 NPUs)");
}
