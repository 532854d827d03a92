// Items run on threads and written in item order; the first failing item in
// item order is the one reported, whatever the thread count.
#include <doctest/doctest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "sweep/ordered_runner.h"

using namespace dtcalc;

namespace {

struct Outcome {
    std::string written;
    std::string error;
    std::size_t records = 0;
};

// Items 0..count-1 write "i;" and are ranked when even; the items in
// `failing` throw "item i", the first of them after `delay` (so that on
// several threads a later one fails first in time).
Outcome run_items(std::uint64_t count, int threads, std::vector<std::uint64_t> failing = {},
                  std::chrono::milliseconds delay = {}) {
    Outcome outcome;
    const ItemFunction item = [&](std::uint64_t i, int, std::string& out, RankedPoint& record) {
        for (std::size_t k = 0; k < failing.size(); ++k) {
            if (failing[k] != i) continue;
            if (k == 0) std::this_thread::sleep_for(delay);
            throw std::runtime_error("item " + std::to_string(i));
        }
        out += std::to_string(i) + ";";
        record.point = i;
        return i % 2 == 0;
    };
    try {
        outcome.records = run_in_order(0, count, threads, item, [&](std::string_view s) { outcome.written += s; }).records.size();
    } catch (const std::runtime_error& e) {
        outcome.error = e.what();
    }
    return outcome;
}

std::string items_before(std::uint64_t n) {
    std::string s;
    for (std::uint64_t i = 0; i < n; ++i) s += std::to_string(i) + ";";
    return s;
}

}  // namespace

TEST_CASE("ordered runner: output in item order on any number of threads") {
    for (int threads : {1, 2, 3, 8}) {
        CAPTURE(threads);
        const Outcome o = run_items(5000, threads);
        CHECK(o.error.empty());
        CHECK(o.written == items_before(5000));
        CHECK(o.records == 2500);  // the even items
    }
    CHECK(run_items(0, 4).written.empty());
    CHECK(run_items(1, 4).written == "0;");
}

TEST_CASE("ordered runner: the first failing item in item order is reported") {
    // Items 3001 and 4200 fail, 3001 only after 200 ms: on several threads
    // 4200 fails first in time, but 3001 is what one thread reports, so it is
    // what all report.
    for (int threads : {1, 2, 3, 8}) {
        CAPTURE(threads);
        const Outcome o = run_items(5000, threads, {3001, 4200}, std::chrono::milliseconds(200));
        CHECK(o.error == "item 3001");
        // What was written is whole blocks before the failing item: a prefix of
        // the items, ending before 3001.
        CHECK(o.written.size() <= items_before(3001).size());
        CHECK(items_before(3001).starts_with(o.written));
    }
    CHECK(run_items(5000, 4, {0}).written.empty());
    CHECK(run_items(5000, 4, {4999}).error == "item 4999");
}
