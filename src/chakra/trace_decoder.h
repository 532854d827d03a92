#pragma once
// One Chakra `.et` file (one NPU's trace) decoded into compact records.
//
// The file is a stream of varint-length-delimited protobuf messages
// (et_def.proto): one GlobalMetadata, then one Node per operation. The decoder
// walks the wire format itself, with the field numbers of the generated
// classes, and copies out only what the timing, the memory tracker and the
// error messages need -- no message objects, no per-field allocation -- so a
// node costs a few hundred nanoseconds.
//
// Each node also gets a 64-bit `signature`: a hash of all its bytes except its
// name and its peer fields (comm_src, comm_dst, pg_name). Two NPUs whose
// nodes have the same signatures do the same work; only whom they talk to
// can differ (see chakra/role_partition.h).
//
// Errors (InputError, exit code 2) name the file, the byte offset or the node
// id, and what was expected: a truncated message, a malformed varint or field,
// an unknown node type, a dependency on a node that is not in the file, a
// duplicated node id, a missing required attribute, an odd tensor list.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc::chakra {

/// Node types (et_def.proto's NodeType).
enum class NodeKind : std::uint8_t {
    Invalid = 0,
    Metadata = 1,
    MemLoad = 2,
    MemStore = 3,
    Comp = 4,
    Send = 5,
    Recv = 6,
    Collective = 7,
};

/// Collective types (et_def.proto's CollectiveCommType), the `comm_type` attribute.
enum class CommType : std::int32_t {
    AllReduce = 0,
    Reduce = 1,
    AllGather = 2,
    Gather = 3,
    Scatter = 4,
    Broadcast = 5,
    AllToAll = 6,
    ReduceScatter = 7,
    ReduceScatterBlock = 8,
    Barrier = 9,
};

std::string_view node_kind_name(NodeKind kind);  ///< "COMP_NODE", ...
std::string_view comm_type_name(CommType type);  ///< "ALL_REDUCE", ...

/// A tensor a node reads or writes (its `inputs` / `outputs` attributes: name, size pairs).
struct TensorRef {
    std::uint32_t name = 0;   ///< index into RankTrace::strings
    std::uint64_t bytes = 0;  ///< the size string's leading digits, as ASTRA-sim's std::stoull reads it; <= 1 PiB
};

struct TraceNode {
    std::uint64_t id = 0;
    std::uint64_t signature = 0;  ///< hash of the node but its name and peer fields
    NodeKind kind = NodeKind::Invalid;
    bool is_cpu_op = false;
    bool has_tensor_lists = false;  ///< both `inputs` and `outputs` attributes present
    bool partial_involved_dim = false;  ///< an `involved_dim` list that leaves a dimension out
    std::int32_t comm_type = -1;    ///< CommType, -1 when absent
    bool has_comm_size = false;
    std::uint64_t comm_size = 0;    ///< <= 1 PiB (kMaxMessageBytes): larger is an out-of-range error
    std::uint64_t num_ops = 0;
    std::uint64_t tensor_size = 0;  ///< <= 1 PiB, as comm_size
    std::uint64_t duration_micros = 0;
    double exact_duration_ns = -1;  ///< attribute `dtcalc_duration_ns` (dtcalc's exports), -1 when absent
    std::int64_t comm_src = -1;     ///< -1 when absent
    std::int64_t comm_dst = -1;     ///< -1 when absent
    std::int64_t comm_tag = 0;
    std::int32_t pg_name = -1;      ///< index into RankTrace::strings, -1 when absent
    std::uint32_t name_begin = 0;   ///< into RankTrace::text
    std::uint32_t name_size = 0;
    std::uint32_t dep_begin = 0;    ///< into RankTrace::deps: parent ids, data then control
    std::uint32_t dep_count = 0;
    std::uint32_t tensor_begin = 0;  ///< into RankTrace::tensors: inputs, then outputs
    std::uint32_t inputs = 0;
    std::uint32_t outputs = 0;
};

struct RankTrace {
    int rank = 0;
    std::string file;
    std::vector<TraceNode> nodes;  ///< in file order
    std::vector<std::uint64_t> deps;
    std::vector<TensorRef> tensors;
    std::vector<std::string> strings;  ///< pg names and tensor names, each once
    std::string text;                  ///< node names, back to back
    std::uint64_t shape = 0;           ///< hash of the node signatures in order

    std::string_view node_name(const TraceNode& node) const { return {text.data() + node.name_begin, node.name_size}; }
    /// "file: node 57" for messages.
    std::string where(const TraceNode& node) const;
};

struct DecodeOptions {
    bool tensors = true;  ///< read the tensor lists (for peak memory)
    bool names = true;    ///< keep node names
};

/// Decodes `bytes` (the whole file) as rank `rank`'s trace. Checks the
/// structure (dependencies resolve, ids are unique, required attributes are
/// there); who talks to whom is checked later, against the network and the
/// communicator groups.
RankTrace decode_rank_trace(std::string_view bytes, const std::string& file, int rank, const DecodeOptions& options);

/// Reads and decodes a file; throws InputError when it cannot be read.
RankTrace read_rank_trace(const std::string& file, int rank, const DecodeOptions& options);
/// The same, reading into `buffer` (reused across calls: no fresh memory per file).
RankTrace read_rank_trace(const std::string& file, int rank, const DecodeOptions& options, std::string& buffer);

}  // namespace dtcalc::chakra
