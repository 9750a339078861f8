"""The HTTP and WebSocket routes, one module per feature (``auth``, ``lobby``,
``match``, ``records``, ``analysis``, ``evaluation``, ``achievements``, ``meta``).

A route reads its request, asks a service of the room (``deps.RoomDep``) and answers;
the services hold no routes. The table's own socket is ``table_socket.py``.
"""
