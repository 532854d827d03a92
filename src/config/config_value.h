#pragma once
// A format-neutral tree of configuration values, each carrying where it came
// from. The TOML, JSON and YAML readers produce it; the interpreters of
// networks, systems and presets consume it through ConfigTableReader, so every
// format gets the same checks and the same error messages.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace dtcalc {

struct ConfigValue {
    enum class Type { String, Integer, Float, Bool, List, Table };

    Type type = Type::Table;
    std::string text;        ///< String
    double number = 0;       ///< Integer and Float
    bool boolean = false;    ///< Bool
    std::vector<ConfigValue> items;                           ///< List
    std::vector<std::pair<std::string, ConfigValue>> fields;  ///< Table, in file order
    InputLocation where;     ///< file, line, column and the dotted key path

    // Defined out of line: the type holds itself (through std::pair in
    // `fields`), which clang with libstdc++ only accepts once it is complete.
    ConfigValue();
    ConfigValue(const ConfigValue&);
    ConfigValue(ConfigValue&&) noexcept;
    ConfigValue& operator=(const ConfigValue&);
    ConfigValue& operator=(ConfigValue&&) noexcept;
    ~ConfigValue();

    const ConfigValue* find(std::string_view key) const;
};

std::string_view config_type_name(ConfigValue::Type type);

/// Reads a table's fields with type checks and remembers which it read, so
/// that `finish()` can reject a key nobody asked for (a typo is an error,
/// never a silent default).
class ConfigTableReader {
public:
    explicit ConfigTableReader(const ConfigValue& table);

    bool has(std::string_view key) const;
    const ConfigValue& required(std::string_view key);
    const ConfigValue* optional(std::string_view key);

    std::string string(std::string_view key);
    std::optional<std::string> optional_string(std::string_view key);
    double positive_number(std::string_view key);
    double non_negative_number(std::string_view key);
    std::optional<double> optional_non_negative_number(std::string_view key);
    int positive_integer(std::string_view key);
    bool boolean_flag(std::string_view key);  ///< true/false or 0/1
    std::optional<bool> optional_boolean_flag(std::string_view key);
    const std::vector<ConfigValue>& list(std::string_view key);
    std::vector<std::string> string_list(std::string_view key);

    /// Marks keys as known and deliberately without effect.
    void ignore(std::initializer_list<std::string_view> keys);

    /// Throws for the first key that was never read or ignored.
    void finish() const;

    const ConfigValue& table() const { return table_; }

private:
    const ConfigValue& table_;
    std::vector<std::string> used_;
};

/// Checks of single values, with errors naming the value's location.
double as_positive_number(const ConfigValue& value);
double as_non_negative_number(const ConfigValue& value);
int as_positive_integer(const ConfigValue& value);
const std::string& as_string(const ConfigValue& value);
[[noreturn]] void fail_at(const ConfigValue& value, const std::string& message);

}  // namespace dtcalc
