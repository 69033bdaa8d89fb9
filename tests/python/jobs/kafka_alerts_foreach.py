"""Sensor readings from Kafka; readings above a threshold are sent, row by row, to an external
alerting service by a ForeachWriter that skips an epoch it already delivered (open() returns
False), the idempotent writer Spark's foreach documentation describes (written the way public
PySpark jobs are). The service is a module-level stand-in for an external system."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, from_json
from pyspark.sql.types import DoubleType, StringType, StructField, StructType


class AlertService:
    """The external system: what it received, and the (partition, epoch) pairs committed."""

    def __init__(self):
        self.alerts = []
        self.committed = set()
        self.opens = []


SERVICE = AlertService()


def connect():
    """A client of the alerting service (each task connects in open(), as writers do: the writer
    object is pickled to every task, a connection could not be)."""
    return SERVICE

schema = StructType([
    StructField("sensor", StringType()),
    StructField("reading", DoubleType()),
])


class AlertWriter:
    def __init__(self):
        self.pending = []

    def open(self, partition_id, epoch_id):
        self.service = connect()
        self.key = (partition_id, epoch_id)
        self.service.opens.append(self.key)
        return self.key not in self.service.committed

    def process(self, row):
        self.pending.append((row.sensor, row.reading))

    def close(self, error):
        if error is None:
            self.service.alerts.extend(self.pending)
            self.service.committed.add(self.key)


def main():
    spark = SparkSession.builder.appName("sensor-alerts").getOrCreate()
    readings = (spark.readStream.format("kafka")
                .option("kafka.bootstrap.servers", "broker:9092")
                .option("subscribe", "readings")
                .option("startingOffsets", "earliest")
                .load()
                .select(from_json(col("value").cast("string"), schema).alias("r"))
                .select("r.*")
                .where(col("reading") > 100))
    query = (readings.writeStream
             .foreach(AlertWriter())
             .option("checkpointLocation", "/checkpoints/alerts")
             .start())
    query.awaitTermination()
    return query


if __name__ == "__main__":
    main()
