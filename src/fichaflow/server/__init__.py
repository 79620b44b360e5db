"""The game server: mesas, seats, bots and durable state behind ``fichaflow serve``.

The server is the only authority. A partida is rules + deals (from secret seeds) + moves; the
database keeps them, and every state is rebuilt by replaying them through the rules core.
"""
