// copyShort (engine/src/state/short_copy.h): every length from 0 to past its memcpy threshold,
// at every alignment of source and destination, copies exactly those bytes and nothing around
// them.
#include "../../engine/src/state/short_copy.h"

#include <string>

#include <gtest/gtest.h>

namespace streamsim::detail {
namespace {

TEST(ShortCopy, CopiesEveryLengthAndAlignmentExactly) {
  std::string src(200, '\0');
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>(i * 37 + 11);
  for (size_t n = 0; n <= 130; ++n)
    for (size_t from = 0; from < 8; ++from)
      for (size_t to = 0; to < 8; ++to) {
        std::string dst(200, '\x5a');
        copyShort(dst.data() + to, src.data() + from, n);
        const std::string expected =
            std::string(to, '\x5a') + src.substr(from, n) + std::string(200 - to - n, '\x5a');
        ASSERT_EQ(dst, expected) << "n " << n << ", from " << from << ", to " << to;
      }
}

}  // namespace
}  // namespace streamsim::detail
