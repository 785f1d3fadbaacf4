#include "ui/widgets/smoothedseries.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lbd::ui {

std::vector<double> smoothSeries(const std::vector<double>& values, double weight)
{
    const double w = std::clamp(weight, 0.0, 0.999);
    std::vector<double> out;
    out.reserve(values.size());
    double average = 0.0;
    int count = 0;
    for (double value : values) {
        if (!std::isfinite(value)) {
            out.push_back(value);
            continue;
        }
        average = w * average + (1.0 - w) * value;
        ++count;
        out.push_back(average / (1.0 - std::pow(w, count)));
    }
    return out;
}

double SmoothedSeries::next(double value)
{
    if (!std::isfinite(value)) {
        return value;
    }
    m_average = m_weight * m_average + (1.0 - m_weight) * value;
    ++m_count;
    return m_average / (1.0 - std::pow(m_weight, m_count));
}

void SmoothedSeries::add(double key, double value)
{
    m_keys.push_back(key);
    m_values.push_back(value);
    m_graph->addData(key, next(value));
}

void SmoothedSeries::setWeight(double weight)
{
    m_weight = std::clamp(weight, 0.0, 0.999);
    const std::vector<double> smoothed = smoothSeries(m_values, m_weight);
    m_average = 0.0;
    m_count = 0;
    for (double value : m_values) { // the running state, so later points continue the curve
        if (std::isfinite(value)) {
            m_average = m_weight * m_average + (1.0 - m_weight) * value;
            ++m_count;
        }
    }
    m_graph->setData(QVector<double>(m_keys.begin(), m_keys.end()), QVector<double>(smoothed.begin(), smoothed.end()), true);
}

void SmoothedSeries::clear()
{
    m_keys.clear();
    m_values.clear();
    m_average = 0.0;
    m_count = 0;
    m_graph->data()->clear();
}

} // namespace lbd::ui
