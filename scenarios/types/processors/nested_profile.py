# A purchase profile per user in nested state values, written as a PySpark processor is (issue 14
# §4 for Python processors): a ValueState whose value holds a struct, an array and a map, a
# ListState of structs and a MapState whose value is an array; each batch emits the profile in
# nested output columns, given in each of the forms PySpark takes (a Row and a dict for a struct,
# a list for an array, a dict for a map, None for null).
from typing import Iterator

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.types import ArrayType, LongType, MapType, StringType, StructField, StructType

PURCHASE = StructType([StructField("item", StringType()), StructField("price", LongType())])
PROFILE = StructType([
    StructField("last", PURCHASE),
    StructField("items", ArrayType(StringType())),
    StructField("spend", MapType(StringType(), LongType())),
])


class NestedProfile(StatefulProcessor):
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.profile = handle.getValueState("profile", PROFILE)
        self.recent = handle.getListState("recent", "buy struct<item: string, price: long>")
        self.prices = handle.getMapState("prices", "item string", "seen array<long>")

    def handleInputRows(self, key, rows: Iterator[Row], timerValues) -> Iterator[Row]:
        old = self.profile.get()
        last, items, spend = old if old is not None else (None, [], {})
        items, spend = list(items), dict(spend)
        for r in rows:
            last = Row(item=r.item, price=r.price)
            if r.item not in items:
                items.append(r.item)
            spend[r.item] = spend.get(r.item, 0) + r.price
            self.recent.appendValue((last,))
            seen = self.prices.getValue((r.item,))
            self.prices.updateValue((r.item,), ((list(seen[0]) if seen else []) + [r.price],))
        self.profile.update((last, items, spend))
        recent = [b[0] for b in self.recent.get()][-2:]  # structs read back as named Rows
        yield Row(user=key[0], last={"item": last.item, "price": last.price}, items=items,
                  spend=spend, recent=recent, coupon=None)

    def close(self) -> None:
        pass
