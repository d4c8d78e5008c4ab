"""The reader of FPDB's captures of Seals with Clubs, one module a job (the registry entry is
``ingest/formats/fpdb_swc.py``; ``docs/formats.md`` maps every field and quirk):

- :mod:`.capture`: SwC's vocabulary (game codes, card ids and face-down cards, seats' cards,
  money messages) and :class:`~.capture.Capture`, one hand as a capture saw it;
- :mod:`.record`: a capture made a hand record (streets rebuilt from snapshots, the variant,
  the stake), every hand guarded so that one hand's problem is that hand's only;
- :mod:`.frames`: ``raw_messages.jsonl``, the websocket frames;
- :mod:`.hand_file`: FPDB's ``hand_<id>.json``;
- :mod:`.database`: FPDB's SQLite tables.
"""
