#include "chakra/trace_writer.h"

#include <fstream>

#include "core/error.h"

namespace dtcalc::chakra {
namespace {

void append_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void append_message(std::string& out, const google::protobuf::MessageLite& message) {
    const std::size_t size = message.ByteSizeLong();
    append_varint(out, size);
    const std::size_t at = out.size();
    out.resize(at + size);
    message.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(out.data() + at));
}

AttributeProto& new_attr(Node& node, std::string_view name) {
    AttributeProto* a = node.add_attr();
    a->set_name(std::string(name));
    return *a;
}

}  // namespace

std::string encode_et(const GlobalMetadata& metadata, std::span<const Node> nodes) {
    std::string out;
    append_message(out, metadata);
    for (const Node& n : nodes) append_message(out, n);
    return out;
}

void write_et_file(const std::string& path, const GlobalMetadata& metadata, std::span<const Node> nodes) {
    const std::string bytes = encode_et(metadata, nodes);
    std::ofstream out(path, std::ios::binary);
    if (!out) throw InputError({path, 0, 0, ""}, "cannot write the file");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();  // a full disk shows when the buffer is written, not before
    if (!out) throw InputError({path, 0, 0, ""}, "cannot write the file");
}

GlobalMetadata chakra_metadata(std::string_view schema) {
    GlobalMetadata m;
    m.set_version("0.0.4");
    AttributeProto* a = m.add_attr();
    a->set_name("schema");
    a->set_string_val(std::string(schema));
    return m;
}

void add_int64_attr(Node& node, std::string_view name, std::int64_t value) { new_attr(node, name).set_int64_val(value); }
void add_uint64_attr(Node& node, std::string_view name, std::uint64_t value) { new_attr(node, name).set_uint64_val(value); }
void add_int32_attr(Node& node, std::string_view name, std::int32_t value) { new_attr(node, name).set_int32_val(value); }
void add_double_attr(Node& node, std::string_view name, double value) { new_attr(node, name).set_double_val(value); }
void add_string_attr(Node& node, std::string_view name, std::string_view value) {
    new_attr(node, name).set_string_val(std::string(value));
}
void add_string_list_attr(Node& node, std::string_view name, std::span<const std::string> values) {
    StringList* list = new_attr(node, name).mutable_string_list();
    for (const std::string& v : values) list->add_values(v);
}

}  // namespace dtcalc::chakra
