"""All the dashboard's SQL, one module per page plus :mod:`dashboard.queries.common` (the shared
filters). A query function takes ``con`` first (a DuckDB connection; it runs on its own cursor)
and returns a DataFrame or a small frozen value; it never imports Streamlit, so tests and
benchmarks call it directly. Pages call it through :func:`dashboard.db.query`, which caches.
"""
