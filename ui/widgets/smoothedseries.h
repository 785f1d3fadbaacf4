#pragma once
// A curve shown smoothed, as TensorBoard smooths scalars: a debiased exponential moving average
// s_n = m_n / (1 - w^n) with m_n = w m_{n-1} + (1 - w) y_n, m_0 = 0, so the first point is the
// value itself and the curve does not start near zero. Weight w in [0, 1): 0 shows the raw
// values. Points are added one at a time in O(1); a new weight recomputes the whole curve.
// A non-finite value is shown as it is and leaves the average alone (TensorBoard does the same).
#include <cstddef>
#include <vector>

class QCPGraph;

namespace lbd::ui {

// The whole smoothed series (the reference the incremental one below must equal).
std::vector<double> smoothSeries(const std::vector<double>& values, double weight);

class SmoothedSeries {
public:
    explicit SmoothedSeries(QCPGraph* graph) : m_graph(graph) {}

    void add(double key, double value);
    void setWeight(double weight); // redraws the graph
    void clear();
    QCPGraph* graph() const { return m_graph; }
    size_t size() const { return m_keys.size(); }

private:
    double next(double value);

    QCPGraph* m_graph;
    std::vector<double> m_keys;
    std::vector<double> m_values; // raw
    double m_weight = 0.0;
    double m_average = 0.0;
    int m_count = 0;
};

} // namespace lbd::ui
