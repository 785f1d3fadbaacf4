#pragma once
// Seeded randomness that is identical on every platform and LibTorch version: the split, the
// shuffle and the augmentation parameters are drawn here on the host, so CPU and CUDA runs with
// one seed see the same data in the same order. Here, below core, because readers draw with it
// too (an image folder's held-out test share, the synthetic images); core/util/random.h forwards.
#include <cstdint>
#include <random>
#include <vector>

namespace lbd {

class Rng {
public:
    explicit Rng(uint64_t seed) : m_engine(mix(seed)) {}
    Rng(uint64_t seed, uint64_t stream) : m_engine(mix(seed ^ mix(stream + 0x9e3779b97f4a7c15ULL))) {}

    uint64_t nextU64() { return m_engine(); }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    // Uniform integer in [0, n).
    int64_t below(int64_t n) { return static_cast<int64_t>(uniform() * static_cast<double>(n)); }
    bool coin() { return (m_engine() >> 63) != 0; }

    template <typename T>
    void shuffle(std::vector<T>& values)
    {
        for (size_t i = values.size(); i > 1; --i) {
            const auto j = static_cast<size_t>(below(static_cast<int64_t>(i)));
            std::swap(values[i - 1], values[j]);
        }
    }

private:
    // SplitMix64 finaliser: nearby seeds give unrelated streams.
    static uint64_t mix(uint64_t x)
    {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

    std::mt19937_64 m_engine;
};

} // namespace lbd
