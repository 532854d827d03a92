// Error messages of Chakra traces and the files around them: the .et decoder
// (wire format, attributes, required fields, dependencies), rank files that
// are missing or unreadable, communicator-group and remote-memory JSON, the
// system JSON's switches `dtcalc astra` reads itself, the trace exporter, and
// the writers of traces and ASTRA-sim configuration files. Each case pins the
// whole message: file, then byte offset, node or key, then the detail. The
// expected texts are written from the sources' rules and the inputs below,
// never copied from a run.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "chakra/astra_config_files.h"
#include "chakra/astra_run.h"
#include "chakra/comm_groups.h"
#include "chakra/graph_export.h"
#include "chakra/remote_memory.h"
#include "chakra/trace_decoder.h"
#include "chakra/trace_set.h"
#include "chakra/trace_writer.h"
#include "chakra_test_traces.h"
#include "core/error.h"
#include "run_dtcalc.h"
#include "input_error.h"

using namespace dtcalc;
using namespace dtcalc::chakra;
using namespace dtcalc::testing;

namespace {

std::string decode_error(const std::string& bytes) {
    return error_of([&] { decode_rank_trace(bytes, "x.0.et", 0, {}); });
}

std::string file_of(const std::vector<Node>& nodes) { return encode_et(chakra_metadata("test"), nodes); }

// A Node message, length-prefixed (its length is below 128: one byte).
std::string message(const std::string& body) { return std::string(1, static_cast<char>(body.size())) + body; }

struct BytesCase {
    std::string what;
    std::string bytes;
    std::string expected;
};

struct NodeCase {
    std::string what;
    Node node;
    std::string expected;
};

AttributeProto& attr(Node& n, const std::string& name) {
    AttributeProto* a = n.add_attr();
    a->set_name(name);
    return *a;
}

}  // namespace

// ---------------------------------------------------------------------------
// The decoder: bytes that are not a Chakra trace.
// ---------------------------------------------------------------------------

TEST_CASE("error message: trace wire format") {
    const std::string meta = file_of({});
    const std::string at = "x.0.et: byte " + std::to_string(meta.size()) + ": ";
    const std::vector<BytesCase> cases = {
        // Tag 0: field number 0 does not exist.
        {"field number 0", meta + message(std::string("\x00", 1)), at + "malformed field tag in a Node after the GlobalMetadata"},
        // Field 1 as a varint whose continuation bit runs off the message.
        {"varint cut off", meta + message("\x08\xff"), at + "malformed varint in field 1 of a Node after the GlobalMetadata"},
        // Field 1, wire type 1 (8 fixed bytes), 2 bytes left.
        {"fixed64 cut off", meta + message("\x09\x01\x02"), at + "truncated field 1 in a Node after the GlobalMetadata"},
        // Field 2, length-delimited, 5 bytes announced, 2 there.
        {"string cut off", meta + message("\x12\x05" "ab"), at + "malformed or truncated field 2 in a Node after the GlobalMetadata"},
        // data_deps (field 5) as wire type 5, and packed with a broken varint.
        {"deps as fixed32", meta + message(std::string("\x2d\x00\x00\x00\x00", 5)), at + "malformed dependency list after the GlobalMetadata"},
        {"packed deps cut off", meta + message("\x2a\x01\xff"), at + "malformed dependency list after the GlobalMetadata"},
        // The GlobalMetadata itself broken: no "after" it.
        {"metadata tag 0", message(std::string("\x00", 1)),
         "x.0.et: byte 0: malformed field tag in the GlobalMetadata at the start of the file"},
        {"metadata cut off", std::string("\x05\x08", 2),
         "x.0.et: byte 0: truncated: the message at the start of the file needs 5 bytes but only 1 remain"},
    };
    for (const BytesCase& c : cases) {
        CAPTURE(c.what);
        CHECK(decode_error(c.bytes) == c.expected);
    }
}

TEST_CASE("error message: trace node attributes and required fields") {
    std::vector<NodeCase> cases;
    auto add = [&](const std::string& what, Node n, const std::string& expected) { cases.push_back({what, std::move(n), expected}); };
    {
        Node n = comp(6, 1);
        attr(n, "num_ops").set_string_val("many");
        add("a count given as a string", n, "x.0.et: node 6: attribute num_ops: expected a number");
    }
    {
        Node n = comp(6, 1);
        attr(n, "num_ops").set_double_val(1.5);
        add("a count given as a fraction", n, "x.0.et: node 6: attribute num_ops: expected a non-negative integer");
    }
    {
        Node n = comp(6, 1);
        attr(n, "tensor_size").set_int64_val(-3);
        add("a negative count", n, "x.0.et: node 6: attribute tensor_size: expected a non-negative integer, got -3");
    }
    {
        Node n = send(4, 1, 10, 0);
        attr(n, "comm_tag").set_string_val("t");
        add("a tag given as a string", n, "x.0.et: node 4: attribute comm_tag: expected an integer");
    }
    {
        Node n = send(4, 1, 10, 0);
        attr(n, "comm_tag").set_double_val(2.5);
        add("a tag given as a fraction", n, "x.0.et: node 4: attribute comm_tag: expected an integer");
    }
    {
        Node n = send(4, 1, 10, 0);
        attr(n, "comm_tag").set_uint64_val(9223372036854775808ULL);  // 2^63
        add("a tag past 2^63 - 1", n, "x.0.et: node 4: attribute comm_tag: integer out of range");
    }
    {
        Node n = comp(6, 1);
        const std::vector<std::string> huge = {"t", "99999999999999999999999"};  // > 2^64
        add_string_list_attr(n, "outputs", huge);
        add("a tensor size past 2^64", n, "x.0.et: node 6: attribute outputs: tensor size '99999999999999999999999' is too large");
    }
    {
        Node n = recv(5, 0, 10, 1);
        n.mutable_attr(0)->set_int32_val(-1);  // comm_src
        add("a negative peer", n, "x.0.et: node 5: attribute comm_src: expected an NPU rank, got -1");
    }
    {
        Node n = comp(6, 1);
        attr(n, "is_cpu_op").set_string_val("yes");
        add("is_cpu_op as a string", n, "x.0.et: node 6: attribute is_cpu_op: expected a boolean or an integer");
    }
    {
        Node n = comp(6, 1);
        attr(n, "dtcalc_duration_ns").set_int64_val(-5);
        add("a negative duration", n, "x.0.et: node 6: attribute dtcalc_duration_ns: expected a non-negative number");
    }
    {
        Node n = send(4, 1, 10, 1);
        add_int32_attr(n, "is_cpu_op", 1);
        add("a send on the CPU", n, "x.0.et: node 4: a communication node cannot be a CPU op (is_cpu_op is set)");
    }
    {
        Node n = make_node({5, COMM_RECV_NODE, {}, ""});
        add_int32_attr(n, "comm_src", 0);
        add("a receive without a size", n, "x.0.et: node 5: COMM_RECV_NODE needs attribute comm_size");
    }
    {
        Node n = make_node({8, COMM_COLL_NODE, {}, ""});
        add_int64_attr(n, "comm_size", 64);
        add("a collective without a type", n, "x.0.et: node 8: COMM_COLL_NODE needs attribute comm_type");
    }
    {
        Node n = make_node({5, COMM_RECV_NODE, {}, ""});
        add_int64_attr(n, "comm_size", 64);
        add("a receive without a source", n, "x.0.et: node 5: COMM_RECV_NODE needs attribute comm_src");
    }
    add("a node that depends on itself", comp(3, 5, {3}), "x.0.et: node 3: depends on itself");
    for (const NodeCase& c : cases) {
        CAPTURE(c.what);
        CHECK(decode_error(file_of({c.node})) == c.expected);
    }
}

// ---------------------------------------------------------------------------
// Rank files: missing, or not readable as files.
// ---------------------------------------------------------------------------

TEST_CASE("error message: rank files that are missing or cannot be read") {
    const std::string none = temp_path("errmsg-trace-none");
    CHECK(error_of([&] { load_trace_set(none, 3, {}, 1); }) ==
          none + ".0.et: does not exist (no file " + none + ".<rank>.et was found for any of the network's 3 NPUs)");
    CHECK(error_of([&] { load_trace_set(none, 0, {}, 1); }) == none + ": the network has no NPUs");

    CHECK(error_of([&] { read_rank_trace(none + ".0.et", 0, {}); }) == none + ".0.et: cannot read the file");
    // A directory opens like a file and claims a size near 2^63.
    const std::string dir = temp_path("errmsg-trace-dir.0.et");
    std::filesystem::create_directories(dir);
    CHECK(error_of([&] { read_rank_trace(dir, 0, {}); }) == dir + ": cannot read the file: it is not a regular file");
    // Linux's /proc files are regular files that cannot seek to their end;
    // sysfs files claim 4096 bytes and hold fewer.
    for (const char* file : {"/proc/version", "/sys/devices/system/cpu/online"}) {
        CAPTURE(file);
        if (!std::filesystem::is_regular_file(file)) continue;
        CHECK(error_of([&] { read_rank_trace(file, 0, {}); }) == std::string(file) + ": cannot read the file");
    }
}

// ---------------------------------------------------------------------------
// dtcalc astra's inputs besides the traces.
// ---------------------------------------------------------------------------

namespace {

// A one-line JSON file `name` with `text`.
std::string json_file(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    write_text(path, text);
    return path;
}

// The system JSON of chakra_test_traces.h, with the four implementation lists
// and the extra keys given; the all-reduce list on line 4.
std::string system_file(const std::string& name, const std::string& all_reduce, const std::string& extra = "") {
    return json_file(name, "{\n"
                           "  \"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 1,\n"
                           "  \"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 1,\n"
                           "  \"all-reduce-implementation\": [\"" + all_reduce + "\"],\n"
                           "  \"all-gather-implementation\": [\"ring\"], \"reduce-scatter-implementation\": [\"ring\"],\n"
                           "  \"all-to-all-implementation\": [\"ring\"], \"collective-optimization\": \"baseline\",\n"
                           "  \"local-mem-bw\": 1000" + extra + "\n}\n");
}

std::string astra_flags(const std::string& prefix, const std::string& network, const std::string& system) {
    return "astra --workload-configuration " + prefix + " --network-configuration " + network +
           " --system-configuration " + system;
}

}  // namespace

TEST_CASE("error message: comm-group, remote-memory and system switches") {
    // A document that is not an object: the whole file is wrong, so no line.
    const std::string groups = json_file("errmsg-trace-groups.json", "[1, 2]");
    CHECK(error_of([&] { load_comm_groups(groups, 4); }) ==
          groups + ": expected an object mapping communicator ids to lists of NPU ranks");
    const std::string memory_list = json_file("errmsg-trace-memory-list.json", "[1]");
    CHECK(error_of([&] { load_remote_memory(memory_list); }) == memory_list + ": expected a JSON object");
    const std::string memory_kind = json_file("errmsg-trace-memory-kind.json", "{\"memory-type\": \"HUGE\"}");
    CHECK(error_of([&] { load_remote_memory(memory_kind); }) ==
          memory_kind + ":1: memory-type: expected NO_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION, "
                        "PER_NODE_MEMORY_EXPANSION or MEMORY_POOL, got 'HUGE'");
    const std::string replay = json_file("errmsg-trace-replay.json", "{\"replay-only\": 2}");
    CHECK(error_of([&] { system_replay_only(replay); }) == replay + ":1: replay-only: expected 0 or 1");
}

TEST_CASE("error message: dtcalc astra with a system it cannot run the traces on") {
    SUBCASE("roofline without a peak") {
        const std::string prefix = write_traces("errmsg-trace-roofline", {{comp(1, 1)}, {comp(1, 1)}});
        const std::string network = write_switch_network("errmsg-trace-net2", 2);
        const std::string system = system_file("errmsg-trace-roofline.json", "ring", ", \"roofline-enabled\": 1");
        const Run r = run_dtcalc(astra_flags(prefix, network, system));
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + system + ": peak-perf: missing: roofline-enabled needs peak-perf (TFLOP/s)\n");
    }
    SUBCASE("replay-only neither 0 nor 1") {
        const std::string prefix = write_traces("errmsg-trace-replay", {{comp(1, 1)}, {comp(1, 1)}});
        const std::string network = write_switch_network("errmsg-trace-net2b", 2);
        const std::string system = system_file("errmsg-trace-replay2.json", "ring", ",\n  \"replay-only\": 3");
        const Run r = run_dtcalc(astra_flags(prefix, network, system));
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + system + ":8: replay-only: expected 0 or 1\n");
    }
    SUBCASE("halvingDoubling on 6 NPUs: the node, then the system file's entry") {
        // Every rank: an all-reduce of the whole network (no pg_name).
        const std::vector<std::vector<Node>> ranks(6, {collective(2, 0, 4096, "")});
        const std::string prefix = write_traces("errmsg-trace-hd6", ranks);
        const std::string network = write_switch_network("errmsg-trace-net6", 6);
        const std::string system = system_file("errmsg-trace-hd.json", "halvingDoubling");
        const Run r = run_dtcalc(astra_flags(prefix, network, system));
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 2: " + system +
                           ":4: all-reduce-implementation[0]: halvingDoubling needs a power-of-two number of NPUs on "
                           "dimension 0 (got 6)\n");
    }
    SUBCASE("an involved_dim list that leaves a dimension out") {
        Node n = collective(2, 0, 4096, "");
        AttributeProto& dims = attr(n, "involved_dim");
        dims.mutable_bool_list()->add_values(true);
        dims.mutable_bool_list()->add_values(false);
        const std::string prefix = write_traces("errmsg-trace-dims", {{n}, {n}});
        const std::string network = write_switch_network("errmsg-trace-net2c", 2);
        const std::string system = system_file("errmsg-trace-ring.json", "ring");
        const Run r = run_dtcalc(astra_flags(prefix, network, system));
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 2: an involved_dim list that leaves dimensions out is not modelled\n");
    }
    SUBCASE("a receive nobody sends") {
        const std::string prefix = write_traces("errmsg-trace-recv", {{recv(4, 1, 10, 3)}, {comp(1, 1)}});
        const std::string network = write_switch_network("errmsg-trace-net2d", 2);
        const std::string system = system_file("errmsg-trace-ring2.json", "ring");
        const Run r = run_dtcalc(astra_flags(prefix, network, system));
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 4: receive from rank 1 (comm_tag 3, comm_size 10) has no "
                                                    "matching COMM_SEND_NODE in " + prefix + ".1.et\n");
    }
}

// ---------------------------------------------------------------------------
// Writing: traces, comm groups, ASTRA-sim configuration files.
// ---------------------------------------------------------------------------

namespace {

// Four NPUs on one switch, ring everywhere, a roofline device.
struct ExportFixture {
    Network network;
    SystemConfig system;
    WorkloadGraph g;
    std::string prefix = temp_path("errmsg-trace-export");

    ExportFixture() {
        network.dimensions.push_back({Topology::Switch, 4, 100.0, 10.0});
        for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
        system.preferred_dataset_splits = 1;
        system.active_chunks_per_dimension = 1;
        system.local_mem_bw_gbps = 1000;
        system.peak_perf_tflops = 100;
        g.role_npus = {4};
    }
    int add(OpKind kind, int role = 0, std::initializer_list<int> deps = {}) {
        Op op;
        op.kind = kind;
        op.role = role;
        op.duration_ns = 10;
        return g.add(op, deps);
    }
    std::string error(const std::string& groups = "", const ExportOptions& options = {}) {
        return error_of([&] { export_chakra(g, System{network, system}, prefix, groups.empty() ? prefix + ".json" : groups,
                                            options); });
    }
};

}  // namespace

TEST_CASE("error message: exporting a workload as traces") {
    SUBCASE("more NPUs than files allowed") {
        ExportFixture f;
        f.add(OpKind::Compute);
        ExportOptions options;
        options.max_npus = 2;
        CHECK(f.error("", options) == "export: the network has 4 NPUs; writing one trace file per NPU is limited to 2");
    }
    SUBCASE("a rank-to-role map of the wrong length") {
        ExportFixture f;
        f.add(OpKind::Compute);
        f.g.rank_role = {0, 0};
        CHECK(f.error() == "export: the workload maps 2 ranks to roles but the network has 4 NPUs");
    }
    SUBCASE("roles that stand for fewer NPUs than the network has") {
        ExportFixture f;
        f.add(OpKind::Compute);
        f.g.role_npus = {2};
        CHECK(f.error() == "export: the workload's roles stand for 2 NPUs but the network has 4");
    }
    SUBCASE("an op of a role that does not exist") {
        ExportFixture f;
        f.add(OpKind::Compute, 3);
        CHECK(f.error() == "export: op 0: role out of range");
    }
    SUBCASE("a dependency across roles") {
        ExportFixture f;
        f.g.roles = 2;
        f.g.role_npus = {2, 2};
        const int a = f.add(OpKind::Compute, 0);
        f.add(OpKind::Compute, 1, {a});
        CHECK(f.error() == "export: op 1 depends on an op of another role (Chakra dependencies stay within one NPU)");
    }
    SUBCASE("a roofline op without a peak") {
        ExportFixture f;
        f.system.peak_perf_tflops = 0;
        Op op;
        op.flops = 1e9;
        f.g.add(op);
        CHECK(f.error() == "export: op 0 needs the system's peak-perf and local-mem-bw");
    }
    SUBCASE("a collective without a group") {
        ExportFixture f;
        Op op;
        op.kind = OpKind::Collective;
        op.comm_bytes = 64;
        f.g.add(op);
        CHECK(f.error() == "export: op 0 has no communicator group");
    }
    SUBCASE("a receive without a send") {
        ExportFixture f;
        f.g.roles = 2;
        f.g.role_npus = {2, 2};
        Op op;
        op.kind = OpKind::Recv;
        op.role = 1;
        op.peer_role = 0;
        op.tag = 5;
        f.g.add(op);
        CHECK(f.error() == "export: op 0: receive without a matching send");
    }
    SUBCASE("a send to a role without NPUs") {
        ExportFixture f;
        f.g.roles = 2;
        f.g.role_npus = {4, 0};
        Op op;
        op.kind = OpKind::Send;
        op.peer_role = 1;
        op.duration_ns = 10;
        op.comm_bytes = 64;
        f.g.add(op);
        CHECK(f.error() == "export: op 0: its peer role has no NPUs");
    }
    SUBCASE("a comm-group file that cannot be opened, or written") {
        ExportFixture f;
        f.add(OpKind::Compute);
        CHECK(f.error("/nonexistent-dtcalc-dir/groups.json") == "/nonexistent-dtcalc-dir/groups.json: cannot write the file");
        if (std::filesystem::exists("/dev/full")) CHECK(f.error("/dev/full") == "/dev/full: cannot write the file");
    }
}

TEST_CASE("error message: trace and configuration files that cannot be written") {
    const std::vector<Node> nodes = {comp(1, 1)};
    CHECK(error_of([&] { write_et_file("/nonexistent-dtcalc-dir/t.0.et", chakra_metadata("test"), nodes); }) ==
          "/nonexistent-dtcalc-dir/t.0.et: cannot write the file");
    Network network;
    network.dimensions.push_back({Topology::Ring, 4, 100.0, 10.0});
    SystemConfig system;
    for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
    // A regular file where the folder should be.
    const std::string blocker = temp_path("errmsg-trace-blocker");
    write_text(blocker, "x");
    const std::string message = error_of([&] { write_astra_configs(blocker + "/configs", System{network, system}, false); });
    CHECK(message.starts_with(blocker + "/configs: cannot create the folder: "));
    // A folder where network.yml should be.
    const std::string folder = temp_path("errmsg-trace-configs");
    std::filesystem::create_directories(folder + "/network.yml");
    CHECK(error_of([&] { write_astra_configs(folder, System{network, system}, false); }) == folder + "/network.yml: cannot write the file");
    // A full disk: the write fails when the buffer goes out.
    if (std::filesystem::exists("/dev/full")) {
        CHECK(error_of([&] { write_et_file("/dev/full", chakra_metadata("test"), nodes); }) == "/dev/full: cannot write the file");
        const std::string full = temp_path("errmsg-trace-full");
        std::filesystem::remove_all(full);
        std::filesystem::create_directories(full);
        std::filesystem::create_symlink("/dev/full", full + "/network.yml");
        CHECK(error_of([&] { write_astra_configs(full, System{network, system}, false); }) == full + "/network.yml: cannot write the file");
    }
}

TEST_CASE("error message: dtcalc export-chakra to a place it cannot write") {
    const Run r = run_dtcalc("export-chakra --model gpt2 --preset lab-system1 --output /nonexistent-dtcalc-dir/t");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: /nonexistent-dtcalc-dir/t.0.et: cannot write the file\n");
    if (std::filesystem::exists("/dev/full")) {
        const std::string prefix = temp_path("errmsg-trace-full-export");
        const Run full = run_dtcalc("export-chakra --model gpt2 --preset lab-system1 --output " + prefix + " --comm-group /dev/full");
        CHECK(full.exit_code == 2);
        CHECK(full.out == "dtcalc: error: /dev/full: cannot write the file\n");
    }
}
