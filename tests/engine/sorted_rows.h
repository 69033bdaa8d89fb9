// A sorted copy of rows, for order-insensitive comparisons (the operator and TWS test helpers'
// one copy: ops_test_driver.h and tws_test_util.h both offer it).
#pragma once

#include <algorithm>
#include <vector>

#include "streamsim/value.h"

namespace streamsim::testing {

inline std::vector<Row> sorted(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace streamsim::testing
