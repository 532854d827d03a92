#pragma once
// A sweep's constraint rule: an expression over a point's numbers that must
// hold for the point to be allowed, e.g.
//     "tp <= 8"    "heads % tp == 0"    "tp * cp <= gpus_per_node"    "pp == 1 || mbs == 1"
// Grammar (C precedence, arithmetic in double, % is fmod, comparisons give 0/1):
//     rule    := or
//     or      := and ('||' and)*          and := compare ('&&' compare)*
//     compare := sum (('=='|'!='|'<='|'>='|'<'|'>') sum)?
//     sum     := product (('+'|'-') product)*
//     product := unary (('*'|'/'|'%') unary)*
//     unary   := ('-'|'!') unary | number | name | '(' or ')'
// A division by zero makes the rule fail (not an error). The names are the
// RuleVariable values below.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dtcalc {

enum class RuleVariable {
    Dp, Tp, Pp, Cp, Ep, Vpp, Mbs, Gbs, Seq, Zero, SequenceParallel, MicroBatches, Npus,  // the plan
    Layers, Hidden, FfnHidden, Heads, KvHeads, Vocab, Experts, TopK,                      // the model
    GpusPerNode, Nodes,                                                                   // the system
    Count
};

/// "dp", "micro_batches", "gpus_per_node" (network dimension 0), "nodes" (npus / gpus_per_node), ...
std::optional<RuleVariable> find_rule_variable(std::string_view name);
std::string_view rule_variable_name(RuleVariable v);

using RuleVariables = std::array<double, static_cast<std::size_t>(RuleVariable::Count)>;

class ConstraintRule {
public:
    /// Throws InputError at `where` for a malformed rule or an unknown name.
    static ConstraintRule parse(std::string_view text, const InputLocation& where);

    bool holds(const RuleVariables& values) const;
    const std::string& text() const { return text_; }

private:
    enum class Code : unsigned char { Push, Load, Neg, Not, Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or };
    struct Instruction {
        Code code;
        double value = 0;  ///< Push: the constant; Load: the variable index
    };
    std::string text_;
    std::vector<Instruction> program_;  ///< postfix
    friend class RuleParser;
};

}  // namespace dtcalc
