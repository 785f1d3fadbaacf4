#pragma once
// A small live plot of the class weights w_c = 1/f(n_c) that the chosen discrepancy ratio gives
// for the current class counts (normalised to mean 1, log scale), coloured by region.
#include <QWidget>

#include <cstdint>
#include <vector>

#include "core/lbd/discrepancyratio.h"

class QCustomPlot;

namespace lbd::ui {

class ClassWeightPlot final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClassWeightPlot)

public:
    explicit ClassWeightPlot(QWidget* parent = nullptr);

    // Returns the weights drawn (empty when they cannot be computed, e.g. no counts yet).
    std::vector<double> setWeights(const std::vector<int64_t>& counts, const lbd::DiscrepancySpec& spec);

private:
    QCustomPlot* m_plot = nullptr;
};

} // namespace lbd::ui
