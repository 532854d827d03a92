#pragma once
// A small, fast 64-bit hash for comparing trace structures (not for security):
// 8-byte words folded in with a multiply and a xor-shift, finished with the
// splitmix64 finaliser. Equal inputs give equal hashes on every platform.
#include <cstdint>
#include <cstring>
#include <string_view>

namespace dtcalc::chakra {

inline std::uint64_t hash_finish(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

inline std::uint64_t hash_mix(std::uint64_t h, std::uint64_t word) {
    h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

inline std::uint64_t hash_bytes(std::uint64_t h, std::string_view bytes) {
    const char* p = bytes.data();
    std::size_t n = bytes.size();
    while (n >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = hash_mix(h, w);
        p += 8;
        n -= 8;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    return hash_mix(h, tail ^ (static_cast<std::uint64_t>(bytes.size()) << 56));
}

}  // namespace dtcalc::chakra
