#include "chakra/trace_decoder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "chakra/attribute_values.h"
#include "chakra/et_def.pb.h"
#include "chakra/hash.h"
#include "chakra/node_error.h"
#include "chakra/protobuf_wire.h"
#include "chakra/trace_checks.h"
#include "core/error.h"

namespace dtcalc::chakra {
namespace {

using wire::Field;
using wire::kLengthDelimited;
using wire::kVarint;
using wire::read_varint;

// Walks the messages of one file and decodes each Node into a TraceNode, its
// name, dependencies, tensors and strings into RankTrace's shared pools.
class Decoder {
public:
    Decoder(std::string_view bytes, const std::string& file, int rank, const DecodeOptions& options)
        : bytes_(bytes), options_(options) {
        out_.file = file;
        out_.rank = rank;
    }

    RankTrace run() {
        const char* p = bytes_.data();
        const char* end = p + bytes_.size();
        if (p == end) fail_at(0, "the file is empty (expected a GlobalMetadata message, then nodes)");
        bool first = true;
        while (p < end) {
            const std::size_t offset = static_cast<std::size_t>(p - bytes_.data());
            std::uint64_t length = 0;
            if (!read_varint(p, end, length))
                fail_at(offset, "malformed length varint of the message " + after_last_node() +
                                    (p >= end ? " (the file ends inside it)" : ""));
            if (length > static_cast<std::uint64_t>(end - p))
                fail_at(offset, "truncated: the message " + after_last_node() + " needs " + std::to_string(length) +
                                    " bytes but only " + std::to_string(end - p) + " remain");
            const std::string_view message(p, static_cast<std::size_t>(length));
            if (first) {
                check_metadata(message, offset);
                metadata_read_ = true;
                first = false;
            } else {
                decode_node(message, offset);
            }
            p += length;
        }
        check_dependencies(out_);
        std::uint64_t shape = 0x5eed;
        for (const TraceNode& n : out_.nodes) shape = hash_mix(shape, n.signature);
        out_.shape = hash_finish(shape);
        return std::move(out_);
    }

private:
    std::string after_last_node() const {
        if (!metadata_read_) return "at the start of the file";  // the GlobalMetadata itself
        if (out_.nodes.empty()) return "after the GlobalMetadata";
        return "after node " + std::to_string(out_.nodes.back().id);
    }

    [[noreturn]] void fail_at(std::size_t offset, const std::string& message) const {
        throw InputError({out_.file, 0, 0, "byte " + std::to_string(offset)}, message);
    }
    [[noreturn]] void fail_node(std::uint64_t id, const std::string& message) const {
        chakra::fail_node(out_.file, id, message);
    }

    // Reads the fields of one message; `on_field` gets each. Malformed wire
    // data is an error at the message's offset.
    template <class F>
    void for_each_field(std::string_view message, std::size_t offset, const char* what, F&& on_field) const {
        wire::for_each_field(message, what, on_field, [&](const std::string& problem) {
            fail_at(offset, problem + " " + after_last_node());
        });
    }

    void check_metadata(std::string_view message, std::size_t offset) {
        for_each_field(message, offset, "the GlobalMetadata", [](const Field&) {});
    }

    // Packed or one-by-one repeated uint64 (dependencies).
    void append_ids(const Field& f, std::vector<std::uint64_t>& out, std::size_t offset) const {
        if (!wire::append_varints(f, out)) fail_at(offset, "malformed dependency list " + after_last_node());
    }

    std::uint32_t intern(std::string_view text) {
        const auto found = interned_.find(text);
        if (found != interned_.end()) return found->second;
        const auto index = static_cast<std::uint32_t>(out_.strings.size());
        out_.strings.emplace_back(text);
        interned_.emplace(text, index);
        return index;
    }

    // A string_list of name, size, name, size, ...
    std::uint32_t read_tensor_list(std::string_view list_bytes, std::string_view attr_name, std::uint64_t id,
                                   std::size_t offset) {
        scratch_.clear();
        for_each_field(list_bytes, offset, "a tensor list", [&](const Field& f) {
            if (f.number == 1 && f.wire == kLengthDelimited) scratch_.push_back(f.payload);
        });
        if (scratch_.size() % 2 != 0)
            fail_node(id, "attribute " + std::string(attr_name) + ": expected name, size pairs, got " +
                              std::to_string(scratch_.size()) + " strings");
        for (std::size_t i = 0; i < scratch_.size(); i += 2) {
            const std::uint64_t bytes = tensor_bytes(scratch_[i + 1], attr_name, out_.file, id);
            out_.tensors.push_back({intern(scratch_[i]), bytes});
        }
        return static_cast<std::uint32_t>(scratch_.size() / 2);
    }

    struct PendingAttribute {
        std::string_view name;
        Field value;
        bool has_value = false;
    };

    void decode_node(std::string_view message, std::size_t offset) {
        TraceNode n;
        std::uint64_t signature = 0x0d0e;
        std::uint64_t type = 0;  // absent: the proto3 default, INVALID_NODE
        const auto dep_start = out_.deps.size();
        ctrl_.clear();
        attrs_.clear();
        using N = Node;
        // The signature hashes the node's bytes in runs, leaving out the name
        // and the peer attributes.
        const char* unhashed = message.data();
        auto leave_out = [&](const Field& f) {
            signature = hash_bytes(signature, std::string_view(unhashed, static_cast<std::size_t>(f.start - unhashed)));
            unhashed = f.end;
        };
        for_each_field(message, offset, "a Node", [&](const Field& f) {
            switch (f.number) {
                case N::kIdFieldNumber:
                    if (f.wire == kVarint) n.id = f.varint;
                    break;
                case N::kNameFieldNumber:
                    leave_out(f);
                    if (options_.names && f.wire == kLengthDelimited) {
                        n.name_begin = static_cast<std::uint32_t>(out_.text.size());
                        n.name_size = static_cast<std::uint32_t>(f.payload.size());
                        out_.text.append(f.payload);
                    }
                    break;
                case N::kTypeFieldNumber:
                    if (f.wire == kVarint) type = f.varint;
                    break;
                case N::kDataDepsFieldNumber: append_ids(f, out_.deps, offset); break;
                case N::kCtrlDepsFieldNumber: append_ids(f, ctrl_, offset); break;
                case N::kDurationMicrosFieldNumber:
                    if (f.wire == kVarint) n.duration_micros = f.varint;
                    break;
                case N::kAttrFieldNumber: {
                    if (f.wire != kLengthDelimited) break;
                    PendingAttribute a;
                    for_each_field(f.payload, offset, "an attribute", [&](const Field& af) {
                        if (af.number == AttributeProto::kNameFieldNumber && af.wire == kLengthDelimited)
                            a.name = af.payload;
                        else if (af.number >= AttributeProto::kDoubleValFieldNumber) {
                            a.value = af;
                            a.has_value = true;
                        }
                    });
                    if (a.name == "comm_src" || a.name == "comm_dst" || a.name == "pg_name") leave_out(f);
                    attrs_.push_back(a);
                    break;
                }
                default: break;
            }
        });
        signature = hash_bytes(signature, std::string_view(unhashed, static_cast<std::size_t>(message.data() + message.size() - unhashed)));
        if (type > static_cast<std::uint64_t>(NodeKind::Collective))
            fail_node(n.id, "unknown node type " + std::to_string(type) +
                                " (expected 0-7: INVALID_NODE, METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE, "
                                "COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE, COMM_COLL_NODE)");
        n.kind = static_cast<NodeKind>(type);
        n.signature = signature;
        out_.deps.insert(out_.deps.end(), ctrl_.begin(), ctrl_.end());
        n.dep_begin = static_cast<std::uint32_t>(dep_start);
        n.dep_count = static_cast<std::uint32_t>(out_.deps.size() - dep_start);
        n.tensor_begin = static_cast<std::uint32_t>(out_.tensors.size());
        bool has_inputs = false, has_outputs = false;
        for (const PendingAttribute& a : attrs_) apply_attribute(n, a, offset, has_inputs, has_outputs);
        n.has_tensor_lists = has_inputs && has_outputs;
        check_required_attributes(out_.file, n);
        out_.nodes.push_back(n);
    }

    void apply_attribute(TraceNode& n, const PendingAttribute& a, std::size_t offset, bool& has_inputs,
                         bool& has_outputs) {
        const std::string_view name = a.name;
        auto scalar = [&] { return a.has_value ? scalar_of(a.value) : Scalar{}; };
        if (name == "num_ops") {
            n.num_ops = as_count(scalar(), name, out_.file, n.id);
        } else if (name == "tensor_size") {
            n.tensor_size = as_size(as_count(scalar(), name, out_.file, n.id), name, out_.file, n.id);
        } else if (name == "comm_size") {
            n.comm_size = as_size(as_count(scalar(), name, out_.file, n.id), name, out_.file, n.id);
            n.has_comm_size = true;
        } else if (name == "comm_type") {
            const std::int64_t t = as_integer(scalar(), name, out_.file, n.id);
            if (t < 0 || t > static_cast<std::int64_t>(CommType::Barrier))
                fail_node(n.id, "attribute comm_type: unknown collective type " + std::to_string(t) +
                                    " (expected 0-9: ALL_REDUCE ... BARRIER)");
            n.comm_type = static_cast<std::int32_t>(t);
        } else if (name == "comm_src" || name == "comm_dst") {
            const std::int64_t v = as_integer(scalar(), name, out_.file, n.id);
            if (v < 0) fail_node(n.id, "attribute " + std::string(name) + ": expected an NPU rank, got " + std::to_string(v));
            (name == "comm_src" ? n.comm_src : n.comm_dst) = v;
        } else if (name == "comm_tag") {
            n.comm_tag = as_integer(scalar(), name, out_.file, n.id);
        } else if (name == "pg_name") {
            if (a.has_value && a.value.number == AttributeProto::kStringValFieldNumber &&
                a.value.wire == kLengthDelimited) {
                n.pg_name = static_cast<std::int32_t>(intern(a.value.payload));
            } else {
                const std::int64_t v = as_integer(scalar(), name, out_.file, n.id);
                n.pg_name = static_cast<std::int32_t>(intern_owned(std::to_string(v)));
            }
        } else if (name == "is_cpu_op") {
            const Scalar s = scalar();
            if (!s.present) fail_node(n.id, "attribute is_cpu_op: expected a boolean or an integer");
            n.is_cpu_op = s.is_real ? s.real != 0 : s.magnitude != 0;
        } else if (name == "inputs" || name == "outputs") {
            const bool is_list = a.has_value && a.value.number == AttributeProto::kStringListFieldNumber &&
                                 a.value.wire == kLengthDelimited;
            (name == "inputs" ? has_inputs : has_outputs) = true;
            if (options_.tensors && is_list) {
                const std::uint32_t count = read_tensor_list(a.value.payload, name, n.id, offset);
                (name == "inputs" ? n.inputs : n.outputs) += count;
                if (name == "inputs" && n.outputs > 0) {
                    // inputs after outputs in the file: keep inputs first in the range
                    std::rotate(out_.tensors.begin() + n.tensor_begin,
                                out_.tensors.begin() + n.tensor_begin + n.outputs, out_.tensors.end());
                }
            }
        } else if (name == "involved_dim") {
            if (a.has_value && a.value.number == AttributeProto::kBoolListFieldNumber &&
                a.value.wire == kLengthDelimited) {
                for_each_field(a.value.payload, offset, "involved_dim", [&](const Field& f) {
                    if (f.wire == kVarint && f.varint == 0) n.partial_involved_dim = true;
                    if (f.wire == kLengthDelimited)
                        for (char c : f.payload)
                            if (c == 0) n.partial_involved_dim = true;
                });
            }
        } else if (name == "dtcalc_duration_ns") {
            const Scalar s = scalar();
            const double v = !s.present ? -1.0 : s.is_real ? s.real : static_cast<double>(s.magnitude);
            if (!s.present || s.negative || !std::isfinite(v) || v < 0)
                fail_node(n.id, "attribute dtcalc_duration_ns: expected a non-negative number");
            n.exact_duration_ns = v;
        }
    }

    std::uint32_t intern_owned(const std::string& text) {
        for (std::uint32_t i = 0; i < out_.strings.size(); ++i)
            if (out_.strings[i] == text) return i;
        out_.strings.push_back(text);
        return static_cast<std::uint32_t>(out_.strings.size() - 1);
    }

    std::string_view bytes_;
    DecodeOptions options_;
    RankTrace out_;
    std::unordered_map<std::string_view, std::uint32_t> interned_;
    std::vector<std::uint64_t> ctrl_;
    std::vector<PendingAttribute> attrs_;
    std::vector<std::string_view> scratch_;
    bool metadata_read_ = false;
};

}  // namespace

std::string_view node_kind_name(NodeKind kind) {
    switch (kind) {
        case NodeKind::Invalid: return "INVALID_NODE";
        case NodeKind::Metadata: return "METADATA_NODE";
        case NodeKind::MemLoad: return "MEM_LOAD_NODE";
        case NodeKind::MemStore: return "MEM_STORE_NODE";
        case NodeKind::Comp: return "COMP_NODE";
        case NodeKind::Send: return "COMM_SEND_NODE";
        case NodeKind::Recv: return "COMM_RECV_NODE";
        case NodeKind::Collective: return "COMM_COLL_NODE";
    }
    return "?";
}

std::string_view comm_type_name(CommType type) {
    switch (type) {
        case CommType::AllReduce: return "ALL_REDUCE";
        case CommType::Reduce: return "REDUCE";
        case CommType::AllGather: return "ALL_GATHER";
        case CommType::Gather: return "GATHER";
        case CommType::Scatter: return "SCATTER";
        case CommType::Broadcast: return "BROADCAST";
        case CommType::AllToAll: return "ALL_TO_ALL";
        case CommType::ReduceScatter: return "REDUCE_SCATTER";
        case CommType::ReduceScatterBlock: return "REDUCE_SCATTER_BLOCK";
        case CommType::Barrier: return "BARRIER";
    }
    return "?";
}

std::string RankTrace::where(const TraceNode& node) const { return file + ": node " + std::to_string(node.id); }

RankTrace decode_rank_trace(std::string_view bytes, const std::string& file, int rank, const DecodeOptions& options) {
    return Decoder(bytes, file, rank, options).run();
}

RankTrace read_rank_trace(const std::string& file, int rank, const DecodeOptions& options, std::string& buffer) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError({file, 0, 0, ""}, "cannot read the file");
    // A directory opens too, and reports a size near 2^63.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) throw InputError({file, 0, 0, ""}, "cannot read the file: it is not a regular file");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw InputError({file, 0, 0, ""}, "cannot read the file");
    buffer.resize(static_cast<std::size_t>(size));
    in.seekg(0, std::ios::beg);
    in.read(buffer.data(), size);
    if (!in) throw InputError({file, 0, 0, ""}, "cannot read the file");
    return decode_rank_trace(buffer, file, rank, options);
}

RankTrace read_rank_trace(const std::string& file, int rank, const DecodeOptions& options) {
    std::string buffer;
    return read_rank_trace(file, rank, options, buffer);
}

}  // namespace dtcalc::chakra
