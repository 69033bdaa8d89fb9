// Text from input data (a scenario's file name or rows, a report's fields, a checkpoint's paths)
// made safe for where it is written: a terminal, an XML file. The HTML pages escape with
// escapeMarkup (html_report.h) and write their data as JSON (scriptJson).
#pragma once

#include <string>
#include <string_view>

namespace streamsim::harness {

// `s` with every control character shown, never sent: a C0 byte (ESC, NUL, BEL, CR...) and DEL as
// `\x1b`, a C1 control (U+0080..U+009F, the 8-bit CSI among them) as `\u009b`, a byte that is not
// UTF-8 as `\xff` (a backslash stays: a replay line shown must still paste into a shell). Line
// breaks and tabs are kept when `keepLineBreaks` (a multi-line report), shown otherwise (a file
// name). What every command prints from input data goes through this.
std::string shownForTerminal(std::string_view s, bool keepLineBreaks = false);

// `s` as XML 1.0 character data or a quoted attribute value, well-formed whatever its bytes:
// & < > " as entities, a character XML 1.0 forbids even as a reference (C0 controls but tab, line
// feed and carriage return; U+FFFE, U+FFFF) shown as `\x01` text, a byte that is not UTF-8 as
// U+FFFD (as Java's decoder reads it). The sweep's JUnit report writes every string through it.
std::string xmlText(std::string_view s);

}  // namespace streamsim::harness
