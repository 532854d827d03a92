#pragma once
// What every fuzz target shares. A target takes one input, feeds it to one
// reader the way the command line would, and goes on to use what was read.
// Bad input must end as an InputError; anything else escaping (another
// exception, a sanitizer report, a non-finite result, an abort) is a finding.
//
// Built with libFuzzer (scripts/fuzz.sh) each target is its own program with
// the entry point LLVMFuzzerTestOneInput. Built with the test suite, the entry
// point is renamed per target (DTCALC_FUZZ_ENTRY) and replay_main.cpp runs the
// seed corpora and saved reproducers through all of them.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/csv_document.h"

#ifndef DTCALC_FUZZ_ENTRY
#define DTCALC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

namespace dtcalc::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

/// A finding that is not a crash by itself: stop so the fuzzer keeps the input.
[[noreturn]] inline void finding(const char* what, double value) {
    std::fprintf(stderr, "fuzz finding: %s (%g)\n", what, value);
    std::abort();
}

/// An input the readers refused: expected. DTCALC_FUZZ_VERBOSE=1 prints why,
/// to see how deep the seeds get.
inline void rejected(const InputError& error) {
    static const bool verbose = std::getenv("DTCALC_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "rejected: %s\n", error.what());
}

/// Times, sizes and fractions that reach a report must be finite and not negative.
inline void require_finite(double value, const char* what) {
    if (!std::isfinite(value) || value < 0) finding(what, value);
}

/// The directory for this process's input files (each process its own, so
/// parallel fuzzing jobs do not share files).
inline std::filesystem::path scratch_dir() {
    static const std::filesystem::path dir = [] {
        const char* base = std::getenv("TMPDIR");
        auto path = std::filesystem::path(base && *base ? base : "/tmp") /
                    ("dtcalc-fuzz-" + std::to_string(static_cast<long long>(::getpid())));
        std::filesystem::create_directories(path);
        return path;
    }();
    return dir;
}

/// Writes the input to `name` in the scratch directory, for readers that take
/// a path; returns the path.
inline std::string write_input(std::string_view bytes, const std::string& name) {
    const std::string path = (scratch_dir() / name).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

/// The project's presets and models, for targets that name them.
inline std::vector<std::string> preset_dirs() { return {std::string(DTCALC_SOURCE_DIR) + "/presets"}; }
inline std::vector<std::string> model_dirs() { return {std::string(DTCALC_SOURCE_DIR) + "/models"}; }

}  // namespace dtcalc::fuzz

namespace dtcalc::fuzz {

/// Whether `text` holds a field (between separators) that reads nan or inf,
/// in any case or sign.
inline bool has_nonfinite_word(std::string_view text) {
    auto is_separator = [](char c) {
        return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == ':' || c == '[' ||
               c == ']' || c == '{' || c == '}' || c == '=' || c == '(' || c == ')';
    };
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_separator(text[i])) ++i;
        std::size_t end = i;
        while (end < text.size() && !is_separator(text[end])) ++end;
        std::string field(text.substr(i, end - i));
        if (!field.empty() && (field.front() == '-' || field.front() == '+')) field.erase(0, 1);
        for (char& c : field) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (field == "nan" || field == "inf" || field == "infinity") return true;
        i = end;
    }
    return false;
}

/// Whether `text` holds the letters nan or inf anywhere, in any case. Names
/// and notes come back quoted, escaped or cut to a column's width, and a cut
/// can make a word of "1inf" out of "1info", so any mention counts.
inline bool mentions_nonfinite_word(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos;
}

/// `text` must be one valid JSON document (`json_lines`: one per line), with
/// valid UTF-8 in its strings, as the tools that read dtcalc's JSON expect.
inline void require_valid_json(std::string_view text, bool json_lines = false) {
    auto parse = [](std::string_view document) {
        if (!nlohmann::json::accept(document)) {
            std::fprintf(stderr, "%.*s\n", static_cast<int>(std::min<std::size_t>(document.size(), 2000)), document.data());
            finding("output that is not valid JSON", 0);
        }
    };
    if (!json_lines) return parse(text);
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        if (end > start) parse(text.substr(start, end - start));
        start = end + 1;
    }
}

/// `text` must be CSV a spreadsheet reads back as written: it parses (RFC
/// 4180) and every row has as many fields as the header.
inline void require_valid_csv(std::string_view text) {
    CsvDocument table;
    try {
        table = parse_csv_document(text, "output.csv");
    } catch (const InputError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        finding("CSV output that does not parse", 0);
    }
    for (const CsvDocumentRow& row : table.rows)
        if (row.fields.size() != table.header.size()) {
            std::fprintf(stderr, "line %d: %zu fields, header %zu\n", row.line, row.fields.size(), table.header.size());
            finding("a CSV output row with a wrong number of fields", 0);
        }
}

/// Output text must not hold a non-finite number. Names and notes are echoed
/// from the input, so an input that itself mentions such a word is not judged.
inline void require_finite_text(std::string_view output, std::string_view input) {
    if (has_nonfinite_word(output) && !mentions_nonfinite_word(input)) finding("non-finite number in output", 0);
}

}  // namespace dtcalc::fuzz
