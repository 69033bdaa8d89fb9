// Where the CLI writes what a run leaves (`--keep`, `--html`): names made from the scenario files'
// paths, each inside the folder given and at most 255 bytes (a file name's limit on Linux), and a
// `--keep` folder that is empty, or one streamsim kept before and the user said to replace.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace streamsim::cli {

// The file name marking a folder `--keep` wrote (so `--replace` never empties another folder).
inline constexpr const char* kKeepMarker = ".streamsim-keep";

// `name` cut to at most 255 bytes with `suffix` appended: a longer one keeps its last bytes and a
// hash of the whole (two long names stay apart). Never holds '/' or is "." or "..".
std::string boundedFileName(std::string_view name, std::string_view suffix);

// One name per scenario file for its own page or folder: the file's stem, or, when two files
// share a stem (x.yaml in two folders), the file's path with '/' as '_' (boundedFileName).
std::vector<std::string> distinctNames(const std::vector<std::string>& files);

// Makes `dir` ready for a run's kept files: absent (created), empty, or -- with `replace` -- a
// folder holding kKeepMarker, emptied. False after saying why on `err`: a file, a folder with
// other files (an earlier run's would mix two checkpoints: offsets/0,1,7), a folder streamsim did
// not keep.
bool prepareKeepDir(const std::string& dir, bool replace, std::string_view command, std::ostream& err);
// Marks `dir` as kept by streamsim (after the copy).
void markKeepDir(const std::string& dir);

}  // namespace streamsim::cli
