"""The puzzle trainer (issue #18): each attempt at a puzzle rated as a one-to-one game between
the player and the puzzle, kept in the database (a signed-in player's rating, every puzzle's,
every attempt). The puzzles themselves and their judging are :mod:`fichaflow.problemas`'."""
