#include "cli/collective_command.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_common.h"
#include "collective/collective_cost.h"
#include "collective/collective_links.h"
#include "collective/nccl/nccl_model.h"
#include "collective/nccl/nccl_one_rank.h"
#include "core/count_range.h"
#include "core/error.h"
#include "network/cluster_shape.h"
#include "report/collective_plot.h"
#include "report/collective_report.h"
#include "report/svg_chart.h"
#include "report/link_table.h"
#include "report/nccl_tuning_report.h"

namespace dtcalc::cli {
namespace {

struct CollectiveOptions {
    std::string kind;
    std::string size;
    // nccl-tests' own flags (src/common.cu): -b min bytes, -e max bytes (both
    // 32M by default), -f step factor, -i step bytes (1M by default; used
    // while the factor is 1), -g GPUs per thread (one thread: the GPUs).
    std::string min_bytes, max_bytes, step_bytes;
    std::optional<long long> step_factor;
    std::string npus;   ///< empty: the whole network; else counts (8, 8..1024)
    std::string nodes;  ///< counts of nodes (1..128)
    std::string gpus;   ///< -g
    std::optional<long long> gpus_per_node;
    std::string algo;
    std::string proto;
    std::optional<long long> min_nchannels, max_nchannels;  ///< NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS
    std::vector<std::string> env;  ///< --env NCCL_VARIABLE=VALUE, each setting nccl_force.h models
    std::string datatype;  ///< nccl-tests' -d (float by default)
    std::string op;        ///< nccl-tests' -o (sum by default)
    SystemOptions system;
    std::string units = "us";
    std::string format = "table";
    std::string plot;
    bool phases = false;
    bool links = false;
    bool tuning = false;
};

// nccl-tests' -d and -o (float and sum where not given).
NcclReduction reduction_of(const CollectiveOptions& o) {
    NcclReduction r;
    if (!o.datatype.empty()) {
        const auto type = parse_nccl_datatype(o.datatype);
        if (!type)
            throw InputError({"-d", 0, 0, ""},
                             "unknown type '" + o.datatype + "': expected nccl-tests' " + nccl_datatype_choices());
        r.type = *type;
    }
    if (!o.op.empty()) {
        const auto op = parse_nccl_redop(o.op);
        if (!op)
            throw InputError({"-o", 0, 0, ""}, "unknown op '" + o.op + "': expected nccl-tests' " + nccl_redop_choices());
        r.op = *op;
    }
    return r;
}

// Why a one-NPU row of a nonzero size prices at 0 us (the nccl backend prices
// NCCL's out-of-place copy where it can: nccl_one_rank.h).
std::string one_rank_zero_reason(CollectiveKind kind, NetworkBackend backend) {
    if (backend != NetworkBackend::Nccl) return " (ASTRA-sim's backends move nothing on one NPU)";
    if (!nccl_one_rank_copies(kind))
        return " (NCCL sends a rank's share to itself in its point-to-point kernel; that copy is not priced)";
    return " (NCCL with one rank copies the buffer on the GPU when the call is out of place, nccl-tests' first time "
           "column: src/enqueue.cc, ncclLaunchOneRank; this preset's [nccl] table states no copy-efficiency to "
           "price it)";
}

// nccl-tests' parsesize(): a number with an optional K, M or G (binary, either case).
std::uint64_t nccl_tests_size(const std::string& text, const char* flag) {
    std::string t = text;
    if (!t.empty() && (t.back() == 'k' || t.back() == 'm' || t.back() == 'g'))
        t.back() = static_cast<char>(t.back() - 'a' + 'A');
    const auto bytes = t.empty() || t.back() == 'B' ? std::nullopt : parse_byte_size(t);
    if (!bytes)
        throw InputError({flag, 0, 0, ""}, "expected bytes as nccl-tests takes them, like 8, 64K, 1M or 2G "
                                           "(K, M, G: 2^10, 2^20, 2^30), got '" + text + "'");
    if (*bytes > kMaxMessageBytes) throw InputError({flag, 0, 0, ""}, byte_size_out_of_range(*bytes));
    return *bytes;
}

// The sizes of --size, or of nccl-tests' -b/-e/-f/-i.
std::vector<std::uint64_t> collective_sizes(const CollectiveOptions& o) {
    const bool nccl_tests = !o.min_bytes.empty() || !o.max_bytes.empty() || o.step_factor || !o.step_bytes.empty();
    if (!o.size.empty() && nccl_tests)
        throw InputError({"--size", 0, 0, ""}, "give either --size or nccl-tests' -b/-e/-f/-i, not both");
    if (!nccl_tests) {
        if (o.size.empty())
            throw InputError({"--size", 0, 0, ""}, "missing: give --size (1MiB, or a range 1KiB:1GiB), or nccl-tests' "
                                                   "-b MIN -e MAX [-f FACTOR]");
        const auto sizes = parse_byte_size_range(o.size);
        if (!sizes)
            throw InputError({"--size", 0, 0, ""}, "expected a size like 1048576, 1MiB or 4KB, or a range like "
                                                   "1KiB:1GiB of at most 4096 sizes, got '" + o.size + "'");
        for (std::uint64_t size : *sizes)
            if (size > kMaxMessageBytes) throw InputError({"--size", 0, 0, ""}, byte_size_out_of_range(size));
        return *sizes;
    }
    const std::uint64_t lo = o.min_bytes.empty() ? 32ull << 20 : nccl_tests_size(o.min_bytes, "-b");
    const std::uint64_t hi = o.max_bytes.empty() ? 32ull << 20 : nccl_tests_size(o.max_bytes, "-e");
    if (lo > hi)
        throw InputError({"-b", 0, 0, ""}, "the minimum size (" + std::to_string(lo) + " B) is above the maximum, -e (" +
                                               std::to_string(hi) + " B; nccl-tests' default for both is 32M)");
    const long long factor = o.step_factor.value_or(1);
    if (factor < 1) throw InputError({"-f", 0, 0, ""}, "expected a whole factor of 1 or more, got " + std::to_string(factor));
    const std::uint64_t step = o.step_bytes.empty() ? 1ull << 20 : nccl_tests_size(o.step_bytes, "-i");
    if (factor == 1 && step == 0) throw InputError({"-i", 0, 0, ""}, "expected a step of 1 byte or more, got 0");
    std::vector<std::uint64_t> sizes;
    // nccl-tests' loop: size *= factor while the factor is above 1, else size += step.
    for (std::uint64_t size = lo; size <= hi;) {
        if (sizes.size() == 4096)
            throw InputError({factor > 1 ? "-f" : "-i", 0, 0, ""},
                             "the range -b " + o.min_bytes + " -e " + o.max_bytes + " has more than 4096 sizes");
        sizes.push_back(size);
        if (size == 0 && factor > 1) break;  // 0 x factor stays 0
        const std::uint64_t next = factor > 1 ? size * static_cast<std::uint64_t>(factor) : size + step;
        if (next <= size) break;
        size = next;
    }
    return sizes;
}

std::vector<long long> counts_of(const std::string& text, const char* flag) {
    // One count: a whole number, whose range the group or the cluster shape checks.
    if (text.find("..") == std::string::npos && text.find(',') == std::string::npos) {
        long long value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || ec != std::errc() || end != text.data() + text.size())
            throw InputError({flag, 0, 0, ""}, "expected a whole number, or a list or range of them (8..1024), got '" +
                                                   text + "'");
        return {value};
    }
    std::string expected;
    const auto counts = parse_count_range(text, 1LL << 24, 4096, expected);
    if (!counts) throw InputError({flag, 0, 0, ""}, "expected " + expected + ", got '" + text + "'");
    return *counts;
}

void run_collective(const CollectiveOptions& options, const std::vector<std::string>& preset_dirs) {
    const auto kind = parse_collective_kind(options.kind);
    if (!kind)
        throw InputError({"KIND", 0, 0, ""}, "expected all-reduce, reduce-scatter, all-gather, all-to-all or "
                                             "send-recv, got '" + options.kind + "'");
    const std::vector<std::uint64_t> sizes = collective_sizes(options);
    const TimeUnit unit = parse_units_flag(options.units);
    const OutputFormat format = parse_output_format(options.format);
    if (options.links && format != OutputFormat::Table)
        throw InputError({"--links", 0, 0, ""}, "is shown with --format table only");
    if (options.tuning && format != OutputFormat::Table)
        throw InputError({"--tuning", 0, 0, ""}, "is shown with --format table only");
    if (!options.npus.empty() && !options.gpus.empty())
        throw InputError({"-g", 0, 0, ""}, "give either --npus or -g, not both");
    const std::string npus_text = options.npus.empty() ? options.gpus : options.npus;
    const char* npus_flag = options.npus.empty() ? "-g" : "--npus";
    // A cluster from the catalogue (--gpu) is built to each count; a preset's
    // or files' network is reshaped (network/cluster_shape.h).
    const bool from_catalogue = !options.system.gpu.empty();
    auto cluster = [&](std::optional<long long> nodes) {
        SystemOptions source = options.system;
        source.nodes = nodes;
        source.gpus_per_node = options.gpus_per_node;
        return resolve_system(source, preset_dirs);
    };
    const std::optional<long long> first_count =
        options.nodes.empty() ? std::nullopt : std::optional<long long>(counts_of(options.nodes, "--nodes").front());
    const ResolvedSystem sys = from_catalogue ? cluster(first_count) : resolve_system(options.system, preset_dirs);
    const WarningsAtEnd warnings(sys.warnings);
    // The nccl backend on constants borrowed from other hardware says so (stderr, after the result).
    std::vector<std::string> assumed;
    if (sys.system.backend == NetworkBackend::Nccl && sys.system.nccl())
        for (const std::string& a : sys.system.nccl()->assumed) assumed.push_back("nccl backend: " + a + ", unvalidated");
    const WarningsAtEnd notes(assumed, "note");
    const bool shaped = !options.nodes.empty() || options.gpus_per_node;
    if (shaped && !npus_text.empty())
        throw InputError({npus_flag, 0, 0, ""}, std::string("give either ") + npus_flag +
                                                    " or --nodes/--gpus-per-node, not both");

    // One group per count (one, when no count is given): the first N NPUs of
    // the network, or the network shaped to N nodes.
    struct Case {
        System system;  ///< a catalogue cluster's NCCL facts follow its shape
        CommGroup group;
    };
    std::vector<Case> cases;
    if (!options.nodes.empty()) {
        for (long long n : counts_of(options.nodes, "--nodes")) {
            System system = from_catalogue ? cluster(n).system : sys.system;
            if (!from_catalogue) system.network = shape_cluster(sys.system.network, n, options.gpus_per_node, sys.system.node_gpus());
            CommGroup group = whole_network_group(system.network);
            cases.push_back({std::move(system), std::move(group)});
        }
    } else {
        System system = sys.system;
        if (shaped && !from_catalogue)
            system.network = shape_cluster(sys.system.network, std::nullopt, options.gpus_per_node, sys.system.node_gpus());
        if (npus_text.empty()) {
            CommGroup group = whole_network_group(system.network);
            cases.push_back({std::move(system), std::move(group)});
        } else {
            for (long long n : counts_of(npus_text, npus_flag))
                cases.push_back({system, first_npus_group(system.network, n, npus_flag)});
        }
    }
    if (cases.size() * sizes.size() > 65536)
        throw InputError({options.nodes.empty() ? npus_flag : "--nodes", 0, 0, ""},
                         std::to_string(cases.size()) + " counts x " + std::to_string(sizes.size()) +
                             " sizes: more than 65536 rows");

    CollectiveQuery query;
    query.nccl = parse_nccl_force(sys, options.algo, options.proto);
    if (options.min_nchannels)
        apply_nccl_channel_option(query.nccl, sys.system, true, *options.min_nchannels, {"--min-nchannels", 0, 0, ""});
    if (options.max_nchannels)
        apply_nccl_channel_option(query.nccl, sys.system, false, *options.max_nchannels, {"--max-nchannels", 0, 0, ""});
    apply_nccl_env_options(query.nccl, sys.system, options.env,
                           nccl_variables_by_options(!options.algo.empty(), !options.proto.empty(),
                                                     options.min_nchannels.has_value(),
                                                     options.max_nchannels.has_value()),
                           {"--env", 0, 0, ""});
    query.kind = *kind;
    query.out_of_place = true;  // nccl-tests' first time column
    query.reduction = reduction_of(options);
    std::vector<CollectiveRow> rows;
    for (const Case& c : cases) {
        query.group = c.group;
        for (std::uint64_t size : sizes) {
            query.bytes = size;
            rows.push_back({*kind, size, query.group.size(), c.system.backend, collective_time(c.system, query)});
        }
    }
    std::vector<std::string> zero_notes;  // why a row prices at 0 us
    if (std::any_of(rows.begin(), rows.end(),
                    [](const CollectiveRow& r) { return r.result.algorithm == "none" && r.size_bytes == 0; }))
        zero_notes.push_back(std::string("nccl backend: ") + std::string(collective_kind_name(*kind)) +
                             " of 0 bytes: NCCL discards an empty collective (src/enqueue.cc, taskAppend) and runs "
                             "no kernel, so 0 us");
    if (std::any_of(rows.begin(), rows.end(),
                    [](const CollectiveRow& r) { return r.npus == 1 && r.size_bytes > 0 && r.result.time_ns == 0; }))
        zero_notes.push_back(std::string(collective_kind_name(*kind)) + " on 1 NPU: nothing moves between NPUs, so 0 us" +
                             one_rank_zero_reason(*kind, rows.front().backend));
    const WarningsAtEnd zero_note(zero_notes, "note");
    // Where congestion comes from, at the largest size (and count); worked out
    // before any output, so that an error leaves stdout empty.
    std::vector<PhaseLinks> links;
    if (options.links && !rows.empty()) {
        query.bytes = rows.back().size_bytes;
        query.group = cases.back().group;
        links = collective_links(cases.back().system, query, rows.back().result, 5);
    }
    // NCCL's own tuning table per count, worked out before any output.
    std::vector<NcclTuningTable> tunings;
    if (options.tuning) {
        for (const Case& c : cases) {
            if (c.system.backend != NetworkBackend::Nccl)
                throw InputError({"--tuning", 0, 0, ""},
                                 "shows the nccl backend's NCCL tuning; this system uses " +
                                     std::string(network_backend_name(c.system.backend)) + " (--backend nccl)");
            query.group = c.group;
            tunings.push_back(nccl_tuning_table(c.system.network, c.system.config, query));
        }
    }
    if (!options.plot.empty())
        write_svg_file(options.plot, collective_plot_svg(collective_plot_from_rows(rows, sys.label)), "--plot");
    switch (format) {
        case OutputFormat::Table:
            write_collective_table(std::cout, {sys.label}, rows, unit, options.phases || rows.size() == 1);
            break;
        case OutputFormat::Csv: write_collective_csv(std::cout, rows, unit); break;
        case OutputFormat::Json: write_collective_json(std::cout, rows); break;
    }
    if (options.links && !rows.empty()) write_link_table(std::cout, links, unit, query.bytes);
    for (const NcclTuningTable& t : tunings) write_nccl_tuning_table(std::cout, *kind, t);
}

}  // namespace

void setup_collective_command(CLI::App& app, const std::vector<std::string>& preset_dirs) {
    auto options = std::make_shared<CollectiveOptions>();
    CLI::App* command = app.add_subcommand("collective", "Time one collective, or a range of sizes");
    command->add_option("KIND", options->kind, "all-reduce | reduce-scatter | all-gather | all-to-all | send-recv")
        ->required();
    command->add_option("--size,-s", options->size,
                        "Bytes as nccl-tests counts them (1MiB, 4KB, 1048576) or a doubling range LO:HI");
    command->add_option("-b", options->min_bytes, "nccl-tests' -b: the smallest size (8, 64K, 1M, 2G; default 32M)");
    command->add_option("-e", options->max_bytes, "nccl-tests' -e: the largest size (default 32M)");
    command->add_option("-f", options->step_factor, "nccl-tests' -f: multiply the size by this from -b to -e");
    command->add_option("-i", options->step_bytes, "nccl-tests' -i: add this many bytes while -f is 1 (default 1M)");
    command->add_option("--npus,-n", options->npus,
                        "Group of the first N NPUs (default: the whole network); a list or range gives one row per count "
                        "(8..1024)");
    command->add_option("-g", options->gpus, "nccl-tests' -g (GPUs per thread; with one thread, the GPUs): as --npus");
    command->add_option("--nodes", options->nodes,
                        "Nodes: the outermost network dimension (with --gpus-per-node; ranks G per node); a list or range "
                        "gives one row per count (1..128)");
    command->add_option("--gpus-per-node", options->gpus_per_node, "GPUs per node: the innermost dimension");
    command->add_option("--algo", options->algo,
                        "nccl backend: NCCL_ALGO, in its syntax: ring | tree | nvls | nvlstree | pat, a list, ^ to exclude, allreduce:tree");
    command->add_option("--proto", options->proto,
                        "nccl backend: NCCL_PROTO, in its syntax: LL | LL128 | Simple, a list, ^ to exclude, allreduce:LL128");
    command->add_option("--min-nchannels", options->min_nchannels,
                        "nccl backend: NCCL_MIN_NCHANNELS, copy the communicator's channels up to at least this many "
                        "(0 to 64)");
    command->add_option("--max-nchannels", options->max_nchannels,
                        "nccl backend: NCCL_MAX_NCHANNELS, run at most this many channels (1 to 64)");
    command->add_option("--env", options->env,
                        "nccl backend: an NCCL setting as VARIABLE=VALUE, as set before a run (repeat for more): "
                        "NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE, NCCL_MIN/MAX_NCHANNELS (or _NRINGS), "
                        "NCCL_MIN/MAX_CTAS, NCCL_NVLS_NCHANNELS, NCCL_MIN/MAX_P2P_NCHANNELS, "
                        "NCCL_NCHANNELS_PER_NET_PEER")
        ->allow_extra_args(false);
    command->add_option("-d,--datatype", options->datatype,
                        "nccl-tests' -d: the element type (int8, uint8, int32, uint32, int64, uint64, half, float, "
                        "double, bfloat16, f8e4m3, f8e5m2; default float); nccl backend: NVLS reduces only some");
    command->add_option("-o,--op", options->op,
                        "nccl-tests' -o: the reduction (sum, prod, max, min, avg, mulsum; default sum); nccl backend: "
                        "NVLS reduces only some");
    add_system_options(*command, options->system, /*shape=*/false);
    command->add_option("--units", options->units, "us | ns | ms | s | cycles (default us)");
    command->add_option("--format", options->format, "table | csv | json (default table)");
    command->add_option("--plot", options->plot, "Write an SVG: time and bus bandwidth against size (log axes)");
    command->add_flag("--phases", options->phases, "Show the per-phase breakdown for every size");
    command->add_flag("--links", options->links,
                      "Show each phase's most loaded links on a Mesh2D/Torus (where congestion comes from)");
    command->add_flag("--tuning", options->tuning,
                      "nccl backend: show NCCL's own latency / bandwidth table for the collective, as "
                      "NCCL_DEBUG_SUBSYS=TUNING prints it");
    command->callback([options, &preset_dirs] { run_collective(*options, preset_dirs); });
}

}  // namespace dtcalc::cli
