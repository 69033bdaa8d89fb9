"""spark.sql("MERGE INTO ...") (pyspark/sql/_merge_sql.py) on the Delta stand-in: the Delta
documentation's foreachBatch upsert run as a job with a crash and a restart, each clause form of
Delta's MERGE grammar, and what is not built saying so."""

import pytest

from job_support import load_job, rows_of
from streamsim.world import DriverCrashed


def test_foreach_batch_sql_merge_upserts_counts_across_a_crash(world):
    world.put("/landing/events/1.json", rows=[{"action": "open", "ts": "2026-01-01T00:00:00Z"},
                                              {"action": "close", "ts": "2026-01-01T00:00:01Z"},
                                              {"action": "open", "ts": "2026-01-01T00:00:02Z"}])
    job = load_job("files_counts_sql_merge")
    q = job.main()
    assert rows_of(world.spark.sql("SELECT action, count FROM action_counts ORDER BY action")) == \
        [("close", 1), ("open", 2)]
    world.put("/landing/events/2.json", rows=[{"action": "open", "ts": "2026-01-01T00:00:05Z"},
                                              {"action": "view", "ts": "2026-01-01T00:00:06Z"}])
    world.crash_at("commits.before_write")
    with pytest.raises(DriverCrashed):
        q.processAllAvailable()
    world.restart(job.main)
    # The re-run batch merges again: an upsert of the same counts, the same table.
    assert rows_of(world.spark.sql("SELECT action, count FROM action_counts ORDER BY action")) == \
        [("close", 1), ("open", 3), ("view", 1)]


@pytest.fixture
def tables(world):
    s = world.spark
    s.sql("CREATE TABLE target (id INT, v STRING, n INT) USING DELTA")
    s.createDataFrame([(1, "a", 1), (2, "b", 2), (3, "c", 3)], "id int, v string, n int") \
        .write.format("delta").mode("append").saveAsTable("target")
    s.createDataFrame([(2, "B", 20), (3, "C", 30), (4, "D", 40)], "id int, v string, n int") \
        .createOrReplaceTempView("src")
    return s


def test_merge_clauses_with_conditions_sets_and_values(tables):
    s = tables
    metrics = s.sql("""MERGE INTO target AS t USING src AS s ON t.id = s.id
                       WHEN MATCHED AND s.id = 3 THEN DELETE
                       WHEN MATCHED THEN UPDATE SET t.v = s.v, n = CASE WHEN s.n > 10 THEN s.n ELSE 0 END
                       WHEN NOT MATCHED AND s.n > 0 THEN INSERT (id, v) VALUES (s.id, concat(s.v, '!'))""")
    assert [tuple(r) for r in metrics.collect()] == [(3, 1, 1, 1)]
    assert rows_of(s.sql("SELECT id, v, n FROM target ORDER BY id")) == \
        [(1, "a", 1), (2, "B", 20), (4, "D!", None)]


def test_merge_without_aliases_names_the_tables(tables):
    s = tables
    s.sql("MERGE INTO target USING src ON target.id = src.id WHEN NOT MATCHED THEN INSERT *")
    assert rows_of(s.sql("SELECT id FROM target ORDER BY id")) == [(1,), (2,), (3,), (4,)]


def test_what_merge_does_not_build_says_so(tables):
    s = tables
    with pytest.raises(NotImplementedError, match="NOT MATCHED BY SOURCE"):
        s.sql("MERGE INTO target t USING src s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE")
    with pytest.raises(NotImplementedError, match="subquery"):
        s.sql("MERGE INTO target t USING (SELECT * FROM src) s ON t.id = s.id WHEN MATCHED THEN DELETE")
    with pytest.raises(Exception, match="PARSE_SYNTAX_ERROR"):
        s.sql("MERGE INTO target t USING src s ON t.id = s.id WHEN MATCHED THEN UPSERT")
