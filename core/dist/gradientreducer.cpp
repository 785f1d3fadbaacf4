#include "core/dist/gradientreducer.h"

#include "core/dist/communicator.h"

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <mutex>

namespace lbd {

struct GradientReducer::State {
    struct Bucket {
        int64_t begin = 0; // elements of the flat buffer
        int64_t length = 0;
        int parameters = 0;
        int remaining = 0; // parameters whose gradient is not complete yet in this backward pass
        PendingCollective reduction;
    };

    Communicator* communicator = nullptr;
    torch::Tensor flatGradients;
    std::vector<Bucket> buckets;        // in starting order
    std::vector<int> bucketOfParameter; // flat order
    // Autograd keeps only a weak reference to a leaf's accumulator and makes a new one (without our
    // hook) when the old one died with its graph: holding them keeps the hooks in place.
    std::vector<std::shared_ptr<torch::autograd::Node>> accumulators;

    std::mutex mutex;
    bool armed = false;
    size_t nextToStart = 0;
    int64_t startedDuringBackward = 0;

    // Under the mutex: starts every bucket from nextToStart on that is ready, in order.
    void startReadyBuckets(bool duringBackward)
    {
        while (nextToStart < buckets.size() && (buckets[nextToStart].remaining == 0 || !duringBackward)) {
            Bucket& bucket = buckets[nextToStart++];
            bucket.reduction = communicator->allReduceSumAsync(flatGradients.narrow(0, bucket.begin, bucket.length));
            if (duringBackward) {
                ++startedDuringBackward;
            }
        }
    }

    void parameterDone(int parameter)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!armed) {
            return;
        }
        Bucket& bucket = buckets[static_cast<size_t>(bucketOfParameter[static_cast<size_t>(parameter)])];
        if (bucket.remaining > 0) {
            --bucket.remaining;
        }
        startReadyBuckets(true);
    }
};

namespace {

// Called by autograd after the accumulator has added this step's gradient into the parameter's
// .grad (a view into the flat buffer): the value the all-reduce must read is then in place.
class GradientDoneHook : public torch::autograd::FunctionPostHook {
public:
    GradientDoneHook(std::weak_ptr<GradientReducer::State> state, int parameter)
        : m_state(std::move(state)), m_parameter(parameter)
    {
    }

    torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                              const torch::autograd::variable_list& /*inputs*/) override
    {
        if (const auto state = m_state.lock()) {
            state->parameterDone(m_parameter);
        }
        return outputs;
    }

private:
    std::weak_ptr<GradientReducer::State> m_state;
    int m_parameter;
};

} // namespace

GradientReducer::GradientReducer(const std::vector<torch::Tensor>& parameters, torch::Tensor flatGradients,
                                 Communicator& communicator, GradientBucketSizes sizes)
    : m_state(std::make_shared<State>())
{
    TORCH_CHECK(!parameters.empty(), "GradientReducer needs parameters");
    State& state = *m_state;
    state.communicator = &communicator;
    state.flatGradients = std::move(flatGradients);
    state.bucketOfParameter.resize(parameters.size());

    std::vector<int64_t> offsets(parameters.size() + 1, 0);
    for (size_t i = 0; i < parameters.size(); ++i) {
        offsets[i + 1] = offsets[i] + parameters[i].numel();
    }
    TORCH_CHECK(offsets.back() == state.flatGradients.numel(), "GradientReducer: the parameters do not fill the buffer");
    const int64_t bytesPerElement = static_cast<int64_t>(state.flatGradients.element_size());
    // From the last parameter backwards: each bucket a contiguous range of the flat buffer.
    State::Bucket current;
    for (size_t i = parameters.size(); i-- > 0;) {
        current.begin = offsets[i];
        current.length += parameters[i].numel();
        ++current.parameters;
        state.bucketOfParameter[i] = static_cast<int>(state.buckets.size());
        const int64_t limit = state.buckets.empty() ? sizes.firstBucketBytes : sizes.bucketBytes;
        if (current.length * bytesPerElement >= limit || i == 0) {
            state.buckets.push_back(current);
            current = State::Bucket{};
        }
    }

    for (size_t i = 0; i < parameters.size(); ++i) {
        auto accumulator = torch::autograd::impl::grad_accumulator(parameters[i]);
        TORCH_CHECK(accumulator, "GradientReducer: parameter ", i, " has no gradient accumulator (requires_grad off?)");
        accumulator->add_post_hook(std::make_unique<GradientDoneHook>(m_state, static_cast<int>(i)));
        state.accumulators.push_back(std::move(accumulator));
    }
}

GradientReducer::~GradientReducer()
{
    // Only after a step that failed between beginBackward() and finish(): start nothing new (the
    // other ranks may be gone), but wait for what is running, which would otherwise write into a
    // buffer that may be freed next (a collective that cannot finish fails at its timeout).
    State& state = *m_state;
    {
        const std::lock_guard<std::mutex> lock(state.mutex);
        state.armed = false;
    }
    for (auto& bucket : state.buckets) {
        try {
            bucket.reduction.wait();
        } catch (const std::exception&) { // unwinding after a failed step: its error is already on its way
        }
    }
}

void GradientReducer::beginBackward()
{
    State& state = *m_state;
    const std::lock_guard<std::mutex> lock(state.mutex);
    for (auto& bucket : state.buckets) {
        bucket.remaining = bucket.parameters;
    }
    state.nextToStart = 0;
    state.startedDuringBackward = 0;
    state.armed = true;
}

void GradientReducer::finish()
{
    State& state = *m_state;
    {
        const std::lock_guard<std::mutex> lock(state.mutex);
        if (!state.armed) {
            return;
        }
        state.armed = false;
        state.startReadyBuckets(false);
    }
    for (auto& bucket : state.buckets) {
        bucket.reduction.wait();
    }
    state.flatGradients.div_(state.communicator->worldSize());
}

int64_t GradientReducer::bucketCount() const
{
    return static_cast<int64_t>(m_state->buckets.size());
}

int64_t GradientReducer::bucketsStartedDuringBackward() const
{
    const std::lock_guard<std::mutex> lock(m_state->mutex);
    return m_state->startedDuringBackward;
}

} // namespace lbd
