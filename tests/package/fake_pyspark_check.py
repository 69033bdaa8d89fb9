"""Run in the pip install's virtual environment with fake `pyspark` and `delta` packages first on the path
(tests/package/pip_install.cmake): streamsim's calls use streamsim's pyspark, and `import pyspark`
gives the fake one before, between and after them."""

import os
import sys

import delta
import pyspark

assert pyspark.FAKE, "the fake pyspark is not first on the path"
assert delta.FAKE, "the fake delta is not first on the path"

import streamsim  # noqa: E402
from streamsim.pyspark import TwsTester  # noqa: E402  (its module imports streamsim's pyspark)

assert sys.modules["pyspark"] is pyspark, "importing streamsim replaced the user's pyspark"

scenario = os.path.join(sys.argv[1], "scenarios", "totals.yaml")
result = streamsim.run(scenario)
assert result["passed"], result["output"]
assert sys.modules["pyspark"] is pyspark, "streamsim.run left its pyspark in sys.modules"

with streamsim.pyspark_shim():
    import pyspark as inside
    assert not hasattr(inside, "FAKE"), "inside streamsim, pyspark is streamsim's"
    from delta.tables import DeltaTable  # delta-spark's API, over streamsim's Delta stand-in
    assert not hasattr(sys.modules["delta"], "FAKE"), "inside streamsim, delta is streamsim's"
    from pyspark.sql import Row
    sys.path.insert(0, sys.argv[1])
    import totals_job
    tester = TwsTester(totals_job.TotalPerUser())
    assert tester.test("ann", [Row(user="ann", amount=4)]) == [Row(user="ann", total=4)]

import pyspark as after  # noqa: E402
assert after is pyspark and after.FAKE, "after streamsim's calls the fake pyspark is back"
import delta as delta_after  # noqa: E402
assert delta_after is delta, "after streamsim's calls the fake delta is back"
assert tester.peekValueState("total", "ann") == (4,)  # a TwsTester call outside the block
assert sys.modules["pyspark"] is pyspark
print("fake pyspark kept working")
