"""Helpers shared by the test modules (a test module never imports another test module).

- :mod:`tests.helpers.browser`: the dashboard served by ``ofc dashboard`` and driven in
  headless Chromium (the session's one browser and two servers are fixtures in
  ``tests/conftest.py``: ``browser``, ``demo_dashboard``, ``writable_dashboard``, ``tab``);
- :mod:`tests.helpers.store`: reading a store back, the scalar scorer's check of a stored hand,
  hand-written ofc-hh/1 lines;
- :mod:`tests.helpers.apptest`: Streamlit's AppTest on a database;
- :mod:`tests.helpers.spark`: the tables of ``ofc export --parquet`` and ``ofc spark score``
  read back as comparable rows;
- :mod:`tests.helpers.hypo`: the Hypothesis profiles (``dev`` quick, ``ci`` full).

Import them as ``from tests.helpers.browser import settle`` (the README's ``python -m pytest``
puts the checkout first on ``sys.path``).
"""
