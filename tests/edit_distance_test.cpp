// Levenshtein distances worked by hand.
#include <doctest/doctest.h>

#include "core/edit_distance.h"

using dtcalc::edit_distance;

TEST_CASE("edit distance: insertions, deletions and substitutions, each counting one") {
    CHECK(edit_distance("", "") == 0);
    CHECK(edit_distance("tp", "tp") == 0);
    CHECK(edit_distance("", "abc") == 3);         // three insertions
    CHECK(edit_distance("abc", "") == 3);         // three deletions
    CHECK(edit_distance("tpp", "tp") == 1);       // delete one p
    CHECK(edit_distance("latencey", "latency") == 1);  // delete the second e
    CHECK(edit_distance("tp", "pp") == 1);        // t -> p
    CHECK(edit_distance("kitten", "sitting") == 3);  // k->s, e->i, insert g
    CHECK(edit_distance("flaw", "lawn") == 2);    // delete f, insert n
    CHECK(edit_distance("bandwith", "bandwidth") == 1);
}
