// Base64 as Java's java.util.Base64 does it, which Spark's base64 / unbase64 and its JSON writer
// use: the RFC 4648 alphabet with '=' padding; the MIME encoder breaks lines every 76 characters
// with "\r\n" (none after the last); the MIME decoder skips every character outside the alphabet
// and throws Java's IllegalArgumentException for a bad ending ("Input byte array has wrong 4-byte
// ending unit", "Last unit does not have enough valid bits"). Pure functions.
#pragma once

#include <string>
#include <string_view>

#include "streamsim/status.h"

namespace streamsim {

// Base64.getEncoder() (mimeLines false) or getMimeEncoder() (true).
std::string base64Encode(std::string_view bytes, bool mimeLines);
// Base64.getMimeDecoder().decode; InvalidArgument with Java's message on a bad ending.
Result<std::string> base64DecodeMime(std::string_view text);

}  // namespace streamsim
