// The sweep's replay of a training step against predict() itself: every number
// must be the same double, over models (dense, grouped-query, MoE, layer
// lists), systems (ASTRA-sim backends on rings, the nccl backend on H100
// clusters) and plans (every schedule, recompute, ZeRO stage, overlap and
// sequence-parallel setting, virtual stages, micro-batch sizes). predict() is
// the reference here: the replay claims nothing of its own.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "predict/predict_options.h"
#include "sweep/step_replay.h"

namespace {

using namespace dtcalc;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

struct Counts {
    int compared = 0, cannot_run = 0, mismatched = 0;
    std::string first_mismatch;
};

void compare(const PredictOptions& o, ReplayScratch& scratch, Counts& counts) {
    scratch.comm_by_group = true;  // every number predict() gives
    PredictInputs in;
    try {
        in = resolve_prediction(o, kPresets, kModels).inputs;
    } catch (const InputError&) {
        return;  // a plan option the system cannot take; not what this test is about
    }
    std::string predict_error, replay_error;
    PredictResult a, b;
    try {
        a = predict(in);
    } catch (const InputError& e) {
        predict_error = e.what();
    }
    try {
        b = predict_without_schedule(in, scratch);
    } catch (const InputError& e) {
        replay_error = e.what();
    }
    ++counts.compared;
    bool same = predict_error == replay_error && a.plan_problems == b.plan_problems &&
                      a.iteration_ns == b.iteration_ns && a.compute_ns == b.compute_ns && a.comm_ns == b.comm_ns &&
                      a.exposed_comm_ns == b.exposed_comm_ns && a.bubble_ns == b.bubble_ns &&
                      a.tokens_per_s == b.tokens_per_s && a.mfu == b.mfu && a.feasible == b.feasible &&
                      a.memory.breakdown.total() == b.memory.breakdown.total() && a.npus == b.npus &&
                      a.idle_ns == b.idle_ns;
    for (int k = 0; k < kTrafficClasses; ++k) {
        const TrafficTime& x = a.comm_by_class[static_cast<std::size_t>(k)];
        const TrafficTime& y = b.comm_by_class[static_cast<std::size_t>(k)];
        same = same && x.comm_ns == y.comm_ns && x.exposed_ns == y.exposed_ns;
    }
    if (replay_error.empty()) {
        // Without communication by class (a sweep without --comm-by-group): the same totals.
        ReplayScratch totals_only;
        const PredictResult c = predict_without_schedule(in, totals_only);
        same = same && c.iteration_ns == b.iteration_ns && c.compute_ns == b.compute_ns && c.comm_ns == b.comm_ns &&
               c.exposed_comm_ns == b.exposed_comm_ns && c.bubble_ns == b.bubble_ns && c.idle_ns == b.idle_ns;
    }
    if (!a.plan_problems.empty() || !predict_error.empty()) ++counts.cannot_run;
    if (!same && counts.mismatched++ == 0)
        counts.first_mismatch = o.model + " on " + o.system.preset + " dp " + std::to_string(o.dp.value_or(0)) + " tp " +
                                std::to_string(o.tp) + " pp " + std::to_string(o.pp) + " cp " + std::to_string(o.cp) +
                                " schedule " + o.schedule + " vpp " + std::to_string(o.vpp) + ": iteration " +
                                std::to_string(a.iteration_ns) + " vs " + std::to_string(b.iteration_ns) + ", comm " +
                                std::to_string(a.comm_ns) + " vs " + std::to_string(b.comm_ns) + ", bubble " +
                                std::to_string(a.bubble_ns) + " vs " + std::to_string(b.bubble_ns) + " [" + predict_error +
                                "|" + replay_error + "]";
}

}  // namespace

TEST_CASE("the replay gives predict()'s numbers on the lab systems (pp, tp, cp, recompute, ZeRO, overlap)") {
    ReplayScratch scratch;  // reused from point to point, as a sweep does
    Counts counts;
    const int degrees[] = {1, 2, 4, 8, 16};
    for (const char* model : {"llama2-70b", "gpt3-175b"})
        for (int pp : {1, 2, 4})
            for (int tp : degrees)
                for (int cp : {1, 2, 4})
                    for (const char* recompute : {"none", "selective", "full"})
                        for (int zero : {0, 1, 3})
                            for (bool overlap : {false, true}) {
                                if (64 % (pp * tp * cp) != 0) continue;
                                PredictOptions o;
                                o.model = model;
                                o.system.preset = pp == 2 ? "lab-system2" : "lab-system1";
                                o.pp = pp;
                                o.tp = tp;
                                o.cp = cp;
                                o.dp = 64 / (pp * tp * cp);
                                o.gbs = 64;
                                o.seq = 1024;
                                o.recompute = recompute;
                                o.zero = zero;
                                o.tp_comm_overlap = overlap;
                                o.overlap_param_gather = overlap;  // zero 1-2: the parameter gathers beside the forward
                                o.sequence_parallel = tp > 1 && zero == 1;
                                compare(o, scratch, counts);
                            }
    INFO(counts.first_mismatch);
    CHECK(counts.compared > 1000);
    CHECK(counts.mismatched == 0);
}

TEST_CASE("the replay gives predict()'s numbers for every pipeline schedule and virtual stages") {
    ReplayScratch scratch;
    Counts counts;
    for (const char* schedule : {"gpipe", "1f1b", "interleaved"})
        for (int pp : {2, 4, 8})
            for (int vpp : {1, 2, 3})
                for (int mbs : {1, 2})
                    for (long long gbs : {16LL, 48LL, 96LL}) {
                        PredictOptions o;
                        o.model = "gpt3-175b";
                        o.system.preset = "lab-system1";
                        o.pp = pp;
                        o.tp = 4;
                        o.dp = 64 / (4 * pp);
                        o.vpp = vpp;
                        o.schedule = schedule;
                        o.mbs = mbs;
                        o.gbs = gbs;
                        o.seq = 2048;
                        compare(o, scratch, counts);
                    }
    INFO(counts.first_mismatch);
    CHECK(counts.compared > 100);
    CHECK(counts.mismatched == 0);
}

TEST_CASE("the replay gives predict()'s numbers with the nccl backend, MoE experts and layer-list models") {
    ReplayScratch scratch;
    Counts counts;
    for (int tp : {1, 2, 4, 8})
        for (int pp : {1, 2, 4})
            for (const char* precision : {"bf16", "fp8"}) {
                PredictOptions o;
                o.model = "llama3-70b";
                o.system.preset = "h100-ib-ndr400";
                o.system.nodes = 8;
                o.system.gpus_per_node = 8;
                o.tp = tp;
                o.pp = pp;
                o.gbs = 128;
                o.precision = precision;
                o.sequence_parallel = tp > 1;
                compare(o, scratch, counts);
            }
    for (int ep : {1, 2, 4, 8})
        for (int tp : {1, 2}) {
            PredictOptions o;
            o.model = "mixtral-8x7b";
            o.system.preset = "hgx-h100";
            o.tp = tp;
            o.ep = ep;
            o.gbs = 64;
            compare(o, scratch, counts);
        }
    for (const char* model : {"resnet50", "dlrm"})
        for (const char* preset : {"hgx-h100", "lab-system1"})
            for (int zero : {0, 1, 2, 3}) {
                PredictOptions o;
                o.model = model;
                o.system.preset = preset;
                o.zero = zero;
                compare(o, scratch, counts);
            }
    INFO(counts.first_mismatch);
    CHECK(counts.compared == 48);  // 24 + 8 + 16: every plan resolved
    CHECK(counts.mismatched == 0);
}

TEST_CASE("the replay reports a plan predict() cannot run the same way") {
    ReplayScratch scratch;
    PredictOptions o;
    o.model = "gpt3-175b";
    o.system.preset = "lab-system1";
    o.tp = 64;  // 96 heads
    const PredictInputs in = resolve_prediction(o, kPresets, kModels).inputs;
    const PredictResult r = predict_without_schedule(in, scratch);
    REQUIRE(r.plan_problems.size() == 2);
    CHECK(r.plan_problems[0] == "tp (64) must divide heads (96)");
    CHECK(r.plan_problems[1] == "tp (64) and kv_heads (96) must divide one another");
    CHECK(r.iteration_ns == 0);
}

TEST_CASE("the replay gives predict()'s numbers on thousands of random valid plans") {
    // Every plan option drawn at random (a fixed seed: the same plans on every
    // run), over dense, grouped-query and MoE models, layer lists, ASTRA-sim
    // rings, a mesh, switches and the nccl backend. Plans that break a rule
    // are drawn too and must be refused alike; the count of valid plans
    // compared is the test's claim.
    struct System {
        const char* preset;
        std::optional<long long> nodes, gpus_per_node;
        long long npus;
    };
    const System systems[] = {{"lab-system1", {}, {}, 64},  {"lab-system2", {}, {}, 64}, {"hgx-h100", {}, {}, 8},
                              {"h100-ib-ndr400", 4, 8, 32}, {"lab-mesh-4x4", {}, {}, 16}, {"dgx-a100", {}, {}, 8}};
    const char* models[] = {"gpt3-175b", "llama2-7b", "llama3-70b", "mixtral-8x7b", "llama2-13b", "resnet50", "dlrm"};
    const char* schedules[] = {"gpipe", "1f1b", "interleaved"};
    const char* recomputes[] = {"none", "selective", "full"};
    const char* orders[] = {"tp,cp,ep,dp,pp", "tp,dp,cp,ep,pp", "pp,tp,cp,ep,dp"};
    std::mt19937_64 random(20261124);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
    auto power_of_two = [&](int most) { return 1 << pick(most + 1); };

    ReplayScratch scratch;
    Counts counts;
    int valid = 0;
    for (int draw = 0; draw < 9000; ++draw) {
        const System& sys = systems[pick(6)];
        PredictOptions o;
        o.model = models[pick(7)];
        const bool moe = o.model == std::string("mixtral-8x7b");
        o.system.preset = sys.preset;
        o.system.nodes = sys.nodes;
        o.system.gpus_per_node = sys.gpus_per_node;
        o.tp = power_of_two(3);
        o.pp = power_of_two(3);
        o.cp = pick(3) == 0 ? 2 : 1;
        o.ep = pick(moe ? 2 : 12) == 0 ? power_of_two(2) : 1;  // now and then for dense models: a rule they break
        const long long others = static_cast<long long>(o.tp) * o.pp * o.cp;
        if (sys.npus % others != 0) continue;  // dp would not be a whole number; plan_problems has its own tests
        o.dp = static_cast<int>(sys.npus / others);
        o.vpp = pick(3) == 0 ? 2 : 1;
        o.schedule = schedules[pick(3)];
        o.mbs = 1 + pick(2);
        o.gbs = static_cast<long long>(*o.dp) * *o.mbs * (1 + pick(2)) * (o.pp > 1 ? o.pp : 1);
        o.seq = 512 << pick(3);
        o.recompute = recomputes[pick(3)];
        o.zero = pick(4);
        o.tp_comm_overlap = pick(2) == 1;
        o.sequence_parallel = o.tp > 1 && pick(2) == 1;
        o.precision = pick(4) == 0 ? "fp8" : "bf16";
        o.order = orders[pick(3)];
        o.attention = pick(4) == 0 ? "unfused" : "flash";
        o.pipeline_split = pick(4) == 0 ? "embedding-and-loss" : "even";
        o.overlap_param_gather = pick(2) == 1;
        o.grad_reduce_in_fp32 = pick(2) == 1;
        const int before = counts.compared - counts.cannot_run;
        compare(o, scratch, counts);
        if (counts.compared - counts.cannot_run > before) ++valid;
    }
    INFO(counts.first_mismatch);
    MESSAGE("random plans: " << counts.compared << " compared, " << valid << " valid");
    CHECK(valid >= 2500);
    CHECK(counts.mismatched == 0);
}
