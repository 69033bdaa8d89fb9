"""A stream-stream join's condition (DataFrame.join(other, on=Column)) read into the engine's
join: equalities between a left and a right column (the join keys) and comparisons of the two
sides' event-time columns shifted by intervals (the range), ANDed -- the form Spark's
StreamingJoinHelper draws state watermarks from (`clickAdId = impressionAdId AND clickTime >=
impressionTime AND clickTime <= impressionTime + interval 1 hour`). Anything else is a
NotImplementedError naming what streamsim does not read; the engine checks the rest
(ops/stream_stream_join.h)."""
import re
from typing import Any, Dict, List, Optional, Tuple

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<str>'[^']*')|(?P<id>`[^`]+`|[A-Za-z_][A-Za-z_0-9]*"
                    r"(?:\.(?:`[^`]+`|[A-Za-z_][A-Za-z_0-9]*))*)|(?P<op><=|>=|==|!=|<>|[()<>=+\-]))")
_UNITS = {"millisecond": 1, "second": 1000, "minute": 60_000, "hour": 3_600_000, "day": 86_400_000,
          "week": 7 * 86_400_000}


def _unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"DataFrame.join of two streams on the condition {what} is not built in streamsim (it reads "
        "ANDed equalities of a left and a right column and event-time comparisons shifted by "
        "intervals); see docs/python.md (PySpark jobs)")


def _tokens(text: str) -> List[Tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise _unsupported(repr(text))
        kind = m.lastgroup or "op"
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self, word: Optional[str] = None) -> Optional[str]:
        if self.i >= len(self.toks):
            return None
        v = self.toks[self.i][1]
        if word is not None:
            return v if v.upper() == word else None
        return v

    def take(self) -> Tuple[str, str]:
        if self.i >= len(self.toks):
            raise _unsupported(repr(self.text))
        t = self.toks[self.i]
        self.i += 1
        return t

    def cond(self) -> Any:
        node = self.comparison()
        while self.peek("AND"):
            self.take()
            node = ("and", node, self.comparison())
        if self.peek("OR"):
            raise _unsupported(f"{self.text!r} (OR)")
        return node

    def comparison(self) -> Any:
        left = self.additive()
        if self.peek("BETWEEN"):
            self.take()
            lo = self.additive()
            if not self.peek("AND"):
                raise _unsupported(repr(self.text))
            self.take()
            return ("between", left, lo, self.additive())
        op = self.peek()
        if op in ("=", "==", "<", "<=", ">", ">="):
            self.take()
            return ("cmp", "=" if op == "==" else op, left, self.additive())
        return left

    def additive(self) -> Any:
        node = self.primary()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            node = ("add" if op == "+" else "sub", node, self.primary())
        return node

    def primary(self) -> Any:
        kind, v = self.take()
        if v == "(":
            node = self.cond()
            if self.take()[1] != ")":
                raise _unsupported(repr(self.text))
            return node
        if kind == "id" and v.upper() == "INTERVAL":
            total = 0
            while self.i < len(self.toks) and self.toks[self.i][0] in ("num", "str"):
                n = self.take()[1].strip("'").strip()
                unit = self.take()[1].lower().rstrip("s")
                if unit not in _UNITS or not n.isdigit():
                    raise _unsupported(f"{self.text!r} (interval unit {unit!r})")
                total += int(n) * _UNITS[unit]
            return ("interval", total)
        if kind == "id":
            return ("col", v.split(".")[-1].strip("`"))
        raise _unsupported(f"{self.text!r} ({v!r})")


def _linear(node: Any) -> Tuple[Optional[str], int]:
    """A column shifted by intervals: (column or None, milliseconds)."""
    if node[0] == "col":
        return node[1], 0
    if node[0] == "interval":
        return None, node[1]
    if node[0] in ("add", "sub"):
        a, da = _linear(node[1])
        b, db = _linear(node[2])
        if b is not None and (node[0] == "sub" or a is not None):
            raise _unsupported("with a difference of two columns")
        return a or b, da + db if node[0] == "add" else da - db
    raise _unsupported(f"with {node[0]}")


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}


def read_condition(text: str, left: List[str], right: List[str]) -> Dict[str, Any]:
    """The engine join's keys and range from a condition's SQL: {"on": [...], "rightOn": [...],
    "range": {...} or absent}. `left` and `right` are the two sides' column names."""
    root = _Parser(text).cond()
    conjuncts, stack = [], [root]
    while stack:
        n = stack.pop()
        if n[0] == "and":
            stack += [n[2], n[1]]
        elif n[0] == "between":  # x BETWEEN lo AND hi: lo <= x AND x <= hi
            conjuncts += [("cmp", ">=", n[1], n[2]), ("cmp", "<=", n[1], n[3])]
        else:
            conjuncts.append(n)
    on, right_on, rng = [], [], {}
    for c in conjuncts:
        if c[0] != "cmp":
            raise _unsupported(repr(text))
        _, op, a, b = c
        ca, da = _linear(a)
        cb, db = _linear(b)
        if ca in left and cb in right:
            lcol, rcol, d = ca, cb, db - da  # l op r + (db - da)
        elif ca in right and cb in left:
            lcol, rcol, d, op = cb, ca, da - db, _FLIP[op]
        else:
            raise _unsupported(f"{text!r}: a comparison needs a column of each side ({ca}, {cb})")
        if op == "=":
            if d != 0:
                raise _unsupported(f"{text!r}: an equality with an interval")
            on.append(lcol)
            right_on.append(rcol)
            continue
        if rng.setdefault("left", lcol) != lcol or rng.setdefault("right", rcol) != rcol:
            raise _unsupported(f"{text!r}: ranges over several event-time columns")
        bound = "lower" if op in (">", ">=") else "upper"
        if bound in rng:
            raise _unsupported(f"{text!r}: two {bound} bounds")
        rng[bound] = f"{d}ms"
        if op in ("<", ">"):
            rng[bound + "Strict"] = True
    if not on:
        # Spark's StreamingSymmetricHashJoinExec needs an equi-join key.
        raise _unsupported(f"{text!r} without an equality (Spark: Stream-stream join without "
                           "equality predicate is not supported)")
    out: Dict[str, Any] = {"on": on, "rightOn": right_on}
    if rng:
        out["range"] = rng
    return out
