#include "config/preset.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "config/config_readers.h"
#include "config/named_file.h"
#include "config/network_config.h"
#include "config/nccl_params_reader.h"
#include "config/system_config_reader.h"
#include "core/units.h"

namespace dtcalc {
namespace {

double fraction(const ConfigValue& v) {
    const double f = as_positive_number(v);
    if (f > 1) fail_at(v, "an efficiency is a fraction of peak in (0, 1], got " + fmt::format("{}", f));
    return f;
}

EfficiencyCurve efficiency_curve(const ConfigValue* curve) {
    EfficiencyCurve out;
    if (!curve) return out;
    if (curve->type != ConfigValue::Type::List || curve->items.empty())
        fail_at(*curve, "expected a list of [FLOPs, fraction] points");
    double previous = 0;
    for (const ConfigValue& point : curve->items) {
        if (point.type != ConfigValue::Type::List || point.items.size() != 2)
            fail_at(point, "expected a point [FLOPs of one GEMM, fraction of peak]");
        const double flops = as_positive_number(point.items[0]);
        if (flops <= previous) fail_at(point.items[0], "points must be in increasing FLOPs");
        previous = flops;
        out.points.emplace_back(flops, fraction(point.items[1]));
    }
    return out;
}

// [M, N, K, achieved fraction] of a benchmark, turned into the plateau of `tiling`.
GemmShapeModel gemm_shape_model(const ConfigValue* point, const GemmTiling& tiling, const ConfigValue* sms) {
    GemmShapeModel out;
    if (!point) return out;
    if (point->type != ConfigValue::Type::List || point->items.size() != 4)
        fail_at(*point, "expected a benchmark point [M, N, K, achieved fraction of peak]");
    if (!sms) fail_at(*point, "a GEMM benchmark needs gemm-sms (the device's streaming multiprocessors) in the same table");
    const double m = as_positive_number(point->items[0]);
    const double n = as_positive_number(point->items[1]);
    const double k = as_positive_number(point->items[2]);
    out.tiling = tiling;
    out.plateau = plateau_from_benchmark(tiling, m, n, k, fraction(point->items[3]));
    if (out.plateau > 1)
        fail_at(point->items[3], fmt::format("this benchmark point implies a plateau of {:.3f} of peak (above 1) with "
                                             "gemm-tiles and gemm-sms: check its shape and those keys",
                                             out.plateau));
    return out;
}

// A device rate within [lo, hi] (physically possible, with a wide margin).
double rate(const ConfigValue& v, double lo, double hi, std::string_view unit) {
    const double x = as_positive_number(v);
    if (x < lo || x > hi) fail_at(v, number_out_of_range(x, lo, hi, unit));
    return x;
}

// [plateau, sequence overhead in tokens] of one attention direction.
AttentionCurve attention_curve(const ConfigValue& v) {
    if (v.type != ConfigValue::Type::List || v.items.size() != 2)
        fail_at(v, "expected [plateau, sequence overhead]: the share of the bf16 peak at long sequences, and the "
                   "tokens s0 in plateau x s / (s + s0)");
    AttentionCurve c;
    c.plateau = fraction(v.items[0]);
    c.seq_overhead = as_non_negative_number(v.items[1]);
    if (c.seq_overhead > 1e7) fail_at(v.items[1], number_out_of_range(c.seq_overhead, 0, 1e7, "tokens"));
    return c;
}

// Fused attention: one figure for every length and both directions (`attention-efficiency`,
// the backward taking twice the forward's time), or measured curves per direction
// (`attention-forward`, `attention-backward`), not both.
void read_attention(ConfigTableReader& r, TrainingDevice& c) {
    const ConfigValue* one = r.optional("attention-efficiency");
    const ConfigValue* forward = r.optional("attention-forward");
    const ConfigValue* backward = r.optional("attention-backward");
    if (one && (forward || backward))
        fail_at(forward ? *forward : *backward,
                "give attention-efficiency (one figure) or attention-forward and attention-backward (curves), not both");
    if (one) {
        const double e = fraction(*one);
        c.attention_forward = {e, 0};
        c.attention_backward = {1.25 * e, 0};  // 2.5x the FLOPs in twice the time
    }
    if (forward || backward) {
        if (!forward || !backward)
            fail_at(forward ? *forward : *backward, "attention-forward and attention-backward go together: give both");
        c.attention_forward = attention_curve(*forward);
        c.attention_backward = attention_curve(*backward);
    }
}

TrainingDevice compute_from(const ConfigValue& table) {
    ConfigTableReader r(table);
    TrainingDevice c;
    // 1 MFLOP/s to 1 ZFLOP/s; memory as links, 1 kB/s to 1 ZB/s.
    c.peak_tflops_bf16 = rate(r.required("peak-tflops-bf16"), 1e-6, 1e9, "TFLOP/s");
    if (const ConfigValue* v = r.optional("peak-tflops-fp8")) c.peak_tflops_fp8 = rate(*v, 1e-6, 1e9, "TFLOP/s");
    if (const ConfigValue* v = r.optional("peak-tflops-fp32")) c.peak_tflops_fp32 = rate(*v, 1e-6, 1e9, "TFLOP/s");
    c.hbm_gbps = rate(r.required("hbm-bandwidth-gbps"), kMinBandwidthGbps, kMaxBandwidthGbps, "GB/s");
    c.hbm_capacity_bytes = r.positive_number("hbm-capacity-gib") * 1073741824.0;
    c.gemm_efficiency = efficiency_curve(r.optional("gemm-efficiency"));
    c.fp8_gemm_efficiency = efficiency_curve(r.optional("gemm-efficiency-fp8"));
    GemmTiling tiling;
    const ConfigValue* sms = r.optional("gemm-sms");
    if (sms) {
        tiling.sms = as_positive_number(*sms);
        if (tiling.sms != static_cast<double>(static_cast<long long>(tiling.sms)) || tiling.sms > 1e6)
            fail_at(*sms, "expected a whole number of streaming multiprocessors (1 to 1000000)");
    }
    if (const ConfigValue* tiles = r.optional("gemm-tiles")) {
        if (tiles->type != ConfigValue::Type::List || tiles->items.empty())
            fail_at(*tiles, "expected a list of output tiles [[rows, columns], ...]");
        tiling.tiles.clear();
        for (const ConfigValue& tile : tiles->items) {
            if (tile.type != ConfigValue::Type::List || tile.items.size() != 2)
                fail_at(tile, "expected [rows, columns] of one output tile");
            tiling.tiles.emplace_back(as_positive_number(tile.items[0]), as_positive_number(tile.items[1]));
        }
    }
    if (const ConfigValue* v = r.optional("gemm-k-overhead")) tiling.k_overhead = as_non_negative_number(*v);
    c.gemm_shape = gemm_shape_model(r.optional("gemm-benchmark"), tiling, sms);
    // gemm-k-overhead is a fixed time per tile, stated in K elements of a bf16 GEMM. An fp8
    // GEMM runs its K loop peak-fp8 / peak-bf16 times as fast, so the same time is that many
    // times the elements (2x on Hopper).
    GemmTiling fp8_tiling = tiling;
    if (c.peak_tflops_fp8 > 0) fp8_tiling.k_overhead *= c.peak_tflops_fp8 / c.peak_tflops_bf16;
    c.fp8_gemm_shape = gemm_shape_model(r.optional("gemm-benchmark-fp8"), fp8_tiling, sms);
    if (const auto t = r.optional_non_negative_number("framework-bytes-per-element")) c.framework_bytes_per_element = *t;
    // The earlier term per token had another unit and shape: a value of it cannot be carried over.
    if (const ConfigValue* old = r.optional("framework-layer-ns-per-token"))
        fail_at(*old, "framework-layer-ns-per-token is no longer read: the framework term is now "
                      "framework-bytes-per-element, memory traffic per element of a rank's layer activation (tokens x "
                      "hidden / tp) per layer and pass; refit it with `dtcalc calibrate` on training runs");
    if (const ConfigValue* v = r.optional("sustained-gemm-fraction")) c.sustained_gemm_fraction = fraction(*v);
    // Not stated: fp8 GEMMs keep the bf16 share.
    c.sustained_gemm_fraction_fp8 = c.sustained_gemm_fraction;
    if (const ConfigValue* v = r.optional("sustained-gemm-fraction-fp8")) {
        if (!(c.peak_tflops_fp8 > 0)) fail_at(*v, "needs peak-tflops-fp8 in the same table: without it the device times no fp8 GEMMs");
        c.sustained_gemm_fraction_fp8 = fraction(*v);
    }
    read_attention(r, c);
    if (const ConfigValue* v = r.optional("memory-efficiency")) c.memory_efficiency = fraction(*v);
    if (const ConfigValue* v = r.optional("efficiency-assumed-from")) c.efficiency_assumed_from = as_string(*v);
    r.finish();
    return c;
}

}  // namespace

double roofline_peak_for_datatype(const TrainingDevice& compute, int datatype_bytes) {
    switch (datatype_bytes) {
        case 1: return compute.peak_tflops_fp8;
        case 2: return compute.peak_tflops_bf16;
        case 4: return compute.peak_tflops_fp32;
        default: return 0;
    }
}

namespace {

// The keys of a preset composed of catalogue items.
bool composed(const ConfigValue& root) { return root.type == ConfigValue::Type::Table && root.find("gpu"); }

std::optional<long long> count_at(ConfigTableReader& r, std::string_view key) {
    if (const ConfigValue* v = r.optional(key)) return as_positive_integer(*v);
    return std::nullopt;
}

ConfigValue expand_composed(const ConfigValue& root, const std::vector<std::string>& search_dirs) {
    ConfigTableReader r(root);
    ClusterRequest rq;
    rq.name = r.string("name");
    rq.description = r.string("description");
    rq.sources = r.string_list("sources");
    rq.gpu = r.string("gpu");
    if (auto v = r.optional_string("nic")) rq.nic = *v;
    rq.gpus_per_node = count_at(r, "gpus-per-node");
    rq.nodes = count_at(r, "nodes");
    rq.nics_per_node = count_at(r, "nics-per-node");
    rq.nics_per_gpu = count_at(r, "nics-per-gpu");
    if (auto v = r.optional_string("host-cpu")) rq.host_cpu = *v;
    if (auto v = r.optional_string("backend")) rq.backend = *v;
    // The preset's own [calibration] table (the bounds `dtcalc calibrate` fits within) goes along.
    const ConfigValue* calibration = r.optional("calibration");
    r.finish();
    try {
        ConfigValue tree = compose_cluster(rq, search_dirs);
        if (calibration) tree.fields.emplace_back("calibration", *calibration);
        return tree;
    } catch (const OptionError& e) {
        if (!e.where().file.empty()) throw;
        // Locate the error at the preset's own key.
        std::string key = e.option();
        for (char& c : key)
            if (c == '_') c = '-';
        if (key == "host-cpu" || key == "backend" || key == "gpu" || key == "nic" || key == "gpus-per-node" ||
            key == "nodes" || key == "nics-per-node" || key == "nics-per-gpu")
            if (const ConfigValue* v = root.find(key)) throw InputError(v->where, e.detail());
        throw InputError({root.where.file, 0, 0, key}, e.detail());
    }
}

}  // namespace

Preset preset_from_config(const ConfigValue& root, const std::string& path) {
    Preset preset;
    preset.path = path;
    preset.tree = root;
    ConfigTableReader reader(root);
    preset.name = reader.string("name");
    preset.description = reader.string("description");
    preset.sources = reader.string_list("sources");
    const ConfigValue& backend = reader.required("backend");
    const auto parsed = parse_network_backend(as_string(backend));
    if (!parsed) fail_at(backend, "expected 'astra-unaware', 'astra-aware' or 'nccl', got '" + backend.text + "'");
    System& system = preset.system;
    system.backend = *parsed;
    system.network = network_from_config(reader.required("network"));
    system.config = system_config_from(reader.required("system"), system.network.dimensions.size());
    if (const ConfigValue* compute = reader.optional("compute")) {
        system.device = compute_from(*compute);
        preset.has_compute_table = true;
    } else {
        system.device = roofline_device(system.config.peak_perf_tflops, system.config.local_mem_bw_gbps);
    }
    system.device.name = preset.name;
    if (const ConfigValue* nccl = reader.optional("nccl"))
        system.config.nccl = std::make_shared<const NcclParameters>(nccl_parameters_from(*nccl));
    if (system.backend == NetworkBackend::Nccl && !system.nccl())
        fail_at(backend, "backend 'nccl' needs an [nccl] table in the preset");
    if (const ConfigValue* calibration = reader.optional("calibration"))
        preset.calibration = calibration_from(*calibration, root);
    reader.finish();
    return preset;
}

Preset load_preset(const std::string& name_or_path, const std::vector<std::string>& search_dirs) {
    const std::string path = find_named_toml(name_or_path, search_dirs, "preset", "preset");
    const ConfigValue root = read_toml_file(path);
    // A composed preset finds its catalogue next to itself first.
    std::vector<std::string> dirs{std::filesystem::path(path).parent_path().string()};
    dirs.insert(dirs.end(), search_dirs.begin(), search_dirs.end());
    return read_reporting_all(root, [&](const ConfigValue& tree) {
        return composed(tree) ? preset_from_config(expand_composed(tree, dirs), path) : preset_from_config(tree, path);
    });
}

Preset compose_preset(const ClusterRequest& request, const std::vector<std::string>& search_dirs) {
    return preset_from_config(compose_cluster(request, search_dirs), "");
}

std::string efficiency_note(const std::string& assumed_from) {
    return assumed_from.empty() ? "" : "efficiency assumed from " + assumed_from + ", unvalidated";
}

std::vector<std::string> list_presets(const std::vector<std::string>& search_dirs) { return toml_names_in(search_dirs); }

}  // namespace dtcalc
