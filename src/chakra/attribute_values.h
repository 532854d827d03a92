#pragma once
// The values of a Chakra node's attributes (et_def.proto's AttributeProto),
// read into what the decoder keeps: a number of whatever scalar type the
// writer chose, checked as a count, a byte size, or a signed integer, and a
// tensor size string read the way ASTRA-sim reads it.
//
// A value that does not fit is an InputError at the file and node
// ("node <id>"), naming the attribute.
#include <cstdint>
#include <string>
#include <string_view>

#include "chakra/protobuf_wire.h"

namespace dtcalc::chakra {

/// A number attribute, whatever scalar type the writer chose.
struct Scalar {
    bool present = false;  ///< false when the value field is not a number
    bool is_real = false;  ///< double_val / float_val: `real`; otherwise `negative` and `magnitude`
    bool negative = false;
    std::uint64_t magnitude = 0;
    double real = 0;
};

/// The number in an attribute's value field `f` (any of AttributeProto's
/// scalar fields, with the wire type of its declared type); not present for
/// any other field or a mismatched wire type.
Scalar scalar_of(const wire::Field& f);

/// A non-negative integer (a real must be whole and below 1.8e19).
std::uint64_t as_count(const Scalar& s, std::string_view name, const std::string& file, std::uint64_t id);

/// A byte count: at most kMaxMessageBytes, so that sizes times NPU counts can
/// be checked without overflow.
std::uint64_t as_size(std::uint64_t bytes, std::string_view name, const std::string& file, std::uint64_t id);

/// A signed 64-bit integer (a real must be whole and within +-9e18).
std::int64_t as_integer(const Scalar& s, std::string_view name, const std::string& file, std::uint64_t id);

/// The byte count of a tensor size string of attribute `list`, as ASTRA-sim's
/// std::stoull reads it: leading blanks, digits, and it stops at the first
/// other character ("536870912.0" is 536870912). Then checked by as_size.
std::uint64_t tensor_bytes(std::string_view text, std::string_view list, const std::string& file, std::uint64_t id);

}  // namespace dtcalc::chakra
