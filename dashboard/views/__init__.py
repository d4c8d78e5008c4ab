"""The dashboard's pages (listed in ``dashboard/app.py``): each is a thin script, a query from
:mod:`dashboard.queries` and a chart or table."""
