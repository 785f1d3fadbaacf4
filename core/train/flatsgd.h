#pragma once
// SGD with (Nesterov) momentum and weight decay over one flat buffer of all parameters.
// The model's parameters and their gradients become views into two contiguous buffers, so a
// step is four whole-buffer kernels instead of several per parameter (eager LibTorch spends
// much of a ResNet-32 step in per-parameter optimiser ops), and the learning rate lives in a
// device tensor, so the step can be captured in a CUDA graph and replayed with a new rate.
#include <torch/torch.h>

#include <vector>

namespace lbd {

class FlatSgd {
public:
    // channelsLast: 4-D (convolution) weights become channels-last views, the layout cuDNN's
    // fastest NHWC kernels want on CUDA; the update itself is layout-blind.
    FlatSgd(std::vector<torch::Tensor> parameters, double momentum, bool nesterov, double weightDecay,
            bool channelsLast = false);

    void zeroGrad();
    void step(); // uses the learning rate set by setLearningRate
    // fp16 loss scaling (CUDA): the gradients were computed for loss * scale. Divides them by
    // `scale` and applies the step only when they are all finite (else parameters and momentum
    // stay as they were, foundInf becomes 1), then updates scale and growthTracker as
    // torch.amp.GradScaler does. Everything stays on the device: no host sync, graph-capturable.
    // scale: float [1]; growthTracker: int32 [1]; foundInf: float [1].
    void stepUnscaled(torch::Tensor& scale, torch::Tensor& growthTracker, torch::Tensor& foundInf);
    void setLearningRate(double learningRate);
    double learningRate() const { return m_learningRateValue; }

    torch::Tensor& flatParameters() { return m_parameters; }
    torch::Tensor& momentumBuffer() { return m_momentum; }
    torch::Tensor& flatGradients() { return m_gradients; }
    int64_t parameterCount() const { return m_parameters.numel(); }
    // The parameters in the order of the flat buffers: parameter i occupies the numel() elements
    // after those of parameters 0..i-1.
    const std::vector<torch::Tensor>& parameters() const { return m_parameterList; }

private:
    std::vector<torch::Tensor> m_parameterList;
    torch::Tensor m_parameters; // fp32, every parameter a view into it
    torch::Tensor m_gradients;  // same layout
    torch::Tensor m_momentum;
    torch::Tensor m_update;     // scratch
    torch::Tensor m_learningRate; // 0-dim, on the device
    double m_learningRateValue = 0;
    double m_momentumFactor;
    bool m_nesterov;
    double m_weightDecay;
};

} // namespace lbd
