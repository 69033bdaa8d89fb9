"""Spark's interval strings ("10 seconds", "1 minute", "500 milliseconds", "2 hours") in ms, as
Trigger.ProcessingTime and withWatermark read them (CalendarInterval: a number and a unit)."""

import re

_UNITS = {
    "ms": 1, "millisecond": 1, "milliseconds": 1, "msec": 1, "msecs": 1,
    "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
    "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000, "minutes": 60_000,
    "h": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
    "d": 86_400_000, "day": 86_400_000, "days": 86_400_000,
    "week": 604_800_000, "weeks": 604_800_000,
}

_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)")


def duration_ms(text: str, what: str) -> int:
    """``text`` as milliseconds; ValueError naming ``what`` for a string that is not one."""
    s = str(text).strip()
    if s.lower().startswith("interval "):
        s = s[len("interval "):]
    total, pos = 0.0, 0
    while pos < len(s):
        m = _PART.match(s, pos)
        if not m or m.group(2).lower() not in _UNITS:
            raise ValueError(f"{what}: cannot parse the interval {text!r} (expected e.g. "
                             "'10 seconds', '1 minute', '500 milliseconds')")
        total += float(m.group(1)) * _UNITS[m.group(2).lower()]
        pos = m.end()
    if pos == 0:
        raise ValueError(f"{what}: cannot parse the interval {text!r}")
    return int(total)
