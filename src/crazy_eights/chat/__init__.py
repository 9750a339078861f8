"""Card tables hosted in chat rooms: a host bot for IRC (and, later, Matrix).

The host's logic knows no network: ``parse`` reads a chat line into a command (card
words through ``words`` into the engine's parser), ``table.ChatTable`` runs one table
of a channel (its seats, the turn timer, last-card calls heard in free words, stand-ins
and absent players) over a ``gateway.TableGateway`` that plays the game, ``narrate``
writes the host's lines, and ``host.Host`` routes a network's lines to the tables and
their replies, rate limited, through an ``outbox.Outbox``. Each network is a small
adapter: ``irc.IrcAdapter``. ``docs/chat.md`` is the guide.
"""
