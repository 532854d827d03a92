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

/// A key problem ConfigTableReader found: a key nobody reads (Unknown) or a
/// required key missing where another key looks like its misspelling
/// (Misspelt). `table` is the table it was found in, while the tree read is
/// alive (read_reporting_all() uses it to note the problem and read on).
class KeyProblem : public InputError {
public:
    enum class Kind { Unknown, Misspelt };
    KeyProblem(InputLocation where, std::string what, Kind kind, const ConfigValue* table, std::string key,
               std::string misspelt);
    Kind kind() const { return kind_; }
    const ConfigValue* table() const { return table_; }
    const std::string& key() const { return key_; }            ///< Unknown: the key; Misspelt: the required key
    const std::string& misspelt() const { return misspelt_; }  ///< Misspelt: the key that is there instead

private:
    Kind kind_;
    const ConfigValue* table_;
    std::string key_, misspelt_;
};

/// Reads `tree` with `read` and reports every key problem of the file at
/// once: an unknown key is noted and dropped, a misspelt required key noted
/// and read under its right name, and reading goes on; the first problem of
/// another kind (a missing key, a bad value) ends it. No problem: `read`'s
/// result. One: that error as it is. Several: one InputError at the file,
/// "3 problems: 4:1: network.latencey: unknown key (did you mean 'latency'?); ...".
template <class Read>
auto read_reporting_all(const ConfigValue& tree, Read read) -> decltype(read(tree));

/// The error read_reporting_all() throws for `problems` (at least one), of `tree`'s file.
[[noreturn]] void throw_all_problems(const ConfigValue& tree, const std::vector<InputError>& problems);
/// Applies a key problem to `copy` (drops or renames the key); false when the
/// problem is not in `copy`.
bool patch_key_problem(ConfigValue& copy, const KeyProblem& problem);

template <class Read>
auto read_reporting_all(const ConfigValue& tree, Read read) -> decltype(read(tree)) {
    ConfigValue copy = tree;
    std::vector<InputError> problems;
    for (int round = 0; round < 1000; ++round) {
        try {
            if (problems.empty()) return read(copy);
            read(copy);
            break;
        } catch (const KeyProblem& e) {
            problems.push_back(e);
            if (!patch_key_problem(copy, e)) break;
        } catch (const InputError& e) {
            problems.push_back(e);
            break;
        }
    }
    throw_all_problems(tree, problems);
}

/// Checks of single values, with errors naming the value's location.
double as_positive_number(const ConfigValue& value);
double as_non_negative_number(const ConfigValue& value);
int as_positive_integer(const ConfigValue& value);
const std::string& as_string(const ConfigValue& value);
[[noreturn]] void fail_at(const ConfigValue& value, const std::string& message);

}  // namespace dtcalc
