// The hardware catalogue (presets/devices, presets/nics, presets/nccl): the
// composed presets give the numbers of the tables they replaced, a cluster
// from flags gives the numbers of its preset, a written preset reads back as
// the same system, and the composer's derived figures follow from datasheets.
// Its errors, listings and notes: hardware_catalogue_cli_test.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "input_error.h"
#include "collective/comm_group.h"
#include "config/config_readers.h"
#include "config/hardware_catalogue.h"
#include "config/named_file.h"
#include "config/preset.h"
#include "config/system_source.h"
#include "config/toml_writer.h"
#include "core/error.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "run_dtcalc.h"
#include "temp_file.h"

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};
const std::string kExpanded = std::string(DTCALC_PRESETS_DIR) + "/../tests/fixtures/expanded-presets/";
const std::vector<std::string> kModels{std::string(DTCALC_PRESETS_DIR) + "/../models"};

void same_network(const Network& a, const Network& b) {
    REQUIRE(a.dimensions.size() == b.dimensions.size());
    for (std::size_t i = 0; i < a.dimensions.size(); ++i) {
        CHECK(a.dimensions[i].topology == b.dimensions[i].topology);
        CHECK(a.dimensions[i].npus == b.dimensions[i].npus);
        CHECK(a.dimensions[i].bandwidth_gbps == b.dimensions[i].bandwidth_gbps);
        CHECK(a.dimensions[i].latency_ns == b.dimensions[i].latency_ns);
    }
}

void same_nccl(const NcclParameters& a, const NcclParameters& b) {
    CHECK(a.hardware.sm == b.hardware.sm);
    CHECK(a.hardware.nvlinks_per_gpu == b.hardware.nvlinks_per_gpu);
    CHECK(a.hardware.nvlink_link_gbps == b.hardware.nvlink_link_gbps);
    CHECK(a.hardware.nvswitch == b.hardware.nvswitch);
    CHECK(a.hardware.nics_per_node == b.hardware.nics_per_node);
    CHECK(a.hardware.gpus_per_nic == b.hardware.gpus_per_nic);
    CHECK(a.hardware.nics_per_gpu == b.hardware.nics_per_gpu);
    CHECK(a.hardware.pcie_gen == b.hardware.pcie_gen);
    CHECK(a.hardware.pcie_lanes == b.hardware.pcie_lanes);
    CHECK(a.hardware.cpu == b.hardware.cpu);
    CHECK(a.nvls == b.nvls);
    CHECK(a.nvls_efficiency == b.nvls_efficiency);
    CHECK(a.nvls_channels == b.nvls_channels);
    CHECK(a.alltoall_nvlink_efficiency == b.alltoall_nvlink_efficiency);
    CHECK(a.network_p2p_efficiency == b.network_p2p_efficiency);
    CHECK(a.network_alltoall_efficiency == b.network_alltoall_efficiency);
    CHECK(a.ring_network_channel_bandwidth == b.ring_network_channel_bandwidth);
    CHECK(a.ring_network_slice_overhead_us == b.ring_network_slice_overhead_us);
    CHECK(a.ll_bandwidth_factor == b.ll_bandwidth_factor);
    CHECK(a.ll128_bandwidth_factor == b.ll128_bandwidth_factor);
    CHECK(a.ll_max_bus_bandwidth == b.ll_max_bus_bandwidth);
    CHECK(a.ll128_max_bandwidth_per_channel == b.ll128_max_bandwidth_per_channel);
    CHECK(a.step_bytes == b.step_bytes);
    CHECK(a.nvls_chunk_overhead_us == b.nvls_chunk_overhead_us);
    CHECK(a.ll128 == b.ll128);
    CHECK(a.tree_bandwidth_factor == b.tree_bandwidth_factor);
    CHECK(a.tree_ll_bandwidth_factor == b.tree_ll_bandwidth_factor);
    CHECK(a.tree_ll128_bandwidth_factor == b.tree_ll128_bandwidth_factor);
    CHECK(a.tree_max_bandwidth_per_channel == b.tree_max_bandwidth_per_channel);
    CHECK(a.tree_ll128_max_bandwidth_per_channel == b.tree_ll128_max_bandwidth_per_channel);
    CHECK(a.nvls_tree_max_bandwidth_per_channel == b.nvls_tree_max_bandwidth_per_channel);
    CHECK(a.tree_correction == b.tree_correction);
    CHECK(a.pat_bandwidth_factor == b.pat_bandwidth_factor);
    CHECK(a.pat_per_rank_latency_us == b.pat_per_rank_latency_us);
    CHECK(a.pat_network_latency_divisor == b.pat_network_latency_divisor);
    CHECK(a.p2p_latency_us == b.p2p_latency_us);
    CHECK(a.p2p_nvlink_chunk_bytes == b.p2p_nvlink_chunk_bytes);
    CHECK(a.p2p_network_chunk_bytes == b.p2p_network_chunk_bytes);
    CHECK(a.p2p_network_channel_bandwidth == b.p2p_network_channel_bandwidth);
    CHECK(a.p2p_network_chunk_overhead_us == b.p2p_network_chunk_overhead_us);
    CHECK(a.p2p_network_connection_start_us == b.p2p_network_connection_start_us);
    CHECK(a.p2p_copy_bandwidth_per_channel == b.p2p_copy_bandwidth_per_channel);
    CHECK(a.p2p_per_channel_net_bandwidth == b.p2p_per_channel_net_bandwidth);
    CHECK(a.base_latency_us == b.base_latency_us);
    CHECK(a.nvlink_latency_us == b.nvlink_latency_us);
    CHECK(a.network_latency_us == b.network_latency_us);
    CHECK(a.ring_plateau_factor == b.ring_plateau_factor);
    CHECK(a.copy_efficiency == b.copy_efficiency);
    CHECK(a.copy_overhead_us == b.copy_overhead_us);
}

void same_device(const TrainingDevice& a, const TrainingDevice& b) {
    CHECK(a.peak_tflops_bf16 == b.peak_tflops_bf16);
    CHECK(a.peak_tflops_fp8 == b.peak_tflops_fp8);
    CHECK(a.hbm_gbps == b.hbm_gbps);
    CHECK(a.hbm_capacity_bytes == b.hbm_capacity_bytes);
    CHECK(a.gemm_efficiency.points == b.gemm_efficiency.points);
    CHECK(a.fp8_gemm_efficiency.points == b.fp8_gemm_efficiency.points);
    CHECK(a.gemm_shape.plateau == b.gemm_shape.plateau);
    CHECK(a.gemm_shape.tiling.sms == b.gemm_shape.tiling.sms);
    CHECK(a.gemm_shape.tiling.tiles == b.gemm_shape.tiling.tiles);
    CHECK(a.gemm_shape.tiling.k_overhead == b.gemm_shape.tiling.k_overhead);
    CHECK(a.fp8_gemm_shape.plateau == b.fp8_gemm_shape.plateau);
    CHECK(a.framework_bytes_per_element == b.framework_bytes_per_element);
    CHECK(a.sustained_gemm_fraction == b.sustained_gemm_fraction);
    CHECK(a.sustained_gemm_fraction_fp8 == b.sustained_gemm_fraction_fp8);
    CHECK(a.attention_forward.plateau == b.attention_forward.plateau);
    CHECK(a.attention_forward.seq_overhead == b.attention_forward.seq_overhead);
    CHECK(a.attention_backward.plateau == b.attention_backward.plateau);
    CHECK(a.attention_backward.seq_overhead == b.attention_backward.seq_overhead);
    CHECK(a.memory_efficiency == b.memory_efficiency);
}

void same_system(const SystemConfig& a, const SystemConfig& b) {
    CHECK(a.endpoint_delay_ns == b.endpoint_delay_ns);
    CHECK(a.active_chunks_per_dimension == b.active_chunks_per_dimension);
    CHECK(a.preferred_dataset_splits == b.preferred_dataset_splits);
    CHECK(a.local_mem_bw_gbps == b.local_mem_bw_gbps);
    CHECK(a.peak_perf_tflops == b.peak_perf_tflops);
}

// Every collective on every backend (nccl where `a` has NCCL's constants) at
// sizes 1 KiB .. 1 GiB, the same to the bit.
void same_collectives(System a, System b) {
    std::vector<NetworkBackend> backends{NetworkBackend::AstraUnaware, NetworkBackend::AstraAware};
    if (a.nccl()) backends.push_back(NetworkBackend::Nccl);
    for (NetworkBackend backend : backends)
        for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllToAll})
            for (std::uint64_t bytes = 1024; bytes <= (1ULL << 30); bytes *= 32) {
                a.backend = b.backend = backend;
                CollectiveQuery q;
                q.kind = kind;
                q.bytes = bytes;
                q.group = whole_network_group(a.network);
                const double ta = collective_time(a, q).time_ns;
                q.group = whole_network_group(b.network);
                const double tb = collective_time(b, q).time_ns;
                INFO(network_backend_name(backend), " ", bytes);
                CHECK(ta == tb);
            }
}

PredictResult predicted(PredictOptions o) {
    o.model = "llama2-7b";
    o.tp = 8;
    o.gbs = 64;
    const ResolvedPrediction r = resolve_prediction(o, kDirs, kModels);
    return predict(r.inputs);
}

}  // namespace

TEST_CASE("the composed presets are the tables they replaced (tests/fixtures/expanded-presets)") {
    for (const char* name : {"h100-ib-ndr400", "hgx-h100", "dgx-a100", "a100-ib-hdr200"}) {
        INFO(name);
        const Preset composed = load_preset(name, kDirs);
        const Preset expanded = load_preset(kExpanded + name + ".toml", kDirs);
        CHECK(composed.system.backend == expanded.system.backend);
        same_network(composed.system.network, expanded.system.network);
        same_system(composed.system.config, expanded.system.config);
        same_device(composed.system.device, expanded.system.device);
        REQUIRE(composed.system.nccl());
        same_nccl(*composed.system.nccl(), *expanded.system.nccl());
        same_collectives(composed.system, expanded.system);
    }
}

TEST_CASE("a cluster from flags gives exactly the numbers of the equivalent preset") {
    struct Case {
        const char* preset;
        const char* gpu;
        const char* nic;
        long long nodes;
    };
    for (const Case& c : {Case{"h100-ib-ndr400", "h100-sxm", "ndr400", 16}, Case{"a100-ib-hdr200", "a100-80gb-sxm", "hdr200", 16},
                          Case{"hgx-h100", "h100-sxm", "", 1}, Case{"dgx-a100", "a100-80gb-sxm", "", 1}}) {
        INFO(c.preset);
        SystemSource flags;
        flags.gpu = c.gpu;
        flags.nic = c.nic;
        flags.gpus_per_node = 8;
        flags.nodes = c.nodes;
        if (c.nodes > 1) flags.nics_per_node = 8;
        SystemSource preset;
        preset.preset = c.preset;
        const ResolvedSystem a = resolve_system(flags, kDirs);
        const ResolvedSystem b = resolve_system(preset, kDirs);
        CHECK(a.system.backend == b.system.backend);
        same_network(a.system.network, b.system.network);
        same_system(a.system.config, b.system.config);
        same_device(a.system.device, b.system.device);
        same_nccl(*a.system.nccl(), *b.system.nccl());
        same_collectives(a.system, b.system);

        PredictOptions po;
        po.system.preset = c.preset;
        PredictOptions fo;
        fo.system.gpu = c.gpu;
        fo.system.nic = c.nic;
        fo.system.gpus_per_node = 8;
        fo.system.nodes = c.nodes;
        const PredictResult pa = predicted(po), fa = predicted(fo);
        CHECK(pa.iteration_ns == fa.iteration_ns);
        CHECK(pa.exposed_comm_ns == fa.exposed_comm_ns);
        CHECK(pa.memory.breakdown.total() == fa.memory.breakdown.total());
        CHECK(pa.memory_limit_bytes == fa.memory_limit_bytes);
    }
    SUBCASE("--nodes and --gpus-per-node reshape the preset as they build the cluster") {
        PredictOptions po;
        po.system.preset = "h100-ib-ndr400";
        po.system.nodes = 4;
        po.system.gpus_per_node = 4;
        PredictOptions fo;
        fo.system.gpu = "h100-sxm";
        fo.system.nodes = 4;
        fo.system.gpus_per_node = 4;
        fo.system.nics_per_node = 8;  // the preset keeps its 8 NICs per node when reshaped
        fo.system.nic = "ndr400";
        CHECK(predicted(po).iteration_ns == predicted(fo).iteration_ns);
    }
}

TEST_CASE("the composer's figures follow from the datasheets") {
    auto cluster = [](const char* gpu, long long nodes, const char* nic = "", long long gpus = 8) {
        SystemSource s;
        s.gpu = gpu;
        s.nic = nic;
        s.nodes = nodes;
        s.gpus_per_node = gpus;
        return resolve_system(s, kDirs);
    };
    // H200: 18 NVLinks x 25 GB/s per direction = 450 GB/s; NDR 400 Gb/s / 8 = 50 GB/s (DGX H200's NIC).
    const ResolvedSystem h200 = cluster("h200", 16);
    REQUIRE(h200.system.network.dimensions.size() == 2);
    CHECK(h200.system.network.dimensions[0].bandwidth_gbps == 450.0);
    CHECK(h200.system.network.dimensions[1].bandwidth_gbps == 50.0);
    CHECK(h200.system.network.total_npus() == 128);
    CHECK(h200.system.device.hbm_capacity_bytes == 141.0 * 1073741824.0);
    CHECK(h200.system.device.hbm_gbps == 4800.0);
    CHECK(h200.system.device.efficiency_assumed_from == "h100-sxm");
    CHECK(h200.system.backend == NetworkBackend::Nccl);
    // B200: NVLink 5, 18 x 50 = 900 GB/s per direction (1.8 TB/s both); XDR 800 Gb/s = 100 GB/s.
    const ResolvedSystem b200 = cluster("b200", 2, "xdr800");
    CHECK(b200.system.network.dimensions[0].bandwidth_gbps == 900.0);
    CHECK(b200.system.network.dimensions[1].bandwidth_gbps == 100.0);
    CHECK(b200.system.nccl()->hardware.sm == 100);
    // MI300X: a full mesh of 7 Infinity Fabric links at 64 GB/s per direction; no NCCL.
    const ResolvedSystem mi = cluster("mi300x", 2);
    CHECK(mi.system.network.dimensions[0].topology == Topology::FullyConnected);
    CHECK(mi.system.network.dimensions[0].bandwidth_gbps == 64.0);
    CHECK(mi.system.backend == NetworkBackend::AstraUnaware);
    CHECK(mi.system.device.peak_tflops_bf16 == 1307.4);
    // H100 PCIe: peers over PCIe Gen5 x16: 32 GT/s x 16 lanes x 128/130 / 8 bits = 63.0154 GB/s.
    const ResolvedSystem pcie = cluster("h100-pcie", 1, "ndr400");
    CHECK(pcie.system.network.dimensions[0].bandwidth_gbps == doctest::Approx(32.0 * 16 * 128 / 130 / 8));
    CHECK(pcie.system.nccl()->hardware.nvlinks_per_gpu == 0);
    CHECK_FALSE(pcie.system.nccl()->hardware.nvswitch);
    // A100 40GB: its own GEMM benchmark and 108 SMs; no fp8 peak, so no fp8 shape borrowed; the
    // framework term (50.30 B per element), sustained GEMM share (0.83) and attention
    // curves are H100's.
    const ResolvedSystem a100 = cluster("a100-40gb-sxm", 1);
    CHECK(a100.system.device.peak_tflops_fp8 == 0);
    CHECK_FALSE(a100.system.device.fp8_gemm_shape.given());
    CHECK(a100.system.device.gemm_shape.given());
    CHECK(a100.system.device.gemm_shape.tiling.sms == 108);
    CHECK(a100.system.device.framework_bytes_per_element == 50.30);
    CHECK(a100.system.device.sustained_gemm_fraction == 0.83);
    CHECK(a100.system.device.attention_forward.plateau == 0.628);
    CHECK(a100.system.device.attention_backward.seq_overhead == 1630);
    CHECK(a100.system.device.efficiency_assumed_from == "h100-sxm");
    CHECK(a100.system.device.hbm_capacity_bytes == 40.0 * 1073741824.0);
    // H200 borrows H100's BF16 and fp8 benchmarks with the SMs and tiles they were measured with.
    CHECK(h200.system.device.fp8_gemm_shape.given());
    CHECK(h200.system.device.gemm_shape.tiling.sms == 132);
    // NCCL's llMaxBws across nodes follows the host CPU: AMD 22.5 / 19.0, Intel 39.0 / 20.4.
    CHECK(cluster("a100-80gb-sxm", 2).system.nccl()->ll_max_bus_bandwidth == NcclPerNodeBucket{87.7, 22.5, 19.0});
    CHECK(h200.system.nccl()->ll_max_bus_bandwidth == NcclPerNodeBucket{141.0, 39.0, 20.4});
    // Four GPUs per node with 8 NICs: one NIC per GPU at most; 8 GPUs on 4 NICs share two each.
    SystemSource four;
    four.gpu = "h100-sxm";
    four.nodes = 2;
    four.gpus_per_node = 8;
    four.nics_per_node = 4;
    CHECK(resolve_system(four, kDirs).system.nccl()->hardware.gpus_per_nic == 2);
    // Two NICs under each GPU's switch: 16 per node unless stated.
    four.nics_per_node.reset();
    four.nics_per_gpu = 2;
    const ResolvedSystem two_per_gpu = resolve_system(four, kDirs);
    const NcclHardware& two = two_per_gpu.system.nccl()->hardware;
    CHECK(two.nics_per_node == 16);
    CHECK(two.nics_per_gpu == 2);
    CHECK(two.gpus_per_nic == 1);
    CHECK(resolve_system(four, kDirs).warnings.empty());
    // 16 NICs without saying each GPU has two: the GPUs reach 8 of them, and a warning says so.
    four.nics_per_gpu.reset();
    four.nics_per_node = 16;
    const ResolvedSystem sixteen = resolve_system(four, kDirs);
    CHECK(sixteen.system.nccl()->hardware.nics_per_gpu == 1);
    REQUIRE(sixteen.warnings.size() == 1);
    CHECK(sixteen.warnings[0] ==
          "16 NICs per node for 8 GPUs: NCCL uses the NICs under its GPUs' PCIe switches, 1 per GPU here (8 of the "
          "16); if each GPU has more, say how many with --nics-per-gpu");
}

TEST_CASE("a training step on nodes whose GPUs share NICs: the data-parallel groups share them too") {
    // llama2-7b, tp 8 on 2 nodes of 8: 8 data-parallel groups of one GPU per
    // node run their gradient reduction at once. With 4 NICs per node two groups
    // share each NIC, so the NIC-bound reduction takes about twice as long as
    // with 8 (twice exactly for its transfer; its latency stays).
    auto dp_ns = [](long long nics) {
        PredictOptions o;
        o.system.gpu = "h100-sxm";
        o.system.nic = "ndr400";
        o.system.nodes = 2;
        o.system.nics_per_node = nics;
        const PredictResult r = predicted(o);
        return r.comm_by_class[static_cast<std::size_t>(TrafficClass::Data)].comm_ns;
    };
    const double eight = dp_ns(8), four = dp_ns(4);
    CHECK(eight > 0);
    CHECK(four / eight > 1.9);
    CHECK(four / eight < 2.0);
}

TEST_CASE("nics-per-gpu: a composed preset's key, the flag, and the expanded preset are one system") {
    const std::string composed = write_temp_file(
        "two-nics-per-gpu.toml", "name = \"x\"\ndescription = \"x\"\nsources = [\"x\"]\nbackend = \"nccl\"\n"
                                 "gpu = \"h100-sxm\"\nnodes = 4\nnic = \"hdr200\"\nnics-per-gpu = 2\n");
    const Preset from_file = load_preset(composed, kDirs);
    SystemSource flags;
    flags.gpu = "h100-sxm";
    flags.nodes = 4;
    flags.nic = "hdr200";
    flags.nics_per_gpu = 2;
    const ResolvedSystem from_flags = resolve_system(flags, kDirs);
    same_nccl(*from_file.system.nccl(), *from_flags.system.nccl());
    CHECK(from_file.system.nccl()->hardware.nics_per_gpu == 2);
    // Written out (expanded), [nccl.hardware] states it and reads back.
    const std::string expanded = write_temp_file("two-nics-per-gpu-expanded.toml", write_toml(from_file.tree, {"x"}));
    const Preset back = load_preset(expanded, {});
    same_nccl(*back.system.nccl(), *from_file.system.nccl());
    CHECK(back.system.nccl()->hardware.nics_per_gpu == 2);
    // An expanded preset whose GPUs both share NICs and have several each is an error at the key.
    std::string text = write_toml(from_file.tree, {"x"});
    const std::string key = "gpus-per-nic = 1";
    REQUIRE(text.find(key) != std::string::npos);
    text.replace(text.find(key), key.size(), "gpus-per-nic = 2");
    const std::string both = write_temp_file("shared-and-several.toml", text);
    CHECK(dtcalc::testing::error_of([&] { load_preset(both, {}); }).find("nics-per-gpu: GPUs share NICs (gpus-per-nic > 1) or have several "
                                                        "each, not both") != std::string::npos);
}

TEST_CASE("a preset written out reads back as the same system") {
    std::vector<std::string> names = toml_names_in(kDirs);
    REQUIRE(names.size() >= 11);
    for (const std::string& name : names) {
        INFO(name);
        const Preset p = load_preset(name, kDirs);
        const std::string path = write_temp_file("roundtrip-" + name + ".toml", write_toml(p.tree, {"a comment"}));
        const Preset back = load_preset(path, {});
        CHECK(back.name == p.name);
        CHECK(back.system.backend == p.system.backend);
        same_network(back.system.network, p.system.network);
        same_system(back.system.config, p.system.config);
        same_device(back.system.device, p.system.device);
        if (p.system.nccl()) same_nccl(*back.system.nccl(), *p.system.nccl());
        same_collectives(back.system, p.system);
    }
    SUBCASE("through the command line: dtcalc preset --gpu ... --write, then --preset") {
        const std::string path = write_temp_file("written-cluster.toml", "");
        const auto w = dtcalc::testing::run_dtcalc("preset --gpu h200 --gpus-per-node 8 --nodes 4 --nic ndr400 "
                                                   "--nics-per-node 8 --write " + path);
        REQUIRE(w.exit_code == 0);
        const std::string query = "collective all-reduce --size 1KiB:1GiB:x32 --format csv ";
        const auto a = dtcalc::testing::run_dtcalc(query + "--preset " + path, false);
        const auto b = dtcalc::testing::run_dtcalc(query + "--gpu h200 --gpus-per-node 8 --nodes 4 --nic ndr400 --nics-per-node 8", false);
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        CHECK(a.out == b.out);
        const std::string plan = "predict --model llama2-7b --tp 8 --gbs 64 --format csv ";
        const auto pa = dtcalc::testing::run_dtcalc(plan + "--preset " + path, false);
        const auto pb = dtcalc::testing::run_dtcalc(plan + "--gpu h200 --nodes 4 --nic ndr400", false);
        REQUIRE(pa.exit_code == 0);
        // The same numbers; only the system's label differs.
        const auto numbers = [](const std::string& csv) { return csv.substr(csv.find(",32,")); };
        CHECK(numbers(pa.out.substr(pa.out.find('\n'))) == numbers(pb.out.substr(pb.out.find('\n'))));
    }
}

TEST_CASE("every catalogue GPU composes a cluster that writes out and reads back as itself") {
    for (const std::string& gpu : toml_names_in(catalogue_dirs(kDirs, "devices"))) {
        INFO(gpu);
        ClusterRequest rq;
        rq.gpu = gpu;
        rq.gpus_per_node = 4;
        rq.nodes = 2;
        rq.nic = "ndr400";
        const Preset p = compose_preset(rq, kDirs);
        CHECK(p.system.network.total_npus() == 8);
        const std::string path = write_temp_file("device-" + gpu + ".toml", write_toml(p.tree));
        const Preset back = load_preset(path, {});
        same_network(back.system.network, p.system.network);
        same_system(back.system.config, p.system.config);
        same_device(back.system.device, p.system.device);
        CHECK(back.system.device.efficiency_assumed_from == p.system.device.efficiency_assumed_from);
        if (p.system.nccl()) same_nccl(*back.system.nccl(), *p.system.nccl());
        same_collectives(back.system, p.system);
    }
}

TEST_CASE("every command that takes a preset takes the same cluster from flags, with the same numbers") {
    using dtcalc::testing::run_dtcalc;
    const std::string flags = "--gpu h100-sxm --gpus-per-node 8 --nodes 16 --nic ndr400 --nics-per-node 8";
    const std::string preset = "--preset h100-ib-ndr400";
    // The first line names the system; every line after it must agree.
    auto after_first_line = [](const std::string& text) { return text.substr(text.find('\n')); };
    SUBCASE("run") {
        const std::string cmd = "run " + std::string(DTCALC_VALIDATION_DIR) + "/workloads/DLRM_HybridParallel.txt --backend astra-unaware ";
        const auto a = run_dtcalc(cmd + flags, false), b = run_dtcalc(cmd + preset, false);
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        CHECK(after_first_line(a.out) == after_first_line(b.out));
    }
    SUBCASE("sweep") {
        const std::string cmd = "sweep --model llama2-7b --tp 4,8 --gbs 128 --quiet ";
        const auto a = run_dtcalc(cmd + flags, false), b = run_dtcalc(cmd + preset, false);
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        // The flags are columns of their own, and the system column names the cluster; every
        // column after the system's must agree.
        auto after_system = [](const std::string& text, const std::string& label) {
            std::string out, line;
            std::istringstream in(text);
            while (std::getline(in, line)) {
                const std::size_t at = line.find(label);
                REQUIRE(at != std::string::npos);
                out += line.substr(at + label.size()) + "\n";
            }
            return out;
        };
        const std::string sa = after_system(a.out.substr(a.out.find('\n') + 1), "\"gpu h100-sxm, 16 nodes x 8, nic ndr400 x 8\"");
        const std::string sb = after_system(b.out.substr(b.out.find('\n') + 1), "preset h100-ib-ndr400");
        CHECK(sa.size() > 100);
        CHECK(sa == sb);
        CHECK(a.out.substr(0, a.out.find('\n')).ends_with(b.out.substr(b.out.find(",model,"), b.out.find('\n') - b.out.find(",model,"))));
    }
    SUBCASE("export-chakra") {
        const std::string dir = std::filesystem::path(write_temp_file("et-flags/keep", "")).parent_path().string();
        const std::string cmd = "export-chakra --model llama2-7b --tp 8 --gbs 16 --nodes 2 ";
        const auto a = run_dtcalc(cmd + "--gpu h100-sxm --nic ndr400 -o " + dir + "/a", false);
        const auto b = run_dtcalc(cmd + preset + " -o " + dir + "/b", false);
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        auto bytes = [](const std::string& path) {
            std::ifstream in(path, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        for (const char* rank : {".0.et", ".7.et", ".15.et"}) CHECK(bytes(dir + "/a" + rank) == bytes(dir + "/b" + rank));
    }
}
