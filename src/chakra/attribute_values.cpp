#include "chakra/attribute_values.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "chakra/et_def.pb.h"
#include "chakra/node_error.h"
#include "core/units.h"

namespace dtcalc::chakra {

Scalar scalar_of(const wire::Field& f) {
    using wire::kFixed32;
    using wire::kFixed64;
    using wire::kVarint;
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
            set_signed(static_cast<std::int64_t>(wire::zigzag(f.varint)));
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

std::uint64_t as_count(const Scalar& s, std::string_view name, const std::string& file, std::uint64_t id) {
    if (!s.present) fail_node(file, id, "attribute " + std::string(name) + ": expected a number");
    if (s.is_real) {
        if (!std::isfinite(s.real) || s.real < 0 || s.real != std::floor(s.real) || s.real >= 1.8e19)
            fail_node(file, id, "attribute " + std::string(name) + ": expected a non-negative integer");
        return static_cast<std::uint64_t>(s.real);
    }
    if (s.negative) fail_node(file, id, "attribute " + std::string(name) + ": expected a non-negative integer, got -" +
                                            std::to_string(s.magnitude));
    return s.magnitude;
}

std::uint64_t as_size(std::uint64_t bytes, std::string_view name, const std::string& file, std::uint64_t id) {
    if (bytes > kMaxMessageBytes)
        fail_node(file, id, "attribute " + std::string(name) + ": " + byte_size_out_of_range(bytes));
    return bytes;
}

std::int64_t as_integer(const Scalar& s, std::string_view name, const std::string& file, std::uint64_t id) {
    if (!s.present) fail_node(file, id, "attribute " + std::string(name) + ": expected an integer");
    if (s.is_real) {
        if (!std::isfinite(s.real) || s.real != std::floor(s.real) || std::fabs(s.real) > 9e18)
            fail_node(file, id, "attribute " + std::string(name) + ": expected an integer");
        return static_cast<std::int64_t>(s.real);
    }
    if (s.magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        fail_node(file, id, "attribute " + std::string(name) + ": integer out of range");
    const auto v = static_cast<std::int64_t>(s.magnitude);
    return s.negative ? -v : v;
}

std::uint64_t tensor_bytes(std::string_view text, std::string_view list, const std::string& file, std::uint64_t id) {
    std::size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i < text.size() && text[i] == '+') ++i;
    std::uint64_t value = 0;
    std::size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
        const std::uint64_t d = static_cast<std::uint64_t>(text[i] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
            fail_node(file, id, "attribute " + std::string(list) + ": tensor size '" + std::string(text) + "' is too large");
        value = value * 10 + d;
    }
    if (digits == 0)
        fail_node(file, id, "attribute " + std::string(list) + ": tensor size '" + std::string(text) +
                                "' is not a non-negative number");
    return as_size(value, list, file, id);
}

}  // namespace dtcalc::chakra
