#include "sweep/constraint_rule.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace dtcalc {
namespace {

constexpr std::string_view kNames[] = {"dp",     "tp",     "pp",         "cp",      "ep",    "vpp",
                                       "mbs",    "gbs",    "seq",        "zero",    "sequence_parallel",
                                       "micro_batches",    "npus",       "layers",  "hidden", "ffn_hidden",
                                       "heads",  "kv_heads", "vocab",    "experts", "top_k", "gpus_per_node",
                                       "nodes"};
static_assert(std::size(kNames) == static_cast<std::size_t>(RuleVariable::Count));

}  // namespace

std::optional<RuleVariable> find_rule_variable(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kNames); ++i)
        if (kNames[i] == name) return static_cast<RuleVariable>(i);
    return std::nullopt;
}

std::string_view rule_variable_name(RuleVariable v) { return kNames[static_cast<std::size_t>(v)]; }

// Recursive descent straight into postfix code.
class RuleParser {
public:
    RuleParser(std::string_view text, const InputLocation& where, ConstraintRule& rule)
        : text_(text), where_(where), rule_(rule) {}

    void parse() {
        parse_or();
        skip_space();
        if (at_ < text_.size()) fail("unexpected '" + std::string(text_.substr(at_, 1)) + "'");
    }

private:
    using Code = ConstraintRule::Code;

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(where_, "rule '" + std::string(text_) + "': " + what + " at character " + std::to_string(at_ + 1));
    }
    void skip_space() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    }
    bool take(std::string_view token) {
        skip_space();
        if (text_.substr(at_, token.size()) != token) return false;
        at_ += token.size();
        return true;
    }
    void emit(Code code, double value = 0) { rule_.program_.push_back({code, value}); }

    void parse_or() {
        parse_and();
        while (take("||")) {
            parse_and();
            emit(Code::Or);
        }
    }
    void parse_and() {
        parse_compare();
        while (take("&&")) {
            parse_compare();
            emit(Code::And);
        }
    }
    void parse_compare() {
        parse_sum();
        static constexpr std::pair<std::string_view, Code> ops[] = {{"==", Code::Eq}, {"!=", Code::Ne}, {"<=", Code::Le},
                                                                    {">=", Code::Ge}, {"<", Code::Lt},  {">", Code::Gt}};
        for (const auto& [token, code] : ops)
            if (take(token)) {
                parse_sum();
                emit(code);
                return;
            }
    }
    void parse_sum() {
        parse_product();
        while (true) {
            if (take("+")) {
                parse_product();
                emit(Code::Add);
            } else if (take("-")) {
                parse_product();
                emit(Code::Sub);
            } else {
                return;
            }
        }
    }
    void parse_product() {
        parse_unary();
        while (true) {
            if (take("*")) {
                parse_unary();
                emit(Code::Mul);
            } else if (take("/")) {
                parse_unary();
                emit(Code::Div);
            } else if (take("%")) {
                parse_unary();
                emit(Code::Mod);
            } else {
                return;
            }
        }
    }
    void parse_unary() {
        if (++depth_ > 40) fail("nested too deeply");
        parse_unary_inner();
        --depth_;
    }
    void parse_unary_inner() {
        if (take("-")) {
            parse_unary();
            emit(Code::Neg);
            return;
        }
        if (at_ < text_.size() && text_[at_] == '!' && text_.substr(at_, 2) != "!=") {
            ++at_;
            parse_unary();
            emit(Code::Not);
            return;
        }
        if (take("(")) {
            parse_or();
            if (!take(")")) fail("expected ')'");
            return;
        }
        skip_space();
        if (at_ >= text_.size()) fail("expected a number or a name");
        const char c = text_[at_];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            double v = 0;
            const auto [end, ec] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), v);
            if (ec != std::errc()) fail("expected a number");
            at_ = static_cast<std::size_t>(end - text_.data());
            emit(Code::Push, v);
            return;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = at_;
            while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
            const std::string_view name = text_.substr(start, at_ - start);
            const auto v = find_rule_variable(name);
            if (!v) {
                at_ = start;
                std::string known;
                for (std::size_t i = 0; i < static_cast<std::size_t>(RuleVariable::Count); ++i)
                    known += (i ? ", " : "") + std::string(rule_variable_name(static_cast<RuleVariable>(i)));
                fail("unknown name '" + std::string(name) + "' (known: " + known + ")");
            }
            emit(Code::Load, static_cast<double>(*v));
            return;
        }
        fail("expected a number or a name");
    }

    std::string_view text_;
    const InputLocation& where_;
    ConstraintRule& rule_;
    std::size_t at_ = 0;
    int depth_ = 0;
};

ConstraintRule ConstraintRule::parse(std::string_view text, const InputLocation& where) {
    ConstraintRule rule;
    rule.text_ = std::string(text);
    RuleParser(text, where, rule).parse();
    return rule;
}

bool ConstraintRule::holds(const RuleVariables& values) const {
    double stack[64];
    int top = 0;
    for (const Instruction& in : program_) {
        if (top >= 63) return false;  // deeper than any rule a person writes
        switch (in.code) {
            case Code::Push: stack[top++] = in.value; continue;
            case Code::Load: stack[top++] = values[static_cast<std::size_t>(in.value)]; continue;
            case Code::Neg: stack[top - 1] = -stack[top - 1]; continue;
            case Code::Not: stack[top - 1] = stack[top - 1] == 0 ? 1 : 0; continue;
            default: break;
        }
        const double b = stack[--top];
        double& a = stack[top - 1];
        const bool comparison = in.code >= Code::Eq && in.code <= Code::Ge;
        if (comparison && (std::isnan(a) || std::isnan(b))) {
            a = NAN;  // the rule fails
            continue;
        }
        switch (in.code) {
            case Code::Add: a = a + b; break;
            case Code::Sub: a = a - b; break;
            case Code::Mul: a = a * b; break;
            case Code::Div: a = b == 0 ? NAN : a / b; break;
            case Code::Mod: a = b == 0 ? NAN : std::fmod(a, b); break;
            case Code::Eq: a = a == b ? 1 : 0; break;
            case Code::Ne: a = a != b ? 1 : 0; break;
            case Code::Lt: a = a < b ? 1 : 0; break;
            case Code::Le: a = a <= b ? 1 : 0; break;
            case Code::Gt: a = a > b ? 1 : 0; break;
            case Code::Ge: a = a >= b ? 1 : 0; break;
            case Code::And: a = (a != 0 && b != 0 && !std::isnan(a) && !std::isnan(b)) ? 1 : 0; break;
            case Code::Or: a = ((a != 0 && !std::isnan(a)) || (b != 0 && !std::isnan(b))) ? 1 : 0; break;
            default: break;
        }
    }
    return top == 1 && !std::isnan(stack[0]) && stack[0] != 0;
}

}  // namespace dtcalc
