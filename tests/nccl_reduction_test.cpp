// What NVLS reduces in the switch, and what that does to NCCL's choice
// (collective/nccl/nccl_reduction.h). The table is NCCL 2.29's
// ncclNvlsSupported (src/include/device.h): int32, uint32, int64, uint64, half
// and bfloat16 by sum or min/max; float and double by sum; nothing else. avg
// is a sum with a pre-multiply (float types) or post-divide (integers), prod
// its own op (src/enqueue.cc, hostToDevRedOp): neither runs on NVLS.
#include <doctest/doctest.h>

#include <string>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_reduction.h"
#include "config/preset.h"
#include "input_error.h"
#include "network/cluster_shape.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "validate/nccl_tests_csv.h"
#include "validate/nccl_tests_log.h"
#include "nccl_tests_log_text.h"

using namespace dtcalc;
using namespace dtcalc::testing;


namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};
constexpr std::uint64_t GiB = 1u << 30;

NcclForce algo(const char* setting) {
    NcclForce force;
    apply_nccl_algo(force, setting, {"", 0, 0, "algo"});
    return force;
}

using T = NcclDataType;
using Op = NcclRedOp;

CollectiveResult on(const System& system, CollectiveKind kind, std::uint64_t bytes, long long nodes, long long gpus,
                    NcclReduction reduction, const NcclForce& force = {}) {
    const Network network = shape_cluster(system.network, nodes, gpus, system.node_gpus());
    CollectiveQuery q{kind, bytes, whole_network_group(network), force};
    q.reduction = reduction;
    return collective_time(network, system.config, system.backend, q);
}

}  // namespace

TEST_CASE("NVLS reduces what ncclNvlsSupported lists, nothing else") {
    CHECK(nccl_nvls_reduces({}));  // nccl-tests' defaults: float, sum
    CHECK(nccl_nvls_reduces({T::Double, Op::Sum}));
    CHECK_FALSE(nccl_nvls_reduces({T::Float, Op::Max}));
    CHECK_FALSE(nccl_nvls_reduces({T::Double, Op::Min}));
    CHECK(nccl_nvls_reduces({T::Bfloat16, Op::Max}));
    CHECK(nccl_nvls_reduces({T::Half, Op::Min}));
    CHECK(nccl_nvls_reduces({T::Int32, Op::Sum}));
    CHECK(nccl_nvls_reduces({T::Uint64, Op::Max}));
    CHECK_FALSE(nccl_nvls_reduces({T::Int8, Op::Sum}));
    CHECK_FALSE(nccl_nvls_reduces({T::Uint8, Op::Max}));
    CHECK_FALSE(nccl_nvls_reduces({T::F8e4m3, Op::Sum}));
    CHECK_FALSE(nccl_nvls_reduces({T::F8e5m2, Op::Sum}));
    for (NcclDataType t : {T::Int32, T::Half, T::Bfloat16, T::Float, T::Double}) {
        CHECK_FALSE(nccl_nvls_reduces({t, Op::Avg}));
        CHECK_FALSE(nccl_nvls_reduces({t, Op::Prod}));
        CHECK_FALSE(nccl_nvls_reduces({t, Op::MulSum}));
    }
}

TEST_CASE("nccl-tests' type and op names, and NCCL's spellings") {
    CHECK(parse_nccl_datatype("bfloat16") == T::Bfloat16);
    CHECK(parse_nccl_datatype("half") == T::Half);
    CHECK(parse_nccl_datatype("float16") == T::Half);
    CHECK(parse_nccl_datatype("char") == T::Int8);
    CHECK(parse_nccl_datatype("int") == T::Int32);
    CHECK(parse_nccl_datatype("float64") == T::Double);
    CHECK(parse_nccl_datatype("f8e5m2") == T::F8e5m2);
    CHECK_FALSE(parse_nccl_datatype("fp4"));
    CHECK(parse_nccl_datatype("Float") == T::Float);
    CHECK(parse_nccl_datatype("BF16") == T::Bfloat16);
    CHECK(parse_nccl_datatype("fp32") == T::Float);
    CHECK(parse_nccl_redop("SUM") == Op::Sum);
    CHECK(parse_nccl_redop("avg") == Op::Avg);
    CHECK(parse_nccl_redop("premulsum") == Op::MulSum);
    CHECK_FALSE(parse_nccl_redop("none"));
    CHECK(nccl_datatype_name(T::Int8) == "int8");
    CHECK(nccl_redop_name(Op::MulSum) == "mulsum");
}

TEST_CASE("without NVLS an all-reduce takes NCCL's next choice; an all-gather keeps NVLS whatever its type") {
    const System node = load_preset("hgx-h100", kDirs).system;
    // 1 GiB on 8 GPUs: NVLS by default (the visible rows); avg of bfloat16
    // (Megatron's average_in_collective) cannot run on it, so NCCL picks among
    // the rest, exactly as with NCCL_ALGO=^nvls,nvlstree.
    CHECK(on(node, CollectiveKind::AllReduce, GiB, 1, 8, {}).algorithm == "nvls/Simple");
    const CollectiveResult avg = on(node, CollectiveKind::AllReduce, GiB, 1, 8, {T::Bfloat16, Op::Avg});
    const CollectiveResult no_nvls = on(node, CollectiveKind::AllReduce, GiB, 1, 8, {}, algo("^nvls,nvlstree"));
    CHECK(avg.algorithm == no_nvls.algorithm);
    CHECK(avg.algorithm == "ring/Simple");
    CHECK(avg.time_ns == no_nvls.time_ns);
    // Sum of bfloat16 and max of int32 stay on NVLS.
    CHECK(on(node, CollectiveKind::AllReduce, GiB, 1, 8, {T::Bfloat16, Op::Sum}).algorithm == "nvls/Simple");
    CHECK(on(node, CollectiveKind::AllReduce, GiB, 1, 8, {T::Int32, Op::Max}).algorithm == "nvls/Simple");
    // An all-gather reduces nothing: int8 or fp8 changes nothing.
    const CollectiveResult ag = on(node, CollectiveKind::AllGather, GiB, 1, 8, {});
    CHECK(on(node, CollectiveKind::AllGather, GiB, 1, 8, {T::F8e4m3, Op::Sum}).time_ns == ag.time_ns);
    // Across nodes NVLS-tree goes too: 2 x 8, 1 GiB of fp8.
    const System ib = load_preset("h100-ib-ndr400", kDirs).system;
    CHECK(on(ib, CollectiveKind::AllReduce, GiB, 2, 8, {}).algorithm == "nvls-tree/Simple");
    CHECK(on(ib, CollectiveKind::AllReduce, GiB, 2, 8, {T::F8e4m3, Op::Sum}).algorithm.find("nvls") ==
          std::string_view::npos);
}

TEST_CASE("NVLS forced on a reduction it cannot do says why") {
    const System node = load_preset("hgx-h100", kDirs).system;
    CHECK_INPUT_ERROR(on(node, CollectiveKind::AllReduce, GiB, 1, 8, {T::Float, Op::Max}, algo("nvls")),
                      "nccl: NCCL_ALGO / NCCL_PROTO leave nvls; LL, LL128, Simple for all-reduce on 8 GPUs in 1 node, "
                      "and none of them runs there (available: ring/LL, ring/LL128, ring/Simple, tree/LL, tree/LL128, "
                      "tree/Simple): nvls: NVLink SHARP does not reduce max of float (ncclNvlsSupported: sum of float "
                      "or double; sum, min or max of 32- and 64-bit integers, half or bfloat16)");
}

TEST_CASE("validate takes each row's type and op: nccl-tests' columns, a dataset CSV's") {
    // 8 ranks on one host, 1 GiB all_reduce_perf of float: sum (NVLS) and avg (no NVLS).
    const std::string row_sum =
        "  1073741824     268435456     float     sum      -1   4000.0  268.44  469.77       0   4000.0  268.44  469.77       0\n";
    const std::string row_avg =
        "  1073741824     268435456     float     avg      -1   4000.0  268.44  469.77       0   4000.0  268.44  469.77       0\n";
    const auto sum = parse_nccl_tests_log(header("all_reduce_perf", 8) + row_sum + kFooter, "x.log");
    const auto avg = parse_nccl_tests_log(header("all_reduce_perf", 8) + row_avg + kFooter, "x.log");
    REQUIRE(sum.size() == 1);
    REQUIRE(avg.size() == 1);
    CHECK(sum[0].reduction == NcclReduction{T::Float, Op::Sum});
    CHECK(avg[0].reduction == NcclReduction{T::Float, Op::Avg});
    const std::string bad =
        "  1073741824     268435456     float     xor      -1   4000.0  268.44  469.77       0   4000.0  268.44  469.77       0\n";
    // The row is line 18: five lines of run header, eight rank lines, four of table header.
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf", 8) + bad + kFooter, "x.log"),
                      "x.log:18: unknown redop 'xor': expected nccl-tests' sum, prod, max, min, avg or mulsum");

    const std::string csv = write_temp_file(
        "reduction.csv",
        "source_url,gpus,nodes,collective,size_bytes,time_us,type,redop\n"
        "x,8,1,all_reduce_perf,1073741824,4000,float,sum\n"
        "x,8,1,all_reduce_perf,1073741824,4000,bfloat16,avg\n"
        "x,8,1,all_gather_perf,1073741824,4000,int8,none\n"
        "x,8,1,all_reduce_perf,1073741824,4000,,\n");
    const auto rows = read_nccl_tests_csv(csv);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].reduction == NcclReduction{});
    CHECK(rows[1].reduction == NcclReduction{T::Bfloat16, Op::Avg});
    CHECK(rows[2].reduction.type == T::Int8);
    CHECK(rows[3].reduction == NcclReduction{});
    const std::string bad_csv = write_temp_file("reduction_bad.csv",
                                                "source_url,gpus,nodes,collective,size_bytes,time_us,type\n"
                                                "x,8,1,all_reduce_perf,1024,10,fp4\n");
    CHECK_INPUT_ERROR(read_nccl_tests_csv(bad_csv),
                      bad_csv + ":2: type: unknown type 'fp4': expected nccl-tests' int8, uint8, int32, uint32, "
                                "int64, uint64, half, float, double, bfloat16, f8e4m3 or f8e5m2");

    // End to end: the avg row is predicted without NVLS.
    const Run r = run_dtcalc("validate --dataset " + csv + " --preset hgx-h100 --format csv --verbose");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("nvls/Simple") != std::string::npos);
    CHECK(r.out.find("ring/Simple") != std::string::npos);
}

TEST_CASE("collective -d and -o: nccl-tests' flags") {
    const Run avg = run_dtcalc("collective all-reduce -s 1GiB --preset hgx-h100 -d bfloat16 -o avg --format csv");
    REQUIRE(avg.exit_code == 0);
    CHECK(avg.out.find(",ring,Simple") != std::string::npos);
    const Run sum = run_dtcalc("collective all-reduce -s 1GiB --preset hgx-h100 -d bfloat16 -o sum --format csv");
    REQUIRE(sum.exit_code == 0);
    CHECK(sum.out.find(",nvls,Simple") != std::string::npos);
    const Run bad = run_dtcalc("collective all-reduce -s 1GiB --preset hgx-h100 -d fp4");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out == "dtcalc: error: -d: unknown type 'fp4': expected nccl-tests' int8, uint8, int32, uint32, int64, "
                     "uint64, half, float, double, bfloat16, f8e4m3 or f8e5m2\n");
    const Run bad_op = run_dtcalc("collective all-reduce -s 1GiB --preset hgx-h100 -o xor");
    CHECK(bad_op.exit_code == 2);
    CHECK(bad_op.out ==
          "dtcalc: error: -o: unknown op 'xor': expected nccl-tests' sum, prod, max, min, avg or mulsum\n");
}
