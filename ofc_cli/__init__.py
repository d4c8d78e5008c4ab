"""The ``ofc`` command: the layer above ``ingest``, ``dashboard`` and ``ofc_core``.

Each subcommand lives in its own module ``ofc_cli.cmd_<name>``; nothing below imports this
package."""
