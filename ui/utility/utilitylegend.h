#pragma once
// The colour bar of the utility heatmap (value -> colour, from -scale to +scale) and the key of
// the head / med / tail bands along its axes.
#include <QWidget>

#include "core/data/regions.h"

namespace lbd::ui {

class UtilityLegend final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UtilityLegend)

public:
    explicit UtilityLegend(QWidget* parent = nullptr);

    void setScale(double scale);
    double scale() const { return m_scale; }
    void setRegionScheme(lbd::RegionScheme scheme);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double m_scale = 1.0;
    lbd::RegionScheme m_scheme = lbd::RegionScheme::ThirdsByIndex;
};

} // namespace lbd::ui
