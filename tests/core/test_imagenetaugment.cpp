// ImageNet's training augmentation on the device: the random resized crop (a box of the image
// resized to the output size) and colour jitter (brightness, contrast, saturation), against
// values worked out by hand; configs without them draw exactly what they drew before.
#include "core/data/augmentation.h"
#include "core/train/configjson.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lbd;

namespace {

const Normalization kUnit{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};

// One extended parameter row: no shift, no flip, no rotation; the crop's area fraction, aspect
// ratio and position fractions; the jitter factors.
torch::Tensor row(float area, float aspect, float atX, float atY, float brightness = 1, float contrast = 1,
                  float saturation = 1)
{
    return torch::tensor({0.0f, 0.0f, 0.0f, 0.0f, area, aspect, atX, atY, brightness, contrast, saturation})
        .view({1, kExtendedAugmentColumns});
}

AugmentSpec cropSpec(int64_t output)
{
    AugmentSpec spec;
    spec.randomResizedCrop = true;
    spec.horizontalFlip = false;
    spec.maxRotationDegrees = 0;
    spec.outputSize = output;
    return spec;
}

// Pixel value = 2 x (column) + 100 x channel... as uint8 [1, 3, size, size].
torch::Tensor ramp(int64_t size)
{
    const auto x = torch::arange(size, torch::kFloat32).view({1, 1, 1, size}).expand({1, 3, size, size});
    const auto channel = torch::arange(3, torch::kFloat32).view({1, 3, 1, 1}) * 20;
    return (x * 2 + channel).to(torch::kUInt8).contiguous();
}

} // namespace

class TestImageNetAugment : public QObject {
    Q_OBJECT
private slots:
    void withoutTheNewOptionsTheDrawsAreUnchanged()
    {
        AugmentSpec classic; // the CIFAR recipe
        Rng first(7), second(7);
        const auto draws = drawAugmentParams(16, classic, first);
        QCOMPARE(draws.size(1), int64_t(4));
        AugmentSpec jittered = classic;
        jittered.brightness = 0.4;
        const auto extended = drawAugmentParams(16, jittered, second);
        QCOMPARE(extended.size(1), kExtendedAugmentColumns);
        // Same shifts, flips and angles for the same seed; only the jitter draws come after them.
        QVERIFY(torch::equal(extended.narrow(1, 0, 4).narrow(0, 0, 1), draws.narrow(0, 0, 1)));
    }

    void resizedCropDrawsStayInTheirRanges()
    {
        AugmentSpec spec = cropSpec(16);
        spec.cropScaleMin = 0.3;
        Rng rng(11);
        const auto draws = drawAugmentParams(2000, spec, rng);
        QCOMPARE(draws.select(1, 0).abs().max().item<float>(), 0.0f); // no padded-crop shift
        QVERIFY(draws.select(1, 4).min().item<float>() >= 0.3f && draws.select(1, 4).max().item<float>() <= 1.0f);
        QVERIFY(draws.select(1, 5).min().item<float>() >= 0.75f - 1e-6f && draws.select(1, 5).max().item<float>() <= 4.0f / 3.0f + 1e-6f);
        QVERIFY(draws.select(1, 6).min().item<float>() >= 0.0f && draws.select(1, 6).max().item<float>() < 1.0f);
        // log-uniform aspect: as many boxes wider than tall as taller than wide (within noise)
        const double wider = draws.select(1, 5).gt(1.0f).to(torch::kFloat64).mean().item<double>();
        QVERIFY2(std::abs(wider - 0.5) < 0.05, qPrintable(QString::number(wider)));
        QCOMPARE(draws.select(1, 8).min().item<float>(), 1.0f); // no jitter asked: factors 1
    }

    void theWholeImageAtItsOwnSizeIsTheImage()
    {
        const auto image = torch::randint(0, 256, {1, 3, 12, 12}, torch::TensorOptions().dtype(torch::kInt64)).to(torch::kUInt8);
        const auto out = augmentBatch(image, row(1, 1, 0.5f, 0.5f), cropSpec(12), kUnit);
        QVERIFY(torch::allclose(out, image.to(torch::kFloat32) / 255.0, 0, 1e-6));
    }

    void aQuarterOfTheAreaAtTheCornerIsThatCorner()
    {
        // 64 x 64, area 1/4, square, position 0: the top-left 32 x 32 box at scale 1.
        const auto image = ramp(64);
        const auto out = augmentBatch(image, row(0.25f, 1, 0, 0), cropSpec(32), kUnit);
        const auto expected = image.narrow(2, 0, 32).narrow(3, 0, 32).to(torch::kFloat32) / 255.0;
        QVERIFY(torch::allclose(out, expected, 0, 1e-6));
        // Position fractions near 1: the bottom-right box.
        const auto last = augmentBatch(image, row(0.25f, 1, 0.999f, 0.999f), cropSpec(32), kUnit);
        QVERIFY(torch::allclose(last, image.narrow(2, 32, 32).narrow(3, 32, 32).to(torch::kFloat32) / 255.0, 0, 1e-6));
    }

    void enlargingInterpolatesAndReadsTheEdgeNotZeros()
    {
        // An 8-wide ramp 0, 2, ..., 14 enlarged to 16: torchvision's half-pixel convention puts
        // output column 0 at source -0.25, clamped to the edge (0), column 1 at 0.25 (0.5),
        // column 15 at 7.25, clamped to 14.
        const auto image = ramp(8);
        const auto out = augmentBatch(image, row(1, 1, 0.5f, 0.5f), cropSpec(16), kUnit) * 255.0;
        const auto red = out[0][0][5];
        QVERIFY(std::abs(red[0].item<float>() - 0.0f) < 1e-4);
        QVERIFY(std::abs(red[1].item<float>() - 0.5f) < 1e-4);
        QVERIFY(std::abs(red[2].item<float>() - 1.5f) < 1e-4);
        QVERIFY(std::abs(red[15].item<float>() - 14.0f) < 1e-4);
        QVERIFY(std::abs(out[0][1][5][0].item<float>() - 20.0f) < 1e-4); // the green channel's edge
    }

    void aBoxTooWideForTheImageIsClampedToIt()
    {
        // Area 1 with aspect 4/3 on a square image would be wider than the image: clamped.
        const auto image = ramp(12);
        const auto out = augmentBatch(image, row(1, 4.0f / 3.0f, 0.3f, 0.3f), cropSpec(12), kUnit);
        QVERIFY(torch::isfinite(out).all().item<bool>());
        QVERIFY(out.min().item<float>() >= 0.0f);
        QCOMPARE(out.max().item<float>() * 255.0f, 22.0f + 40.0f); // the rightmost column of the blue channel
    }

    void colourJitterAsTorchvisionComputesIt()
    {
        AugmentSpec spec = cropSpec(2);
        spec.randomResizedCrop = false;
        spec.padding = 0;
        spec.brightness = spec.contrast = spec.saturation = 0.5;
        // Two pixels: (200, 100, 50) and (0, 50, 100).
        const auto image = torch::tensor({200, 0, 0, 0, 100, 50, 0, 0, 50, 100, 0, 0}, torch::kUInt8).view({1, 3, 2, 2});
        // Brightness 0.5 alone halves every value.
        auto out = augmentBatch(image, row(1, 1, 0.5f, 0.5f, 0.5f), spec, kUnit) * 255.0;
        QVERIFY(std::abs(out[0][0][0][0].item<float>() - 100.0f) < 1e-3 && std::abs(out[0][2][0][1].item<float>() - 50.0f) < 1e-3);
        // Brightness 2 saturates at 255.
        out = augmentBatch(image, row(1, 1, 0.5f, 0.5f, 2.0f), spec, kUnit) * 255.0;
        QVERIFY(std::abs(out[0][0][0][0].item<float>() - 255.0f) < 1e-3);
        // Contrast 0: every pixel of every channel becomes the image's mean grey.
        const double grey0 = 0.299 * 200 + 0.587 * 100 + 0.114 * 50, grey1 = 0.299 * 0 + 0.587 * 50 + 0.114 * 100;
        const double meanGrey = (grey0 + grey1) / 4.0; // over the 2 x 2 pixels (two of them black)
        out = augmentBatch(image, row(1, 1, 0.5f, 0.5f, 1.0f, 0.0f), spec, kUnit) * 255.0;
        QVERIFY2((out - meanGrey).abs().max().item<float>() < 1e-3, qPrintable(QString::number(out.max().item<float>())));
        // Saturation 0: red = green = blue = the pixel's grey.
        out = augmentBatch(image, row(1, 1, 0.5f, 0.5f, 1.0f, 1.0f, 0.0f), spec, kUnit) * 255.0;
        QVERIFY(std::abs(out[0][0][0][0].item<float>() - grey0) < 1e-3);
        QVERIFY(std::abs(out[0][1][0][0].item<float>() - grey0) < 1e-3);
        QVERIFY(std::abs(out[0][2][0][1].item<float>() - grey1) < 1e-3);
    }

    void theConfigKeysAreReadAndChecked()
    {
        nlohmann::json json = toJson(TrainConfig());
        json["augment"]["random_resized_crop"] = true;
        json["augment"]["crop_scale_min"] = 0.35;
        json["augment"]["brightness"] = 0.4;
        const TrainConfig read = trainConfigFromJson(json);
        QVERIFY(read.augment.randomResizedCrop);
        QCOMPARE(read.augment.cropScaleMin, 0.35);
        QCOMPARE(read.augment.brightness, 0.4);
        QCOMPARE(toJson(read)["augment"]["crop_scale_min"].get<double>(), 0.35);
        for (const auto& [key, value] : {std::pair<const char*, double>{"crop_scale_min", 0.0}, {"brightness", 1.5}, {"saturation", -0.1}}) {
            nlohmann::json bad = json;
            bad["augment"][key] = value;
            bool refused = false;
            try {
                trainConfigFromJson(bad).validate();
            } catch (const InputError& error) {
                refused = QString::fromStdString(error.what()).contains(QString::fromLatin1(key));
            }
            QVERIFY2(refused, key);
        }
    }
};

QTEST_APPLESS_MAIN(TestImageNetAugment)
#include "test_imagenetaugment.moc"
