"""The Spark session ``ofc spark`` runs in, and the check that Java is there."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from pyspark.sql import SparkSession

JAVA_PACKAGE = "openjdk-17-jre-headless"
"""Debian's package of the Java runtime Spark 4 needs."""


class NoJava(RuntimeError):
    """Spark cannot start: no Java runtime (the message says what to install)."""


def java_missing() -> str | None:
    """Why Spark cannot start for want of Java, or ``None`` when a ``java`` is found (on
    ``$JAVA_HOME/bin`` or the ``PATH``)."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return None
    if shutil.which("java"):
        return None
    return (f"ofc spark needs Java 17 or later, and no java was found (JAVA_HOME, PATH): "
            f"install it, e.g. apt-get install {JAVA_PACKAGE}")


LOCAL_MEMORY = "4g"
"""The JVM heap of a local-mode session (driver and executor in one JVM) unless told
otherwise: Spark's own default, 1 GB, runs out on about a million hands in four partitions."""


def session(master: str | None = None, *, app: str = "ofc-analytics",
            shuffle_partitions: int | None = None,
            memory: str | None = None) -> SparkSession:
    """A session on ``master`` (``local[2]``, ``spark://host:7077``, ``yarn``...; ``None``
    keeps what ``spark-submit`` chose, else Spark's default ``local[*]``), with the UI
    off and Arrow batches for the Python steps. ``memory`` is the driver's heap
    (``spark.driver.memory``; in local mode the one JVM's, :data:`LOCAL_MEMORY` by default);
    it takes effect only when this call starts the JVM. Raises :class:`NoJava`."""
    problem = java_missing()
    if problem is not None:
        raise NoJava(problem)
    builder = (SparkSession.builder.appName(app)
               .config("spark.ui.enabled", "false")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS"))
    if shuffle_partitions is not None:
        builder = builder.config("spark.sql.shuffle.partitions", str(shuffle_partitions))
    if memory is None and master is not None and master.startswith("local"):
        memory = LOCAL_MEMORY
    if memory is not None:
        builder = builder.config("spark.driver.memory", memory)
    if master is not None:
        builder = builder.master(master)
        if master.startswith("local") and "PYSPARK_PYTHON" not in os.environ:
            # local workers run this interpreter (its venv has the package), not `python3`
            os.environ["PYSPARK_PYTHON"] = sys.executable
    return builder.getOrCreate()
