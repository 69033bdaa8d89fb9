// Quoting for the command lines the tool prints for a person to run (reproduce and replay lines):
// one rule, so that every printed line runs as printed in a POSIX shell.
#pragma once

#include <string>

namespace streamsim::harness {

// `s` as one shell word: as it is when it holds only letters, digits and _-./:,=@%+ (a plain
// path, a workload name), else in single quotes, each ' written as '\'' (the shell reads it back
// byte for byte).
std::string shellQuote(const std::string& s);

}  // namespace streamsim::harness
