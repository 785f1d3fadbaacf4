#include "core/train/fusedrungroup.h"

#include "core/compat/capturegate.h"
#include "core/model/fusedrunsmodel.h"
#include "core/train/flatsgd.h"
#include "core/util/error.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>

namespace lbd {

namespace {

// The parameters' storage layout in a flat buffer, as FlatSgd lays them out: channels-last for the
// 4-D weights of a run that trains channels-last, contiguous otherwise.
torch::Tensor stridedView(const torch::Tensor& flat, int64_t offset, const torch::Tensor& like, bool channelsLast)
{
    const auto slice = flat.narrow(0, offset, like.numel());
    if (channelsLast && like.dim() == 4) {
        return slice.view({like.size(0), like.size(2), like.size(3), like.size(1)}).permute({0, 3, 1, 2});
    }
    return slice.view(like.sizes());
}

// Where each element of `parameter` (a view into `flat`) sits in `flat`, in the parameter's
// logical (row-major) element order.
torch::Tensor positionsIn(const torch::Tensor& flat, const torch::Tensor& parameter)
{
    const auto all = torch::arange(flat.numel(), torch::kInt64);
    return all.as_strided(parameter.sizes(), parameter.strides(), parameter.storage_offset() - flat.storage_offset())
        .contiguous()
        .flatten();
}

} // namespace

struct FusedRunGroup::State {
    struct Slot {
        ParticleModel model{nullptr};
        FlatSgd* optimizer = nullptr;
        bool joined = false;
        bool active = true;
        int64_t arrivedRound = -1;
        torch::Tensor images; // this step's batch
        torch::Tensor logits; // the leaf handed to the run
        std::vector<double> imageSums;
    };

    class Member final : public FusedMember {
    public:
        Member(State& state, int slot) : m_state(state), m_slot(slot) {}
        void join(ParticleModel model, FlatSgd& optimizer) override { m_state.join(m_slot, std::move(model), optimizer); }
        torch::Tensor forward(const torch::Tensor& images) override
        {
            m_state.slots[m_slot].images = images;
            m_state.meet(m_slot, 0);
            return m_state.slots[m_slot].logits;
        }
        void backward() override { m_state.meet(m_slot, 1); }

    private:
        State& m_state;
        int m_slot;
    };

    std::vector<Slot> slots;
    std::vector<std::unique_ptr<Member>> members;
    mutable std::mutex mutex;
    std::condition_variable changed;
    int64_t round = 0; // even: forward passes, odd: backward passes
    bool executing = false;
    std::exception_ptr roundError;
    int64_t errorRound = -1;
    bool recordSums = false;
    int64_t steps = 0;

    // Built at the first step, from the runs that joined.
    FusedRunsModel fused{nullptr};
    int64_t runParameters = 0;    // P, one run's parameter count
    torch::Tensor fusedFlat;      // the fused parameters, every one a view into it
    torch::Tensor fusedGradients; // their gradients, the same layout
    torch::Tensor gatherIndex;    // fusedFlat = cat(run flats)[gatherIndex]
    std::vector<torch::Tensor> gradientIndex; // run g's flat gradients += fusedGradients[gradientIndex[g]]
    torch::Tensor zeros;          // [P], the weights of a slot whose run left
    torch::Tensor fusedLogits;    // this step's, until the backward pass

    explicit State(int runs) : slots(static_cast<size_t>(runs))
    {
        for (int slot = 0; slot < runs; ++slot) {
            members.push_back(std::make_unique<Member>(*this, slot));
        }
    }

    void join(int slot, ParticleModel model, FlatSgd& optimizer)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (fused) {
            throw RunError("a run joined its fused group after the group had started training");
        }
        slots[slot].model = std::move(model);
        slots[slot].optimizer = &optimizer;
        slots[slot].joined = true;
    }

    bool allArrived() const
    {
        for (const Slot& slot : slots) {
            if (slot.active && slot.arrivedRound != round) {
                return false;
            }
        }
        return true;
    }

    // The run in `slot` has reached phase `phase` (0 forward, 1 backward) of its step; returns once
    // the group's pass of that phase is done (run by whichever waiting thread finds everyone there).
    void meet(int slot, int phase)
    {
        std::unique_lock<std::mutex> lock(mutex);
        if (!slots[slot].active) {
            throw RunError("this run has left its fused group");
        }
        if (round % 2 != phase) {
            throw RunError("a fused run is out of step with its group (a bug)");
        }
        const int64_t mine = round;
        slots[slot].arrivedRound = mine;
        while (round == mine) {
            if (!executing && allArrived()) {
                executing = true;
                std::vector<bool> active;
                for (const Slot& s : slots) {
                    active.push_back(s.active);
                }
                lock.unlock();
                std::exception_ptr error;
                try {
                    if (phase == 0) {
                        forwardPass(active);
                    } else {
                        backwardPass(active);
                    }
                } catch (...) {
                    error = std::current_exception();
                }
                lock.lock();
                executing = false;
                roundError = error;
                errorRound = mine;
                ++round;
                changed.notify_all();
                break;
            }
            // Waiting here is a safe point of this run's thread (nothing of it in flight): another
            // run of the process may capture its CUDA graph meanwhile (core/compat/capturegate.h),
            // and must, or a member held at its own safe point by that capture would never come.
            if (changed.wait_for(lock, std::chrono::milliseconds(2)) == std::cv_status::timeout) {
                lock.unlock();
                compat::yieldToCapture();
                lock.lock();
            }
        }
        if (errorRound == mine && roundError) {
            std::rethrow_exception(roundError);
        }
    }

    void leave(int slot)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        slots[slot].active = false;
        slots[slot].images = torch::Tensor();
        slots[slot].logits = torch::Tensor();
        changed.notify_all(); // the others may have been waiting for this run alone
    }

    void build(const std::vector<bool>& active);
    void forwardPass(const std::vector<bool>& active);
    void backwardPass(const std::vector<bool>& active);
};

void FusedRunGroup::State::build(const std::vector<bool>& active)
{
    const Slot* reference = nullptr;
    for (size_t g = 0; g < slots.size(); ++g) {
        if (active[g] && slots[g].joined) {
            reference = &slots[g];
            break;
        }
    }
    if (reference == nullptr) {
        throw RunError("no run of the fused group has a model");
    }
    const auto runs = static_cast<int64_t>(slots.size());
    const torch::Tensor refFlat = reference->optimizer->flatParameters();
    runParameters = refFlat.numel();
    const auto refParameters = reference->model->named_parameters();
    for (const Slot& slot : slots) {
        if (!slot.joined) {
            continue;
        }
        const auto parameters = slot.model->named_parameters();
        bool same = parameters.size() == refParameters.size();
        for (size_t i = 0; same && i < parameters.size(); ++i) {
            same = parameters[i].key() == refParameters[i].key() && parameters[i].value().sizes() == refParameters[i].value().sizes()
                && parameters[i].value().strides() == refParameters[i].value().strides();
        }
        if (!same || slot.optimizer->parameterCount() != runParameters) {
            throw InputError("the runs of a fused group must have one model (architecture, particles, classes, image size)");
        }
    }
    torch::NoGradGuard noGrad;
    fused = FusedRunsModel(*reference->model, runs);
    const auto device = refFlat.device();
    fused->to(device);
    fused->train();
    const auto fusedParameters = fused->named_parameters();
    int64_t total = 0;
    for (const auto& item : fusedParameters) {
        total += item.value().numel();
    }
    if (total != runs * runParameters) {
        throw RunError("the fused model has " + std::to_string(total) + " parameters, not " + std::to_string(runs) + " x "
                       + std::to_string(runParameters));
    }
    fusedFlat = torch::zeros({total}, refFlat.options());
    fusedGradients = torch::zeros({total}, refFlat.options());
    zeros = torch::zeros({runParameters}, refFlat.options());
    auto gather = torch::empty({total}, torch::kInt64);
    std::vector<torch::Tensor> gradient;
    for (int64_t g = 0; g < runs; ++g) {
        gradient.push_back(torch::empty({runParameters}, torch::kInt64));
    }
    int64_t offset = 0;
    for (const auto& item : fusedParameters) {
        const torch::Tensor* runParameter = refParameters.find(item.key());
        if (runParameter == nullptr || item.value().size(0) != runs * runParameter->size(0)) {
            throw RunError("fused parameter " + item.key() + " has no run parameter of 1/" + std::to_string(runs) + " its size");
        }
        torch::Tensor parameter = item.value();
        const bool channelsLast = runParameter->dim() == 4 && !runParameter->is_contiguous();
        parameter.set_data(stridedView(fusedFlat, offset, parameter, channelsLast));
        parameter.mutable_grad() = stridedView(fusedGradients, offset, parameter, channelsLast);
        const auto fusedPositions = torch::arange(total, torch::kInt64)
                                        .as_strided(parameter.sizes(), parameter.strides(), offset);
        const auto runPositions = positionsIn(refFlat, *runParameter);
        const int64_t rows = runParameter->size(0);
        for (int64_t g = 0; g < runs; ++g) {
            const auto slice = fusedPositions.narrow(0, g * rows, rows).contiguous().flatten();
            gather.index_put_({slice}, runPositions + g * runParameters);
            gradient[static_cast<size_t>(g)].index_put_({runPositions}, slice);
        }
        offset += parameter.numel();
    }
    gatherIndex = gather.to(device);
    for (const auto& index : gradient) {
        gradientIndex.push_back(index.to(device));
    }
    // The runs' batch-norm statistics become slices of the fused model's, which its training-mode
    // passes update; the runs' own evaluations read them there.
    for (const auto& item : fused->named_buffers()) {
        torch::Tensor buffer = item.value();
        if (buffer.dim() == 0) {
            continue; // num_batches_tracked: unused with a momentum (particleblocks.cpp)
        }
        const int64_t rows = buffer.size(0) / runs;
        for (int64_t g = 0; g < runs; ++g) {
            Slot& slot = slots[static_cast<size_t>(g)];
            if (!slot.joined) {
                continue;
            }
            torch::Tensor* own = slot.model->named_buffers().find(item.key());
            if (own == nullptr || own->size(0) != rows) {
                throw RunError("fused buffer " + item.key() + " has no run buffer of 1/" + std::to_string(runs) + " its size");
            }
            auto slice = buffer.narrow(0, g * rows, rows);
            slice.copy_(*own);
            own->set_data(slice);
        }
    }
}

void FusedRunGroup::State::forwardPass(const std::vector<bool>& active)
{
    if (!fused) {
        build(active);
    }
    const Slot* first = nullptr;
    for (size_t g = 0; g < slots.size(); ++g) {
        if (active[g]) {
            first = &slots[g];
            break;
        }
    }
    const torch::Tensor reference = first->images;
    std::vector<torch::Tensor> weights;
    std::vector<torch::Tensor> inputs;
    for (size_t g = 0; g < slots.size(); ++g) {
        Slot& slot = slots[g];
        const bool live = active[g] && slot.joined;
        if (live && slot.images.sizes() != reference.sizes()) {
            throw RunError("the runs of a fused group brought batches of different shapes at one step ("
                           + std::to_string(slot.images.size(0)) + " and " + std::to_string(reference.size(0))
                           + " images): their training sets or batch sizes differ");
        }
        weights.push_back(live ? slot.optimizer->flatParameters() : zeros);
        inputs.push_back(live ? slot.images : torch::zeros_like(reference));
        if (live && recordSums) {
            slot.imageSums.push_back(slot.images.sum().item<double>());
        }
    }
    {
        torch::NoGradGuard noGrad;
        torch::index_select_out(fusedFlat, torch::cat(weights), 0, gatherIndex);
    }
    fusedLogits = fused->forward(torch::cat(inputs, 1));
    const int64_t m = fused->particlesPerRun();
    for (size_t g = 0; g < slots.size(); ++g) {
        if (active[g]) {
            slots[g].logits = fusedLogits.narrow(0, static_cast<int64_t>(g) * m, m).detach().requires_grad_(true);
        }
    }
    ++steps;
}

void FusedRunGroup::State::backwardPass(const std::vector<bool>& active)
{
    const int64_t m = fused->particlesPerRun();
    std::vector<torch::Tensor> gradients;
    for (size_t g = 0; g < slots.size(); ++g) {
        const torch::Tensor& leaf = slots[g].logits;
        gradients.push_back(active[g] && leaf.defined() && leaf.grad().defined()
                                ? leaf.grad()
                                : torch::zeros_like(fusedLogits.narrow(0, static_cast<int64_t>(g) * m, m)));
    }
    fusedGradients.zero_();
    fusedLogits.backward(torch::cat(gradients, 0));
    fusedLogits = torch::Tensor();
    torch::NoGradGuard noGrad;
    for (size_t g = 0; g < slots.size(); ++g) {
        Slot& slot = slots[g];
        if (active[g]) {
            slot.logits = torch::Tensor(); // (a slot that left is its leave()'s to clear)
        }
        if (active[g] && slot.joined) {
            slot.optimizer->flatGradients().add_(fusedGradients.index_select(0, gradientIndex[g]));
        }
    }
}

FusedRunGroup::FusedRunGroup(int runs) : m_state(std::make_unique<State>(runs))
{
    if (runs < 1) {
        throw InputError("a fused group needs at least one run");
    }
}

FusedRunGroup::~FusedRunGroup() = default;

int FusedRunGroup::size() const { return static_cast<int>(m_state->slots.size()); }
FusedMember& FusedRunGroup::member(int slot) { return *m_state->members.at(static_cast<size_t>(slot)); }
void FusedRunGroup::leave(int slot) { m_state->leave(slot); }

void FusedRunGroup::recordImageSums(bool enabled)
{
    const std::lock_guard<std::mutex> lock(m_state->mutex);
    m_state->recordSums = enabled;
}

std::vector<double> FusedRunGroup::imageSums(int slot) const
{
    const std::lock_guard<std::mutex> lock(m_state->mutex);
    return m_state->slots.at(static_cast<size_t>(slot)).imageSums;
}

int64_t FusedRunGroup::fusedSteps() const
{
    const std::lock_guard<std::mutex> lock(m_state->mutex);
    return m_state->steps;
}

} // namespace lbd
