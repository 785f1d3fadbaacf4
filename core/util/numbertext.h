#pragma once
// A number as text for messages. 17 significant digits (the default) quote a double exactly, as
// an error about a value the user typed should; 3 are for factors and weights in warnings.
#include <sstream>
#include <string>

namespace lbd {

inline std::string numberText(double value, int significantDigits = 17)
{
    std::ostringstream out;
    out.precision(significantDigits);
    out << value;
    return out.str();
}

} // namespace lbd
