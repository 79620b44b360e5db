"""Optional accounts: a player may sign up (a password hashed with argon2, or a passkey) and sign
in again from any device; a guest keeps playing with just a name, as before.

A service of its own, like the anotador and the Repaso: its router (:mod:`.router`) is composed
into the app by :mod:`fichaflow.app`; its tables (:mod:`.tables`) live in the shared database and
are created by its migrations. It imports no other service. See ``docs/accounts.md``.
"""
