#pragma once
// Small Chakra traces for tests, written with dtcalc's own writer into the
// temp directory, and the paths of the STAGE sanity trace in validation/.
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "chakra/trace_set.h"
#include "chakra/trace_writer.h"

namespace dtcalc::testing {

inline std::string chakra_dir() { return std::string(DTCALC_VALIDATION_DIR) + "/chakra"; }
inline std::string sanity_prefix() { return chakra_dir() + "/sanity_16npu/workload"; }
inline std::string sanity_groups() { return chakra_dir() + "/sanity_16npu/comm_group.json"; }

inline std::string temp_path(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "dtcalc-tests" / "chakra";
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

struct NodeSpec {
    std::uint64_t id = 0;
    chakra::NodeType type = chakra::COMP_NODE;
    std::vector<std::uint64_t> deps;
    std::string name;
};

inline chakra::Node make_node(const NodeSpec& s) {
    chakra::Node n;
    n.set_id(s.id);
    n.set_name(s.name.empty() ? "n" + std::to_string(s.id) : s.name);
    n.set_type(s.type);
    for (std::uint64_t d : s.deps) n.add_data_deps(d);
    return n;
}

/// A COMP node replaying `micros` µs (roofline off).
inline chakra::Node comp(std::uint64_t id, std::uint64_t micros, std::vector<std::uint64_t> deps = {}) {
    chakra::Node n = make_node({id, chakra::COMP_NODE, std::move(deps), ""});
    n.set_duration_micros(micros);
    return n;
}

inline chakra::Node send(std::uint64_t id, int dst, std::uint64_t bytes, int tag, std::vector<std::uint64_t> deps = {}) {
    chakra::Node n = make_node({id, chakra::COMM_SEND_NODE, std::move(deps), ""});
    chakra::add_int32_attr(n, "comm_dst", dst);
    chakra::add_int64_attr(n, "comm_size", static_cast<std::int64_t>(bytes));
    chakra::add_int32_attr(n, "comm_tag", tag);
    return n;
}

inline chakra::Node recv(std::uint64_t id, int src, std::uint64_t bytes, int tag, std::vector<std::uint64_t> deps = {}) {
    chakra::Node n = make_node({id, chakra::COMM_RECV_NODE, std::move(deps), ""});
    chakra::add_int32_attr(n, "comm_src", src);
    chakra::add_int64_attr(n, "comm_size", static_cast<std::int64_t>(bytes));
    chakra::add_int32_attr(n, "comm_tag", tag);
    return n;
}

inline chakra::Node collective(std::uint64_t id, int type, std::uint64_t bytes, const std::string& pg,
                               std::vector<std::uint64_t> deps = {}) {
    chakra::Node n = make_node({id, chakra::COMM_COLL_NODE, std::move(deps), ""});
    chakra::add_int64_attr(n, "comm_type", type);
    chakra::add_int64_attr(n, "comm_size", static_cast<std::int64_t>(bytes));
    if (!pg.empty()) chakra::add_string_attr(n, "pg_name", pg);
    return n;
}

/// Writes PREFIX.<rank>.et for each rank's node list; returns PREFIX.
inline std::string write_traces(const std::string& name, const std::vector<std::vector<chakra::Node>>& ranks) {
    const std::string prefix = temp_path(name);
    for (std::size_t r = 0; r < ranks.size(); ++r)
        chakra::write_et_file(chakra::rank_file(prefix, static_cast<long long>(r)), chakra::chakra_metadata("test"), ranks[r]);
    return prefix;
}

/// A one-dimension network file: `npus` NPUs on a Switch (2 hops) of
/// 1e9 / 2^30 GB/s, i.e. exactly 1 byte per ns in ASTRA-sim's units, 5 ns per hop.
inline std::string write_switch_network(const std::string& name, int npus) {
    const std::string path = temp_path(name + ".yml");
    write_text(path, "topology: [ Switch ]\nnpus_count: [ " + std::to_string(npus) +
                         " ]\nbandwidth: [ 0.931322574615478515625 ]\nlatency: [ 5 ]\n");
    return path;
}

/// A system JSON: ring everywhere, 1 chunk, 1 active chunk, endpoint delay 1,
/// local-mem-bw 1e12 (reductions free), roofline and memory tracking as given.
inline std::string write_system(const std::string& name, bool roofline, bool track_memory) {
    const std::string path = temp_path(name + ".json");
    write_text(path, std::string("{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 1, "
                                 "\"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 1, "
                                 "\"all-reduce-implementation\": [\"ring\"], \"all-gather-implementation\": [\"ring\"], "
                                 "\"reduce-scatter-implementation\": [\"ring\"], \"all-to-all-implementation\": [\"ring\"], "
                                 "\"collective-optimization\": \"baseline\", \"local-mem-bw\": 1000000000000, "
                                 "\"peak-perf\": 900, \"roofline-enabled\": ") +
                         (roofline ? "1" : "0") + ", \"track-local-mem\": " + (track_memory ? "1" : "0") + "}\n");
    return path;
}

}  // namespace dtcalc::testing
