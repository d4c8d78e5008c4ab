"""The pure OFC domain: cards, row strength, rulesets, scoring (scalar and batch), play engine.

No I/O, and never imports streamlit, duckdb, pandas or plotly.
"""
