#pragma once
// What is trained: a model's hyper-parameters, as loaded from models/NAME.toml.
// Dense transformers (GPT, Llama), mixture-of-experts transformers (Mixtral),
// and models described layer by layer (ResNet-50, DLRM) with per-sample costs.
#include <cstdint>
#include <string>
#include <vector>

namespace dtcalc {

enum class ModelKind { Transformer, LayerList };

/// One layer of a layer-list model, per sample (one image, one query).
struct ListedLayer {
    std::string name;
    double forward_flops = 0;  ///< per sample
    double parameters = 0;
    double activation_bytes = 0;   ///< output activation per sample (bytes, at the model's precision)
    double lookup_bytes = 0;       ///< embedding rows read per sample (memory-bound work)
    bool embedding = false;        ///< model-parallel table: all-to-all instead of a gradient all-reduce
};

struct ModelSpec {
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    ModelKind kind = ModelKind::Transformer;

    // Transformer
    int layers = 0;
    int hidden = 0;
    int ffn_hidden = 0;
    int heads = 0;
    int kv_heads = 0;          ///< = heads without grouped-query attention
    bool gated_mlp = false;    ///< SwiGLU-style: three weight matrices in the MLP
    int vocab = 0;
    int seq = 0;               ///< default sequence length
    bool tied_embeddings = false;
    int experts = 1;           ///< MoE: experts per layer (1 = dense)
    int top_k = 1;             ///< MoE: experts each token visits

    // Layer list
    std::vector<ListedLayer> listed;
    int default_batch = 0;     ///< layer-list models: samples per GPU when the plan gives none
    /// What one sample of the throughput is: "token" for a transformer; for a
    /// layer-list model its `sample` key ("image" for ResNet-50), "sample" by default.
    std::string sample = "token";

    int head_dim() const { return heads > 0 ? hidden / heads : 0; }
    bool is_moe() const { return experts > 1; }
};

}  // namespace dtcalc
