// The pipeline schedules, pass by pass, against orders written out by hand
// from the schedules' definitions (GPipe: all forwards, then all backwards
// newest first; 1F1B: pp - i - 1 warm-up forwards, then one forward and one
// backward in turn; Megatron-LM's interleaved 1F1B: 2 (pp - i - 1) + (v - 1) pp
// warm-up forwards, micro-batches going round the virtual chunks in groups of pp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memory/memory_model.h"
#include "plan/pipeline_schedule.h"

namespace {

using namespace dtcalc;

// "F0 B0 ..." (forward/backward, micro-batch, and ".c" chunk when interleaved).
std::string spell(const std::vector<Pass>& passes, bool chunks) {
    std::string out;
    for (const Pass& p : passes) {
        if (!out.empty()) out += ' ';
        out += p.forward ? 'F' : 'B';
        out += std::to_string(p.micro_batch);
        if (chunks) out += "." + std::to_string(p.chunk);
    }
    return out;
}

ParallelPlan plan(PipelineSchedule schedule, int pp, int vpp, long long micro_batches) {
    ParallelPlan p;
    p.schedule = schedule;
    p.pp = pp;
    p.vpp = vpp;
    p.dp = 1;
    p.mbs = 1;
    p.gbs = micro_batches;
    return p;
}

}  // namespace

TEST_CASE("GPipe: every forward, then every backward, newest first") {
    const ParallelPlan p = plan(PipelineSchedule::GPipe, 2, 1, 3);
    CHECK(spell(stage_schedule(p, 0), false) == "F0 F1 F2 B2 B1 B0");
    CHECK(spell(stage_schedule(p, 1), false) == "F0 F1 F2 B2 B1 B0");
    CHECK(warmup_passes(p, 1) == 3);
    CHECK(passes_in_flight(p, 0) == 3);
}

TEST_CASE("1F1B: pp - i - 1 warm-up forwards, then one forward one backward") {
    const ParallelPlan p = plan(PipelineSchedule::OneFOneB, 3, 1, 4);
    // Stage 0: 2 warm-up forwards; stage 2 (the last): none.
    CHECK(spell(stage_schedule(p, 0), false) == "F0 F1 F2 B0 F3 B1 B2 B3");
    CHECK(spell(stage_schedule(p, 1), false) == "F0 F1 B0 F2 B1 F3 B2 B3");
    CHECK(spell(stage_schedule(p, 2), false) == "F0 B0 F1 B1 F2 B2 F3 B3");
    CHECK(passes_in_flight(p, 0) == 3);
    CHECK(passes_in_flight(p, 2) == 1);
    // Fewer micro-batches than the warm-up wants: all of them.
    const ParallelPlan short_batch = plan(PipelineSchedule::OneFOneB, 4, 1, 2);
    CHECK(spell(stage_schedule(short_batch, 0), false) == "F0 F1 B0 B1");
    CHECK(passes_in_flight(short_batch, 0) == 2);
}

TEST_CASE("interleaved 1F1B: Megatron-LM's warm-up and chunk order") {
    // pp 2, v 2, 4 micro-batches: 8 chunk passes per stage. Stage 0's warm-up
    // is 2 (2 - 0 - 1) + (2 - 1) 2 = 4; stage 1's 0 + 2 = 2. Forward k goes to
    // micro-batch (k / 4) 2 + k % 2 and chunk (k / 2) % 2; backward k to chunk
    // 1 - (k / 2) % 2.
    const ParallelPlan p = plan(PipelineSchedule::Interleaved, 2, 2, 4);
    CHECK(warmup_passes(p, 0) == 4);
    CHECK(warmup_passes(p, 1) == 2);
    CHECK(spell(stage_schedule(p, 0), true) == "F0.0 F1.0 F0.1 F1.1 F2.0 B0.1 F3.0 B1.1 F2.1 B0.0 F3.1 B1.0 B2.1 B3.1 B2.0 B3.0");
    CHECK(spell(stage_schedule(p, 1), true) == "F0.0 F1.0 F0.1 B0.1 F1.1 B1.1 F2.0 B0.0 F3.0 B1.0 F2.1 B2.1 F3.1 B3.1 B2.0 B3.0");
    // Memory: 5 chunk passes in flight on stage 0 = 2.5 stages' worth of layers.
    CHECK(in_flight_micro_batches(p, 0) == 2.5);
}

TEST_CASE("without a pipeline every schedule runs each micro-batch forward then backward") {
    for (PipelineSchedule s : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB}) {
        const ParallelPlan p = plan(s, 1, 1, 3);
        CHECK(spell(stage_schedule(p, 0), false) == "F0 B0 F1 B1 F2 B2");
        CHECK(warmup_passes(p, 0) == 0);
        // One micro-batch's activations at a time (gradient accumulation), GPipe included.
        CHECK(in_flight_micro_batches(p, 0) == 1);
    }
}

TEST_CASE("uneven pipeline splits: the embedding and the loss count as layers (Megatron-Core)") {
    // Llama 3.1 405B: 126 layers on pp 8 x vpp 8 = 64 chunks. Even: 126 / 64 is
    // no whole number. With the embedding and the loss as layers, (126 + 2) / 64
    // = 2 slots per chunk: the first chunk builds 1 layer (and the embedding),
    // the last 1 (and the loss), the 62 others 2: 1 + 124 + 1 = 126.
    ParallelPlan p;
    p.pp = 8;
    p.vpp = 8;
    p.split = PipelineSplit::EmbeddingAndLoss;
    CHECK(layers_in_chunk(p, 126, 0) == 1);
    CHECK(layers_in_chunk(p, 126, 1) == 2);
    CHECK(layers_in_chunk(p, 126, 62) == 2);
    CHECK(layers_in_chunk(p, 126, 63) == 1);
    int total = 0;
    for (int c = 0; c < 64; ++c) total += layers_in_chunk(p, 126, c);
    CHECK(total == 126);
    // The embedding alone: 31 layers + 1 = 32 slots over pp 4 x vpp 2 = 8 chunks: 4 each, the first 3.
    p.pp = 4;
    p.vpp = 2;
    p.split = PipelineSplit::Embedding;
    CHECK(layers_in_chunk(p, 31, 0) == 3);
    CHECK(layers_in_chunk(p, 31, 7) == 4);
}
