#pragma once
// The points of a sweep: per case, every combination of its parameters'
// values, as nested loops over the parameters in the order sweep_parameters()
// lists them (model, preset, ..., dp, tp, pp, cp, ..., recompute, ...: the
// first varies slowest, whatever order a spec or the flags give them in); the
// cases one after another. With an `npus`
// constraint and dp among the parameters, only the combinations whose
// dp x tp x pp x cp equals npus belong to the space (as the seed lab's
// expand_design_space keeps only dp x tp x pp x sp = 64).
//
// Points are numbered 0..size()-1 in that order; a point's number is stable
// for a given spec, so shards and reports can name points by it.
#include <cstdint>
#include <string>
#include <vector>

#include "sweep/sweep_spec.h"

namespace dtcalc {

struct SpaceCase {
    std::string name;
    std::vector<SweepAxis> axes;        ///< the top-level parameters (as the case overrides them) and the case's own, in registry order
    std::vector<std::uint64_t> kept;    ///< with the npus filter: the kept combinations, in order
    bool filtered = false;
    std::uint64_t combinations = 1;
    std::uint64_t first_point = 0;      ///< number of this case's first point

    std::uint64_t points() const { return filtered ? kept.size() : combinations; }
    std::uint64_t combination(std::uint64_t local_point) const { return filtered ? kept[local_point] : local_point; }
};

class DesignSpace {
public:
    /// Throws InputError when the space is larger than 2^40 combinations per
    /// case (or 10^9 with the npus filter, which visits each).
    explicit DesignSpace(const SweepSpec& spec);

    std::uint64_t size() const { return size_; }
    const std::vector<SpaceCase>& cases() const { return cases_; }
    bool has_named_cases() const { return named_cases_; }

    struct Location {
        int case_index = 0;
        std::uint64_t combination = 0;
    };
    Location locate(std::uint64_t point) const;

    /// The parameters, with their values at `point`, in the case's order.
    struct Assigned {
        const ParamInfo* param;
        const ParamValue* value;
        const InputLocation* where = nullptr;  ///< where the value was given (its axis), when known
    };
    void assignment(std::uint64_t point, std::vector<Assigned>& out) const;

    /// Names of the parameters that take more than one value in some case, in
    /// first-seen order: what distinguishes points in a summary.
    std::vector<const ParamInfo*> varying() const;
    /// Names of every parameter given anywhere, in first-seen order.
    std::vector<const ParamInfo*> named() const;

private:
    std::vector<SpaceCase> cases_;
    std::uint64_t size_ = 0;
    bool named_cases_ = false;
};

}  // namespace dtcalc
