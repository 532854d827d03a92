// NCCL's rules that depend on the GPU generation and the node's links, on GPUs
// from the hardware catalogue: Blackwell's tables (presets/nccl/blackwell.toml)
// and LL128's default (on between NVLink peers only). Every expected value is
// worked out by hand in the comment beside it.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_selection.h"
#include "collective/nccl/nccl_shape.h"
#include "collective/nccl/nccl_topology.h"
#include "config/system_source.h"
#include "network/cluster_shape.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

TEST_CASE("B200 on NCCL's Blackwell (sm100) tables") {
    // b200.toml: 18 NVLinks x SM100_NVLINK_BW 40.1 = 721.8 GB/s; 8 NDR NICs.
    SystemSource source;
    source.gpu = "b200";
    source.nodes = 2;
    const System b200 = resolve_system(source, kDirs).system;
    const NcclParameters& p = *b200.nccl();
    // One node: sm100 intra steps 90, 80, 70, 60, 50, 45, 40 ...: 8 x 90 = 720
    // (80, 60 and 45 give 720 too, not more; 40 < 0.49 x 90 stops); dup (90 >=
    // 50) to 16 x 45; pass 2 finds no faster step for 16 (50 gives 14). Postset
    // 32 channels. NVLS: 8 heads, (8 + 1) s <= 721.8: s = 80;
    // NVLS_NCHANNELS_SM100_NVL 24 channels on one node, NVLS_NCHANNELS_SM100 32
    // across nodes.
    const NcclTopology one = nccl_topology(p, 8, 1, 0);
    CHECK(one.ring.channels == 16);
    CHECK(one.ring.bw_intra == 45.0);
    CHECK(one.channels == 32);
    CHECK(one.nvls.bw_intra == 80.0);
    CHECK(one.nvls.bw_inter == 90.0);
    CHECK(one.nvls_channels == 24);
    CHECK(nccl_topology(p, 8, 2, 50.0).nvls_channels == 32);

    // 1 x 8 all-reduce, 8 GiB. NCCL's choice: NVLS. Its pass 2 raises the NVLS
    // inter-node speed from 80 to the top step, 90 (below 2 x 80), so 8 heads x
    // min(80 x nvlsEfficiency 0.74 x 7/8 x 2 = 103.6, 90) = 720 GB/s bus, 411.4
    // algbw, 25 us: the ring's 16 x 45 = 720 bus (411.4 algbw) at 8.4 + 14 x
    // 3.4 = 56 us loses on latency. As it runs: 0.74 x
    // 720 x 8/9 = 473.6 GB/s: 8589934592 / 473.6 = 18137530.8 ns; latency 25 us;
    // 8 GiB / 24 channels is not below 64 x 8 heads x 128 KiB, so the default
    // chunk and 473.6 GB/s; one 24 x 8 x 128 KiB = 25165824 B loop fills:
    // 25165824 / 473.6 = 53137.3 ns: 18215.6681 us.
    const Run nvls = run(b200, CollectiveKind::AllReduce, 8 * GiB, 1, 8);
    CHECK(nvls.algorithm == "nvls/Simple");
    CHECK(nvls.channels == 24);
    CHECK(nvls.us == doctest::Approx(18215.6681).epsilon(1e-7));

    // A forced ring/LL128 all-gather, 1 x 8, 4 GiB: bus min(720 x 0.92 = 662.4,
    // 16 graph channels x perChMaxRingLL128Bws 34.5 (Blackwell, one node) = 552)
    // = 552 GB/s (Hopper's 36.7 would give 587.2); 32 channels at 17.25 GB/s each.
    // Latency 14.0 + 7 x 1.9 = 27.3 us; fill min(4 GiB / (8 x 32), 576000) /
    // 17.25 = 33391.3 ns; 4294967296 x 7/8 / 552 = 6808145.6 ns: 6868.8369 us.
    const Run ll128 = run(b200, CollectiveKind::AllGather, 4 * GiB, 1, 8,
                          NcclForce::only(NcclAlgorithm::Ring, NcclProtocol::LL128));
    CHECK(ll128.algorithm == "ring/LL128");
    CHECK(ll128.us == doctest::Approx(6868.8369).epsilon(1e-7));

    // From sm100 on, NCCL's choice derates NVLS-tree all-reduce by its tree
    // correction (tuning.cc, ncclTopoGetAlgoTime; x86 hosts). 2 x 8, 256 KiB
    // (64 B x 2^12: Simple's factor 0.5). NVLS-tree: 8 heads (one per NIC); the
    // inter-node speeds from min(NIC 50, PCIe 48) = 48: intra 48 (9 x 48 <=
    // 721.8), inter 48; per head min(48 x 0.74 x 7/8 x 2 = 62.16, 2 x 48 (two
    // nodes), perChMaxNVLSTreeBws 96.0) = 62.16, x 8 x 16/30 = 265.216 GB/s
    // algbw. Latency 25 + 2 x 1 x 20.9 = 66.8 us. 262144 / (265.216 x 0.5) =
    // 1976.83 ns: 68776.83 ns.
    const Network network = shape_cluster(b200.network, 2, 8, b200.node_gpus());
    const CommGroup group = whole_network_group(network);
    const NcclShape shape = nccl_shape(group);
    const NcclRates rates = nccl_rates(network, group, shape, p);
    CHECK(nccl_tuning_time_ns(CollectiveKind::AllReduce, 256 * 1024, shape, rates, p, NcclAlgorithm::NvlsTree,
                              NcclProtocol::Simple, {}) == doctest::Approx(68776.834).epsilon(1e-7));
    // On Hopper (sm 90) NCCL does not derate NVLS-tree: the same rates give 988.42 ns.
    NcclParameters hopper_rule = p;
    hopper_rule.hardware.sm = 90;
    CHECK(nccl_tuning_time_ns(CollectiveKind::AllReduce, 256 * 1024, shape, rates, hopper_rule,
                              NcclAlgorithm::NvlsTree, NcclProtocol::Simple, {}) ==
          doctest::Approx(67788.417).epsilon(1e-7));
    // On a Grace (Arm) host NCCL does not derate it either (the correction is
    // for x86 hosts), keeps getNetOverhead at 1 us and the llMaxBws row of
    // Intel hosts (only AMD takes the other): the same 67788.42 ns.
    source.host_cpu = "arm";
    const System grace = resolve_system(source, kDirs).system;
    const NcclParameters& g = *grace.nccl();
    CHECK(g.hardware.cpu == NcclCpuVendor::Arm);
    CHECK(g.hardware.net_overhead_us() == 1.0);
    CHECK(g.ll_max_bus_bandwidth == NcclPerNodeBucket{282.0, 39.0, 20.4});
    CHECK(nccl_tuning_time_ns(CollectiveKind::AllReduce, 256 * 1024, shape, nccl_rates(network, group, shape, g), g,
                              NcclAlgorithm::NvlsTree, NcclProtocol::Simple, {}) ==
          doctest::Approx(67788.417).epsilon(1e-7));
}

TEST_CASE("LL128 is on by default only between GPUs on NVLink, as NCCL enables it") {
    // tuning.cc (ncclTopoTuneModel): LL128 is on by default only where the
    // graph's intra-node path is NVLink or closer (typeIntra <= PATH_NVB).
    // H100 PCIe cards meet over PCIe: 1 x 4, all-reduce, 1 MiB, where NCCL's
    // tuning would rate the ring/LL128 fastest if it were on.
    const System pcie = catalogue_system("h100-pcie", "ndr400", 4, 4);
    const Run chosen = run(pcie, CollectiveKind::AllReduce, MiB, 1, 4);
    CHECK(chosen.algorithm.find("LL128") == std::string::npos);
    // NCCL_PROTO=LL128 turns it on.
    CHECK(run(pcie, CollectiveKind::AllReduce, MiB, 1, 4, NcclForce::only(std::nullopt, NcclProtocol::LL128))
              .algorithm == "ring/LL128");
    // Across nodes with one GPU each there is no GPU-to-GPU path in the node:
    // LL128 stays available by default (a 4 x 1 ring/LL128 as NCCL's choice).
    const Run one_gpu = run(pcie, CollectiveKind::AllGather, 2 * MiB, 4, 1);
    CHECK(one_gpu.algorithm == "ring/LL128");
}

TEST_CASE("an H800 node: NCCL's rules on 8 NVLinks, and the all-reduce a public H800 node shows") {
    // 8 NVLinks at SM90_NVLINK_BW 20.6: P = 164.8 GB/s. Ring search, pass 1
    // over sm90's intra steps from 60: 2 x 60 = 120, 3 x 50 = 150, 4 x 40 =
    // 160, 5 x 30 = 150 -> 4 x 40; ncclTopoDupChannels: 8 x 20 (40 >= 25, and
    // not more than 4 channels); pass 2: 8 x 24 = 192 > 164.8 keeps 8 x 20;
    // postset doubles: 16 channels, 160 GB/s. NVLS heads: 9 s <= 164.8 -> s =
    // 15 (20 x 9 = 180 too much).
    const System h800 = catalogue_system("h800", "ndr400", 1);
    const Network network = shape_cluster(h800.network, 1, 8, h800.node_gpus());
    const CommGroup group = whole_network_group(network);
    const NcclShape shape = nccl_shape(group);
    const NcclRates rates = nccl_rates(network, group, shape, *h800.nccl());
    CHECK(rates.topology.ring.channels == 8);
    CHECK(rates.topology.ring.bw_intra == 20.0);
    CHECK(rates.topology.channels == 16);
    CHECK(rates.topology.nvls.channels == 8);
    CHECK(rates.topology.nvls.bw_intra == 15.0);
    // NVLS all-reduce as it runs streams nvls-efficiency x NVLink x n/(n+1) of
    // algorithm bandwidth at NCCL's 128 KiB chunk: 0.85 x 160 x 8/9 = 120.89 GB/s,
    // 2 x 7/8 of it bus bandwidth, 211.56 GB/s; at 8 GiB (128 KiB chunks) the
    // latency and one loop of fill are below 0.5 %. NVIDIA/nccl#1374 shows an
    // 8 x H800 node's all-reduce at 215 GB/s of bus bandwidth (no fit on it).
    const double bytes = 8.0 * GiB;
    const Run r = run(h800, CollectiveKind::AllReduce, 8 * GiB, 1, 8);
    CHECK(r.algorithm == "nvls/Simple");
    const double bus = bytes / (r.us * 1e3) * 2.0 * 7.0 / 8.0;
    CHECK(bus == doctest::Approx(211.56).epsilon(0.005));
    CHECK(bus == doctest::Approx(215.0).epsilon(0.03));
}

TEST_CASE("a NIC faster than its GPU's PCIe link moves what the link carries") {
    // PCIe payload per direction (NcclHardware::pcie_payload_gbps): Gen4 x16
    // 16 x 16 GT/s / 8 x 128/130 x 256/280 = 28.80703 GB/s; Gen5 x16 twice that,
    // 57.61407; Gen6 x16 16 x 64 / 8 x 236/256 x 256/272 = 111.05882.
    NcclHardware hw;
    hw.pcie_lanes = 16;
    hw.pcie_gen = 4;
    CHECK(hw.pcie_payload_gbps() == doctest::Approx(28.80703).epsilon(1e-6));
    hw.pcie_gen = 5;
    CHECK(hw.pcie_payload_gbps() == doctest::Approx(57.61407).epsilon(1e-6));
    hw.pcie_gen = 6;
    CHECK(hw.pcie_payload_gbps() == doctest::Approx(111.05882).epsilon(1e-6));
    // An NDR NIC (50 GB/s x 0.983 = 49.15 GB/s of payload) behind an A100's Gen4
    // x16 moves 28.807; behind an H100's Gen5 x16 (57.6) its own 49.15.
    const System a100 = catalogue_system("a100-80gb-sxm", "ndr400", 2, 1);
    const System h100 = catalogue_system("h100-sxm", "ndr400", 2, 1);
    CHECK(nccl_nic_payload_gbps(*a100.nccl(), 50.0) == doctest::Approx(28.80703).epsilon(1e-6));
    CHECK(nccl_nic_payload_gbps(*h100.nccl(), 50.0) == doctest::Approx(49.15).epsilon(1e-6));
    // A 16 GiB ring/Simple all-reduce on 2 x 1 moves S through each NIC per
    // direction: 17179869184 / 28.80703 = 596378.9 us on the A100, plus NCCL's
    // latency (tens of us, 0.01 %).
    const NcclForce ring = NcclForce::only(NcclAlgorithm::Ring, NcclProtocol::Simple);
    CHECK(run(a100, CollectiveKind::AllReduce, 16 * GiB, 2, 1, ring).us == doctest::Approx(596378.9).epsilon(2e-4));
}

TEST_CASE("a ring over NICs shared by two GPUs: 5 x 8 H100 on 4 RoCE NICs, as published") {
    // NVIDIA/nccl#1368: 5 nodes of 8 H100, 4 RoCE NICs of 400 Gb/s per node (two
    // GPUs per NIC), NCCL_ALGO=Ring all-reduce up to 1 GiB: "ring bandwidth
    // (190GB/s)" of bus bandwidth. By hand: 4 NICs in use, 16 ring channels, 4
    // per NIC; at 1 GiB a channel's ring step is 1073741824 / (40 x 16) =
    // 1677721.6 B in two slices, one channel streams 1677721.6 / (1677721.6 /
    // 22.43 + 2 x 4550 ns) = 20.0 GB/s, four of them 80 GB/s, above the NIC's
    // payload (50 x 0.983 = 49.15): the NICs bind at 4 x 49.15 = 196.6 GB/s per
    // node and direction, below NVLink (18 x 20.6 = 370.8 at most). So the
    // bus bandwidth is at most 196.6 (the time at least 2 x 39/40 x 1073741824
    // / 196.6 = 10649.8 us), less NCCL's per-step latencies; published ~190.
    const System roce = catalogue_system("h100-sxm", "roce400", 5, 8, 4);
    const NcclForce ring = NcclForce::only(NcclAlgorithm::Ring, NcclProtocol::Simple);
    const Run r = run(roce, CollectiveKind::AllReduce, GiB, 5, 8, ring);
    CHECK(r.nics == 4);
    CHECK(r.channels == 16);
    CHECK(r.us > 10649.8);
    const double busbw = 2.0 * 39.0 / 40.0 * static_cast<double>(GiB) / (r.us * 1000.0);
    CHECK(busbw == doctest::Approx(190.0).epsilon(0.03));
}

TEST_CASE("a tree over NICs shared by two GPUs: 5 x 8 H100 on 4 RoCE NICs, NCCL's rating of the tree") {
    // The same cluster, NCCL_ALGO=Tree: "tree bus bandwidth(150GB/s)" against the
    // ring's 190 (NVIDIA/nccl#1368). By hand: a node's 4 NICs carry 196.6 GB/s
    // per direction (above); on five nodes an inner node's NICs carry 2S per
    // direction and some node reduces two children's streams through them, so
    // they stream at NCCL's rating of its tree: 0.92, the balanced pattern (two
    // GPUs share each NIC's switch, so no 0.85): 196.6 x 0.92 = 180.872 per
    // direction, below the chain's NVLink; algbw 90.436 GB/s, as nccl-tests
    // prints it 2 x 39/40 x 90.436 = 176.35 GB/s of bus bandwidth, less NCCL's
    // latency. The traffic alone gave 191.7; published ~150, so this cluster's
    // tree loses more than NCCL's rating (validation/nccl/SOURCE.md).
    const System roce = catalogue_system("h100-sxm", "roce400", 5, 8, 4);
    const NcclForce tree = NcclForce::only(NcclAlgorithm::Tree, NcclProtocol::Simple);
    const Run r = run(roce, CollectiveKind::AllReduce, GiB, 5, 8, tree);
    CHECK(r.algorithm == "tree/Simple");
    CHECK(r.us > static_cast<double>(GiB) / 90.436 / 1000.0);
    const double busbw = 2.0 * 39.0 / 40.0 * static_cast<double>(GiB) / (r.us * 1000.0);
    CHECK(busbw == doctest::Approx(176.35).epsilon(0.02));
}
