// Decoding `.et` files: the STAGE sanity trace's known content, the writer's
// output read back, and every kind of broken file with its exact message.
#include <doctest/doctest.h>

#include <google/protobuf/io/coded_stream.h>

#include <fstream>
#include <iterator>
#include <map>
#include <random>

#include "chakra/trace_decoder.h"
#include "chakra/trace_set.h"
#include "chakra/trace_writer.h"
#include "chakra_test_traces.h"
#include "core/error.h"

using namespace dtcalc;
using namespace dtcalc::chakra;
using namespace dtcalc::testing;

namespace {

std::string error_of(const std::string& bytes, const std::string& file = "x.0.et") {
    try {
        decode_rank_trace(bytes, file, 0, {});
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

std::string file_of(const std::vector<Node>& nodes) { return encode_et(chakra_metadata("test"), nodes); }

}  // namespace

TEST_CASE("the sanity trace's rank 0 decodes to what its text dump and the README say") {
    const RankTrace t = read_rank_trace(rank_file(sanity_prefix(), 0), 0, {});
    // 347 nodes (README: 346-347 per NPU); by type, counted with an independent
    // Python decoder of the same file: 176 COMP, 153 COMM_COLL, 9 SEND, 9 RECV.
    REQUIRE(t.nodes.size() == 347);
    std::map<NodeKind, int> count;
    for (const TraceNode& n : t.nodes) ++count[n.kind];
    CHECK(count[NodeKind::Comp] == 176);
    CHECK(count[NodeKind::Collective] == 153);
    CHECK(count[NodeKind::Send] == 9);
    CHECK(count[NodeKind::Recv] == 9);

    // Node 0 of sanity_rank0_first30_nodes.txt.
    const TraceNode& first = t.nodes[0];
    CHECK(first.id == 3);
    CHECK(t.node_name(first) == "in_emb_y@0_COMP");
    CHECK(first.kind == NodeKind::Comp);
    REQUIRE(first.dep_count == 1);
    CHECK(t.deps[first.dep_begin] == 4);
    CHECK(first.num_ops == 17179869184000ULL);
    CHECK(first.tensor_size == 536870912ULL);
    CHECK_FALSE(first.is_cpu_op);
    REQUIRE(first.inputs == 2);
    REQUIRE(first.outputs == 1);
    CHECK(t.strings[t.tensors[first.tensor_begin].name] == "in_emb_x@0Batch/dp,Seq/sp,Din/tp");
    CHECK(t.tensors[first.tensor_begin].bytes == 2097152000ULL);  // "2097152000.0"
    CHECK(t.strings[t.tensors[first.tensor_begin + 1].name] == "in_emb_w@0Din,Dmodel/tp");
    CHECK(t.tensors[first.tensor_begin + 1].bytes == 655360000ULL);
    CHECK(t.strings[t.tensors[first.tensor_begin + 2].name] == "in_emb_y@0Batch/dp,Seq/sp,Dmodel/tp");
    CHECK(t.tensors[first.tensor_begin + 2].bytes == 536870912ULL);

    // Node 1: the all-gather on pg "9".
    const TraceNode& gather = t.nodes[1];
    CHECK(gather.id == 4);
    CHECK(gather.kind == NodeKind::Collective);
    CHECK(gather.comm_type == static_cast<int>(CommType::AllGather));
    CHECK(gather.comm_size == 2097152000ULL);
    REQUIRE(gather.pg_name >= 0);
    CHECK(t.strings[static_cast<std::size_t>(gather.pg_name)] == "9");
    CHECK(gather.inputs == 1);
    CHECK(gather.outputs == 0);

    // Node 2: the send to rank 8.
    const TraceNode& out = t.nodes[2];
    CHECK(out.id == 806);
    CHECK(out.kind == NodeKind::Send);
    CHECK(out.comm_dst == 8);
    CHECK(out.comm_src == -1);
    CHECK(out.comm_tag == 108936);
    CHECK(out.comm_size == 536870912ULL);
}

TEST_CASE("ranks with the same work share a shape; the sanity trace has two") {
    const TraceSet set = load_trace_set(sanity_prefix(), 16, {}, 2);
    REQUIRE(set.shapes.size() == 2);
    CHECK(set.shapes[0].rank == 0);
    CHECK(set.shapes[1].rank == 8);
    for (int r = 0; r < 16; ++r) CHECK(set.shape_of_rank[static_cast<std::size_t>(r)] == (r < 8 ? 0 : 1));
    CHECK(set.nodes == 2816 + 2440 + 144 + 144);  // README's totals
    // Rank 1 sends to 9 where rank 0 sends to 8: peers differ, the shape does not.
    CHECK(set.peers[0][1].dst == 8);
    CHECK(set.peers[1][1].dst == 9);
}

TEST_CASE("the same result on 1 and on 4 threads") {
    const TraceSet a = load_trace_set(sanity_prefix(), 16, {}, 1);
    const TraceSet b = load_trace_set(sanity_prefix(), 16, {}, 4);
    CHECK(a.shape_of_rank == b.shape_of_rank);
    CHECK(a.pg_names == b.pg_names);
    REQUIRE(a.shapes.size() == b.shapes.size());
    for (std::size_t s = 0; s < a.shapes.size(); ++s) CHECK(a.shapes[s].shape == b.shapes[s].shape);
}

TEST_CASE("a file re-written by the generated protobuf classes decodes to the same nodes") {
    const std::string path = rank_file(sanity_prefix(), 8);
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Split with protobuf itself: varint length, message.
    google::protobuf::io::CodedInputStream stream(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                                  static_cast<int>(bytes.size()));
    GlobalMetadata meta;
    std::vector<Node> nodes;
    std::uint32_t length = 0;
    REQUIRE(stream.ReadVarint32(&length));
    auto limit = stream.PushLimit(static_cast<int>(length));
    REQUIRE(meta.ParseFromCodedStream(&stream));
    stream.PopLimit(limit);
    while (stream.ReadVarint32(&length)) {
        limit = stream.PushLimit(static_cast<int>(length));
        Node n;
        REQUIRE(n.ParseFromCodedStream(&stream));
        stream.PopLimit(limit);
        nodes.push_back(std::move(n));
    }
    REQUIRE(nodes.size() == 346);
    const RankTrace original = decode_rank_trace(bytes, path, 8, {});
    const RankTrace rewritten = decode_rank_trace(encode_et(meta, nodes), "rewritten", 8, {});
    CHECK(original.shape == rewritten.shape);
    REQUIRE(original.nodes.size() == rewritten.nodes.size());
    for (std::size_t i = 0; i < original.nodes.size(); ++i) {
        CHECK(original.nodes[i].signature == rewritten.nodes[i].signature);
        CHECK(original.node_name(original.nodes[i]) == rewritten.node_name(rewritten.nodes[i]));
    }
}

TEST_CASE("attributes in any integer encoding, and string lists with fractional sizes") {
    Node n = make_node({5, COMP_NODE, {}, "c"});
    AttributeProto* a = n.add_attr();
    a->set_name("num_ops");
    a->set_sint64_val(1234);
    a = n.add_attr();
    a->set_name("tensor_size");
    a->set_fixed64_val(99);
    const std::vector<std::string> outs = {"t", " 42.75"};  // stoull reads the leading digits: 42
    add_string_list_attr(n, "outputs", outs);
    const std::vector<std::string> ins = {"w", "7"};
    add_string_list_attr(n, "inputs", ins);  // after outputs in the file: still read as the inputs
    const RankTrace t = decode_rank_trace(file_of({n}), "f", 0, {});
    REQUIRE(t.nodes.size() == 1);
    CHECK(t.nodes[0].num_ops == 1234);
    CHECK(t.nodes[0].tensor_size == 99);
    REQUIRE(t.nodes[0].inputs == 1);
    REQUIRE(t.nodes[0].outputs == 1);
    CHECK(t.strings[t.tensors[0].name] == "w");
    CHECK(t.tensors[0].bytes == 7);
    CHECK(t.strings[t.tensors[1].name] == "t");
    CHECK(t.tensors[1].bytes == 42);
}

TEST_CASE("broken files: each error names the file, the node or byte, and what was expected") {
    SUBCASE("empty") { CHECK(error_of("") == "x.0.et: byte 0: the file is empty (expected a GlobalMetadata message, then nodes)"); }
    SUBCASE("truncated inside the last node") {
        std::string bytes = file_of({comp(1, 5), comp(2, 5, {1})});
        bytes.resize(bytes.size() - 3);
        const std::size_t last_start = file_of({comp(1, 5)}).size();
        const std::size_t length = file_of({comp(1, 5), comp(2, 5, {1})}).size() - last_start - 1;
        CHECK(error_of(bytes) == "x.0.et: byte " + std::to_string(last_start) + ": truncated: the message after node 1 needs " +
                                     std::to_string(length) + " bytes but only " + std::to_string(length - 3) + " remain");
    }
    SUBCASE("a length varint longer than 10 bytes") {
        std::string bytes = file_of({});
        bytes += std::string(11, '\xff');
        CHECK(error_of(bytes) == "x.0.et: byte " + std::to_string(bytes.size() - 11) +
                                     ": malformed length varint of the message after the GlobalMetadata");
    }
    SUBCASE("a varint cut off by the end of the file") {
        std::string bytes = file_of({comp(1, 5)}) + "\x80";
        CHECK(error_of(bytes) == "x.0.et: byte " + std::to_string(bytes.size() - 1) +
                                     ": malformed length varint of the message after node 1 (the file ends inside it)");
    }
    SUBCASE("an unknown node type") {
        Node n = comp(7, 1);
        n.set_type(static_cast<NodeType>(9));
        CHECK(error_of(file_of({n})) ==
              "x.0.et: node 7: unknown node type 9 (expected 0-7: INVALID_NODE, METADATA_NODE, MEM_LOAD_NODE, "
              "MEM_STORE_NODE, COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE, COMM_COLL_NODE)");
    }
    SUBCASE("a dependency on a node that is not there") {
        CHECK(error_of(file_of({comp(1, 5), comp(2, 5, {99})})) ==
              "x.0.et: node 2: depends on node 99, which is not in the file");
    }
    SUBCASE("a node id used twice") {
        CHECK(error_of(file_of({comp(3, 5), comp(3, 5)})) ==
              "x.0.et: node 3: the id appears twice in the file (node ids must be unique)");
    }
    SUBCASE("a send without its destination") {
        Node n = make_node({4, COMM_SEND_NODE, {}, ""});
        add_int64_attr(n, "comm_size", 10);
        CHECK(error_of(file_of({n})) == "x.0.et: node 4: COMM_SEND_NODE needs attribute comm_dst");
    }
    SUBCASE("an odd tensor list") {
        Node n = comp(6, 1);
        const std::vector<std::string> three = {"a", "1", "b"};
        add_string_list_attr(n, "inputs", three);
        CHECK(error_of(file_of({n})) == "x.0.et: node 6: attribute inputs: expected name, size pairs, got 3 strings");
    }
    SUBCASE("a tensor size that is not a number") {
        Node n = comp(6, 1);
        const std::vector<std::string> bad = {"a", "big"};
        add_string_list_attr(n, "outputs", bad);
        CHECK(error_of(file_of({n})) == "x.0.et: node 6: attribute outputs: tensor size 'big' is not a non-negative number");
    }
    SUBCASE("an unknown collective type") {
        CHECK(error_of(file_of({collective(8, 12, 100, "")})) ==
              "x.0.et: node 8: attribute comm_type: unknown collective type 12 (expected 0-9: ALL_REDUCE ... BARRIER)");
    }
    SUBCASE("garbage where a node should be") {
        std::string bytes = file_of({comp(1, 5)});
        bytes += "\x03\x0f\xff\xff";  // a 3-byte message: field 1, wire type 7
        CHECK(error_of(bytes) == "x.0.et: byte " + std::to_string(bytes.size() - 4) +
                                     ": unsupported wire type 7 in a Node after node 1");
    }
}

TEST_CASE("missing rank files are named, with how many the network needs") {
    const std::string prefix = write_traces("four_of_eight", {{comp(1, 1)}, {comp(1, 1)}, {comp(1, 1)}, {comp(1, 1)}});
    try {
        load_trace_set(prefix, 8, {}, 1);
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == prefix + ".4.et: does not exist: the network has 8 NPUs, so the workload needs "
                                                "one trace per NPU, " + prefix + ".0.et to " + prefix +
                                           ".7.et; missing ranks 4-7");
    }
}

TEST_CASE("of several broken files, the lowest rank's error is reported, whatever the threads") {
    Node bad = comp(1, 1, {5});
    const std::string prefix = write_traces("two_bad", {{comp(1, 1)}, {comp(1, 1)}, {bad}, {bad}});
    for (int threads : {1, 2, 4}) {
        try {
            load_trace_set(prefix, 4, {}, threads);
            FAIL("no error");
        } catch (const InputError& e) {
            CHECK(std::string(e.what()) == prefix + ".2.et: node 1: depends on node 5, which is not in the file");
        }
    }
}

TEST_CASE("random corruptions of a real file: an InputError or a clean decode, never anything else") {
    std::ifstream in(rank_file(sanity_prefix(), 0), std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::mt19937 random(20260422);
    int errors = 0, clean = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string bytes = original;
        const int edits = 1 + static_cast<int>(random() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = random() % bytes.size();
            switch (random() % 4) {
                case 0: bytes[at] = static_cast<char>(random()); break;                   // overwrite
                case 1: bytes[at] = static_cast<char>(bytes[at] ^ (1 << (random() % 8))); break;  // flip a bit
                case 2: bytes.resize(at + 1); break;                                       // truncate
                default: bytes.insert(at, 1, static_cast<char>(random())); break;          // insert
            }
        }
        try {
            const RankTrace t = decode_rank_trace(bytes, "fuzz", 0, {});
            ++clean;
        } catch (const InputError&) {
            ++errors;
        }
    }
    CHECK(errors + clean == 3000);
    CHECK(errors > 1000);  // most corruptions are caught
}
