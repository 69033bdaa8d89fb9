# The reference of count_and_sum.py's processors: a plain function of every row the source
# delivered (in order) to the expected final view, one row per account (the reference oracle,
# `oracles: [{reference: processors/totals_reference.py:totals}]`).
from pyspark.sql import Row


def totals(rows):
    seen = {}
    for r in rows:
        n, total = seen.get(r.account, (0, 0))
        seen[r.account] = (n + 1, total + r.amount)
    return [Row(account=a, n=n, total=t) for a, (n, t) in seen.items()]
