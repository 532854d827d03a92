#include "chakra/trace_decoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

#include "chakra/et_def.pb.h"
#include "chakra/hash.h"
#include "core/error.h"
#include "core/units.h"

namespace dtcalc::chakra {
namespace {

// Wire types of the protobuf encoding.
constexpr std::uint32_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

struct Field {
    std::uint32_t number = 0;
    std::uint32_t wire = 0;
    std::uint64_t varint = 0;     // varint fields
    std::string_view payload;     // length-delimited and fixed fields
    const char* start = nullptr;  // the whole field, tag included
    const char* end = nullptr;
};

// A number attribute, whatever scalar type the writer chose.
struct Scalar {
    bool present = false;
    bool is_real = false;
    bool negative = false;
    std::uint64_t magnitude = 0;
    double real = 0;
};

std::uint64_t zigzag(std::uint64_t v) { return (v >> 1) ^ (~(v & 1) + 1); }

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
        resolve_dependencies();
        std::uint64_t shape = 0x5eed;
        for (const TraceNode& n : out_.nodes) shape = hash_mix(shape, n.signature);
        out_.shape = hash_finish(shape);
        return std::move(out_);
    }

private:
    static bool read_varint(const char*& p, const char* end, std::uint64_t& value) {
        value = 0;
        for (int i = 0; i < 10; ++i) {
            if (p == end) return false;
            const auto byte = static_cast<std::uint8_t>(*p++);
            value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
            if ((byte & 0x80) == 0) return i < 9 || byte <= 1;
        }
        return false;
    }

    std::string after_last_node() const {
        if (!metadata_read_) return "at the start of the file";  // the GlobalMetadata itself
        if (out_.nodes.empty()) return "after the GlobalMetadata";
        return "after node " + std::to_string(out_.nodes.back().id);
    }

    [[noreturn]] void fail_at(std::size_t offset, const std::string& message) const {
        throw InputError({out_.file, 0, 0, "byte " + std::to_string(offset)}, message);
    }
    [[noreturn]] void fail_node(std::uint64_t id, const std::string& message) const {
        throw InputError({out_.file, 0, 0, "node " + std::to_string(id)}, message);
    }

    // Reads the fields of one message; `on_field` gets each. Malformed wire
    // data is an error at the message's offset.
    template <class F>
    void for_each_field(std::string_view message, std::size_t offset, const char* what, F&& on_field) const {
        const char* p = message.data();
        const char* end = p + message.size();
        while (p < end) {
            Field f;
            f.start = p;
            std::uint64_t tag = 0;
            if (!read_varint(p, end, tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
                fail_at(offset, std::string("malformed field tag in ") + what + " " + after_last_node());
            f.number = static_cast<std::uint32_t>(tag >> 3);
            f.wire = static_cast<std::uint32_t>(tag & 7);
            switch (f.wire) {
                case kVarint:
                    if (!read_varint(p, end, f.varint))
                        fail_at(offset, std::string("malformed varint in field ") + std::to_string(f.number) + " of " +
                                            what + " " + after_last_node());
                    break;
                case kFixed64:
                case kFixed32: {
                    const std::size_t size = f.wire == kFixed64 ? 8 : 4;
                    if (static_cast<std::size_t>(end - p) < size)
                        fail_at(offset, std::string("truncated field ") + std::to_string(f.number) + " in " + what +
                                            " " + after_last_node());
                    f.payload = std::string_view(p, size);
                    p += size;
                    break;
                }
                case kLengthDelimited: {
                    std::uint64_t length = 0;
                    if (!read_varint(p, end, length) || length > static_cast<std::uint64_t>(end - p))
                        fail_at(offset, std::string("malformed or truncated field ") + std::to_string(f.number) +
                                            " in " + what + " " + after_last_node());
                    f.payload = std::string_view(p, static_cast<std::size_t>(length));
                    p += length;
                    break;
                }
                default:
                    fail_at(offset, std::string("unsupported wire type ") + std::to_string(f.wire) + " in " + what +
                                        " " + after_last_node());
            }
            f.end = p;
            on_field(f);
        }
    }

    void check_metadata(std::string_view message, std::size_t offset) {
        for_each_field(message, offset, "the GlobalMetadata", [](const Field&) {});
    }

    // Packed or one-by-one repeated uint64 (dependencies).
    void append_ids(const Field& f, std::vector<std::uint64_t>& out, std::size_t offset) const {
        if (f.wire == kVarint) {
            out.push_back(f.varint);
            return;
        }
        if (f.wire != kLengthDelimited) fail_at(offset, "malformed dependency list " + after_last_node());
        const char* p = f.payload.data();
        const char* end = p + f.payload.size();
        while (p < end) {
            std::uint64_t v = 0;
            if (!read_varint(p, end, v)) fail_at(offset, "malformed dependency list " + after_last_node());
            out.push_back(v);
        }
    }

    Scalar scalar_of(const Field& f) const {
        Scalar s;
        s.present = true;
        using A = AttributeProto;
        auto fixed = [&](std::size_t size) {
            std::uint64_t v = 0;
            for (std::size_t i = 0; i < size; ++i)
                v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(f.payload[i])) << (8 * i);
            return v;
        };
        auto set_signed = [&](std::int64_t v) {
            s.negative = v < 0;
            s.magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        };
        switch (f.number) {
            case A::kDoubleValFieldNumber: {
                if (f.wire != kFixed64) break;
                const std::uint64_t bits = fixed(8);
                std::memcpy(&s.real, &bits, 8);
                s.is_real = true;
                return s;
            }
            case A::kFloatValFieldNumber: {
                if (f.wire != kFixed32) break;
                const auto bits = static_cast<std::uint32_t>(fixed(4));
                float v;
                std::memcpy(&v, &bits, 4);
                s.real = v;
                s.is_real = true;
                return s;
            }
            case A::kInt32ValFieldNumber:
                if (f.wire != kVarint) break;
                set_signed(static_cast<std::int32_t>(static_cast<std::uint32_t>(f.varint)));
                return s;
            case A::kInt64ValFieldNumber:
                if (f.wire != kVarint) break;
                set_signed(static_cast<std::int64_t>(f.varint));
                return s;
            case A::kUint32ValFieldNumber:
            case A::kUint64ValFieldNumber:
            case A::kBoolValFieldNumber:
                if (f.wire != kVarint) break;
                s.magnitude = f.number == A::kUint32ValFieldNumber ? static_cast<std::uint32_t>(f.varint) : f.varint;
                return s;
            case A::kSint32ValFieldNumber:
            case A::kSint64ValFieldNumber:
                if (f.wire != kVarint) break;
                set_signed(static_cast<std::int64_t>(zigzag(f.varint)));
                return s;
            case A::kFixed32ValFieldNumber:
                if (f.wire != kFixed32) break;
                s.magnitude = fixed(4);
                return s;
            case A::kFixed64ValFieldNumber:
                if (f.wire != kFixed64) break;
                s.magnitude = fixed(8);
                return s;
            case A::kSfixed32ValFieldNumber:
                if (f.wire != kFixed32) break;
                set_signed(static_cast<std::int32_t>(static_cast<std::uint32_t>(fixed(4))));
                return s;
            case A::kSfixed64ValFieldNumber:
                if (f.wire != kFixed64) break;
                set_signed(static_cast<std::int64_t>(fixed(8)));
                return s;
            default: break;
        }
        s.present = false;
        return s;
    }

    std::uint64_t as_count(const Scalar& s, std::string_view name, std::uint64_t id) const {
        if (!s.present) fail_node(id, "attribute " + std::string(name) + ": expected a number");
        if (s.is_real) {
            if (!std::isfinite(s.real) || s.real < 0 || s.real != std::floor(s.real) || s.real >= 1.8e19)
                fail_node(id, "attribute " + std::string(name) + ": expected a non-negative integer");
            return static_cast<std::uint64_t>(s.real);
        }
        if (s.negative) fail_node(id, "attribute " + std::string(name) + ": expected a non-negative integer, got -" +
                                          std::to_string(s.magnitude));
        return s.magnitude;
    }

    // A byte count: at most kMaxMessageBytes, so that sizes times NPU counts can be checked without overflow.
    std::uint64_t as_size(std::uint64_t bytes, std::string_view name, std::uint64_t id) const {
        if (bytes > kMaxMessageBytes) fail_node(id, "attribute " + std::string(name) + ": " + byte_size_out_of_range(bytes));
        return bytes;
    }

    std::int64_t as_integer(const Scalar& s, std::string_view name, std::uint64_t id) const {
        if (!s.present) fail_node(id, "attribute " + std::string(name) + ": expected an integer");
        if (s.is_real) {
            if (!std::isfinite(s.real) || s.real != std::floor(s.real) || std::fabs(s.real) > 9e18)
                fail_node(id, "attribute " + std::string(name) + ": expected an integer");
            return static_cast<std::int64_t>(s.real);
        }
        if (s.magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail_node(id, "attribute " + std::string(name) + ": integer out of range");
        const auto v = static_cast<std::int64_t>(s.magnitude);
        return s.negative ? -v : v;
    }

    std::uint32_t intern(std::string_view text) {
        const auto found = interned_.find(text);
        if (found != interned_.end()) return found->second;
        const auto index = static_cast<std::uint32_t>(out_.strings.size());
        out_.strings.emplace_back(text);
        interned_.emplace(text, index);
        return index;
    }

    // ASTRA-sim reads a size with std::stoull: leading blanks, digits, and it
    // stops at the first other character ("536870912.0" is 536870912).
    std::uint64_t tensor_bytes(std::string_view text, std::string_view list, std::uint64_t id) const {
        std::size_t i = 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (i < text.size() && text[i] == '+') ++i;
        std::uint64_t value = 0;
        std::size_t digits = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
            const std::uint64_t d = static_cast<std::uint64_t>(text[i] - '0');
            if (value > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
                fail_node(id, "attribute " + std::string(list) + ": tensor size '" + std::string(text) + "' is too large");
            value = value * 10 + d;
        }
        if (digits == 0)
            fail_node(id, "attribute " + std::string(list) + ": tensor size '" + std::string(text) +
                              "' is not a non-negative number");
        return as_size(value, list, id);
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
            const std::uint64_t bytes = tensor_bytes(scratch_[i + 1], attr_name, id);
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
        check_required(n);
        out_.nodes.push_back(n);
    }

    void apply_attribute(TraceNode& n, const PendingAttribute& a, std::size_t offset, bool& has_inputs,
                         bool& has_outputs) {
        const std::string_view name = a.name;
        auto scalar = [&] { return a.has_value ? scalar_of(a.value) : Scalar{}; };
        if (name == "num_ops") {
            n.num_ops = as_count(scalar(), name, n.id);
        } else if (name == "tensor_size") {
            n.tensor_size = as_size(as_count(scalar(), name, n.id), name, n.id);
        } else if (name == "comm_size") {
            n.comm_size = as_size(as_count(scalar(), name, n.id), name, n.id);
            n.has_comm_size = true;
        } else if (name == "comm_type") {
            const std::int64_t t = as_integer(scalar(), name, n.id);
            if (t < 0 || t > static_cast<std::int64_t>(CommType::Barrier))
                fail_node(n.id, "attribute comm_type: unknown collective type " + std::to_string(t) +
                                    " (expected 0-9: ALL_REDUCE ... BARRIER)");
            n.comm_type = static_cast<std::int32_t>(t);
        } else if (name == "comm_src" || name == "comm_dst") {
            const std::int64_t v = as_integer(scalar(), name, n.id);
            if (v < 0) fail_node(n.id, "attribute " + std::string(name) + ": expected an NPU rank, got " + std::to_string(v));
            (name == "comm_src" ? n.comm_src : n.comm_dst) = v;
        } else if (name == "comm_tag") {
            n.comm_tag = as_integer(scalar(), name, n.id);
        } else if (name == "pg_name") {
            if (a.has_value && a.value.number == AttributeProto::kStringValFieldNumber &&
                a.value.wire == kLengthDelimited) {
                n.pg_name = static_cast<std::int32_t>(intern(a.value.payload));
            } else {
                const std::int64_t v = as_integer(scalar(), name, n.id);
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

    void check_required(const TraceNode& n) const {
        const bool comm = n.kind == NodeKind::Send || n.kind == NodeKind::Recv || n.kind == NodeKind::Collective;
        if (comm && n.is_cpu_op) fail_node(n.id, "a communication node cannot be a CPU op (is_cpu_op is set)");
        if (comm && !n.has_comm_size && n.comm_type != static_cast<std::int32_t>(CommType::Broadcast))
            fail_node(n.id, std::string(node_kind_name(n.kind)) + " needs attribute comm_size");
        if (n.kind == NodeKind::Collective && n.comm_type < 0)
            fail_node(n.id, "COMM_COLL_NODE needs attribute comm_type");
        if (n.kind == NodeKind::Send && n.comm_dst < 0) fail_node(n.id, "COMM_SEND_NODE needs attribute comm_dst");
        if (n.kind == NodeKind::Recv && n.comm_src < 0) fail_node(n.id, "COMM_RECV_NODE needs attribute comm_src");
    }

    void resolve_dependencies() {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> ids;
        ids.reserve(out_.nodes.size());
        for (std::uint32_t i = 0; i < out_.nodes.size(); ++i) ids.emplace_back(out_.nodes[i].id, i);
        std::sort(ids.begin(), ids.end());
        for (std::size_t i = 1; i < ids.size(); ++i)
            if (ids[i].first == ids[i - 1].first)
                fail_node(ids[i].first, "the id appears twice in the file (node ids must be unique)");
        for (const TraceNode& n : out_.nodes) {
            for (std::uint32_t k = n.dep_begin; k < n.dep_begin + n.dep_count; ++k) {
                const std::uint64_t parent = out_.deps[k];
                if (parent == n.id) fail_node(n.id, "depends on itself");
                const auto it = std::lower_bound(ids.begin(), ids.end(), std::make_pair(parent, std::uint32_t{0}));
                if (it == ids.end() || it->first != parent)
                    fail_node(n.id, "depends on node " + std::to_string(parent) + ", which is not in the file");
            }
        }
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
