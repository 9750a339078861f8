"""Cluster mode: any number of nodes form one card room over PostgreSQL and Redis.

PostgreSQL keeps what must last (the same schema as one process). Redis carries what
moves between nodes: who owns each live table (a lease with a fencing token,
``leases``), operations for a table sent to its owner and its messages sent back to the
nodes holding its members' sockets (``routing``), the lobby's bus and list of tables
(``shared``). ``tables.ClusterTables`` claims, runs, hands over and takes over tables;
``node.ClusterNode`` keeps the leases, the heartbeat and the takeovers going.
"""
