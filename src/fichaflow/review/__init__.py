"""Repaso: replay a finished hand and see what each decision of one seat was worth.

For every decision of the chosen seat, each legal move is played on the same deals of the hidden
tiles, dealt consistently with what that seat could see (``evaluate``), with the exact value with
every hand visible beside it, labelled as hindsight. ``facts`` says in Spanish (and English) what
the seat could know that mattered; ``hand`` reviews a whole hand, ``timeline`` rebuilds it move by
move for the browser, and ``router`` serves both, and the pista, from ``fichaflow serve``.
"""
