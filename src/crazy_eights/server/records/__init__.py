"""The records layer: the one place that reads and writes stored games.

- ``games``: ``load_game(conn, table_id, *parts)``, a table with the parts of it a caller
  needs (seats, moves, chat, the number of moves), and the finished games of an account.
- ``info``: the ``TableInfo`` of a stored table, for a table no process runs any more.
- ``finish``: the end of a game as an event (``GameFinished``) and who hears of it.
- ``tables``: ``SqlTableStore``, the table core's ``TableStore`` on the room's database.

Features (records, evaluation, analysis, achievements, the lobby) query stored games
through here; the table core writes them through ``SqlTableStore``.
"""
