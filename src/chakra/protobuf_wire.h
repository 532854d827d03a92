#pragma once
// Reading the protobuf wire format by hand (what the Chakra decoder needs of
// it): varints, zigzag, fixed-width fields, packed repeated varints, and a
// walk over the fields of one message. No allocation; a field's payload is a
// view into the message.
//
// The readers report malformed data by their result (false) or through the
// caller's `fail` callback, so that the caller can say where in the file it is.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc::chakra::wire {

/// Wire types of the protobuf encoding.
constexpr std::uint32_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

/// One field of a message.
struct Field {
    std::uint32_t number = 0;
    std::uint32_t wire = 0;
    std::uint64_t varint = 0;     ///< varint fields
    std::string_view payload;     ///< length-delimited and fixed fields
    const char* start = nullptr;  ///< the whole field, tag included
    const char* end = nullptr;
};

/// Reads a varint at `p` (advanced past it). False when the data ends inside
/// it or it is longer than 10 bytes or does not fit 64 bits.
inline bool read_varint(const char*& p, const char* end, std::uint64_t& value) {
    value = 0;
    for (int i = 0; i < 10; ++i) {
        if (p == end) return false;
        const auto byte = static_cast<std::uint8_t>(*p++);
        value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
        if ((byte & 0x80) == 0) return i < 9 || byte <= 1;
    }
    return false;
}

/// Decodes a zigzag-encoded (sint32 / sint64) varint.
inline std::uint64_t zigzag(std::uint64_t v) { return (v >> 1) ^ (~(v & 1) + 1); }

/// Appends the values of a repeated uint64 field, written one by one (a
/// varint field) or packed (a length-delimited run of varints). False for any
/// other wire type or a malformed packed run.
inline bool append_varints(const Field& f, std::vector<std::uint64_t>& out) {
    if (f.wire == kVarint) {
        out.push_back(f.varint);
        return true;
    }
    if (f.wire != kLengthDelimited) return false;
    const char* p = f.payload.data();
    const char* end = p + f.payload.size();
    while (p < end) {
        std::uint64_t v = 0;
        if (!read_varint(p, end, v)) return false;
        out.push_back(v);
    }
    return true;
}

/// Calls `on_field(const Field&)` for each field of `message`, in order.
/// Malformed wire data calls `fail(problem)`, which must throw; `problem`
/// says what is wrong in `what` (e.g. "malformed varint in field 3 of a Node").
template <class OnField, class Fail>
void for_each_field(std::string_view message, const char* what, OnField&& on_field, Fail&& fail) {
    const char* p = message.data();
    const char* end = p + message.size();
    while (p < end) {
        Field f;
        f.start = p;
        std::uint64_t tag = 0;
        if (!read_varint(p, end, tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
            fail(std::string("malformed field tag in ") + what);
        f.number = static_cast<std::uint32_t>(tag >> 3);
        f.wire = static_cast<std::uint32_t>(tag & 7);
        switch (f.wire) {
            case kVarint:
                if (!read_varint(p, end, f.varint))
                    fail(std::string("malformed varint in field ") + std::to_string(f.number) + " of " + what);
                break;
            case kFixed64:
            case kFixed32: {
                const std::size_t size = f.wire == kFixed64 ? 8 : 4;
                if (static_cast<std::size_t>(end - p) < size)
                    fail(std::string("truncated field ") + std::to_string(f.number) + " in " + what);
                f.payload = std::string_view(p, size);
                p += size;
                break;
            }
            case kLengthDelimited: {
                std::uint64_t length = 0;
                if (!read_varint(p, end, length) || length > static_cast<std::uint64_t>(end - p))
                    fail(std::string("malformed or truncated field ") + std::to_string(f.number) + " in " + what);
                f.payload = std::string_view(p, static_cast<std::size_t>(length));
                p += length;
                break;
            }
            default:
                fail(std::string("unsupported wire type ") + std::to_string(f.wire) + " in " + what);
        }
        f.end = p;
        on_field(f);
    }
}

}  // namespace dtcalc::chakra::wire
