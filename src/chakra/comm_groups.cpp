#include "chakra/comm_groups.h"

#include <algorithm>
#include <cmath>

#include "config/config_readers.h"
#include "core/error.h"

namespace dtcalc::chakra {

std::optional<const std::vector<int>*> CommGroupTable::find(const std::string& pg_name) const {
    if (file.empty() || pg_name.empty() || pg_name == "0") return static_cast<const std::vector<int>*>(nullptr);
    for (const auto& [id, ranks] : groups)
        if (id == pg_name) return &ranks;
    return std::nullopt;
}

CommGroupTable load_comm_groups(const std::string& path, long long npus) {
    CommGroupTable table;
    if (path.empty() || path == "empty") return table;
    const ConfigValue root = read_json_file(path);
    if (root.type != ConfigValue::Type::Table)
        fail_at(root, "expected an object mapping communicator ids to lists of NPU ranks");
    table.file = path;
    for (const auto& [id, value] : root.fields) {
        const bool numeric = !id.empty() && id.size() <= 9 && std::all_of(id.begin(), id.end(), [](char c) {
            return c >= '0' && c <= '9';
        });
        if (!numeric || std::stoi(id) <= 0)
            fail_at(value, "communicator ids are positive integers (\"0\" is reserved for all NPUs), got '" + id + "'");
        if (value.type != ConfigValue::Type::List || value.items.empty())
            fail_at(value, "expected a non-empty list of NPU ranks");
        std::vector<int> ranks;
        for (const ConfigValue& item : value.items) {
            if (item.type != ConfigValue::Type::Integer || item.number < 0 || item.number >= static_cast<double>(npus))
                fail_at(item, "expected an NPU rank from 0 to " + std::to_string(npus - 1) + " (the network has " +
                                  std::to_string(npus) + " NPUs)");
            const int rank = static_cast<int>(item.number);
            if (std::find(ranks.begin(), ranks.end(), rank) != ranks.end())
                fail_at(item, "rank " + std::to_string(rank) + " appears twice in the group");
            ranks.push_back(rank);
        }
        table.groups.emplace_back(id, std::move(ranks));
    }
    return table;
}

}  // namespace dtcalc::chakra
