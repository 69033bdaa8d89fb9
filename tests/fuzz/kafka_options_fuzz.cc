// Fuzzes the Kafka source's option parsers (engine/src/io/kafka_source.cc, issue 35): the bytes
// as Spark's offset JSON (parseKafkaOffsets), as a topic name (validateKafkaTopicName) and as the
// source's options (makeKafkaSource: subscribe, startingOffsets, failOnDataLoss,
// maxOffsetsPerTrigger, endingOffsets). Nothing aborts or throws; offsets that parse are written
// (kafkaOffsetsJson) and read back equal; a topic name Kafka's rules accept creates a topic.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "streamsim/io/kafka_source.h"
#include "streamsim/sim/kafka_log.h"

using namespace streamsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto offsets = parseKafkaOffsets(text, "fuzz");
    if (offsets.ok()) {
      auto back = parseKafkaOffsets(kafkaOffsetsJson(*offsets), "round trip");
      if (!back.ok() || *back != *offsets) std::abort();
    }
    const bool legal = validateKafkaTopicName(text).ok();
    auto log = std::make_shared<sim::KafkaLog>();
    if (legal != log->createTopic(std::string(text), sim::TopicConfig{}).ok()) std::abort();
    // The first byte picks an option, the rest is its value; a topic "events" always exists.
    if (!log->createTopic("events", sim::TopicConfig{}).ok()) std::abort();
    static const char* const kKeys[] = {"subscribe", "startingOffsets", "failOnDataLoss",
                                        "maxOffsetsPerTrigger", "endingOffsets", "unknown"};
    std::map<std::string, std::string> options{{"subscribe", "events"}};
    if (size > 0) options[kKeys[data[0] % 6]] = std::string(text.substr(1));
    (void)makeKafkaSource(log, options);
  } catch (const std::exception&) {
    std::abort();
  }
  return 0;
}
