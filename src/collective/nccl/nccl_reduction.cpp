#include "collective/nccl/nccl_reduction.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/name_key.h"

namespace dtcalc {
namespace {

// nccl-tests' names first (the name each prints), then the other spellings.
constexpr std::array<std::pair<std::string_view, NcclDataType>, 26> kTypes{{
    {"int8", NcclDataType::Int8},         {"uint8", NcclDataType::Uint8},       {"int32", NcclDataType::Int32},
    {"uint32", NcclDataType::Uint32},     {"int64", NcclDataType::Int64},       {"uint64", NcclDataType::Uint64},
    {"half", NcclDataType::Half},         {"float", NcclDataType::Float},       {"double", NcclDataType::Double},
    {"bfloat16", NcclDataType::Bfloat16}, {"f8e4m3", NcclDataType::F8e4m3},     {"f8e5m2", NcclDataType::F8e5m2},
    {"char", NcclDataType::Int8},         {"int", NcclDataType::Int32},         {"float16", NcclDataType::Half},
    {"float32", NcclDataType::Float},     {"float64", NcclDataType::Double},    {"float8e4m3", NcclDataType::F8e4m3},
    {"float8e5m2", NcclDataType::F8e5m2}, {"fp16", NcclDataType::Half},         {"bf16", NcclDataType::Bfloat16},
    {"fp32", NcclDataType::Float},        {"fp64", NcclDataType::Double},       {"e4m3", NcclDataType::F8e4m3},
    {"e5m2", NcclDataType::F8e5m2},       {"f16", NcclDataType::Half},
}};

// nccl-tests' own names: the first of kTypes, the first of kOps.
constexpr std::size_t kNcclTestsTypes = 12;
constexpr std::size_t kNcclTestsOps = 6;

constexpr std::array<std::pair<std::string_view, NcclRedOp>, 7> kOps{{
    {"sum", NcclRedOp::Sum},
    {"prod", NcclRedOp::Prod},
    {"max", NcclRedOp::Max},
    {"min", NcclRedOp::Min},
    {"avg", NcclRedOp::Avg},
    {"mulsum", NcclRedOp::MulSum},
    {"premulsum", NcclRedOp::MulSum},
}};

// "a, b or c".
std::string choices(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
    return out;
}

}  // namespace

std::string nccl_datatype_choices() {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < kNcclTestsTypes; ++i) names.push_back(kTypes[i].first);
    return choices(names);
}

std::string nccl_redop_choices() {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < kNcclTestsOps; ++i) names.push_back(kOps[i].first);
    return choices(names);
}

std::optional<NcclDataType> parse_nccl_datatype(std::string_view name) {
    const std::string key = ascii_lower(name);
    for (const auto& [text, type] : kTypes)
        if (text == key) return type;
    return std::nullopt;
}

std::optional<NcclRedOp> parse_nccl_redop(std::string_view name) {
    const std::string key = ascii_lower(name);
    for (const auto& [text, op] : kOps)
        if (text == key) return op;
    return std::nullopt;
}

std::string_view nccl_datatype_name(NcclDataType type) {
    for (const auto& [text, t] : kTypes)
        if (t == type) return text;
    return "";
}

std::string_view nccl_redop_name(NcclRedOp op) {
    for (const auto& [text, o] : kOps)
        if (o == op) return text;
    return "";
}

bool nccl_nvls_reduces(const NcclReduction& reduction) {
    const bool sum = reduction.op == NcclRedOp::Sum;
    const bool min_max = reduction.op == NcclRedOp::Min || reduction.op == NcclRedOp::Max;
    switch (reduction.type) {
        case NcclDataType::Int32:
        case NcclDataType::Uint32:
        case NcclDataType::Int64:
        case NcclDataType::Uint64:
        case NcclDataType::Half:
        case NcclDataType::Bfloat16:
            return sum || min_max;
        case NcclDataType::Float:
        case NcclDataType::Double:
            return sum;
        case NcclDataType::Int8:
        case NcclDataType::Uint8:
        case NcclDataType::F8e4m3:
        case NcclDataType::F8e5m2:
            return false;
    }
    return false;
}

}  // namespace dtcalc
