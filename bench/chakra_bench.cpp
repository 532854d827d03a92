// Chakra traces read and evaluated: the STAGE sanity trace of validation/chakra
// (16 NPUs, 5,544 nodes; ASTRA-sim took 0.57 s on it), and a generated
// STAGE-like trace of 64 NPUs in 8 pipeline stages with 1.28 million nodes
// (~240 bytes per node, as STAGE writes them: names, tensor lists, sizes).
// Counters: nodes per second, read from the files and evaluated.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "chakra/astra_run.h"
#include "chakra/trace_decoder.h"
#include "chakra/trace_set.h"
#include "chakra/trace_writer.h"

namespace {

using namespace dtcalc;
using namespace dtcalc::chakra;

const std::string kSanity = std::string(DTCALC_SOURCE_DIR) + "/validation/chakra";

AstraRunFiles sanity_files() {
    AstraRunFiles f;
    f.workload = kSanity + "/sanity_16npu/workload";
    f.comm_groups = kSanity + "/sanity_16npu/comm_group.json";
    f.system = kSanity + "/system_system_16.json";
    f.network = kSanity + "/network_system_16.yml";
    f.remote_memory = kSanity + "/remote_memory.json";
    return f;
}

void BM_AstraSanity16Npu(benchmark::State& state) {
    AstraRunFiles files = sanity_files();
    files.threads = static_cast<int>(state.range(0));
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        const AstraRun run = run_astra(files);
        nodes = run.trace.traces.nodes;
        benchmark::DoNotOptimize(run.ranks.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * nodes));
}
BENCHMARK(BM_AstraSanity16Npu)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// 64 NPUs = 8 stages x 8; tensor-parallel pairs inside a stage; stage s receives
// from s-1, runs `layers` x (COMP + all-gather on its pair), sends to s+1.
constexpr int kNpus = 64;
constexpr int kLayers = 10000;

std::string synthetic_prefix() {
    const auto dir = std::filesystem::temp_directory_path() / "dtcalc-bench-chakra";
    const std::string prefix = (dir / "stage64").string();
    if (std::filesystem::exists(rank_file(prefix, kNpus - 1))) return prefix;
    std::filesystem::create_directories(dir);
    std::string groups = "{";
    for (int r = 0; r < kNpus; r += 2) groups += (r ? ", \"" : "\"") + std::to_string(r / 2 + 1) + "\": [" +
                                                 std::to_string(r) + ", " + std::to_string(r + 1) + "]";
    std::ofstream(prefix + ".json") << groups << "}\n";
    std::ofstream(prefix + "_network.yml") << "topology: [ FullyConnected, Switch ]\nnpus_count: [ 8, 8 ]\n"
                                              "bandwidth: [ 128.5714, 25 ]\nlatency: [ 20, 100 ]\n";
    for (int r = 0; r < kNpus; ++r) {
        const int stage = r / 8;
        std::vector<Node> nodes;
        nodes.reserve(2 * kLayers + 2);
        std::uint64_t previous = 0;
        auto node = [&](std::uint64_t id, NodeType type, const std::string& name) {
            Node n;
            n.set_id(id);
            n.set_type(type);
            n.set_name(name);
            if (previous != 0) n.add_data_deps(previous);
            previous = id;
            return n;
        };
        if (stage > 0) {
            Node n = node(1, COMM_RECV_NODE, "stage_" + std::to_string(stage) + "_in@0_Y_RECV");
            add_int32_attr(n, "comm_src", r - 8);
            add_int64_attr(n, "comm_size", 536870912);
            add_int32_attr(n, "comm_tag", 1000 + stage);
            nodes.push_back(std::move(n));
        }
        for (int l = 0; l < kLayers; ++l) {
            const std::string layer = "stack_" + std::to_string(l) + "_mlp_x" + std::to_string(l % 4);
            Node c = node(2 + 2 * static_cast<std::uint64_t>(l), COMP_NODE, layer + "@0_COMP");
            const std::vector<std::string> in = {layer + "@0Batch/dp,Seq/sp,Dmodel/tp", "536870912.0",
                                                 "stack_" + std::to_string(l) + "_w@0Dmodel,Dff/tp", "117440512.0"};
            const std::vector<std::string> out = {layer + "_y@0Batch/dp,Seq/sp,Dff/tp", "1879048192.0"};
            add_string_list_attr(c, "inputs", in);
            add_string_list_attr(c, "outputs", out);
            add_int64_attr(c, "num_ops", 15393162788864LL + l % 3);
            add_uint64_attr(c, "tensor_size", 1879048192ULL);
            add_string_attr(c, "op_type", "M");
            nodes.push_back(std::move(c));
            Node g = node(3 + 2 * static_cast<std::uint64_t>(l), COMM_COLL_NODE, layer + "@0_X1COMM");
            const std::vector<std::string> gin = {layer + "_y@0Batch/dp,Seq/sp,Dff/tp", "1879048192.0"};
            add_string_list_attr(g, "inputs", gin);
            add_string_list_attr(g, "outputs", {});
            add_int64_attr(g, "comm_size", 536870912);
            add_int64_attr(g, "comm_type", 2);
            add_string_attr(g, "pg_name", std::to_string(r / 2 + 1));
            add_int32_attr(g, "is_cpu_op", 0);
            nodes.push_back(std::move(g));
        }
        if (stage < 7) {
            Node n = node(2 * kLayers + 2, COMM_SEND_NODE, "stage_" + std::to_string(stage) + "_out@0_Y_SEND");
            add_int32_attr(n, "comm_dst", r + 8);
            add_int64_attr(n, "comm_size", 536870912);
            add_int32_attr(n, "comm_tag", 1001 + stage);
            nodes.push_back(std::move(n));
        }
        write_et_file(rank_file(prefix, r), chakra_metadata("bench"), nodes);
    }
    return prefix;
}

AstraRunFiles synthetic_files(int threads) {
    AstraRunFiles f = sanity_files();
    f.workload = synthetic_prefix();
    f.comm_groups = f.workload + ".json";
    f.network = f.workload + "_network.yml";
    f.threads = threads;
    return f;
}

void BM_AstraStage64Npu1MNodes(benchmark::State& state) {
    const AstraRunFiles files = synthetic_files(static_cast<int>(state.range(0)));
    std::uint64_t nodes = 0;
    int roles = 0;
    for (auto _ : state) {
        const AstraRun run = run_astra(files);
        nodes = run.trace.traces.nodes;
        roles = run.trace.graph.roles;
        benchmark::DoNotOptimize(run.ranks.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * nodes));
    state.counters["nodes"] = static_cast<double>(nodes);
    state.counters["roles"] = roles;
}
BENCHMARK(BM_AstraStage64Npu1MNodes)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DecodeOneRank(benchmark::State& state) {
    const std::string file = rank_file(synthetic_prefix(), 9);
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    DecodeOptions options;
    options.tensors = state.range(0) != 0;
    std::size_t nodes = 0;
    for (auto _ : state) {
        const RankTrace t = decode_rank_trace(bytes, file, 9, options);
        nodes = t.nodes.size();
        benchmark::DoNotOptimize(t.nodes.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * nodes));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DecodeOneRank)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
