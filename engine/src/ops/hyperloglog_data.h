// HyperLogLog++'s empirical tables (hyperloglog_data.cc), index precision - 4 (4..18).
#pragma once

#include <span>

namespace streamsim::ops::hll_data {

extern const double kThresholds[15];
extern const std::span<const double> kRawEstimates[15];
extern const std::span<const double> kBiases[15];

}  // namespace streamsim::ops::hll_data
