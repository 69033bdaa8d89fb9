# What a row-mode handler gets for nested input columns in a query (scenarios/types/
# python_row_mode_input_forms.yaml): PySpark's worker reads each column of the Arrow batch with
# .as_py() (TransformWithStateInPySparkRowSerializer), so a struct is a dict, a map a list of
# (key, value) tuples, an array a list, a timestamp an aware datetime (the session time zone),
# and the grouping key is read the same way; a state read gives a struct as a Row and a map as a
# dict (PySpark's pickled rows).
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor


def form(v):
    if hasattr(v, "tzinfo"):  # a datetime: its tzinfo's repr differs between pytz and the stdlib
        return f"datetime {v.isoformat()}"
    return None if v is None else f"{type(v).__name__} {v!r}"


class InputForms(StatefulProcessor):
    def init(self, handle):
        self.last = handle.getValueState("last", "who struct<id: string, zone: int>, attrs map<string, long>")

    def handleInputRows(self, key, rows, timerValues):
        stored = self.last.get()
        for r in rows:
            yield Row(key=form(key[0]), who=form(r.who), attrs=form(r.attrs), tags=form(r.tags), at=form(r.at),
                      stored_who=form(stored[0]) if stored else None,
                      stored_attrs=form(stored[1]) if stored else None)
            # State takes PySpark's state forms: a dict for the map (a list of pairs is refused).
            self.last.update((r.who, dict(r.attrs)))

    def close(self):
        pass
