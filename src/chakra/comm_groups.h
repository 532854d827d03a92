#pragma once
// Communicator groups of a Chakra trace: the comm-group JSON that STAGE writes
// beside the `.et` files, `{"<id>": [rank, rank, ...], ...}`. A COMM_COLL
// node's `pg_name` attribute names one of them; a missing or empty pg_name,
// or "0", means every NPU (ASTRA-sim's default group), and so does every
// pg_name when there is no comm-group file (ASTRA-sim's `empty`).
//
// The ranks are kept in file order: ASTRA-sim runs a group's collective as one
// ring through the ranks in that order.
#include <optional>
#include <string>
#include <vector>

namespace dtcalc::chakra {

struct CommGroupTable {
    std::string file;  ///< empty when there is no comm-group file
    std::vector<std::pair<std::string, std::vector<int>>> groups;  ///< id -> ranks, ids in file order

    /// The ranks of `pg_name`, or nullptr for the default group (all NPUs).
    /// nullopt when the file does not define it.
    std::optional<const std::vector<int>*> find(const std::string& pg_name) const;
};

/// `path` "" or "empty" means no file. Throws InputError naming the file and
/// key for an id that is not a positive integer, a group that is empty, has a
/// rank twice, or a rank outside 0..npus-1.
CommGroupTable load_comm_groups(const std::string& path, long long npus);

}  // namespace dtcalc::chakra
