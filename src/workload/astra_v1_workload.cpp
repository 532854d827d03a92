#include "workload/astra_v1_workload.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "config/config_readers.h"
#include "core/error.h"
#include "core/units.h"

namespace dtcalc {
namespace {

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string field;
    while (in >> field) out.push_back(field);
    return out;
}

double non_negative(const std::string& text, const std::string& path, int line, const std::string& what) {
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw InputError({path, line, 0, what}, "expected a number, got '" + text + "'");
    if (value < 0) throw InputError({path, line, 0, what}, "must be >= 0 (got " + text + ")");
    return value;
}

// A compute or update time: 0 to kMaxStepNs cycles.
constexpr double kMaxStepNs = 1e18;  // 32 years

double step_time(const std::string& text, const std::string& path, int line, const std::string& what) {
    const double value = non_negative(text, path, line, what);
    if (value > kMaxStepNs)
        throw InputError({path, line, 0, what}, "out of range (got " + text + "): accepted are 0 to 1e18 cycles (32 years)");
    return value;
}

V1Comm comm(const std::string& type, const std::string& size, const std::string& path, int line,
            const std::string& what) {
    V1Comm c;
    if (type == "ALLREDUCE") c.kind = CollectiveKind::AllReduce;
    else if (type == "ALLGATHER") c.kind = CollectiveKind::AllGather;
    else if (type == "REDUCESCATTER") c.kind = CollectiveKind::ReduceScatter;
    else if (type == "ALLTOALL") c.kind = CollectiveKind::AllToAll;
    else if (type != "NONE")
        throw InputError({path, line, 0, what + "_comm_type"},
                         "unknown comm type '" + type + "' (expected ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL or NONE)");
    const double bytes = non_negative(size, path, line, what + "_comm_size");
    if (bytes != std::floor(bytes))
        throw InputError({path, line, 0, what + "_comm_size"}, "expected a whole number of bytes, got '" + size + "'");
    if (bytes > static_cast<double>(kMaxMessageBytes))
        throw InputError({path, line, 0, what + "_comm_size"},
                         "out of range (got " + size + "): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    c.bytes = static_cast<std::uint64_t>(bytes);
    return c;
}

void parse_header(const std::string& line, V1Workload& w, int line_number) {
    const auto f = fields_of(line);
    if (f.empty() || f.size() > 2)
        throw InputError({w.path, line_number, 0, "parallelism"}, "expected the parallelism (e.g. DATA, HYBRID_DLRM 4), got '" + line + "'");
    std::string keyword = f[0];
    std::string number = f.size() == 2 ? f[1] : "";
    if (number.empty()) {
        const auto underscore = keyword.find_last_of('_');
        if (underscore != std::string::npos && underscore + 1 < keyword.size() &&
            keyword.find_first_not_of("0123456789", underscore + 1) == std::string::npos) {
            number = keyword.substr(underscore + 1);
            keyword = keyword.substr(0, underscore);
        }
    }
    if (keyword == "DATA") w.parallelism = V1Parallelism::Data;
    else if (keyword == "MODEL") w.parallelism = V1Parallelism::Model;
    else if (keyword == "HYBRID_DATA_MODEL" || keyword == "HYBRID_TRANSFORMER") w.parallelism = V1Parallelism::HybridDataModel;
    else if (keyword == "HYBRID_MODEL_DATA") w.parallelism = V1Parallelism::HybridModelData;
    else if (keyword == "HYBRID_DLRM") w.parallelism = V1Parallelism::HybridDlrm;
    else
        throw InputError({w.path, line_number, 0, "parallelism"},
                         "unknown parallelism '" + keyword +
                             "' (expected DATA, MODEL, HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_TRANSFORMER or HYBRID_DLRM)");
    if (!number.empty()) {
        int value = 0;
        auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (ec != std::errc() || end != number.data() + number.size() || value < 1)
            throw InputError({w.path, line_number, 0, "parallelism"}, "expected a positive integer after " + keyword + ", got '" + number + "'");
        w.parameter = value;
    }
}

}  // namespace

V1Workload parse_v1_workload(const std::string& path) { return parse_v1_workload_text(read_text_file(path), path); }

V1Workload parse_v1_workload_text(const std::string& text, const std::string& path) {
    V1Workload w;
    w.path = path;
    std::istringstream in(text);
    std::string line;
    int line_number = 0;
    int declared = -1;
    bool header_seen = false;
    while (std::getline(in, line)) {
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (!header_seen) {  // the first non-blank line
            parse_header(line, w, line_number);
            w.parallelism_line = line_number;
            header_seen = true;
            continue;
        }
        if (declared < 0) {
            const auto f = fields_of(line);
            int value = -1;
            if (f.size() == 1) std::from_chars(f[0].data(), f[0].data() + f[0].size(), value);
            if (f.size() != 1 || value < 1 || std::to_string(value) != f[0])
                throw InputError({path, line_number, 0, "layers"}, "expected the layer count (a positive integer), got '" + line + "'");
            declared = value;
            continue;
        }
        const auto f = fields_of(line);
        if (f.size() != 12)
            throw InputError({path, line_number, 0, ""},
                             "expected 12 fields (name reserved fwd_compute fwd_comm_type fwd_comm_size ig_compute "
                             "ig_comm_type ig_comm_size wg_compute wg_comm_type wg_comm_size update_time), got " +
                                 std::to_string(f.size()));
        if (static_cast<int>(w.layers.size()) == declared)
            throw InputError({path, line_number, 0, "layers"},
                             "more layer lines than the " + std::to_string(declared) + " declared on line 2");
        V1Layer layer;
        layer.line = line_number;
        layer.name = f[0];
        layer.fwd_compute_ns = step_time(f[2], path, line_number, "fwd_compute");
        layer.fwd = comm(f[3], f[4], path, line_number, "fwd");
        layer.ig_compute_ns = step_time(f[5], path, line_number, "ig_compute");
        layer.ig = comm(f[6], f[7], path, line_number, "ig");
        layer.wg_compute_ns = step_time(f[8], path, line_number, "wg_compute");
        layer.wg = comm(f[9], f[10], path, line_number, "wg");
        layer.update_ns = step_time(f[11], path, line_number, "update_time");
        w.layers.push_back(layer);
    }
    if (!header_seen || declared < 0)
        throw InputError({path, line_number, 0, "layers"}, "truncated: expected the parallelism, the layer count and the layers");
    if (static_cast<int>(w.layers.size()) != declared)
        throw InputError({path, line_number, 0, "layers"}, "line 2 declares " + std::to_string(declared) +
                                                               " layers but the file has " + std::to_string(w.layers.size()));
    if ((w.parallelism == V1Parallelism::HybridDataModel || w.parallelism == V1Parallelism::HybridModelData) &&
        w.parameter == 0)
        throw InputError({path, w.parallelism_line, 0, "parallelism"}, "a hybrid parallelism needs its model-parallel group size (e.g. HYBRID_DATA_MODEL 4)");
    if (w.parallelism == V1Parallelism::HybridDlrm && w.parameter >= declared)
        throw InputError({path, w.parallelism_line, 0, "parallelism"}, "HYBRID_DLRM's last bottom layer " + std::to_string(w.parameter) +
                                                          " is not a layer index below " + std::to_string(declared));
    return w;
}

namespace {

struct V1Groups {
    int fwd_ig = -1;  // forward and input-gradient collectives
    int wg = -1;      // weight-gradient collectives
};

CommGroup complement(const Network& network, const CommGroup& inner) {
    CommGroup out;
    for (std::size_t d = 0; d < network.dimensions.size(); ++d)
        out.members.push_back(network.dimensions[d].npus / inner.members[d]);
    return out;
}

V1Groups make_groups(const V1Workload& w, const Network& network, WorkloadGraph& graph) {
    V1Groups g;
    const CommGroup all = whole_network_group(network);
    if (w.parallelism != V1Parallelism::HybridDataModel && w.parallelism != V1Parallelism::HybridModelData) {
        g.fwd_ig = g.wg = graph.add_group(all);
        return g;
    }
    const std::int64_t total = network.total_npus();
    if (total % w.parameter != 0)
        throw InputError({w.path, w.parallelism_line, 0, "parallelism"}, "model-parallel group size " + std::to_string(w.parameter) +
                                                            " does not divide the network's " + std::to_string(total) + " NPUs");
    // The inner group is the first M NPUs (data-model) or the first P/M (model-data).
    const std::int64_t inner_size = w.parallelism == V1Parallelism::HybridDataModel ? w.parameter : total / w.parameter;
    CommGroup inner;
    try {
        inner = first_npus_group(network, inner_size, "");
    } catch (const InputError& e) {
        throw InputError({w.path, w.parallelism_line, 0, "parallelism"}, e.detail());
    }
    const CommGroup outer = complement(network, inner);
    const int inner_id = graph.add_group(inner);
    const int outer_id = graph.add_group(outer);
    if (w.parallelism == V1Parallelism::HybridDataModel) {
        g.fwd_ig = inner_id;
        g.wg = outer_id;
    } else {
        g.fwd_ig = outer_id;
        g.wg = inner_id;
    }
    return g;
}

std::uint64_t nccl_bytes(const V1Comm& c, const CommGroup& group, const std::string& path, int line,
                         const std::string& key) {
    // ASTRA-sim's all-gather size is each NPU's input; dtcalc counts the output.
    // Both factors are bounded (2^50 B, 2^24 NPUs); their product is checked before it is formed.
    if (c.kind != CollectiveKind::AllGather) return c.bytes;
    const auto npus = static_cast<std::uint64_t>(group.size());
    if (c.bytes > kMaxMessageBytes / npus)
        throw InputError({path, line, 0, key}, "out of range: an all-gather of " + std::to_string(c.bytes) + " B per NPU on " +
                                                   std::to_string(npus) + " NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)");
    return c.bytes * npus;
}

}  // namespace

WorkloadGraph build_v1_training_graph(const V1Workload& w, const Network& network, int passes) {
    WorkloadGraph graph;
    const V1Groups groups = make_groups(w, network, graph);
    graph.role_npus = {network.total_npus()};
    const int layers = static_cast<int>(w.layers.size());
    for (const V1Layer& l : w.layers) graph.add_layer(l.name);
    const bool dlrm = w.parallelism == V1Parallelism::HybridDlrm;
    const int first_top = dlrm ? w.parameter + 1 : -1;

    auto compute = [&](int layer, OpPhase phase, double ns, const std::string& name, std::initializer_list<int> deps) {
        Op op;
        op.kind = OpKind::Compute;
        op.phase = phase;
        op.layer = layer;
        op.duration_ns = ns;
        op.name = graph.intern_name(name);
        std::vector<int> d;
        for (int x : deps)
            if (x >= 0) d.push_back(x);
        return graph.add(op, d);
    };
    auto collective = [&](int layer, OpPhase phase, const V1Comm& c, int group, const std::string& name, int dep) {
        Op op;
        op.kind = OpKind::Collective;
        op.phase = phase;
        op.layer = layer;
        op.collective = *c.kind;
        op.group = group;
        const char* key = phase == OpPhase::Forward ? "fwd_comm_size" : phase == OpPhase::InputGradient ? "ig_comm_size" : "wg_comm_size";
        op.comm_bytes = nccl_bytes(c, graph.groups[static_cast<std::size_t>(group)], w.path,
                                   w.layers[static_cast<std::size_t>(layer)].line, key);
        op.name = graph.intern_name(name);
        std::vector<int> d;
        if (dep >= 0) d.push_back(dep);
        return graph.add(op, d);
    };

    std::vector<int> pending_wg(static_cast<std::size_t>(layers), -1);  // last pass's weight-gradient collective
    int last = -1;  // the op the next step of the loop depends on
    for (int pass = 0; pass < passes; ++pass) {
        const std::string p = "pass" + std::to_string(pass) + ".";
        int embedding_exchange = -1;
        for (int i = 0; i < layers; ++i) {
            const V1Layer& l = w.layers[static_cast<std::size_t>(i)];
            int gate = pending_wg[static_cast<std::size_t>(i)];
            if (gate >= 0 && l.update_ns > 0) gate = compute(i, OpPhase::Update, l.update_ns, p + l.name + ".update", {gate});
            if (dlrm && i == first_top) last = compute(i, OpPhase::Forward, l.fwd_compute_ns, p + l.name + ".fwd", {last, gate, embedding_exchange});
            else last = compute(i, OpPhase::Forward, l.fwd_compute_ns, p + l.name + ".fwd", {last, gate});
            if (l.fwd.kind) {
                const int c = collective(i, OpPhase::Forward, l.fwd, groups.fwd_ig, p + l.name + ".fwd_comm", last);
                if (dlrm && i == 0) embedding_exchange = c;  // awaited by the first top layer
                else last = c;
            }
        }
        int embedding_gradient_exchange = -1;
        for (int i = layers - 1; i >= 0; --i) {
            const V1Layer& l = w.layers[static_cast<std::size_t>(i)];
            int gradient_in = last;
            if (i > 0) {
                last = compute(i, OpPhase::InputGradient, l.ig_compute_ns, p + l.name + ".ig", {last});
                if (l.ig.kind) last = collective(i, OpPhase::InputGradient, l.ig, groups.fwd_ig, p + l.name + ".ig_comm", last);
                if (dlrm && i == first_top && w.layers[0].ig.kind)
                    embedding_gradient_exchange =
                        collective(0, OpPhase::InputGradient, w.layers[0].ig, groups.fwd_ig, p + w.layers[0].name + ".ig_comm", last);
            }
            const int wg = compute(i, OpPhase::WeightGradient, l.wg_compute_ns, p + l.name + ".wg",
                                   {gradient_in, i == 0 ? embedding_gradient_exchange : -1});
            if (i == 0) last = wg;
            pending_wg[static_cast<std::size_t>(i)] =
                l.wg.kind ? collective(i, OpPhase::WeightGradient, l.wg, groups.wg, p + l.name + ".wg_comm", wg) : -1;
        }
    }
    // Drain: await every outstanding weight-gradient collective and apply its update.
    for (int i = 0; i < layers; ++i) {
        const V1Layer& l = w.layers[static_cast<std::size_t>(i)];
        const int gate = pending_wg[static_cast<std::size_t>(i)];
        if (gate >= 0 && l.update_ns > 0) compute(i, OpPhase::Update, l.update_ns, "final." + l.name + ".update", {gate});
    }
    return graph;
}

}  // namespace dtcalc
