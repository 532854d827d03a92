#include "sweep/design_space.h"

#include <algorithm>

namespace dtcalc {
namespace {

constexpr std::uint64_t kMaxCombinations = std::uint64_t{1} << 40;
constexpr std::uint64_t kMaxFilteredCombinations = 1'000'000'000;

// Whether dp x tp x pp x cp of each combination is `npus` (axes not given
// count as 1). The four axes' mixed-radix strides (the last axis fastest)
// are found once; the combinations are many.
class ProductFilter {
public:
    ProductFilter(const SpaceCase& c, long long npus) : case_(c), npus_(npus) {
        std::uint64_t stride = 1;
        for (std::size_t a = c.axes.size(); a-- > 0;) {
            const std::string_view name = c.axes[a].param->name;
            if (name == "dp" || name == "tp" || name == "pp" || name == "cp") factors_.insert(factors_.begin(), {a, stride});
            stride *= c.axes[a].values.size();
        }
    }
    bool matches(std::uint64_t combination) const {
        double product = 1;
        for (const Factor& f : factors_) {
            const std::vector<ParamValue>& values = case_.axes[f.axis].values;
            product *= values[static_cast<std::size_t>((combination / f.stride) % values.size())].number;
        }
        return product == static_cast<double>(npus_);
    }

private:
    struct Factor {
        std::size_t axis;
        std::uint64_t stride;
    };
    const SpaceCase& case_;
    long long npus_;
    std::vector<Factor> factors_;  // in axis order
};

}  // namespace

DesignSpace::DesignSpace(const SweepSpec& spec) {
    std::vector<SweepCase> cases = spec.cases;
    named_cases_ = !cases.empty();
    if (cases.empty()) cases.push_back({"", {}});
    const bool dp_given = [&] {
        if (spec.find("dp")) return true;
        for (const SweepCase& c : cases)
            for (const SweepAxis& a : c.axes)
                if (a.param->name == "dp") return true;
        return false;
    }();
    for (const SweepCase& sc : cases) {
        SpaceCase c;
        c.name = sc.name;
        for (const SweepAxis& top : spec.parameters) {
            const auto own = std::find_if(sc.axes.begin(), sc.axes.end(), [&](const SweepAxis& a) { return a.param == top.param; });
            c.axes.push_back(own == sc.axes.end() ? top : *own);
        }
        for (const SweepAxis& own : sc.axes)
            if (!spec.find(own.param->name)) c.axes.push_back(own);
        std::stable_sort(c.axes.begin(), c.axes.end(), [](const SweepAxis& a, const SweepAxis& b) { return a.param < b.param; });
        for (const SweepAxis& a : c.axes) {
            if (c.combinations > kMaxCombinations / a.values.size())
                throw InputError(a.where, "the sweep has more than 2^40 points; split it");
            c.combinations *= a.values.size();
        }
        c.filtered = spec.npus && dp_given;
        if (c.filtered) {
            if (c.combinations > kMaxFilteredCombinations)
                throw InputError(spec.npus_where,
                                 "filtering more than 10^9 combinations by npus; narrow the ranges of dp, tp, pp and cp");
            const ProductFilter filter(c, *spec.npus);
            for (std::uint64_t k = 0; k < c.combinations; ++k)
                if (filter.matches(k)) c.kept.push_back(k);
        }
        c.first_point = size_;
        size_ += c.points();
        cases_.push_back(std::move(c));
    }
}

DesignSpace::Location DesignSpace::locate(std::uint64_t point) const {
    // Cases are few: a linear scan.
    for (std::size_t i = 0; i < cases_.size(); ++i) {
        const SpaceCase& c = cases_[i];
        if (point < c.first_point + c.points()) return {static_cast<int>(i), c.combination(point - c.first_point)};
    }
    return {static_cast<int>(cases_.size()) - 1, 0};
}

void DesignSpace::assignment(std::uint64_t point, std::vector<Assigned>& out) const {
    out.clear();
    const Location at = locate(point);
    const SpaceCase& c = cases_[static_cast<std::size_t>(at.case_index)];
    std::uint64_t rest = at.combination;
    out.resize(c.axes.size());
    for (std::size_t a = c.axes.size(); a-- > 0;) {
        const std::size_t n = c.axes[a].values.size();
        out[a] = {c.axes[a].param, &c.axes[a].values[static_cast<std::size_t>(rest % n)], &c.axes[a].where};
        rest /= n;
    }
}

std::vector<const ParamInfo*> DesignSpace::varying() const {
    std::vector<const ParamInfo*> out;
    for (const SpaceCase& c : cases_)
        for (const SweepAxis& a : c.axes)
            if (a.values.size() > 1 && std::find(out.begin(), out.end(), a.param) == out.end()) out.push_back(a.param);
    return out;
}

std::vector<const ParamInfo*> DesignSpace::named() const {
    std::vector<const ParamInfo*> out;
    for (const SpaceCase& c : cases_)
        for (const SweepAxis& a : c.axes)
            if (std::find(out.begin(), out.end(), a.param) == out.end()) out.push_back(a.param);
    return out;
}

}  // namespace dtcalc
