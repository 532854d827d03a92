#include "sweep/param_value.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "core/error.h"
#include "core/number_text.h"

namespace dtcalc {
namespace {

constexpr std::size_t kMaxRangeValues = 1'000'000;

[[noreturn]] void bad_value(const ParamInfo&, const InputLocation& where, std::string_view got, const std::string& expected) {
    throw InputError(where, "expected " + expected + ", got '" + std::string(got) + "'");
}

// "a..b", "a..b+k", "a..b*k"; nullopt when `text` is not a range at all.
std::optional<std::vector<ParamValue>> expand_range(const ParamInfo& p, std::string_view text, const InputLocation& where) {
    const std::size_t dots = text.find("..");
    if (dots == std::string_view::npos) return std::nullopt;
    if (p.type != ParamType::Integer && p.type != ParamType::Number)
        throw InputError(where, "ranges are for numbers; list the values instead, got '" + std::string(text) + "'");
    std::string_view lo_text = text.substr(0, dots);
    std::string_view rest = text.substr(dots + 2);
    char op = '*';
    double step = 2;
    if (const std::size_t at = rest.find_first_of("+*"); at != std::string_view::npos) {
        op = rest[at];
        const auto s = parse_finite_number(rest.substr(at + 1));
        if (!s || (op == '+' && *s <= 0) || (op == '*' && *s <= 1))
            throw InputError(where, "expected a range like 1..64, 8..64+8 or 0.5..4*2 (a step > 0, a factor > 1), got '" +
                                        std::string(text) + "'");
        step = *s;
        rest = rest.substr(0, at);
    }
    const auto lo = parse_finite_number(lo_text);
    const auto hi = parse_finite_number(rest);
    if (!lo || !hi)
        throw InputError(where, "expected a range like 1..64, 8..64+8 or 0.5..4*2, got '" + std::string(text) + "'");
    if (!option_accepts_number(p, *lo)) bad_value(p, where, lo_text, option_expectation(p) + " to start the range");
    if (*hi < *lo) throw InputError(where, "the range '" + std::string(text) + "' is empty");
    std::vector<ParamValue> values;
    // Multiplying by an integer count keeps arithmetic ranges exact (no drift).
    for (std::size_t i = 0;; ++i) {
        const double v = op == '+' ? *lo + static_cast<double>(i) * step : *lo * std::pow(step, static_cast<double>(i));
        if (v > *hi * (1 + 1e-12)) break;
        if (values.size() == kMaxRangeValues)
            throw InputError(where, "the range '" + std::string(text) + "' has more than a million values");
        if (!option_accepts_number(p, v)) bad_value(p, where, fmt::format("{}", v), option_expectation(p) + " at every step of the range");
        values.push_back({v, {}});
    }
    return values;
}

}  // namespace

std::vector<ParamValue> expand_value_text(const ParamInfo& p, std::string_view text, const InputLocation& where) {
    text = trim_blanks(text);
    if (auto range = expand_range(p, text, where)) return std::move(*range);
    std::vector<ParamValue> values;
    std::string expected;
    auto add = [&](std::string_view item) {
        const auto v = parse_param_value(p, item, expected);
        if (!v) bad_value(p, where, trim_blanks(item), expected);
        values.push_back(*v);
    };
    if (p.commas_in_value) {
        add(text);
        return values;
    }
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        add(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return values;
}

std::vector<ParamValue> expand_value_config(const ParamInfo& p, const ConfigValue& value) {
    auto scalar = [&](const ConfigValue& v) {
        if (v.type == ConfigValue::Type::List || v.type == ConfigValue::Type::Table)
            throw InputError(v.where, "expected " + option_expectation(p) + ", a list of them or a range, got " +
                                          std::string(config_type_name(v.type)));
        return option_value_from_config(p, v);
    };
    std::vector<ParamValue> values;
    if (value.type == ConfigValue::Type::List) {
        if (value.items.empty()) throw InputError(value.where, "the list of values is empty");
        for (const ConfigValue& item : value.items) values.push_back(scalar(item));
        return values;
    }
    if (value.type == ConfigValue::Type::String)
        if (auto range = expand_range(p, value.text, value.where)) return std::move(*range);
    values.push_back(scalar(value));
    return values;
}

}  // namespace dtcalc
