#include "gemm/parallel_split.h"

#include "core/error.h"
#include "core/units.h"

namespace dtcalc {

std::optional<GemmStrategy> parse_gemm_strategy(std::string_view name) {
    if (name == "DATA") return GemmStrategy::Data;
    if (name == "MODEL") return GemmStrategy::Model;
    if (name == "HYBRID_DATA_MODEL") return GemmStrategy::HybridDataModel;
    if (name == "HYBRID_MODEL_DATA") return GemmStrategy::HybridModelData;
    return std::nullopt;
}

std::string_view gemm_strategy_name(GemmStrategy strategy) {
    switch (strategy) {
        case GemmStrategy::Data: return "DATA";
        case GemmStrategy::Model: return "MODEL";
        case GemmStrategy::HybridDataModel: return "HYBRID_DATA_MODEL";
        case GemmStrategy::HybridModelData: return "HYBRID_MODEL_DATA";
    }
    return "DATA";
}

ParallelDegrees parallel_degrees(GemmStrategy strategy, std::int64_t npus, std::int64_t packages) {
    if (npus < 1) throw InputError({"--npus", 0, 0, ""}, "must be >= 1 (got " + std::to_string(npus) + ")");
    if (packages < 1) throw InputError({"--packages", 0, 0, ""}, "must be >= 1 (got " + std::to_string(packages) + ")");
    if (npus % packages != 0)
        throw InputError({"--packages", 0, 0, ""}, std::to_string(packages) + " packages do not divide " +
                                                       std::to_string(npus) + " NPUs");
    const std::int64_t per_package = npus / packages;
    switch (strategy) {
        case GemmStrategy::Data: return {npus, 1};
        case GemmStrategy::Model: return {1, npus};
        case GemmStrategy::HybridDataModel: return {packages, per_package};
        case GemmStrategy::HybridModelData: return {per_package, packages};
    }
    return {npus, 1};
}

namespace {

/// a.b.s bytes, exact; the double estimate only guards against overflow.
std::uint64_t checked_bytes(std::int64_t a, std::int64_t b, int s, const GemmLayer& layer, const std::string& path) {
    if (static_cast<double>(a) * static_cast<double>(b) * s > 9e18)
        throw InputError({path, layer.line, 0, "layer"}, "'" + layer.name + "': a buffer of more than 9e18 bytes");
    const std::uint64_t bytes = static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b) * static_cast<std::uint64_t>(s);
    // What the workload file holds is a message size: at most 1 PiB, as `run` reads it.
    if (bytes > kMaxMessageBytes)
        throw InputError({path, layer.line, 0, "layer"}, "'" + layer.name + "': a buffer of " + std::to_string(bytes) +
                                                             " bytes is out of range (sizes from 0 B to 1 PiB = 2^50 B are accepted)");
    return bytes;
}

V1Comm comm_if(bool needed, CollectiveKind kind, std::uint64_t bytes) {
    V1Comm c;
    if (needed) {
        c.kind = kind;
        c.bytes = bytes;
    }
    return c;
}

}  // namespace

LayerSplit split_layer(const GemmLayer& layer, const std::string& path, ParallelDegrees d, int datatype_bytes) {
    if (layer.m % d.data != 0)
        throw InputError({path, layer.line, 0, "m"}, "m = " + std::to_string(layer.m) +
                                                         " is not divisible by the data-parallel degree " + std::to_string(d.data));
    if (layer.n % d.model != 0)
        throw InputError({path, layer.line, 0, "n"}, "n = " + std::to_string(layer.n) +
                                                         " is not divisible by the model-parallel degree " + std::to_string(d.model));
    const std::int64_t m = layer.m / d.data;
    const std::int64_t n = layer.n / d.model;
    const std::int64_t k = layer.k;
    const int s = datatype_bytes;
    LayerSplit out;
    out.forward = {m, n, k};
    out.input_gradient = {m, k, n};
    out.weight_gradient = {k, n, m};
    out.forward_comm = comm_if(d.model > 1, CollectiveKind::AllGather, checked_bytes(m, n, s, layer, path));
    out.input_gradient_comm = comm_if(d.model > 1, CollectiveKind::ReduceScatter, checked_bytes(m, k, s, layer, path));
    out.weight_bytes = checked_bytes(k, n, s, layer, path);
    out.weight_gradient_comm = comm_if(d.data > 1, CollectiveKind::AllReduce, out.weight_bytes);
    return out;
}

}  // namespace dtcalc
