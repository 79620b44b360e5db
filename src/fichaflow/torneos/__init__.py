"""The torneos' service: tournaments kept in the database and run over HTTP, for the organizer's
page and the public standings (``docs/torneos.md``, section «Las páginas y la API»).

Every rule (pairings, standings, checks, the record itself) is :mod:`fichaflow.torneo`'s; this
package stores the record, reads the clock and draws the duplicate seeds, and answers requests.
"""
