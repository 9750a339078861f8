"""A live table, taken apart by concern.

``actor.TableActor`` is the referee of one table: it runs the table's operations
(``ops``) one at a time on its own task and hands each to its handler (``HANDLERS``).
Handlers are functions of a ``context.TableContext`` (the table's ``state.TableState``,
an ``outbox.Outbox`` to its members, its ``store.TableStore`` and ``Notices`` to the
process) and the operation, one module per concern: ``arrivals`` (connections join and
part), ``seating`` (seats, grace, the deal), ``standins``, ``play`` (moves, timeouts,
bot moves, a rebuilt game), ``finish``, ``between_rounds``, ``turns`` (the clock and
the bots after each change), ``talk`` (chat and last-card calls), ``hinting`` and
``rematcher``. ``messages`` builds what each seat is sent from the state. The parts the
state holds are small: ``seats``, ``members``, ``clock``, ``rounds``, ``presence``,
``chat``, ``bots``. The seam to the members' transports (WebSockets today) is
``transport``; ``fanout`` carries text to the connections on this process.
"""
