#include "core/util/device.h"

#include "core/compat/torchcompat.h"
#include "core/util/error.h"

#include <thread>

namespace lbd {

torch::Device parseDevice(const std::string& text)
{
    if (text == "cpu") {
        return torch::Device(torch::kCPU);
    }
    if (text == "auto") {
        return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
    }
    if (text == "cuda" || text.rfind("cuda:", 0) == 0) {
        int index = 0;
        if (text.size() > 5) {
            size_t used = 0;
            try {
                index = std::stoi(text.substr(5), &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != text.size() - 5 || index < 0) {
                throw InputError("device '" + text + "' is not valid (use cpu, cuda or cuda:N)");
            }
        }
        if (!torch::cuda::is_available()) {
            throw InputError("device '" + text + "': no CUDA GPU is available (this LibTorch build or machine has none); use --device cpu");
        }
        if (index >= static_cast<int>(torch::cuda::device_count())) {
            throw InputError("device '" + text + "': only " + std::to_string(torch::cuda::device_count()) + " CUDA device(s) found");
        }
        return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
    }
    throw InputError("device '" + text + "' is not valid (use cpu, cuda, cuda:N or auto)");
}

std::string deviceDescription(const torch::Device& device)
{
    if (device.is_cuda()) {
        const int index = device.has_index() ? device.index() : 0;
        return "cuda:" + std::to_string(index) + " " + compat::cudaDeviceName(index);
    }
    return "cpu (" + std::to_string(torch::get_num_threads()) + " threads)";
}

void useAllCpuCores()
{
    const auto cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    torch::set_num_threads(cores);
}

} // namespace lbd

namespace lbd {

void configureDevice(const torch::Device& device)
{
    if (device.is_cuda()) {
        at::globalContext().setBenchmarkCuDNN(true);
        compat::setCurrentDevice(device); // a rank on cuda:1 makes no context on cuda:0
    }
}

} // namespace lbd
