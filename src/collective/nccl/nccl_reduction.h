#pragma once
// What a reducing collective reduces: the element type and the operation, as
// nccl-tests' -d and -o name them (its defaults: float, sum). They matter to
// NCCL's choice in one rule: NVLink SHARP reduces in the switch only the
// types and operations NVSwitch can (src/include/device.h, ncclNvlsSupported;
// src/enqueue.cc checks it for every collective but all-gather):
//   int32, uint32, int64, uint64, half, bfloat16: sum, min, max
//   float, double:                                sum
//   int8, uint8, fp8 (e4m3, e5m2):                none
// prod never, and avg never: NCCL runs avg as a sum with a pre-multiply
// (floating point) or a post-divide (integers), neither of which NVLS has
// (src/enqueue.cc, hostToDevRedOp). Without NVLS an all-reduce or
// reduce-scatter has neither nvls nor nvls-tree (nccl_selection.h).
#include <optional>
#include <string>
#include <string_view>

namespace dtcalc {

enum class NcclDataType { Int8, Uint8, Int32, Uint32, Int64, Uint64, Half, Float, Double, Bfloat16, F8e4m3, F8e5m2 };
enum class NcclRedOp { Sum, Prod, Max, Min, Avg, MulSum };

struct NcclReduction {
    NcclDataType type = NcclDataType::Float;  ///< nccl-tests' default -d
    NcclRedOp op = NcclRedOp::Sum;            ///< nccl-tests' default -o
    bool operator==(const NcclReduction&) const = default;
};

/// nccl-tests' type names (-d and its table's "type": int8, uint8, int32,
/// uint32, int64, uint64, half, float, double, bfloat16, f8e4m3, f8e5m2, and
/// the older char and int), NCCL's (float16, float32, float64, float8e4m3,
/// float8e5m2) and the short ones people write (fp16, f16, bf16, fp32, fp64,
/// e4m3, e5m2), in any case; nullopt for another.
std::optional<NcclDataType> parse_nccl_datatype(std::string_view name);
/// nccl-tests' op names (-o and its table's "redop"): sum, prod, max, min,
/// avg, mulsum (NCCL's premulsum too), in any case; nullopt for another.
std::optional<NcclRedOp> parse_nccl_redop(std::string_view name);

std::string_view nccl_datatype_name(NcclDataType type);
std::string_view nccl_redop_name(NcclRedOp op);

/// For messages: "int8, uint8, ..., f8e4m3 or f8e5m2" and "sum, prod, max,
/// min, avg or mulsum", nccl-tests' names.
std::string nccl_datatype_choices();
std::string nccl_redop_choices();

/// Whether NVLS can reduce `reduction` in the switch (ncclNvlsSupported).
bool nccl_nvls_reduces(const NcclReduction& reduction);

}  // namespace dtcalc
