#include "config/model_loader.h"

#include <algorithm>

#include "config/config_readers.h"
#include "config/config_value.h"
#include "config/named_file.h"
#include "core/error.h"

namespace dtcalc {
namespace {

void check_transformer(const ModelSpec& m, const ConfigValue& root) {
    auto fail = [&](const std::string& key, const std::string& message) {
        InputLocation where = root.where;
        where.key = key;
        if (const ConfigValue* v = root.find(key)) where = v->where;
        throw InputError(where, message);
    };
    if (m.hidden % m.heads != 0)
        fail("heads", "hidden (" + std::to_string(m.hidden) + ") must be a multiple of heads (" + std::to_string(m.heads) + ")");
    if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
        fail("kv_heads", "heads (" + std::to_string(m.heads) + ") must be a multiple of kv_heads (" +
                             std::to_string(m.kv_heads) + ")");
    if (m.top_k > m.experts)
        fail("top_k", "top_k (" + std::to_string(m.top_k) + ") exceeds experts (" + std::to_string(m.experts) + ")");
}

ListedLayer listed_layer(const ConfigValue& value) {
    ConfigTableReader r(value);
    ListedLayer l;
    l.name = r.string("name");
    l.forward_flops = r.non_negative_number("forward_flops");
    l.parameters = r.non_negative_number("parameters");
    l.activation_bytes = r.non_negative_number("activation_bytes");
    l.lookup_bytes = r.optional_non_negative_number("lookup_bytes").value_or(0);
    l.embedding = r.optional_boolean_flag("embedding").value_or(false);
    r.finish();
    return l;
}

}  // namespace

ModelSpec load_model(const std::string& name_or_path, const std::vector<std::string>& search_dirs) {
    const std::string path = find_named_toml(name_or_path, search_dirs, "model", "model");
    const ConfigValue root = read_toml_file(path);
    return read_reporting_all(root, [&](const ConfigValue& tree) {
        ConfigTableReader r(tree);
        ModelSpec m;
        m.name = r.string("name");
        m.description = r.string("description");
        m.sources = r.string_list("sources");
        const ConfigValue& kind = r.required("kind");
        if (as_string(kind) == "transformer") {
            m.kind = ModelKind::Transformer;
            m.layers = r.positive_integer("layers");
            m.hidden = r.positive_integer("hidden");
            m.ffn_hidden = r.positive_integer("ffn_hidden");
            m.heads = r.positive_integer("heads");
            m.kv_heads = r.has("kv_heads") ? r.positive_integer("kv_heads") : m.heads;
            m.gated_mlp = r.boolean_flag("gated_mlp");
            m.vocab = r.positive_integer("vocab");
            m.seq = r.positive_integer("seq");
            m.tied_embeddings = r.optional_boolean_flag("tied_embeddings").value_or(false);
            m.experts = r.has("experts") ? r.positive_integer("experts") : 1;
            m.top_k = r.has("top_k") ? r.positive_integer("top_k") : 1;
            check_transformer(m, tree);
        } else if (as_string(kind) == "layers") {
            m.kind = ModelKind::LayerList;
            for (const ConfigValue& layer : r.list("layer")) m.listed.push_back(listed_layer(layer));
            m.default_batch = r.positive_integer("batch_per_gpu");
            m.seq = 1;
            m.sample = "sample";
            if (const ConfigValue* sample = r.optional("sample")) {
                m.sample = as_string(*sample);
                const bool word = !m.sample.empty() && m.sample.size() <= 20 &&
                                  std::all_of(m.sample.begin(), m.sample.end(), [](char c) { return c >= 'a' && c <= 'z'; });
                if (!word) fail_at(*sample, "expected a lower-case word like image or sample (the throughput is <word>s/s), got '" + m.sample + "'");
            }
        } else {
            fail_at(kind, "expected 'transformer' or 'layers', got '" + kind.text + "'");
        }
        r.finish();
        return m;
    });
}

std::vector<std::string> list_models(const std::vector<std::string>& search_dirs) { return toml_names_in(search_dirs); }

}  // namespace dtcalc
