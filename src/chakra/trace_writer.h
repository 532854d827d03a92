#pragma once
// Writing Chakra `.et` files: one GlobalMetadata, then the nodes, each
// message preceded by its byte length as a varint (schema 0.0.4, et_def.proto),
// and small helpers to fill a Node's attributes the way STAGE does.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chakra/et_def.pb.h"

namespace dtcalc::chakra {

/// The bytes of a whole file.
std::string encode_et(const GlobalMetadata& metadata, std::span<const Node> nodes);

/// Writes encode_et(...) to `path`; throws InputError (naming the path) when it cannot.
void write_et_file(const std::string& path, const GlobalMetadata& metadata, std::span<const Node> nodes);

/// GlobalMetadata with version "0.0.4" and a `schema` attribute naming the writer.
GlobalMetadata chakra_metadata(std::string_view schema);

void add_int64_attr(Node& node, std::string_view name, std::int64_t value);
void add_uint64_attr(Node& node, std::string_view name, std::uint64_t value);
void add_int32_attr(Node& node, std::string_view name, std::int32_t value);
void add_double_attr(Node& node, std::string_view name, double value);
void add_string_attr(Node& node, std::string_view name, std::string_view value);
void add_string_list_attr(Node& node, std::string_view name, std::span<const std::string> values);

}  // namespace dtcalc::chakra
